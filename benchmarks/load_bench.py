"""Load benchmark of the commands layer on the real SQLite store; prints figures (not a test).

    .venv/bin/python benchmarks/load_bench.py [--clubs 50] [--members 40] [--due-clubs 100] [--concurrency 50]
                                              [--rate 1000] [--seconds 5] [--arrivals even|poisson|both] [--smoke]

50 clubs of 40 members in one database file (WAL, the bot's settings); every command goes through
``Core.handle``, as the adapters call it. Target: >= 1,000 sign-offs per second with p99 < 20 ms.
What each figure means:

- ``(one at a time)``: every member signs off (``/afmelden``), then signs on again (``/aanmelden``, taking
  the sign-off back), then asks ``/stand``, each command awaited before the next. Core per second is
  1 / the service time; p50/p99/max are the service time of one command with nothing else running.
- ``(50 at once)``: the same in batches of ``--concurrency`` commands started together (a closed loop):
  the throughput with a queue, and latency from the call to the reply, waiting for the one writer
  included. That latency is mostly queueing, not service: by Little's law 50 in flight at 1,000/s is
  50 ms each.
- ``open loop``: the target as meant. Core arrive at ``--rate`` per second (evenly spaced, and a
  Poisson process at the same mean) for ``--seconds``, from the 2,000 members in a random order, a first
  pass over everyone signing off, the next signing on again, and so on; each is started at its arrival
  moment whether or not earlier ones are answered. Latency runs from the scheduled arrival to the reply,
  so lateness counts: "started late by" is how late the event loop started them (its timers have a
  resolution of about 1 ms; included in the latencies). "achieved" is commands answered per second, from
  the first arrival to the last reply.
- ``saturated throughput``: 2,000 sign-offs (then 2,000 sign-ons) offered at the same moment; commands
  answered per second until the last reply: the most the bot can do.
- ``publication minute``: 100 clubs of 40 members whose round is published at the same minute: the time
  for one ``Alarm.run_due()`` to pair all 100 rounds, queue and send the 100 announcements. Target < 5 s.

Many clubs on one bot (issue 16) has two scripts of its own, run from here with ``--many-clubs``:
``benchmarks/many_clubs_bench.py`` (/stand bursts, the first /stand after a result, another club's sign-off
beside a burst, group commit against bare aiosqlite, 1,000 clubs' publication minute, memory) and
``benchmarks/sending_bench.py`` (1,000 clubs' posts through the local fakes of Telegram and Discord within
their rate limits). Figures and what they mean: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.open_loop import arrival_offsets, open_loop  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402
from bot.app import freeze_startup_objects  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.commands.dispatch import Core  # noqa: E402
from bot.systems import make_core  # noqa: E402

try:  # the same script measures older commits too (before/after in one session): those lack these
    from bot.core.commands.user_limits import UserLimits
except ImportError:  # pragma: no cover - an older commit
    UserLimits = None  # type: ignore[assignment,misc]
from bot.config import Config, load_config  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.store import Announcement, Club, Store  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
START = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)  # Tuesday; the first round is on Thursday
PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam


def director(club: int) -> Actor:
    return Actor("bench", f"club-{club}", f"Club {club}", f"director-{club}", "Leider", is_director=True)


def member(club: int, i: int) -> Actor:
    return Actor("bench", f"club-{club}", f"Club {club}", f"m-{club}-{i}", f"Lid {i:02d}")


async def must(commands: Core, who: Actor, text: str) -> None:
    reply = await commands.handle(who, text)
    if not reply.ok:
        raise SystemExit(f"set-up failed: {text!r}: {reply.text}")


async def world(path: Path, clubs: int, members: int) -> tuple[Store, Core, ShiftedClock]:
    base = load_config(REPO / "config.example.toml", env={})
    config = Config(**{**base.__dict__, "db_path": path})
    store = await Store.open(path)
    clock = ShiftedClock(START)
    commands = make_core(store, config, clock)
    if UserLimits is not None:  # a synthetic member sends far more than a person can
        commands.user_limits = UserLimits(burst=10**9)
    for c in range(clubs):
        await must(commands, director(c), "/seizoen naam=S start=2026-12-03 rondes=28")
        for i in range(members):
            await must(commands, director(c), f'/speler "Lid {i:02d}" {1000 + 20 * i}')
        for i in range(members):  # the director links each account to its member (a name never does)
            if "koppel" in commands.registry.commands:
                await must(commands, director(c), f'/koppel "Lid {i:02d}" <@{member(c, i).user_id}>')
            await must(commands, member(c, i), "/aanmelden")
    return store, commands, clock


def figures(name: str, latencies: list[float], wall: float) -> str:
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]
    return (
        f"{name:<34} {len(ms):>6} commands  {len(ms) / wall:>8.0f}/s  "
        f"p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  max {ms[-1]:6.2f} ms"
    )


def alternating(people: list[Actor], count: int, seed: int = 7) -> list[tuple[Actor, str]]:
    """``count`` commands from ``people`` in a random order: the first pass over everyone signs off, the
    next signs on again (takes the sign-off back), and so on, so the load can run as long as wanted."""
    order = list(people)
    random.Random(seed).shuffle(order)
    return [(order[k % len(order)], "/afmelden" if (k // len(order)) % 2 == 0 else "/aanmelden") for k in range(count)]


async def open_loop_run(commands: Core, jobs: list[tuple[Actor, str]], rate: float, poisson: bool) -> None:
    """Print what an open-loop run of ``jobs`` at ``rate`` per second gives (rate 0: all offered at once)."""

    def job(who: Actor, text: str) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            reply = await commands.handle(who, text)
            if not reply.ok:
                raise RuntimeError(f"{text!r} refused: {reply.text}")

        return run

    result = await open_loop([job(w, t) for w, t in jobs], arrival_offsets(len(jobs), rate, poisson))
    last = {who: text for who, text in jobs}
    for who in [w for w, text in last.items() if text == "/afmelden"]:  # everyone signed on again, untimed
        await job(who, "/aanmelden")()
    if rate <= 0:
        print(f"saturated throughput, {jobs[0][1]}: {len(jobs)} offered at once, {result.achieved_rate:,.0f}/s")
        return
    how = "Poisson" if poisson else "evenly spaced"
    late = sorted(result.late)
    print(
        f"open loop, {rate:,.0f}/s offered ({how}) for {result.wall:.1f} s: achieved {result.achieved_rate:,.0f}/s;"
        f" started late by p50 {statistics.median(late) * 1000:.2f} ms, p99 {late[int(0.99 * (len(late) - 1))] * 1000:.2f} ms"
    )
    for text in ("/afmelden", "/aanmelden", None):
        lat = [x for x, (_, t) in zip(result.latencies, jobs) if text in (None, t)]
        print("  " + figures(text or "both", lat, result.wall).replace("commands", "arrived "))


async def timed(commands: Core, who: Actor, text: str, latencies: list[float]) -> None:
    t0 = time.perf_counter()
    reply = await commands.handle(who, text)
    latencies.append(time.perf_counter() - t0)
    if not reply.ok:
        raise SystemExit(f"{text!r} refused: {reply.text}")


async def run_batch(commands: Core, jobs: list[tuple[Actor, str]], concurrency: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    t0 = time.perf_counter()
    if concurrency <= 1:
        for who, text in jobs:
            await timed(commands, who, text, latencies)
    else:
        for start in range(0, len(jobs), concurrency):
            await asyncio.gather(*(timed(commands, w, t, latencies) for w, t in jobs[start : start + concurrency]))
    return latencies, time.perf_counter() - t0


async def commands_bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store, commands, _ = await world(Path(tmp) / "load.sqlite3", args.clubs, args.members)
        print(f"set-up: {args.clubs} clubs x {args.members} members in {time.perf_counter() - t0:.1f} s")
        freeze_startup_objects()  # as the bot does once it has started
        people = [member(c, i) for i in range(args.members) for c in range(args.clubs)]  # clubs interleaved
        try:
            for concurrency in (1, args.concurrency):
                mode = "one at a time" if concurrency == 1 else f"{concurrency} at once"
                lat, wall = await run_batch(commands, [(p, "/afmelden") for p in people], concurrency)
                print(figures(f"/afmelden ({mode})", lat, wall))
                lat2, wall2 = await run_batch(commands, [(p, "/aanmelden") for p in people], concurrency)
                print(figures(f"/aanmelden, taking it back ({mode})", lat2, wall2))
                lat3, wall3 = await run_batch(commands, [(p, "/stand") for p in people], concurrency)
                print(figures(f"/stand ({mode})", lat3, wall3))
            count = int(args.rate * args.seconds)
            for poisson in {"even": (False,), "poisson": (True,), "both": (False, True)}[args.arrivals]:
                await open_loop_run(commands, alternating(people, count), args.rate, poisson)
            await open_loop_run(commands, [(p, "/afmelden") for p in people], 0, False)
            await open_loop_run(commands, [(p, "/aanmelden") for p in people], 0, False)
            assert await store.integrity_check() == "ok"
        finally:
            await store.close()


async def publish_bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store, commands, clock = await world(Path(tmp) / "due.sqlite3", args.due_clubs, args.members)
        sent: list[Announcement] = []

        async def send(club: Club, announcement: Announcement) -> None:
            sent.append(announcement)

        alarm = Alarm(commands, send)
        try:
            clock.set(PUBLISH + timedelta(seconds=30))
            t0 = time.perf_counter()
            await alarm.run_due()
            wall = time.perf_counter() - t0
            pairings = [a for a in sent if a.kind == "pairing"]
            print(
                f"publication minute: {args.due_clubs} clubs x {args.members} members paired, queued and announced "
                f"in {wall:.2f} s ({len(pairings)} pairing announcements, {len(sent)} sent in all)"
            )
            alarm.shutdown()
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=50)
    parser.add_argument("--members", type=int, default=40)
    parser.add_argument("--due-clubs", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--rate", type=float, default=1000.0, help="open loop: sign-offs offered per second")
    parser.add_argument("--seconds", type=float, default=5.0, help="open loop: how long")
    parser.add_argument("--arrivals", choices=("even", "poisson", "both"), default="both")
    parser.add_argument("--many-clubs", action="store_true", help="then the many-clubs and sending benchmarks")
    smallest(parser, clubs=2, members=4, due_clubs=2, concurrency=4, rate=100.0, seconds=0.2)
    args = parser.parse_args()
    asyncio.run(commands_bench(args))
    asyncio.run(publish_bench(args))
    if args.many_clubs:
        import subprocess

        for script in ("many_clubs_bench.py", "sending_bench.py"):
            subprocess.run([sys.executable, str(Path(__file__).with_name(script)), *(["--smoke"] if args.smoke else [])], check=True)


if __name__ == "__main__":
    main()
