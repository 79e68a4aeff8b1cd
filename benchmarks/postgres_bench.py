"""SQLite vs PostgreSQL, one process vs two (issue 18): prints figures, all measured in one run.

    .venv/bin/python benchmarks/postgres_bench.py [--clubs 1000] [--members 10] [--burst 2000]
                                                  [--rate 400] [--seconds 5] [--smoke]

A real PostgreSQL server is started in a temporary directory (Debian's package, as ``./test.sh``
installs it; durable: fsync and synchronous commit on, PostgreSQL's defaults). The clubs are made once
on a SQLite file through the commands, then copied for each run (a file copy on SQLite; on PostgreSQL
``clubbot migrate-db``'s copy once, and the server's copy of that database, ``CREATE DATABASE ... TEMPLATE``,
for each run), so every configuration starts from the same rows. Each configuration runs in fresh bot processes, which
set up, say they are ready, and start together on a signal. A worker process is forked from a process that
has only imported this script and with it the bot, and built the registry (``benchmarks/forks.py``: forked
from this one before it does anything else), not started as a new interpreter that imports it all again (half a second
of CPU each, some twenty of them a run): it begins as a bot process begins once its imports are done, with
no club, member, connection or event loop of any other process, and all its work (its store opened, its
core made, every command) is its own, as before:

- ``/afmelden``: ``--burst`` sign-offs of different members offered at once (throughput), then sign-offs
  offered at ``--rate`` per second for ``--seconds`` (open loop: p50/p99 from each command's arrival).
  With two processes each serves half of the clubs, as two shard ranges would, and gets half the load.
- the baseline, ``bare``: ``--burst`` one-row INSERT transactions offered at once through a bare asyncpg
  pool of the bot's size on a table of their own in the same database (with two processes, half each):
  what the server and the driver give without the bot. ``/afmelden`` saturated is printed as a ratio
  against it, measured in the same run with the same processes (issue 36).
- the same burst ``warm``: each process first sends every member's ``/aanmelden`` (unmeasured), as a bot
  that has run a while knows its clubs and members; then the ``/afmelden`` burst, against the bare loop,
  and against a second baseline, ``same``: a bare asyncpg loop of the statements a warm ``/afmelden`` has
  the server run (the season at hand, the sign-off upserted), one transaction each, on a fresh copy of
  the same clubs: what the server and the driver give for the same work without the bot.
- ``publication minute``: every club's round falls due at once; the scheduler's run (pair, queue and
  hand every announcement to a sender that does nothing), from the signal until the last process is done.

Configurations: SQLite, one process (the baseline); PostgreSQL, one process; PostgreSQL, two processes.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from multiprocessing import Pipe
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Coroutine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))

from benchmarks.forks import Forks  # noqa: E402
from benchmarks.many_clubs_bench import PUBLISH, small_clubs, world  # noqa: E402
from benchmarks.open_loop import arrival_offsets, open_loop  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402
from bot.config import Config, load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.storage.migrate_db import copy_database  # noqa: E402
from bot.core.storage.postgres import POOL_SIZE  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.store import open_store  # noqa: E402
from bot.core.storage.sql_dialect import postgres_sql  # noqa: E402
from bot.core.commands.user_limits import UserLimits  # noqa: E402
from bot.keizer.season_reads import SEASON_AT_HAND  # noqa: E402
from bot.keizer.store import SET_SIGNOFF  # noqa: E402
from bot.systems import build_registry, make_core  # noqa: E402
from postgres_server import PostgresServer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def p(ms: list[float], q: float) -> float:
    ordered = sorted(ms)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# ------------------------------------------------------------------ the worker (one bot process)
async def burst_on_signal(pool: Any, jobs: list[Coroutine[Any, Any, None]], parent: Connection) -> None:
    """A baseline's measurement: ready, then on the signal all ``jobs`` at once; its report, and the pool closed."""
    parent.send("ready")
    parent.recv()
    t0 = time.perf_counter()
    await asyncio.gather(*jobs)
    out = {"burst_wall": time.perf_counter() - t0, "finished_at": time.time()}
    await pool.close()
    parent.send(out)


