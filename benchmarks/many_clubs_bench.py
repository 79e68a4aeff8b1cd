"""Many clubs on one bot (issue 16): prints figures, each beside a baseline measured in the same run.

    .venv/bin/python benchmarks/many_clubs_bench.py [--players 150] [--played 20] [--readers 200]
                                                    [--clubs 1000] [--club-members 30] [--skip-publication]
                                                    [--small-clubs 20] [--small-members 100] [--seconds 2]
                                                    [--history-seasons 5] [--history-players 60] [--smoke]

Everything goes through ``Core.handle`` on the real SQLite store, as the adapters call it.

- ``/stand, 200 at once``: a club with a 150-player season of 28 rounds, ``--played`` of them played
  (imported from a season file the engine paired), asked ``/stand`` by 200 members at the same moment,
  five times over, the season unchanged. Target >= 1,000/s.
- ``first /stand after a result``: the director corrects a result, then one ``/stand`` (picture
  included): its time. Target < 50 ms.
- ``another club's /afmelden``: 20 small clubs (``--small-clubs`` of ``--small-members``) sign off at
  200/s (open loop) for 2 s (``--seconds``), alone and then
  while the big club's 200 members keep asking ``/stand``: p99 of each, and the ratio. Target <= 3x.
- ``/afmelden saturated vs bare aiosqlite``: 2,000 sign-offs offered at once, against a bare aiosqlite
  loop of one-row INSERT transactions on the same file with the bot's pragmas. Target: ratio >= 1. And
  ``/afmelden`` offered at 1,000/s (open loop): p99 < 20 ms.
- ``publication minute``: ``--clubs`` clubs of ``--club-members`` whose round is published at the same
  minute: the time for the scheduler to pair and queue every round (sending not included; see
  docs/performance.md). Target < 10 s for 1,000 clubs.
- ``memory``: resident set size of the process after each part; a 60-member club's five-year history.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.open_loop import arrival_offsets, open_loop  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402
from bot.config import Config, load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.commands.dispatch import Core  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.store import Announcement, Club, Store  # noqa: E402
from bot.systems import make_core  # noqa: E402

try:  # the same script measures older commits too (before/after in one session): those lack these
    from bot.core.commands.user_limits import UserLimits
except ImportError:  # pragma: no cover - an older commit
    UserLimits = None  # type: ignore[assignment,misc]
from engine.keizer import Game, KeizerSettings, Player, Result, Round  # noqa: E402
from engine.keizer.pairing import pair_round  # noqa: E402
from engine.keizer.season_file import Season, export_season  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
START = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam on the first playing day


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def p(ms: list[float], q: float) -> float:
    s = sorted(ms)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def import_start(now: datetime, weekday: int = 3) -> date:
    """The ``start=`` of an ``/importeer`` at ``now``: the next playing evening (a Thursday) after today. The
    import dates the played rounds weekly before it, and refuses a start that dates one after today (and one
    whose first deadline has passed), so a fixed date stops working once the clock passes it."""
    today = now.date()
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def actor(club: str, user: str, director: bool = False) -> Actor:
    return Actor("bench", club, club, user, user, is_director=director)


async def must(core: Core, who: Actor, text: str, attachment: bytes | None = None) -> None:
    reply = await core.handle(who, text, attachment)
    if not reply.ok:
        raise SystemExit(f"set-up failed: {text!r}: {reply.text}")


def season_file(players: int, played: int, seed: int = 3) -> tuple[bytes, list[str]]:
    """A season of ``players`` with ``played`` rounds paired by the engine, results at random; and the
    names of the players with white in the last round."""
    rng = random.Random(seed)
    people = tuple(Player(id=f"p{i:03d}", name=f"Speler {i:03d}", rating=2200 - 7 * i) for i in range(players))
    settings = KeizerSettings()
    rounds: list[Round] = []
    for number in range(1, played + 1):
        present = [x.id for x in people if rng.random() > 0.1]
        pairing = pair_round(people, rounds, present, settings, number)
        games = tuple(
            Game(g.white, g.black, rng.choice([Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW]))
            for g in pairing.games
        )
        rounds.append(Round(number=number, games=games, byes=(pairing.bye,) if pairing.bye else ()))
    names = {x.id: x.name for x in people}
    whites = [names[g.white] for g in rounds[-1].games]
    return export_season(Season(name="Groot", settings=settings, players=people, rounds=tuple(rounds))).encode(), whites


async def world(path: Path) -> tuple[Store, Core, ShiftedClock]:
    base = load_config(REPO / "config.example.toml", env={})
    config = Config(**{**base.__dict__, "db_path": path})
    store = await Store.open(path)
    clock = ShiftedClock(START)
    commands = make_core(store, config, clock)
    if UserLimits is not None:  # a synthetic member sends far more than a person can
        commands.user_limits = UserLimits(burst=10**9)
    return store, commands, clock


async def small_clubs(core: Core, clubs: int, members: int, join: bool = True) -> list[Actor]:
    people = []
    for c in range(clubs):
        boss = actor(f"klein-{c}", f"leider-{c}", director=True)
        await must(core, boss, "/seizoen naam=S start=2026-12-03 rondes=28")
        for i in range(members):
            await must(core, boss, f'/speler "Lid {i:02d}" {1000 + 20 * i}')
            if join:
                who = Actor("bench", f"klein-{c}", f"klein-{c}", f"m-{c}-{i}", f"Lid {i:02d}")
                if "koppel" in core.registry.commands:  # a name never links (older commits: it did)
                    await must(core, boss, f'/koppel "Lid {i:02d}" <@{who.user_id}>')
                await must(core, who, "/aanmelden")
                people.append(who)
    return people


async def signoffs(core: Core, people: list[Actor], rate: float, seconds: float) -> list[float]:
    """Open loop: ``people`` sign off (and on again, alternating) at ``rate``; latencies in ms."""
    order = list(people)
    random.Random(5).shuffle(order)
    jobs = [(order[k % len(order)], "/afmelden" if (k // len(order)) % 2 == 0 else "/aanmelden")
            for k in range(int(rate * seconds))]  # fmt: skip

    def job(who: Actor, text: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            reply = await core.handle(who, text)
            if not reply.ok:
                raise RuntimeError(f"{text!r}: {reply.text}")

        return run

    result = await open_loop([job(w, t) for w, t in jobs], arrival_offsets(len(jobs), rate, False))
    for who in {w for w, t in jobs[-len(order):] if t == "/afmelden"}:  # back to signed on, untimed
        await core.handle(who, "/aanmelden")
    return [x * 1000 for x in result.latencies]


async def reading(core: Core, readers: list[Actor], stop: asyncio.Event) -> int:
    """The big club's members ask /stand in waves of len(readers) until ``stop``; how many were answered."""
    answered = 0
    while not stop.is_set():
        await asyncio.gather(*(core.handle(r, "/stand") for r in readers))
        answered += len(readers)
    return answered


