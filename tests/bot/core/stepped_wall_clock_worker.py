"""The bot's alarm in a process whose wall clock the test steps (not a test itself): libfaketime, preloaded
by the test, reads the process's time from a file the test writes, as NTP or an operator steps a real
machine's clock; the monotonic clock is left alone, as on a real machine.

    python stepped_wall_clock_worker.py DB_PATH SECONDS_TO_PUBLICATION RECHECK_SECONDS

A club with a season whose round 1 is published ``SECONDS_TO_PUBLICATION`` seconds after the start (on
the stepped wall clock); every post is printed as ``posted <kind>``; ``ready`` once the alarm runs.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bot.config import Config, load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.store import Announcement, Club, Store  # noqa: E402
from bot.systems import make_core  # noqa: E402

PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # round 1's publication, 18:00 in Amsterdam
DIRECTOR = Actor("console", "club-1", "Club", "user:leider", "Leider", is_director=True)


async def main() -> None:
    path, seconds, recheck = Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    base = load_config(Path(__file__).resolve().parents[3] / "config.example.toml", env={})
    config = Config(**{**base.__dict__, "db_path": path})
    store = await Store.open(path)
    clock = ShiftedClock(PUBLISH - timedelta(hours=2))
    core = make_core(store, config, clock)
    for text in ("/seizoen naam=S start=2026-12-03 rondes=4", "/speler Anna 2000", "/speler Bert 1900"):
        reply = await core.handle(DIRECTOR, text)
        assert reply.ok, reply.text
    clock.set(PUBLISH - timedelta(seconds=seconds))

    async def send(club: Club, announcement: Announcement) -> None:
        print("posted", announcement.kind, flush=True)

    alarm = Alarm(core, send, recheck_every=recheck)
    await alarm.start()
    print("ready", flush=True)
    await asyncio.Event().wait()  # until the test stops it


if __name__ == "__main__":
    asyncio.run(main())
