"""Start-up: config, store (with migrations), commands, scheduler and the adapters, in one asyncio loop."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from datetime import datetime
from typing import TextIO
from zoneinfo import ZoneInfo

from bot.adapters.console import ConsoleAdapter
from bot.clock import ShiftedClock
from bot.commands import Commands
from bot.config import Config, load_config
from bot.scheduler import Alarm
from bot.store import Announcement, Club, Store

log = logging.getLogger("clubbot")


async def run_console(
    config: Config, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, clock_start: datetime | None = None
) -> int:
    """The embedded default: the console adapter on the SQLite file of the config."""
    store = await Store.open(config.db_path)
    clock = ShiftedClock(clock_start)
    commands = Commands(store, config, clock)
    console = ConsoleAdapter(
        commands,
        clock,
        config.console_director_name,
        config.console_club_name,
        out=stdout,
        files_dir=config.db_path.parent / "exports",
    )

    async def send(club: Club, announcement: Announcement) -> None:
        if club.platform != "console":
            raise RuntimeError(f"no adapter running for platform {club.platform}")
        await console.send_announcement(club, announcement)

    alarm = Alarm(store, commands, clock, send)
    console.after_command = alarm.run_due
    try:
        await console.start()
        await alarm.start()
        await console.run(stdin)
    finally:
        alarm.shutdown()
        await store.close()
    return 0


def _parse_start(text: str | None, zone_name: str) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(zone_name))


def run_from_cli(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    if args.db:
        from pathlib import Path

        config = Config(**{**config.__dict__, "db_path": Path(args.db).resolve()})
    logging.basicConfig(
        level=getattr(logging, config.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # it logs every alarm it sets
    platforms = [name for name, token in (("Discord", config.discord_token), ("Telegram", config.telegram_token)) if token]
    if platforms and not args.console:
        print(
            f"clubbot: a token is set for {', '.join(platforms)}, but the platform adapters are not built yet"
            " (issue 4). Unset the token or start with --console.",
            file=sys.stderr,
        )
        return 2
    try:
        start = _parse_start(args.clock, config.default_timezone)
    except ValueError:
        print(f"clubbot: --clock wants an ISO date and time, like 2026-12-03T12:00, not {args.clock!r}", file=sys.stderr)
        return 2
    return asyncio.run(run_console(config, clock_start=start))
