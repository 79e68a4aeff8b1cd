"""``/ratings importeer`` on a list as large as the bot takes (5 MB): a FIDE TXT of made-up players in
the published layout and a club of members, some with a FIDE ID and some to be found by name. Prints the
list's size and the command's time through the core, on a real SQLite store.

    .venv/bin/python benchmarks/ratings_bench.py [--players 31000] [--members 300] [--runs 3] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.config import load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.storage.store import Store  # noqa: E402
from bot.systems import make_core  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402

COLUMNS = (("ID Number", 15), ("Name", 61), ("Fed", 4), ("Sex", 4), ("Tit", 5), ("WTit", 5), ("OTit", 15), ("FOA", 4),
           ("SRtng", 6), ("SGm", 4), ("SK", 3), ("RRtng", 6), ("RGm", 4), ("Rk", 3), ("BRtng", 6), ("BGm", 4), ("BK", 3),
           ("B-day", 6), ("Flag", 4))  # fmt: skip


def line(values: list[str]) -> str:
    return "".join(v.ljust(w) for v, (_, w) in zip(values, COLUMNS)).rstrip()


def fide_list(players: int) -> bytes:
    rows = [line([n for n, _ in COLUMNS])]
    for i in range(players):
        rows.append(line([str(1_000_000 + i), f"Speler{i:06d}, Jan", "NED", "M", "", "", "", "", str(1200 + i % 1500),
                          "0", "20", "", "", "", "", "", "", "1980", ""]))  # fmt: skip
    return ("\r\n".join(rows) + "\r\n").encode("cp1252")


async def run(players: int, members: int, runs: int) -> None:
    content = fide_list(players)
    director = Actor("console", "bench", "Bench club", "user:leider", "Leider", is_director=True)
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            config = replace(load_config(Path(__file__).resolve().parents[1] / "config.example.toml", env={}), db_path=Path(tmp) / "b.sqlite3")
            store = await Store.open(config.db_path)
            core = make_core(store, config, ShiftedClock(datetime(2026, 11, 25, 12, tzinfo=timezone.utc)))
            for i in range(members):  # half with a FIDE ID, half to be found by name
                extra = f" fide={1_000_000 + i * 7}" if i % 2 == 0 else ""
                reply = await core.handle(director, f"/speler Jan Speler{i * 7:06d} 1500{extra}", limited=False)
                assert reply.ok, reply.text
            start = time.perf_counter()
            reply = await core.handle(director, "/ratings importeer datum=2026-11-01", content, limited=False)
            times.append(time.perf_counter() - start)
            assert reply.ok, reply.text
            first = " | ".join(reply.lines[:3])
            await store.close()
    print(f"FIDE TXT: {players} players, {len(content) / 1e6:.1f} MB; club: {members} members")
    print(f"reply: {first}")
    print(f"/ratings importeer: median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {runs} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=31000)
    parser.add_argument("--members", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    smallest(parser, players=50, members=4, runs=1)
    args = parser.parse_args()
    asyncio.run(run(args.players, args.members, args.runs))


if __name__ == "__main__":
    main()
