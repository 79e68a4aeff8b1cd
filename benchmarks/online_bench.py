"""Online rounds on lichess at scale (issue 43 §4): prints figures.

    .venv/bin/python benchmarks/online_bench.py [--clubs 1000] [--players 20] [--latency 0.02] [--smoke]

``--clubs`` clubs (each a Keizer season played online, ``--players`` players with a lichess account: half as
many boards) publish their round 1 at the same minute (18:00), against the strict fake lichess on 127.0.0.1
(tests/bot/online/fake_lichess.py), which answers each request after ``--latency`` seconds and fails the run
if a request breaks one of lichess's rules (two requests at once, more than 300 ids, ...). The bot is the real
core on a real SQLite file, driven by the real alarm (``Alarm.run_due``) on a shifted clock, the fake's clock
following it, so that the evening passes in the time its work takes:

1. **Publication**: the alarm's passes at 18:00 until every board's challenge exists (the Keizer pairing of
   every club, then the core's worker, one request at a time): the wall time, and the requests per round
   published (challenges made, and the follower's first look).
2. **The evening**: every game starts at 20:00 and ends at a moment of its own between 20:15 and 22:45 (mate,
   resign, draw, out of time, in turn); the clock goes a minute at a time, the games that ended in that
   minute are ended on the fake before the pass, and the alarm runs its pass (and again while the follower
   still has rows due, as the scheduler does). For each result: the time from the game's end to its result in
   the standings (the bot's clock runs on in real time during a pass: the moment its row was settled, in the
   transaction that entered the result, minus the game's end), and the follower's export requests per result
   picked up. Every club's standings are announced once.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.sizes import smallest  # noqa: E402
from bot.config import load_config  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.commands.dispatch import Core  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.database import from_iso, iso  # noqa: E402
from bot.core.storage.store import Announcement, Club, Store  # noqa: E402
from bot.core.commands.user_limits import UserLimits  # noqa: E402
from bot.systems import make_core  # noqa: E402
from tests.bot.online.fake_lichess import FakeLichess, strict_lichess, with_lichess  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
START = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
PUBLISHED = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam
STARTS = datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)  # 20:00
FIRST_END, LAST_END = STARTS + timedelta(minutes=15), STARTS + timedelta(minutes=165)
ENDINGS = (("mate", "white"), ("resign", "black"), ("draw", None), ("outoftime", "white"))
BUILT_AT_ONCE = 50


def director(index: int) -> Actor:
    return Actor("console", f"club-{index}", f"Club {index}", "user:leider", "Leider", is_director=True)


async def must(core: Core, who: Actor, text: str) -> None:
    reply = await core.handle(who, text, limited=False)
    if not reply.ok:
        raise SystemExit(f"{text!r} refused in {who.club_name}: {reply.text}")


async def build_club(core: Core, lichess: FakeLichess, index: int, players: int) -> None:
    boss = director(index)
    await must(core, boss, "/seizoen naam=S start=2026-12-03 rondes=4 online=lichess tempo=15+10")
    for p in range(players):
        name = f"c{index}p{p}"
        lichess.add_user(name)
        await must(core, boss, f"/speler P{p} 1800 lichess={name}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def at(core: Core, clock: ShiftedClock, lichess: FakeLichess, moment: datetime) -> None:
    clock.set(moment)
    lichess.clock.set(moment.timestamp())


async def passes(core: Core, alarm: Alarm, now: datetime, rounds: int = 50) -> None:
    """The alarm's pass, and again while the lichess work is still due (as the scheduler runs it at once)."""
    for _ in range(rounds):
        await alarm.run_due()
        online = [t for t in core.registry.timed if type(t).__name__ in ("OnlineChallenges", "OnlineFollower")]
        due = [await timed.next_due_moment(core) for timed in online]
        if not any(m is not None and m <= now for m in due):
            return


