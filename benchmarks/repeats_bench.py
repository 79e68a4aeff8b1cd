"""How many announcements a kill would post again (issue 33 §5): prints figures, never fails on time.

    .venv/bin/python benchmarks/repeats_bench.py [--clubs 200] [--per-club 3] [--latency-ms 20] [--smoke]

``--clubs`` clubs, each with ``--per-club`` announcements queued, are sent by the real scheduler
(``Alarm.dispatch``) from a real SQLite file through a sender that takes ``--latency-ms`` to answer (a
platform's round trip). At every post, the moment the platform has it, a second connection reads which
announcements are committed as sent, as a bot started after a SIGKILL at that moment would: the posts
made and not recorded are the ones it would post again (on Telegram and the console; Discord finds them
in the channel's history). Printed: the most and the mean over all those moments, and the time taken.
Run with ``--posts-in-flight 16`` to see the bound before issue 33 (16 clubs in flight, no bound).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.running.scheduler import POSTS_IN_FLIGHT, Alarm  # noqa: E402
from bot.core.storage.store import Announcement, Club, Store  # noqa: E402
from bot.systems import make_core  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402

NOW = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)
REPO = Path(__file__).resolve().parent.parent


async def measure(clubs: int, per_club: int, latency: float, in_flight: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "club.sqlite3"
        store = await Store.open(path)
        config = load_config(REPO / "config.example.toml", env={})
        core = make_core(store, config, ShiftedClock(NOW))
        for i in range(clubs):
            club = await store.get_or_create_club("console", f"c{i}", f"C{i}", "nl", "Europe/Amsterdam", NOW)
            for n in range(per_club):
                await store.queue_announcement(club.id, None, f"k{n}", f"{club.name} {n}", NOW)
        made: set[int] = set()
        exposed: list[int] = []
        disk = sqlite3.connect(path)

        async def send(club: Club, announcement: Announcement) -> str:
            made.add(announcement.id)
            recorded = {r[0] for r in disk.execute("SELECT id FROM announcements WHERE sent_at IS NOT NULL")}
            exposed.append(len(made - recorded))
            await asyncio.sleep(latency)
            return f"m{announcement.id}"

        alarm = Alarm(core, send, posts_in_flight=in_flight)
        started = time.perf_counter()
        left = await alarm.dispatch()
        took = time.perf_counter() - started
        alarm.shutdown()
        disk.close()
        await store.close()
    print(
        f"{clubs} clubs x {per_club} announcements, {latency * 1000:.0f} ms answers, {in_flight} posts in flight:"
        f" a kill at a post would repeat at most {max(exposed)}, on average {sum(exposed) / len(exposed):.2f};"
        f" {len(made)} posted ({left} left) in {took:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--per-club", type=int, default=3)
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--posts-in-flight", type=int, default=POSTS_IN_FLIGHT)
    smallest(parser, clubs=3, per_club=2, latency_ms=1.0)
    args = parser.parse_args()
    asyncio.run(measure(args.clubs, args.per_club, args.latency_ms / 1000, args.posts_in_flight))


if __name__ == "__main__":
    main()
