"""``clubbot run``: its options, the configuration, the database's place and the one bot per SQLite file, all
checked before the bot itself (``bot/app.py``: the store, the systems, the scheduler, the adapters, the
website) is loaded, so that a start refused for a mistake costs a fraction of a start (issue 42 part 6);
then the bot started, in one asyncio loop. What stops a start is said in one line (``bot/start_failures.py``)."""

from __future__ import annotations

import argparse
import logging
import os
import re
import stat
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.config import Config, ConfigError, default_config_path, is_postgres, load_config, web_address_problem
from bot.core.running.log_lines import configure_console_logging, configure_logging
from bot.core.storage.database_lock import BotRunning, RunningBotLock
from bot.start_failures import CannotStart, database_files, file_line, missing_directory, open_database, remove_made


def _parse_start(text: str | None, zone_name: str) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(zone_name))


def parse_shards(text: str) -> tuple[int, ...]:
    """``0-3`` or ``0,2,5`` (or both: ``0-3,8``) as the shard numbers."""
    from bot.core.commands.context import parse_id  # its module loads the store: only with --shards

    shards: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if parse_id(low, 5) is None or (dash and parse_id(high, 5) is None):
            raise ValueError(f"--shards wants numbers like 0-3 or 0,2,5, not {text!r}")
        shards += range(int(low), int(high) + 1) if dash else [int(low)]
    if not shards or len(set(shards)) != len(shards):
        raise ValueError(f"--shards names a shard twice or none: {text!r}")
    return tuple(sorted(shards))


def console_log_path(config: Config) -> Path:
    """Where the console writes its log: ``clubbot.log`` beside the database, as its exports are (on
    PostgreSQL, beside the SQLite file the config names, data/ by default, made if missing)."""
    if config.database_url is not None:
        config.db_path.parent.mkdir(parents=True, exist_ok=True)
    return config.db_path.parent / "clubbot.log"


def _with_process_options(config: Config, args: argparse.Namespace) -> Config:
    """This process's part of a bot that runs in several (--shards, --shard-count, --platforms)."""
    shards = parse_shards(args.shards) if getattr(args, "shards", None) else None
    count = getattr(args, "shard_count", None)
    if shards is not None and count is None:
        raise ValueError("--shards needs --shard-count (how many shards the bot has in all)")
    if count is not None and (count < 1 or (shards is not None and shards[-1] >= count)):
        raise ValueError(f"--shards must lie in 0-{max(count - 1, 0)} (--shard-count {count})")
    platforms = None
    if getattr(args, "platforms", None):
        platforms = tuple(p.strip() for p in args.platforms.split(",") if p.strip())
        unknown = set(platforms) - {"discord", "telegram"}
        if unknown or not platforms:
            raise ValueError(f"--platforms knows discord and telegram, not {', '.join(sorted(unknown)) or args.platforms!r}")
    return Config(**{**config.__dict__, "shards": shards, "shard_count": count, "platforms": platforms})


def _stdin_is_nothing() -> bool:
    """Standard input is /dev/null or closed, as a service manager gives it: no person and no script."""
    try:
        own = os.fstat(0)
    except OSError:
        return True
    null = os.stat(os.devnull)
    return stat.S_ISCHR(own.st_mode) and own.st_rdev == null.st_rdev and not os.isatty(0)


def _check_what_runs(config: Config, console: bool) -> None:
    """Refuse a start that would quietly do something else than asked: options for a platform without its
    token, or the console where nobody can type (a service whose token variables are misnamed)."""
    if console and (config.shards is not None or config.shard_count is not None):
        raise ValueError("--shards and --shard-count run Discord, but no Discord token is set "
                         "(the environment variable [discord] token_env names, CLUBBOT_DISCORD_TOKEN by default)")  # fmt: skip
    if config.platforms and not console:
        missing = [p for p in config.platforms if not (config.discord_token if p == "discord" else config.telegram_token)]
        if missing:
            raise ValueError(f"--platforms {','.join(config.platforms)}: no token is set for {', '.join(missing)}")
    if console and _stdin_is_nothing():
        raise ValueError("no Discord or Telegram token is set (CLUBBOT_DISCORD_TOKEN, CLUBBOT_TELEGRAM_TOKEN: the "
                         "variables the config's token_env names) and standard input is empty, so the console has "
                         "nobody to talk to; set a token, or give the console a terminal or a script")  # fmt: skip