async def bare_worker(args: argparse.Namespace, parent: Connection) -> None:
    """The baseline: one-row INSERT transactions through a bare asyncpg pool, as many at once as the bot
    gets sign-offs (each its own BEGIN, INSERT, COMMIT)."""
    import asyncpg

    pool = await asyncpg.create_pool(args.worker, min_size=1, max_size=POOL_SIZE)
    table = f"bare_{args.first}"
    await pool.execute(f"CREATE TABLE IF NOT EXISTS {table} (id serial PRIMARY KEY, club int, member text)")

    async def one(n: int) -> None:
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(f"INSERT INTO {table} (club, member) VALUES ($1, $2)", n, f"m-{n}")

    await burst_on_signal(pool, [one(n) for n in range(args.burst)], parent)


async def same_statements_worker(args: argparse.Namespace, parent: Connection) -> None:
    """The second baseline: what a warm ``/afmelden`` asks of the server (the season at hand, the sign-off
    upserted) as a bare asyncpg loop of transactions, one per command, through a pool of the bot's size
    (BEGIN, the read, the INSERT, COMMIT): the same statements with no commands layer, no lanes, no group
    commit."""
    import asyncpg

    pool = await asyncpg.create_pool(args.worker, min_size=1, max_size=POOL_SIZE)
    rows = await pool.fetch(
        "SELECT i.user_id, m.club_id, m.id FROM identities i JOIN members m ON m.id = i.member_id JOIN clubs c ON c.id = m.club_id"
        " WHERE c.platform = 'bench'"
    )
    ids = {r["user_id"]: (r["club_id"], r["id"]) for r in rows}
    people = [ids[f"m-{c}-{i}"] for i in range(args.members) for c in range(args.first, args.last)][: args.burst]
    read, upsert = postgres_sql(SEASON_AT_HAND), postgres_sql(SET_SIGNOFF)
    when = PUBLISH.isoformat()

    async def one(club_id: int, member_id: int) -> None:
        async with pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(read, member_id, member_id, member_id, member_id, club_id, "main")
            await conn.execute(upsert, row["r_id"], member_id, "notice", when, member_id)

    await burst_on_signal(pool, [one(*who) for who in people], parent)


_forks: list[Forks] = []  # this run's, made first thing in main()


def run_worker(args: argparse.Namespace, fds: list[int]) -> None:
    """A worker process's whole life (forked by ``Forks``): its own event loop; ``fds`` is its end of the
    pipe to this benchmark, which says when to start and takes its report."""
    asyncio.run(worker(args, Connection(fds[0])))


async def worker(args: argparse.Namespace, parent: Connection) -> None:
    if args.part == "bare":
        return await bare_worker(args, parent)
    if args.part == "same":
        return await same_statements_worker(args, parent)
    base = load_config(REPO / "config.example.toml", env={})
    config = Config(**{**base.__dict__, "db_path": Path(tempfile.gettempdir()) / "unused.sqlite3"})
    store = await open_store(args.worker)
    clock = ShiftedClock(PUBLISH - timedelta(days=1) if args.part.startswith("afmelden") else PUBLISH + timedelta(seconds=30))
    core = make_core(store, config, clock)
    core.user_limits = UserLimits(burst=10**9)  # a synthetic member sends far more than a person can
    clubs = range(args.first, args.last)
    people = [Actor("bench", f"klein-{c}", f"klein-{c}", f"m-{c}-{i}", f"Lid {i:02d}") for i in range(args.members) for c in clubs]
    out: dict[str, object] = {}
    if args.part == "afmelden-warm":  # a bot that has run a while: every member and club seen before
        for start in range(0, args.burst, 200):
            await asyncio.gather(*(core.handle(who, "/aanmelden") for who in people[start : min(start + 200, args.burst)]))
        args.part = "afmelden"
    parent.send("ready")
    parent.recv()  # the signal: every process starts now
    try:
        if args.part == "afmelden":
            burst, rest = people[: args.burst], people[args.burst :]
            t0 = time.perf_counter()
            replies = await asyncio.gather(*(core.handle(who, "/afmelden") for who in burst))
            out["burst_wall"] = time.perf_counter() - t0
            out["burst_refused"] = sum(not r.ok for r in replies)
            count = min(len(rest), int(args.rate * args.seconds))

            def job(who: Actor):  # type: ignore[no-untyped-def]
                async def run() -> None:
                    if not (await core.handle(who, "/afmelden")).ok:
                        raise RuntimeError("refused")

                return run

            result = await open_loop([job(w) for w in rest[:count]], arrival_offsets(count, args.rate, False))
            out["latencies"] = [x * 1000 for x in result.latencies]
            out["wall"] = result.wall
        else:
            done: list[int] = []

            async def send(club, announcement) -> None:  # type: ignore[no-untyped-def]
                done.append(announcement.id)

            alarm = Alarm(core, send)
            t0 = time.perf_counter()
            await alarm.run_due()
            out["wall"] = time.perf_counter() - t0
            out["sent"] = len(done)
            alarm.shutdown()
        out["finished_at"] = time.time()
    finally:
        await store.close()
    parent.send(out)


