"""The `clubbot` command: `clubbot run` starts the bot; `clubbot keizer ...` works on season files."""

from __future__ import annotations

import argparse
import importlib
import sys

# The systems' own subcommands of `clubbot` (each module has register(subparsers)).
CLI_MODULES = ("bot.keizer.cli", "bot.nk.cli", "bot.backup.cli", "bot.core.storage.migrate_db")


def _parser(every_command: bool) -> argparse.ArgumentParser:
    """``clubbot``'s command line: ``run``, and with ``every_command`` the systems' own commands too."""
    parser = argparse.ArgumentParser(prog="clubbot", description="Club competitions in Discord and Telegram.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the bot (console adapter when no token is configured)")
    run.add_argument("--config", default=None, help="path of the config file (default: config.toml, else config.example.toml)")
    run.add_argument("--console", action="store_true", help="use the console adapter even when tokens are set")
    run.add_argument("--db", default=None, help="the database instead of the config's: a SQLite file or a postgresql:// URL")
    run.add_argument("--web", default=None, metavar="HOST:PORT", help="serve the clubs' websites there (see [web] in the config)")
    run.add_argument("--shards", default=None, metavar="0-3", help="the Discord shards this process runs (with --shard-count; docs/deploy.md)")
    run.add_argument("--shard-count", type=int, default=None, metavar="N", help="how many Discord shards the bot has in all")
    run.add_argument("--platforms", default=None, metavar="discord,telegram", help="the chats this process serves (default: every one with a token)")
    run.add_argument("--clock", default=None, help="start the bot's clock at this moment (2026-12-03T12:00); it runs on from there")
    if every_command:
        for name in CLI_MODULES:  # clubbot keizer ..., clubbot mcmahon ..., clubbot restore BACKUP
            importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    # `clubbot run` needs none of the other commands, whose modules load the systems (issue 42 part 6)
    args, unknown = _parser(every_command=words[:1] != ["run"]).parse_known_args(words)
    if unknown:  # refused by argparse in its own words, which name every command
        _parser(every_command=True).parse_args(words)
    if args.command == "run":
        from bot.run_command import run_from_cli

        return run_from_cli(args)
    from bot.systems import build_registry

    args.tables = build_registry().tables  # every table as its owner declared it (restore, migrate-db)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
