"""The bot: store (with migrations), commands, scheduler and the adapters, in one asyncio loop; ``clubbot run``
(``bot/run_command.py``) checks its options and configuration before it loads this."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, TextIO

from bot.adapters.console import ConsoleAdapter
from bot.core.running.clock import Clock, ShiftedClock
from bot.core.commands.context import AfterReply
from bot.core.commands.dispatch import Core
from bot.config import Config
from bot.core.running.rate_limit import DISCORD, TELEGRAM, RateLimits
from bot.core.running.scheduler import Alarm
from bot.systems import make_core
from bot.adapters.lost import Lost
from bot.core.online.settings import log_at_start
from bot.platform_login import log_in
from bot.core.storage.store import Announcement, Club, Store
from bot.start_failures import open_database

if TYPE_CHECKING:
    from aiohttp import web

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
    store: Store | None = None,
) -> int:
    """The embedded default: the console adapter on the SQLite file of the config (or ``store``, that
    database already opened); ``log_file``, where the log goes, is said once started."""
    store = store if store is not None else await open_database(config.database)
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
    config: Config, stop: asyncio.Event | None = None, clock_start: datetime | None = None, store: Store | None = None
) -> int:
    """Discord and/or Telegram with the scheduler, in one asyncio loop, until ``stop`` is set (or a
    SIGINT/SIGTERM arrives). With ``clock_start`` the bot's clock starts at that moment and runs on from
    there at the wall clock's pace (``--clock``). ``store``: the database already opened (``clubbot run``
    opens it before it loads this module)."""
    store = store if store is not None else await open_database(config.database)
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
    ``[metrics] address``, or nothing (and then the web server's modules, aiohttp's and Jinja2's, are never
    loaded)."""
    if config.web_address:
        from bot.web.server import start_web

        return await start_web(core, config.web_address)
    if config.metrics_address:
        from bot.web.health_routes import start_metrics

        return await start_metrics(core, config.metrics_address)
    return None