async def main_async(args: argparse.Namespace) -> None:
    posted: dict[str, int] = {}

    async def send(club: Club, announcement: Announcement) -> str:
        posted[announcement.kind.split(":")[0]] = posted.get(announcement.kind.split(":")[0], 0) + 1
        return f"m{announcement.id}"

    with tempfile.TemporaryDirectory() as tmp:
        async with strict_lichess(start=START, latency=args.latency) as lichess:
            base = load_config(REPO / "config.example.toml", env={})
            config = with_lichess(replace(base, db_path=Path(tmp) / "online.sqlite3"), lichess)
            store = await Store.open(config.db_path)
            clock = ShiftedClock(START)
            core = make_core(store, config, clock)
            core.user_limits = UserLimits(burst=10**9)
            core.online.timing = lichess.clock
            began = time.perf_counter()
            for first in range(0, args.clubs, BUILT_AT_ONCE):
                await asyncio.gather(*(build_club(core, lichess, i, args.players) for i in range(first, min(args.clubs, first + BUILT_AT_ONCE))))
            boards = args.clubs * (args.players // 2)
            print(f"set-up: {args.clubs} clubs x {args.players} players ({boards} boards) in {time.perf_counter() - began:.1f} s;"
                  f" the fake answers in {args.latency * 1000:.0f} ms", flush=True)  # fmt: skip
            alarm = Alarm(core, send)

            # 1. publication
            await at(core, clock, lichess, PUBLISHED - timedelta(hours=1))
            await alarm.run_due()  # the deadline
            await at(core, clock, lichess, PUBLISHED)
            before = len(lichess.requests())
            began = time.perf_counter()
            for _ in range(10 * boards):
                await alarm.run_due()
                if not await store.fetch_one("SELECT id FROM online_games WHERE status = 'pending' LIMIT 1"):
                    break
            made_in = time.perf_counter() - began
            challenges = len(lichess.requests("/api/challenge/open"))
            first_looks = len(lichess.requests("/api/games/export/_ids"))
            published_requests = len(lichess.requests()) - before
            print(f"publication: {challenges} challenges of {boards} boards made in {made_in:.1f} s"
                  f" ({challenges / made_in if made_in else 0:.0f} a second, one request at a time)", flush=True)  # fmt: skip
            print(f"requests per round published: {published_requests / args.clubs:.2f}"
                  f" ({challenges / args.clubs:.2f} challenges, {first_looks / args.clubs:.2f} of the follower's first look)")
            await passes(core, alarm, PUBLISHED)
            pairings = posted.get("pairing", 0)

            # 2. the evening
            rows = await store.fetch_all("SELECT id, lichess_id FROM online_games WHERE status = 'created' ORDER BY id")
            span = (LAST_END - FIRST_END).total_seconds()
            ends: dict[str, datetime] = {}
            await at(core, clock, lichess, STARTS)
            for n, row in enumerate(rows):
                lichess.start_game(row["lichess_id"])
                ends[row["lichess_id"]] = FIRST_END + timedelta(seconds=(n * 7919.37) % span)  # spread over the evening
            exports_before = len(lichess.requests("/api/games/export/_ids"))
            await passes(core, alarm, STARTS)
            order = sorted(ends.items(), key=lambda item: item[1])
            delays: list[float] = []
            pass_walls: list[float] = []
            minute, n = STARTS, 0
            waiting: dict[str, datetime] = {}
            while n < len(order) or await core.store.next_online_follow() is not None:
                minute += timedelta(minutes=1)
                if minute > LAST_END + timedelta(hours=2):
                    break
                while n < len(order) and order[n][1] <= minute:
                    game_id, end = order[n]
                    lichess.clock.set(end.timestamp())
                    status, winner = ENDINGS[n % len(ENDINGS)]
                    lichess.end_game(game_id, status, winner)
                    waiting[game_id] = end
                    n += 1
                await at(core, clock, lichess, minute)
                began = time.perf_counter()
                await passes(core, alarm, minute)
                wall = time.perf_counter() - began
                pass_walls.append(wall)
                settled = await store.fetch_all("SELECT lichess_id, settled_at FROM online_games WHERE settled_at >= ?", (iso(minute),))
                for row in settled:  # the bot's clock runs on during the pass: settled_at is when its result went in
                    end = waiting.pop(row["lichess_id"], None)
                    if end is not None:
                        delays.append((from_iso(row["settled_at"]) - end).total_seconds())
            entered = (await store.fetch_one("SELECT COUNT(*) AS n FROM online_games WHERE outcome = 'entered'"))["n"]
            exports = len(lichess.requests("/api/games/export/_ids")) - exports_before
            print(f"the evening: {entered} results entered of {len(rows)} games; {exports} export requests:"
                  f" {exports / entered if entered else 0:.2f} requests per result picked up")
            print(f"from a game's end to its result in the standings: p50 {pct(delays, 0.5):.1f} s, p99 {pct(delays, 0.99):.1f} s,"
                  f" max {max(delays, default=0):.1f} s ({len(delays)} measured)")
            print(f"a minute's pass: p50 {pct(pass_walls, 0.5) * 1000:.0f} ms, max {max(pass_walls, default=0) * 1000:.0f} ms"
                  f" (mean {statistics.mean(pass_walls) * 1000 if pass_walls else 0:.0f} ms)")
            print(f"announced: {pairings} pairings, {posted.get('standings', 0)} standings for {args.clubs} clubs;"
                  f" {len(lichess.requests())} requests to lichess in all, never two at once")
            await core.online.close()
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=1000, help="clubs publishing at the same minute")
    parser.add_argument("--players", type=int, default=20, help="players per club (half as many boards)")
    parser.add_argument("--latency", type=float, default=0.02, help="seconds the fake lichess takes to answer")
    smallest(parser, clubs=3, players=4, latency=0.002)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
