"""One bot process of the several-processes tests (not a test itself): the real store on PostgreSQL, the
real scheduler and the systems' timed work, with a chat that writes each post to a log file.

    python publication_worker.py URL CLOCK_START LOG [--die-at N] [--post-seconds S]

``--die-at N`` kills the process (SIGKILL, no clean-up) while it posts its N-th announcement (``--hold``
seconds after it began): after the post was marked as attempted, before it was marked as sent.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bot.config import load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.store import open_store  # noqa: E402
from bot.systems import make_core  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("clock")
    parser.add_argument("log")
    parser.add_argument("--die-at", type=int, default=0)
    parser.add_argument("--post-seconds", type=float, default=0.0)
    parser.add_argument("--hold", type=float, default=0.0, help="seconds the dying post holds on before the kill")
    args = parser.parse_args()
    config = load_config(Path(__file__).resolve().parents[3] / "config.example.toml", env={})
    store = await open_store(args.url)
    core = make_core(store, config, ShiftedClock(datetime.fromisoformat(args.clock)))
    log = open(args.log, "a", buffering=1)
    posts = 0

    async def send(club, announcement) -> str:
        nonlocal posts
        posts += 1
        if posts == args.die_at:
            log.write(f"dying {os.getpid()} {announcement.id}\n")
            await asyncio.sleep(args.hold)  # its clubs' claims held meanwhile: the other process must wait
            os.kill(os.getpid(), signal.SIGKILL)
        await asyncio.sleep(args.post_seconds)
        log.write(f"posted {os.getpid()} {announcement.id} {announcement.kind}\n")
        return f"m{announcement.id}"

    alarm = Alarm(core, send)
    await alarm.start()
    log.write(f"ready {os.getpid()}\n")
    await asyncio.Event().wait()  # until the test stops it


if __name__ == "__main__":
    asyncio.run(main())