async def bare_inserts(path: Path, count: int) -> float:
    """A bare aiosqlite loop of one-row INSERT transactions on ``path`` with the bot's pragmas: per second."""
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    for pragma in ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000", "synchronous = NORMAL"):
        await conn.execute(f"PRAGMA {pragma}")
    await conn.execute("CREATE TABLE IF NOT EXISTS bench_bare (id INTEGER PRIMARY KEY, round_id INTEGER, member_id INTEGER)")
    conn.isolation_level = "IMMEDIATE"
    t0 = time.perf_counter()
    for i in range(count):
        await conn.execute_insert("INSERT INTO bench_bare (round_id, member_id) VALUES (?, ?)", (1, i))
        await conn.execute("COMMIT")
    wall = time.perf_counter() - t0
    await conn.execute("DROP TABLE bench_bare")
    await conn.close()
    return count / wall


async def clubs_part(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "clubs.sqlite3"
        store, core, clock = await world(path)
        try:
            t0 = time.perf_counter()
            boss = actor("groot", "leider", director=True)
            content, whites = season_file(args.players, args.played)
            await must(core, boss, f"/importeer start={import_start(clock.now())} naam=Groot rondes=28", content)
            people = await small_clubs(core, args.small_clubs, args.small_members)
            print(f"set-up: a club of {args.players} players with {args.played} rounds played, {args.small_clubs} clubs x {args.small_members} "
                  f"members, in {time.perf_counter() - t0:.1f} s; RSS {rss_mb():.0f} MB")  # fmt: skip
            from bot.app import freeze_startup_objects  # here: postgres_bench's workers need none of bot.app's imports

            freeze_startup_objects()
            readers = [actor("groot", f"lezer-{i}") for i in range(args.readers)]
            await core.handle(readers[0], "/stand")  # warm
            walls = []
            for _ in range(5):
                t1 = time.perf_counter()
                replies = await asyncio.gather(*(core.handle(r, "/stand") for r in readers))
                walls.append(time.perf_counter() - t1)
                assert all(r.ok for r in replies), replies[0].text
            rate = args.readers / statistics.median(walls)
            print(f"/stand, {args.readers} at once, season unchanged: {rate:,.0f}/s (median of 5 waves; target >= 1,000/s)")
            firsts = []
            for k in range(5):
                await must(core, boss, f'/uitslag "{whites[k]}" remise {args.played}')
                t1 = time.perf_counter()
                reply = await core.handle(readers[k], "/stand")
                firsts.append((time.perf_counter() - t1) * 1000)
                assert reply.ok and reply.image, reply.text
            print(f"first /stand after a result, picture included: median {statistics.median(firsts):.1f} ms, "
                  f"max {max(firsts):.1f} ms (target < 50 ms)")  # fmt: skip
            alone = await signoffs(core, people, 200, args.seconds)
            stop = asyncio.Event()
            load = asyncio.create_task(reading(core, readers, stop))
            busy = await signoffs(core, people, 200, args.seconds)
            stop.set()
            answered = await load
            ratio = p(busy, 0.99) / p(alone, 0.99)
            print(f"another club's /afmelden at 200/s: p99 alone {p(alone, 0.99):.1f} ms, while {args.readers} members"
                  f" ask /stand ({answered} answered) {p(busy, 0.99):.1f} ms: {ratio:.1f}x (target <= 3x)")  # fmt: skip
            t1 = time.perf_counter()
            jobs = [core.handle(w, "/afmelden") for w in people]
            await asyncio.gather(*jobs)
            saturated = len(people) / (time.perf_counter() - t1)
            await asyncio.gather(*(core.handle(w, "/aanmelden") for w in people))
            bare = await bare_inserts(path, len(people))
            print(f"/afmelden saturated: {saturated:,.0f}/s; bare aiosqlite INSERT transactions on the same file: "
                  f"{bare:,.0f}/s: ratio {saturated / bare:.2f} (target >= 1)")  # fmt: skip
            offered = await signoffs(core, people, 1000, args.seconds)
            print(f"/afmelden at 1,000/s offered (open loop, {args.seconds:g} s): p50 {p(offered, 0.5):.1f} ms, p99 {p(offered, 0.99):.1f} ms "
                  "(target p99 < 20 ms)")  # fmt: skip
            print(f"RSS after the clubs part: {rss_mb():.0f} MB")
            assert await store.integrity_check() == "ok"
        finally:
            await store.close()


async def publication_part(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store, core, clock = await world(Path(tmp) / "due.sqlite3")
        try:
            t0 = time.perf_counter()
            await small_clubs(core, args.clubs, args.club_members, join=False)
            print(f"set-up: {args.clubs} clubs x {args.club_members} members in {time.perf_counter() - t0:.1f} s; "
                  f"RSS {rss_mb():.0f} MB with {args.clubs} clubs loaded")  # fmt: skip
            queued: list[Announcement] = []

            async def send(club: Club, announcement: Announcement) -> None:
                queued.append(announcement)

            alarm = Alarm(core, send)
            clock.set(PUBLISH + timedelta(seconds=30))
            t1 = time.perf_counter()
            await alarm.run_due()
            wall = time.perf_counter() - t1
            pairings = sum(1 for a in queued if a.kind == "pairing")
            print(f"publication minute: {args.clubs} clubs paired and queued in {wall:.2f} s ({pairings} pairing "
                  f"announcements handed to the sender; target < 10 s)")  # fmt: skip
            alarm.shutdown()
        finally:
            await store.close()


async def history_part(args: argparse.Namespace) -> None:
    """One 60-member club with five seasons of 27 played rounds (a five-year history): RSS after every
    season's standings, prizes and pairings have been asked for. Each season is imported as the one that
    follows the last (``toch``: the last one's 28th round is never played)."""
    with tempfile.TemporaryDirectory() as tmp:
        store, core, clock = await world(Path(tmp) / "history.sqlite3")
        try:
            boss = actor("oud", "leider", director=True)
            before = rss_mb()
            t0 = time.perf_counter()
            years, members = args.history_seasons, args.history_players
            for year in range(years):
                content, _ = season_file(members, 27, seed=year)
                start = import_start(clock.now())
                await must(core, boss, f"/importeer start={start} naam=Jaar-{year} rondes=28 toch", content)
                for text in ("/stand", "/prijzen", "/indeling 27"):
                    await must(core, boss, text)
            files = (Path(tmp) / "history.sqlite3", Path(tmp) / "history.sqlite3-wal")
            size = sum(f.stat().st_size for f in files if f.exists()) / 1e6  # what is not yet checkpointed too
            print(f"{years}-year history of a {members}-member club ({years} x 27 rounds) in {time.perf_counter() - t0:.1f} s: "
                  f"RSS {rss_mb():.0f} MB (was {before:.0f} MB), database and its log {size:.1f} MB")  # fmt: skip
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--played", type=int, default=20)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--club-members", type=int, default=30)
    parser.add_argument("--skip-publication", action="store_true")
    parser.add_argument("--small-clubs", type=int, default=20, help="the clubs that sign off beside the big one")
    parser.add_argument("--small-members", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=2.0, help="each open loop of sign-offs")
    parser.add_argument("--history-seasons", type=int, default=5)
    parser.add_argument("--history-players", type=int, default=60)
    smallest(parser, players=12, played=2, readers=5, clubs=3, club_members=4, small_clubs=2, small_members=5,
             seconds=0.1, history_seasons=2, history_players=6)  # fmt: skip
    args = parser.parse_args()
    print(f"date {date.today()}; RSS at start {rss_mb():.0f} MB")
    asyncio.run(clubs_part(args))
    asyncio.run(history_part(args))
    if not args.skip_publication:
        asyncio.run(publication_part(args))


if __name__ == "__main__":
    main()
