"""The store's transactions: BEGIN IMMEDIATE comes with the first write, so a transaction that only reads
takes no write lock in SQLite; a cancelled command leaves nothing behind; commands at once share a COMMIT
(group commit) and a failing one undoes only its own writes; the in-memory caches never keep a row read
before a write that changed it."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.core.storage.store import Store

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
# A read that keeps the database thread busy for a while, so that what is queued behind it waits.
SLOW_READ = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT COUNT(*) FROM c"


def other_writer_can_begin(path: Path) -> bool:
    """Whether a second connection can take SQLite's write lock right now."""
    conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()


async def test_a_transaction_takes_sqlites_write_lock_only_with_its_first_write(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = await Store.open(path)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        async with store.transaction():
            assert await store.members(club.id) == []
            assert other_writer_can_begin(path)  # only read so far: nothing to lock
            await store.add_member(club.id, "Anna", 1800, NOW)
            assert not other_writer_can_begin(path)  # written: locked until the end
            await store.add_member(club.id, "Bert", 1700, NOW)
        assert other_writer_can_begin(path)
        assert [m.name for m in await store.members(club.id)] == ["Anna", "Bert"]
    finally:
        await store.close()


async def test_a_write_after_reads_is_rolled_back_with_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    store = await Store.open(path)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        with pytest.raises(RuntimeError):
            async with store.transaction():
                await store.members(club.id)
                await store.add_member(club.id, "Anna", 1800, NOW)
                await store.members(club.id)
                await store.add_member(club.id, "Bert", 1700, NOW)
                raise RuntimeError("undo")
        assert await store.members(club.id) == []
        assert other_writer_can_begin(path)
    finally:
        await store.close()


async def test_a_write_that_would_not_open_the_transaction_is_refused(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "w.sqlite3")
    try:
        with pytest.raises(ValueError):
            await store.write("WITH x AS (SELECT 1) INSERT INTO clubs (platform) SELECT 'p' FROM x")
    finally:
        await store.close()


async def test_a_command_cancelled_between_its_writes_leaves_nothing(tmp_path: Path) -> None:
    """Cancelled after its first write, at an await before its second: the first is undone (its savepoint),
    not left in the open transaction for the next command's COMMIT."""
    path = tmp_path / "c.sqlite3"
    store = await Store.open(path)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        halfway = asyncio.Event()

        async def sign_up() -> None:
            async with store.transaction():
                await store.add_member(club.id, "Anna", 1800, NOW)
                halfway.set()
                await asyncio.sleep(3600)
                await store.add_member(club.id, "Anna's twin", 1800, NOW)

        task = asyncio.create_task(sign_up())
        await halfway.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await store.add_member(club.id, "Bert", 1700, NOW)  # a transaction of its own, committed
        assert [m.name for m in await store.members(club.id)] == ["Bert"]
        assert other_writer_can_begin(path)
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM members")] == ["Bert"]


def names_on_disk(path: Path) -> list[str]:
    """What another connection sees: the committed members."""
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM members ORDER BY name")]
    finally:
        conn.close()


async def test_commands_at_once_share_a_commit_and_a_failing_one_undoes_only_its_own(tmp_path: Path) -> None:
    """Group commit: commands waiting for the writer join one transaction; one that fails after writing
    rolls back to its savepoint, the others' changes stay; each returns only once its change is on disk."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        seen_at_return: dict[str, list[str]] = {}

        async def join(name: str, fail: bool) -> None:
            async with store.transaction():
                await store.add_member(club.id, name, 1500, NOW)
                await store.add_member(club.id, name + " junior", 1000, NOW)
                if fail:
                    raise RuntimeError("refused after writing")
            seen_at_return[name] = names_on_disk(path)

        names = [f"M{i:02d}" for i in range(30)]
        results = await asyncio.gather(*(join(n, i % 3 == 1) for i, n in enumerate(names)), return_exceptions=True)
        kept = [n for i, n in enumerate(names) if i % 3 != 1]
        assert [type(r).__name__ for i, r in enumerate(results) if i % 3 == 1] == ["RuntimeError"] * 10
        assert names_on_disk(path) == sorted(kept + [n + " junior" for n in kept])
        for name in kept:  # on disk by the time its command returned
            assert name in seen_at_return[name] and name + " junior" in seen_at_return[name]
        assert other_writer_can_begin(path)
    finally:
        await store.close()


async def test_a_failed_commit_fails_every_command_of_its_group_and_keeps_nothing(tmp_path: Path) -> None:
    """A COMMIT that fails (here a deferred foreign key) fails all the commands it would have committed:
    none of them may report success, and none of their changes remain."""
    path = tmp_path / "f.sqlite3"
    store = await Store.open(path)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        started = asyncio.Event()

        async def poison() -> None:
            async with store.transaction():
                await store.fetch_all("PRAGMA defer_foreign_keys = ON")
                await store.add_member(club.id + 99, "Nobody's", 1500, NOW)  # checked only at COMMIT
                started.set()

        async def honest(name: str) -> None:
            await started.wait()
            async with store.transaction():
                await store.add_member(club.id, name, 1500, NOW)

        results = await asyncio.gather(poison(), honest("Anna"), honest("Bert"), return_exceptions=True)
        assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
        assert names_on_disk(path) == []
        assert await store.members(club.id) == []
        await store.add_member(club.id, "Carl", 1500, NOW)  # the writer works on
        assert names_on_disk(path) == ["Carl"]
    finally:
        await store.close()


async def test_a_member_read_while_a_change_is_on_its_way_is_not_kept(tmp_path: Path) -> None:
    """A read queued before a write returns the row as it was, after the write emptied the cache; the
    cache must not keep that old row."""
    store = await Store.open(tmp_path / "m.sqlite3")
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        anna = await store.add_member(club.id, "Anna", 1800, NOW)
        await store.link_identity(club.id, "u1", anna.id)
        async with store.transaction():
            read = asyncio.create_task(store.member_by_identity(club.id, "u1"))
            await asyncio.sleep(0)  # the read is queued first
            await store.update_member_rating(anna.id, 1900)
            assert (await read).rating == 1800  # read before the change
        assert (await store.member_by_identity(club.id, "u1")).rating == 1900
    finally:
        await store.close()


async def test_a_club_read_while_a_rolled_back_change_was_in_place_is_not_kept(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "k.sqlite3")
    try:
        await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        club = await store.club_by_external("console", "x")
        with pytest.raises(RuntimeError):
            async with store.transaction():
                await store.set_club_language(club.id, "en")
                read = asyncio.create_task(store.club_by_external("console", "x"))
                await asyncio.sleep(0)  # queued after the change, before the rollback
                raise RuntimeError("undo")
        assert (await read).language == "en"  # it saw the change that was then undone
        assert (await store.club_by_external("console", "x")).language == "nl"
    finally:
        await store.close()
