"""Group commit on PostgreSQL (``bot/core/storage/postgres.py``, ``_Lane``): the commands of different clubs share
a COMMIT, each in a savepoint of its own; one that fails (a refusal, or an error of the server that aborts
its statement) undoes only its own writes; each returns only once its change is committed; a club that
another process holds makes its command wait for it, and holds nobody else's."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import asyncpg
import pytest

from bot.core.storage.postgres import lock_number
from bot.core.storage.store import open_store

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


async def committed_names(url: str) -> list[str]:
    """What another connection sees: the committed members."""
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch("SELECT name FROM members ORDER BY name")]
    finally:
        await conn.close()


async def test_commands_of_different_clubs_share_a_commit_and_a_failing_one_undoes_only_its_own(pg_url: str) -> None:
    store = await open_store(pg_url)
    try:
        clubs = [await store.get_or_create_club("console", f"c{i}", "Club", "nl", "Europe/Amsterdam", NOW) for i in range(30)]
        seen_at_return: dict[str, list[str]] = {}
        transactions: set[int] = set()  # the (top-level) transaction each command ran in

        async def join(i: int) -> None:
            name = f"M{i:02d}"
            async with store.transaction(key=f"console:c{i}"):
                await store.add_member(clubs[i].id, name, 1500, NOW)
                transactions.add((await store.fetch_one("SELECT txid_current()"))[0])
                await store.add_member(clubs[i].id, name + " junior", 1000, NOW)
                if i % 3 == 1:
                    raise RuntimeError("refused after writing")
                if i % 3 == 2 and i % 2 == 0:  # the server refuses a statement: the transaction is aborted
                    await store.add_member(clubs[i].id, name, 1500, NOW)  # the same name twice in a club
            seen_at_return[name] = await committed_names(pg_url)

        results = await asyncio.gather(*(join(i) for i in range(30)), return_exceptions=True)
        failing = [i for i in range(30) if i % 3 == 1 or (i % 3 == 2 and i % 2 == 0)]
        assert {type(results[i]).__name__ for i in failing} == {"RuntimeError", "UniqueViolationError"}
        kept = [f"M{i:02d}" for i in range(30) if i not in failing]
        assert all(results[i] is None for i in range(30) if i not in failing)
        assert await committed_names(pg_url) == sorted(kept + [n + " junior" for n in kept])
        for name in kept:  # committed by the time its command returned
            assert name in seen_at_return[name] and name + " junior" in seen_at_return[name]
        assert len(transactions) <= 10  # 30 commands: a COMMIT shared by many (here: one per lane)
        await store.add_member(clubs[0].id, "Carl", 1500, NOW)  # it works on
        assert "Carl" in await committed_names(pg_url)
    finally:
        await store.close()


async def test_a_club_held_by_another_process_waits_for_it_and_holds_no_other_club(pg_url: str) -> None:
    store = await open_store(pg_url)
    other = await asyncpg.connect(pg_url)  # another process, in the middle of a command of club c0
    try:
        busy = await store.get_or_create_club("console", "c0", "Club", "nl", "Europe/Amsterdam", NOW)
        free = await store.get_or_create_club("console", "c1", "Club", "nl", "Europe/Amsterdam", NOW)
        await other.execute("SELECT pg_advisory_lock($1)", lock_number("console:c0"))

        async def join(club_id: int, key: str, name: str) -> None:
            async with store.transaction(key=key):
                await store.add_member(club_id, name, 1500, NOW)

        waiting = asyncio.create_task(join(busy.id, "console:c0", "Anna"))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        for n in range(5):  # the other club's commands go on meanwhile, through the same lanes
            await asyncio.wait_for(join(free.id, "console:c1", f"Bert {n}"), 5)
        assert not waiting.done() and "Anna" not in await committed_names(pg_url)
        await other.execute("SELECT pg_advisory_unlock($1)", lock_number("console:c0"))
        await asyncio.wait_for(waiting, 5)
        assert "Anna" in await committed_names(pg_url)
    finally:
        await other.close()
        await store.close()


@pytest.mark.parametrize("fail", [False, True])
async def test_a_lone_change_outside_a_command_is_committed_when_it_returns(pg_url: str, fail: bool) -> None:
    """A write outside any transaction (the outbox's "sent") is committed by the time it returns; one the
    server refuses changes nothing."""
    store = await open_store(pg_url)
    try:
        club = await store.get_or_create_club("console", "c0", "Club", "nl", "Europe/Amsterdam", NOW)
        await store.queue_announcement(club.id, None, "notice", "Hallo", NOW)
        conn = await asyncpg.connect(pg_url)
        try:
            ident = await conn.fetchval("SELECT id FROM announcements")
            if fail:
                with pytest.raises(asyncpg.PostgresError):
                    await store.execute_alone("UPDATE announcements SET club_id = ? WHERE id = ?", (club.id + 99, ident))
                assert await conn.fetchval("SELECT club_id FROM announcements") == club.id
            else:
                assert await store.mark_announcement_sent(ident, NOW, "ref-1")
                assert await conn.fetchval("SELECT message_ref FROM announcements") == "ref-1"
        finally:
            await conn.close()
    finally:
        await store.close()


async def test_claims_taken_together_are_each_one_process_s_and_let_go_together(pg_url: str) -> None:
    """``claim_many``: of the names asked for, each is held by one process at a time (another process
    gets only the rest), a name this process already holds is not given twice, and all are let go at
    the end (another process gets them then)."""
    one, other = await open_store(pg_url), await open_store(pg_url)
    try:
        async with one.claim("outbox:3") as mine:
            assert mine
            async with one.claim_many(["outbox:1", "outbox:2", "outbox:3"]) as first:
                assert first == {"outbox:1", "outbox:2"}  # outbox:3 is held by this process already
                async with other.claim_many(["outbox:2", "outbox:3", "outbox:4"]) as second:
                    assert second == {"outbox:4"}
                    async with other.claim("outbox:1") as theirs:
                        assert not theirs
        async with other.claim_many(["outbox:1", "outbox:2", "outbox:3", "outbox:4"]) as after:
            assert after == {"outbox:1", "outbox:2", "outbox:3", "outbox:4"}
        async with one.claim_many([]) as none:
            assert none == set()
    finally:
        await one.close()
        await other.close()
