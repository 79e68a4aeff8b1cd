"""Unique and safe outputs (issue 33 §6), on a SQLite file and on a real PostgreSQL server: a calendar's
event UIDs name the installation, so two bots never hand out the same UID; the newest personal links are
kept by the order they were made in, also after a DELETE and a VACUUM (PostgreSQL's ctid, which SQLite's
rowid was rewritten to, then puts a new row in an old row's place)."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import asyncpg

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.storage.store import is_postgres, open_store
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, START

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


async def _vacuum(database: str) -> None:
    if is_postgres(database):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute("VACUUM web_links")
        finally:
            await conn.close()
    else:
        conn = sqlite3.connect(database, isolation_level=None)
        conn.execute("VACUUM")
        conn.close()


async def test_the_newest_links_are_kept_after_a_delete_and_a_vacuum(database: str, any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    bert = await any_store.add_member(club.id, "Bert", 1700, NOW)
    # all at the same moment (a clock that stands still): only the order they were made in tells them apart
    await any_store.add_web_link(club.id, bert.id, "b0", NOW, keep=5)
    await any_store.add_web_link(club.id, anna.id, "a0", NOW, keep=2)
    await any_store.add_web_link(club.id, anna.id, "a1", NOW, keep=2)
    await any_store.drop_web_links(bert.id)
    await _vacuum(database)  # b0's place is free again
    await any_store.add_web_link(club.id, anna.id, "a2", NOW, keep=2)
    assert await any_store.member_of_web_link(club.id, "a0") is None  # the oldest goes
    assert (await any_store.member_of_web_link(club.id, "a1")).id == anna.id
    assert (await any_store.member_of_web_link(club.id, "a2")).id == anna.id  # the newest stays


async def _uids(database: str, config: Config, setup: bool = True) -> list[str]:
    store = await open_store(database)
    try:
        core = make_core(store, config, ShiftedClock(START))
        if setup:
            assert (await core.handle(DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")).ok
            assert (await core.handle(DIRECTOR, "/speler Anna 1800")).ok
        reply = await core.handle(DIRECTOR, "/kalender")
        assert reply.ok and reply.attachment is not None, reply.lines
        return re.findall(r"UID:(\S+)", reply.attachment[1].decode())
    finally:
        await store.close()


async def test_calendar_uids_differ_between_installations(database: str, config: Config, tmp_path: Path) -> None:
    first = await _uids(database, config)
    other = await _uids(str(tmp_path / "other.sqlite3"), config)  # another bot, its own database
    assert len(first) == 3 and len(set(first)) == 3
    assert not set(first) & set(other), (first, other)
    again = await _uids(database, config, setup=False)  # a phone that subscribed sees the same events again
    assert again == first
