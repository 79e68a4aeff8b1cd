"""Start-up: config, store (with migrations), commands, scheduler and the adapters, in one asyncio loop."""

from __future__ import annotations

import argparse
import os
import asyncio
import gc
import logging
import stat
import signal
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Callable, Protocol, TextIO
from zoneinfo import ZoneInfo

from aiohttp import web

from bot.adapters.console import ConsoleAdapter
from bot.core.running.clock import Clock, ShiftedClock
from bot.core.commands.context import AfterReply, parse_id
from bot.core.commands.dispatch import Core
from bot.config import Config, ConfigError, default_config_path, load_config, web_address_problem
from bot.core.running.rate_limit import DISCORD, TELEGRAM, RateLimits
from bot.core.running.scheduler import Alarm
from bot.systems import make_core
from bot.core.running.log_lines import configure_console_logging, configure_logging
from bot.adapters.lost import Lost
from bot.core.online.settings import log_at_start
from bot.platform_login import log_in
from bot.web.health_routes import start_metrics
from bot.web.server import start_web
from bot.core.storage.database_lock import BotRunning, RunningBotLock
from bot.core.storage.store import Announcement, Club
from bot.start_failures import CannotStart, database_files, file_line, missing_directory, open_database, remove_made

log = logging.getLogger("clubbot")


def freeze_startup_objects() -> None:
    """What start-up built (modules, catalogues, the chat libraries, fonts) lives as long as the process:
    move it out of the garbage collector's sight, so that its full collections, which would walk all of
    it, stop pausing commands for tens of milliseconds now and then (``benchmarks/load_bench.py``)."""
    gc.collect()
    gc.freeze()


async def run_console(
    config: Config,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    clock_start: datetime | None = None,
    log_file: Path | None = None,
) -> int:
    """The embedded default: the console adapter on the SQLite file of the config; ``log_file``, where the
    log goes, is said once started."""
    store = await open_database(config.database)
    clock = ShiftedClock(clock_start)
    core = make_core(store, config, clock)
    files_dir = config.db_path.parent / "exports"  # beside the database file, as its log (README, "Trying it")
    console = ConsoleAdapter(
        core,
        clock,
        config.console_director_name,
        config.console_club_name,
        out=stdout,
        files_dir=files_dir,
    )

    async def send(club: Club, announcement: Announcement) -> str | None:
        if club.platform != "console":
            raise RuntimeError(f"no adapter running for platform {club.platform}")
        await console.send_announcement(club, announcement)
        return None  # a terminal's post has no reference

    alarm = Alarm(core, send, platforms={"console"})
    console.after_command = alarm.after_command
    console.after_clock = alarm.run_due
    site = None
    try:
        await console.start()
        await alarm.start()
        site = await start_operator_site(core, config)
        if log_file is not None:
            print(f"clubbot: the log goes to {log_file}; warnings and errors also show here;"
                  f" files the bot hands over (/exporteer, /backup) are saved in {files_dir}", file=sys.stderr)
        log_at_start(config)  # once started: whether online play on lichess is on
        freeze_startup_objects()
        await console.run(stdin)
    finally:
        alarm.shutdown()
        if site is not None:
            await site.cleanup()
        await core.online.close()
        await store.close()
    return 0


class PlatformAdapter(Protocol):
    """What app.py needs of a chat platform's adapter (bot/adapters/discord.py, telegram.py)."""

    platform: str  # the clubs.platform value of the clubs it serves: "discord", "telegram"
    lost: Lost  # set when the platform ended the bot's session for good (a revoked token)

    async def start(self) -> None:
        """Connect and begin receiving commands; return once running."""

    async def stop(self) -> None:
        """Disconnect."""

    def connected(self) -> bool:
        """Whether it is connected to its platform now (``/healthz``)."""

    async def send_announcement(self, club: Club, announcement: Announcement) -> str | None:
        """Post to the club's channel and return the platform's reference of the post (or None); raise if
        it could not be posted (it stays pending). When ``announcement.attempted``, an earlier try may
        have posted it already: an adapter that can see the channel looks first and posts only if it is
        not there (exactly once); one that cannot posts again (at least once)."""


def platform_makers(
    config: Config, core: Core, after_command: AfterReply
) -> list[tuple[str, Callable[[], PlatformAdapter]]]:
    """For each platform whose token is configured: its name and how to build its adapter (a fresh one
    per login try)."""
    makers: list[tuple[str, Callable[[], PlatformAdapter]]] = []
    if "discord" in config.chat_platforms:
        from bot.adapters.discord.adapter import DiscordAdapter

        makers.append(("discord", lambda: DiscordAdapter(core, config, after_command)))
    if "telegram" in config.chat_platforms:
        from bot.adapters.telegram.adapter import TelegramAdapter

        makers.append(("telegram", lambda: TelegramAdapter(core, config, after_command)))
    return makers