def run_from_cli(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, url_needed=not args.db)  # --db names the database instead
    except ConfigError as exc:  # one line with the file, line and key; never a traceback
        print(f"clubbot: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "web", None):  # clubbot run --web HOST:PORT
        problem = web_address_problem(args.web)
        if problem:
            print(f"clubbot: --web {problem}", file=sys.stderr)
            return 2
        config = Config(**{**config.__dict__, "web_address": args.web})
    if args.db:  # a SQLite file, or a PostgreSQL database (never a file named after a URL)
        if is_postgres(args.db) and re.fullmatch(r"postgres(ql)?://\S+", args.db):
            config = Config(**{**config.__dict__, "database_url": args.db})
        elif "://" in args.db:
            print(f"clubbot: --db takes a SQLite file or a postgresql:// URL, not {args.db[:40]!r}", file=sys.stderr)
            return 2
        else:
            config = Config(**{**config.__dict__, "db_path": Path(args.db).resolve(), "database_url": None})
    try:
        config = _with_process_options(config, args)
        console = not (config.discord_token or config.telegram_token) or args.console
        _check_what_runs(config, console)
    except ValueError as exc:
        print(f"clubbot: {exc}", file=sys.stderr)
        return 2
    secrets = [token for token in (config.discord_token, config.telegram_token, config.lichess_token) if token]
    log_file = None
    if console:  # the conversation stays readable: the log to a file beside the database, warnings also here
        log_file = console_log_path(config)
        configure_console_logging(config.log_level, config.log_format, log_file, sys.stderr, secrets)
    else:
        configure_logging(config.log_level, config.log_format, sys.stderr, secrets)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # it logs every alarm it sets
    try:
        start = _parse_start(args.clock, config.default_timezone)
    except ValueError:
        print(f"clubbot: --clock wants an ISO date and time, like 2026-12-03T12:00, not {args.clock!r}", file=sys.stderr)
        return 2
    running = None
    existed: set[Path] = set()
    if config.database_url is None:  # one bot per SQLite file (PostgreSQL shares rounds out by its own locks)
        missing = missing_directory(config.db_path, "--db" if args.db else f"[database] path in {args.config or default_config_path()}")
        if missing:
            print(f"clubbot: {missing}", file=sys.stderr)
            return 2
        existed = {path for path in database_files(config.db_path) if path.exists()}
        try:
            running = RunningBotLock(config.db_path)
        except BotRunning as exc:
            print(f"clubbot: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:  # its lock file cannot be written: a full disk, a directory not the bot's
            line = file_line([exc], config.db_path)
            if line is None:
                raise
            remove_made(config.db_path, existed)
            print(f"clubbot: {line}", file=sys.stderr)
            return 1
    failed = False
    try:
        import asyncio  # like the bot itself, loaded once nothing above refused the start

        return asyncio.run(_serve(config, console, start, log_file))
    except ConfigError as exc:  # found only once starting (the website's address cannot be listened on)
        print(f"clubbot: {exc}", file=sys.stderr)
        return 2
    except CannotStart as exc:  # the database cannot be opened: unreachable, refused, a full disk
        failed = True
        print(f"clubbot: {exc}", file=sys.stderr)
        return 1
    finally:
        if running is not None:
            running.release()
            if failed:
                remove_made(config.db_path, existed)


async def _serve(config: Config, console: bool, clock_start: datetime | None, log_file: Path | None) -> int:
    """The bot, on its database: opened first, so that a database that cannot be opened (PostgreSQL out of
    reach, a full disk) stops the start before the bot's systems, scheduler and website are loaded."""
    store = await open_database(config.database)
    try:
        from bot.app import run_console, run_platforms
    except BaseException:
        await store.close()
        raise
    if not console:
        return await run_platforms(config, clock_start=clock_start, store=store)
    return await run_console(config, clock_start=clock_start, log_file=log_file, store=store)
