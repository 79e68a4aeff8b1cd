"""Several bot processes on one PostgreSQL database, for real: separate Python processes with the real
scheduler. A round is paired once and announced once whichever process wakes first; a process killed in
the middle of a publication leaves its work to another, which finishes it within the minute."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.storage.store import open_store
from bot.systems import make_core
from tests.bot.conftest import START, actor

WORKER = Path(__file__).with_name("publication_worker.py")
CLUBS = 12


async def _clubs_with_a_round_due(url: str, config: Config) -> None:
    """CLUBS clubs, each with a season and six members; round 1 is published on Thursday 18:00."""
    store = await open_store(url)
    try:
        core = make_core(store, config, ShiftedClock(START))
        for c in range(CLUBS):
            club = f"club-{c}"
            director = actor("Leider", director=True, club=club)
            assert (await core.handle(director, "/seizoen naam=S start=2026-12-03 rondes=5")).ok
            for name in ("Anna", "Bert", "Carla", "Daan", "Eva", "Frits"):
                assert (await core.handle(actor(name, club=club), "/aanmelden")).ok
            assert (await core.handle(actor("Anna", club=club), "/mijn meldingen aan")).ok
    finally:
        await store.close()


def _start(url: str, log: Path, *extra: str) -> subprocess.Popen:
    clock = (START + timedelta(days=2, hours=7, minutes=30)).isoformat()  # Thursday 18:30: round 1 is due
    return subprocess.Popen([sys.executable, str(WORKER), url, clock, str(log), *extra], stderr=subprocess.PIPE, text=True)


async def _state(url: str) -> tuple[int, int, int, int]:
    """Rounds paired, games, announcements in all, announcements still to send."""
    store = await open_store(url)
    try:
        paired = (await store.fetch_one("SELECT COUNT(*) FROM rounds WHERE status = 'paired'"))[0]
        games = (await store.fetch_one("SELECT COUNT(*) FROM games"))[0]
        total = (await store.fetch_one("SELECT COUNT(*) FROM announcements"))[0]
        pending = (await store.fetch_one("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL"))[0]
        return paired, games, total, pending
    finally:
        await store.close()


def _posts(*logs: Path) -> list[tuple[str, str]]:
    """(process, announcement id) of every post in the logs."""
    found = []
    for log in logs:
        for line in log.read_text().splitlines() if log.exists() else []:
            if line.startswith("posted "):
                _, pid, ident, _ = line.split(" ", 3)
                found.append((pid, ident))
    return found


async def _wait_until_sent(url: str, seconds: float) -> tuple[int, int, int, int]:
    import asyncio

    deadline = time.monotonic() + seconds
    while True:
        state = await _state(url)
        if (state[2] and state[3] == 0) or time.monotonic() > deadline:
            return state
        await asyncio.sleep(0.25)


def _wait_for_claimed_post(worker: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    """Until the worker's log says it is posting its first announcement ("dying ..."): it has claimed its
    share of the clubs' outboxes and marked the post attempted. Fails, saying why, when it ends first or
    takes longer than ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (log.exists() and "dying" in log.read_text()):
        if worker.poll() is not None:
            raise AssertionError(f"the worker ended before its first post: {worker.stderr.read() if worker.stderr else ''}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the worker did not begin a post within {seconds} s")
        time.sleep(0.02)


async def test_two_processes_pair_each_round_once_and_post_each_announcement_once(
    pg_url: str, config: Config, tmp_path: Path
) -> None:
    await _clubs_with_a_round_due(pg_url, config)
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    workers = [_start(pg_url, log, "--post-seconds", "0.02") for log in logs]
    try:
        paired, games, total, pending = await _wait_until_sent(pg_url, 45)
    finally:
        for w in workers:
            w.kill()
            w.wait()
    assert (paired, games, pending) == (CLUBS, 3 * CLUBS, 0)
    # a pairing and Anna's private notice per club, and the director's notice of each of the six newcomers
    # (issue 44), each queued once
    assert total == 2 * CLUBS + 6 * CLUBS
    posts = _posts(*logs)
    assert len(posts) == total and len({ident for _, ident in posts}) == total  # each posted exactly once


async def test_a_process_killed_in_the_middle_of_a_publication_leaves_the_rest_to_another(
    pg_url: str, config: Config, tmp_path: Path
) -> None:
    await _clubs_with_a_round_due(pg_url, config)
    doomed_log, other_log = tmp_path / "doomed.log", tmp_path / "other.log"
    # slow: it claims every club's outbox at once, and dies three seconds into its first post
    doomed = _start(pg_url, doomed_log, "--die-at", "1", "--hold", "3", "--post-seconds", "3")
    other = None
    try:
        _wait_for_claimed_post(doomed, doomed_log)  # the doomed one ahead: its share claimed, its first post begun
        other = _start(pg_url, other_log)  # both at work in the same minute
        doomed.wait(timeout=30)
        died = time.monotonic()
        assert "dying" in doomed_log.read_text()
        paired, games, total, pending = await _wait_until_sent(pg_url, 60)
        finished = time.monotonic() - died
    finally:
        for w in (doomed, other):
            if w is not None:
                w.kill()
                w.wait()
    assert (paired, games, pending) == (CLUBS, 3 * CLUBS, 0), f"still {pending} to post a minute after the kill"
    assert finished < 60
    print(f"the rest was posted {finished:.1f} s after the kill")
    dying = next(line for line in doomed_log.read_text().splitlines() if line.startswith("dying"))
    posts = _posts(doomed_log, other_log)
    assert dying.split()[2] in {ident for pid, ident in posts if pid != dying.split()[1]}  # the other posted it
    assert len({ident for _, ident in posts}) == total


async def test_a_clubs_backup_on_postgresql_is_refused_with_the_reason(pg_url: str, config: Config) -> None:
    store = await open_store(pg_url)
    try:
        core = make_core(store, config, ShiftedClock(START))
        reply = await core.handle(actor("Leider", director=True), "/backup")
        assert not reply.ok and "pg_dump" in reply.text and reply.attachment is None
    finally:
        await store.close()