def build_platform_adapters(config: Config, core: Core, after_command: AfterReply) -> list[PlatformAdapter]:
    """The adapters whose token is configured."""
    return [make() for _, make in platform_makers(config, core, after_command)]


async def run_platforms(
    config: Config, stop: asyncio.Event | None = None, clock_start: datetime | None = None
) -> int:
    """Discord and/or Telegram with the scheduler, in one asyncio loop, until ``stop`` is set (or a
    SIGINT/SIGTERM arrives). With ``clock_start`` the bot's clock starts at that moment and runs on from
    there at the wall clock's pace (``--clock``)."""
    store = await open_database(config.database)
    clock = ShiftedClock(clock_start) if clock_start is not None else Clock()
    core = make_core(store, config, clock)
    by_platform: dict[str, PlatformAdapter] = {}

    async def send(club: Club, announcement: Announcement) -> str | None:
        adapter = by_platform.get(club.platform)
        if adapter is None:
            raise RuntimeError(f"no adapter running for platform {club.platform}")
        return await adapter.send_announcement(club, announcement)

    alarm = Alarm(core, send, limits=RateLimits({"discord": DISCORD, "telegram": TELEGRAM}))
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not on the main thread
            pass
    started: list[PlatformAdapter] = []
    site = None
    try:
        makers = platform_makers(config, core, alarm.after_command)
        for name, _ in makers:  # not connected until its login succeeds: /healthz says so meanwhile
            core.health.platforms[name] = _not_yet
        # /healthz and /metrics answer while the logins are still being retried (issue 46 §3)
        site = await start_operator_site(core, config)
        logins = [asyncio.create_task(log_in(name, make, config.login_timeout)) for name, make in makers]
        failures: list[BaseException] = []
        for result in await asyncio.gather(*logins, return_exceptions=True):
            if isinstance(result, BaseException):
                failures.append(result)
            elif result is not None:  # None: its token was refused; the other platform runs on
                started.append(result)
                by_platform[result.platform] = result
                core.health.platforms[result.platform] = result.connected
        if failures:  # unreachable past login_timeout: exit 1, so that systemd starts the bot again
            for problem in failures:
                log.error("clubbot stops: %s", problem)
            return 1
        refused = [name for name, _ in makers if name not in by_platform]  # their tokens were refused
        if refused and not by_platform:  # nothing to talk to: exit 1 (a deaf bot must not look alive)
            log.error("clubbot stops: %s refused the bot's token; put the right token in its variable (docs/deploy.md)",
                      " and ".join(refused))  # fmt: skip
            return 1
        for name in refused:  # the other platform runs on; /healthz says this one is not connected
            core.health.platforms[name] = _not_yet
        alarm.platforms = set(by_platform)  # it claims only the announcements its adapters can post
        await alarm.start()
        log_at_start(config)  # once started: whether online play on lichess is on
        freeze_startup_objects()
        if await _until_stopped_or_lost(stop, started):  # a revoked token: exit 1, so that systemd restarts it
            return 1
    finally:
        alarm.shutdown()
        if site is not None:
            await site.cleanup()
        for adapter in reversed(started):
            try:
                await adapter.stop()
            except Exception:
                log.exception("stopping the %s adapter failed", adapter.platform)
        await core.online.close()
        await store.close()
    return 0


def _not_yet() -> bool:
    return False


async def _until_stopped_or_lost(stop: asyncio.Event, adapters: list[PlatformAdapter]) -> bool:
    """Run until ``stop`` is set (False), or until a platform ends the bot's session for good (True: its
    reason logged in one line; ``/healthz`` says it is disconnected meanwhile)."""
    waits = [asyncio.ensure_future(stop.wait()), *(asyncio.ensure_future(a.lost.event.wait()) for a in adapters)]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    gone = [adapter for adapter in adapters if adapter.lost]
    for adapter in gone:
        log.error("clubbot stops: %s", adapter.lost.reason)
    return bool(gone)


async def start_operator_site(core: Core, config: Config) -> web.AppRunner | None:
    """The website with ``/healthz`` and ``/metrics`` on ``[web] address``, or those two alone on
    ``[metrics] address``, or nothing."""
    if config.web_address:
        return await start_web(core, config.web_address)
    if config.metrics_address:
        return await start_metrics(core, config.metrics_address)
    return None


def _parse_start(text: str | None, zone_name: str) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(zone_name))


def parse_shards(text: str) -> tuple[int, ...]:
    """``0-3`` or ``0,2,5`` (or both: ``0-3,8``) as the shard numbers."""
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
        from bot.core.storage.store import is_postgres

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
        if not console:
            return asyncio.run(run_platforms(config, clock_start=start))
        return asyncio.run(run_console(config, clock_start=start, log_file=log_file))
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