def run_workers(target: str, part: str, args: argparse.Namespace, processes: int) -> tuple[list[dict], float]:
    """Start ``processes`` workers on ``target`` (each its share of the clubs), let them go together;
    their reports and the wall time from the signal to the last one's end."""
    share = args.clubs // processes
    workers = []
    for k in range(processes):
        last = args.clubs if k == processes - 1 else (k + 1) * share
        theirs = argparse.Namespace(worker=target, part=part, first=k * share, last=last, members=args.members,
                                    burst=args.burst // processes, rate=args.rate / processes, seconds=args.seconds)  # fmt: skip
        ours, child_end = Pipe()
        _forks[0].start(theirs, [child_end.fileno()])
        child_end.close()  # a worker that dies makes ``recv`` on ours fail, not wait
        workers.append(ours)
    for conn in workers:
        assert conn.recv() == "ready"
    started = time.time()
    for conn in workers:
        conn.send("go")
    reports = []
    for k, conn in enumerate(workers):
        if not conn.poll(600):
            raise TimeoutError(f"worker {part}-{k} sent no report in 600 s")
        reports.append(conn.recv())
        conn.close()
    return reports, max(float(r["finished_at"]) for r in reports) - started


# ------------------------------------------------------------------ the run
async def make_clubs(path: Path, args: argparse.Namespace) -> None:
    store, core, _ = await world(path)
    try:
        await small_clubs(core, args.clubs, args.members, join=True)
    finally:
        await store.close()


PRISTINE = "pristine"  # the clubs copied once from SQLite: each run's PostgreSQL database is made from it
_copied: set[int] = set()  # the servers (by id) that hold it


def fresh_copy(kind: str, master: Path, tmp: Path, server: PostgresServer, label: str) -> str:
    if kind == "sqlite":
        target = tmp / f"{label}.sqlite3"
        conn = sqlite3.connect(master)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        shutil.copy(master, target)
        return str(target)
    if id(server) not in _copied:  # clubbot migrate-db's copy once, then the server's own copy of it (TEMPLATE)
        asyncio.run(copy_database(f"sqlite:///{master}", server.create_database(PRISTINE), build_registry().tables))
        _copied.add(id(server))
    return server.create_database(label, template=PRISTINE)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--members", type=int, default=10)
    parser.add_argument("--burst", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=400)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--parts", default="cold,warm,publish", help="which measurements: cold, warm, publish")
    smallest(parser, clubs=4, members=3, burst=4, rate=20.0, seconds=0.4)
    args = parser.parse_args()
    build_registry()  # every system's modules imported, as a bot's start does: what the workers begin with
    _forks.append(Forks(run_worker))  # before anything else
    server = PostgresServer(durable=not args.smoke).start()  # --smoke: fsync off, as the tests run it
    try:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            master = tmp / "master.sqlite3"
            t0 = time.perf_counter()
            asyncio.run(make_clubs(master, args))
            print(f"set-up: {args.clubs} clubs x {args.members} members in {time.perf_counter() - t0:.1f} s (SQLite, then copied)")
            configurations = [("SQLite, one process", "sqlite", 1), ("PostgreSQL, one process", "pg", 1),
                              ("PostgreSQL, two processes", "pg", 2)]  # fmt: skip
            baseline: dict[str, float] = {}
            parts = set(args.parts.split(","))
            if "cold" in parts:
                cold(args, configurations, master, tmp, server, baseline)
            if "warm" in parts:
                warm(args, configurations, master, tmp, server, baseline)
            if "publish" in parts:
                publish(args, configurations, master, tmp, server, baseline)
    finally:
        server.stop()
        _forks[0].close()


def cold(args: argparse.Namespace, configurations: list, master: Path, tmp: Path, server: PostgresServer, baseline: dict) -> None:
    """The burst of /afmelden from fresh processes, and the open loop."""
    print(f"\n/afmelden: {args.burst} at once, then {args.rate:.0f}/s offered for {args.seconds:.0f} s")
    bare_lines = []
    for n, (label, kind, processes) in enumerate(configurations):
        target = fresh_copy(kind, master, tmp, server, f"afmelden_{n}")
        if kind == "pg":  # the bare asyncpg loop on the same server, same processes, same burst
            bare, _ = run_workers(target, "bare", args, processes)
            bare_rate = args.burst / max(float(r["burst_wall"]) for r in bare)
        reports, _ = run_workers(target, "afmelden", args, processes)
        burst_rate = args.burst / max(float(r["burst_wall"]) for r in reports)
        if kind == "pg":
            bare_lines.append(f"  {label:27s} /afmelden {burst_rate:7.0f}/s against a bare asyncpg loop of"
                              f" one-row INSERT transactions {bare_rate:7.0f}/s: {burst_rate / bare_rate:.2f}x")
        latencies = [x for r in reports for x in r["latencies"]]
        achieved = len(latencies) / max(float(r["wall"]) for r in reports)
        baseline.setdefault("burst", burst_rate)
        print(f"  {label:27s} burst {burst_rate:7.0f}/s ({burst_rate / baseline['burst']:.2f}x SQLite)"
              f"  | offered {args.rate:.0f}/s: achieved {achieved:.0f}/s, p50 {statistics.median(latencies):6.1f} ms,"
              f" p99 {p(latencies, 0.99):6.1f} ms; refused {sum(int(r['burst_refused']) for r in reports)}")  # fmt: skip
    print(f"\n/afmelden saturated ({args.burst} at once) against the bare baseline on the same server:")
    print("\n".join(bare_lines))


def warm(args: argparse.Namespace, configurations: list, master: Path, tmp: Path, server: PostgresServer, baseline: dict) -> None:
    """The burst of /afmelden from processes that saw every member first."""
    print(f"\n/afmelden saturated ({args.burst} at once), warm: each member's /aanmelden first (the caches of a bot"
          " that has run a while), against the bare baseline:")
    for n, (label, kind, processes) in enumerate(configurations):
        target = fresh_copy(kind, master, tmp, server, f"warm_{n}")
        bare_rate = same_rate = float("nan")
        if kind == "pg":
            bare, _ = run_workers(target, "bare", args, processes)
            bare_rate = args.burst / max(float(r["burst_wall"]) for r in bare)
            same, _ = run_workers(fresh_copy(kind, master, tmp, server, f"same_{n}"), "same", args, processes)
            same_rate = args.burst / max(float(r["burst_wall"]) for r in same)
        reports, _ = run_workers(target, "afmelden-warm", args, processes)
        rate = args.burst / max(float(r["burst_wall"]) for r in reports)
        baseline.setdefault("warm", rate)
        against = (f"; bare asyncpg loop {bare_rate:7.0f}/s: {rate / bare_rate:.2f}x; bare loop of its statements"
                   f" {same_rate:7.0f}/s: {rate / same_rate:.2f}x") if kind == "pg" else ""  # fmt: skip
        print(f"  {label:27s} /afmelden {rate:7.0f}/s ({rate / baseline['warm']:.2f}x SQLite){against}")


def publish(args: argparse.Namespace, configurations: list, master: Path, tmp: Path, server: PostgresServer, baseline: dict) -> None:
    """Every club's round due at once."""
    print(f"\npublication minute: {args.clubs} clubs' rounds due at once (pair, queue, hand to the sender)")
    for n, (label, kind, processes) in enumerate(configurations):
        target = fresh_copy(kind, master, tmp, server, f"publish_{n}")
        reports, wall = run_workers(target, "publish", args, processes)
        baseline.setdefault("publish", wall)
        shares = " + ".join(str(r["sent"]) for r in reports)
        print(f"  {label:27s} {wall:6.2f} s ({wall / baseline['publish']:.2f}x SQLite); announcements sent: {shares}")


if __name__ == "__main__":
    main()
