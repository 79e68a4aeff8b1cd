"""The `clubbot` command: `clubbot run` starts the bot; `clubbot keizer ...` works on season files."""

from __future__ import annotations

import argparse
import importlib
import sys

# The systems' own subcommands of `clubbot` (each module has register(subparsers)).
CLI_MODULES = ("bot.keizer.cli", "bot.nk.cli", "bot.backup.cli", "bot.core.storage.migrate_db")


def main(argv: list[str] | None = None) -> int:
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
    for name in CLI_MODULES:  # clubbot keizer ..., clubbot mcmahon ..., clubbot restore BACKUP
        importlib.import_module(name).register(sub)
    args = parser.parse_args(argv)
    if args.command == "run":
        from bot.app import run_from_cli

        return run_from_cli(args)
    from bot.systems import build_registry

    args.tables = build_registry().tables  # every table as its owner declared it (restore, migrate-db)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
