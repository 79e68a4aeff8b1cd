"""The store's transactions: BEGIN IMMEDIATE comes with the first write, so a transaction that only reads
takes no write lock in SQLite; a cancelled command leaves nothing behind; the in-memory caches never keep
a row read before a write that changed it."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.core.store import Store

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


async def test_a_command_cancelled_while_its_write_is_queued_leaves_nothing(tmp_path: Path) -> None:
    """The write is still waiting for the database thread when its task is cancelled; it runs after all,
    and must be rolled back, not left open for the next transaction to commit."""
    path = tmp_path / "c.sqlite3"
    store = await Store.open(path)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)

        async def sign_up() -> None:
            async with store.transaction():
                await store.add_member(club.id, "Anna", 1800, NOW)

        busy = asyncio.create_task(store.fetch_all(SLOW_READ))
        await asyncio.sleep(0)  # the slow read is on the database thread
        task = asyncio.create_task(sign_up())
        await asyncio.sleep(0)  # Anna's insert is queued behind it
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await busy
        await store.add_member(club.id, "Bert", 1700, NOW)  # a transaction of its own, committed
        assert [m.name for m in await store.members(club.id)] == ["Bert"]
        assert other_writer_can_begin(path)
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM members")] == ["Bert"]


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
