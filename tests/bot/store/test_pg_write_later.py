"""``write_later`` on PostgreSQL (``bot/core/storage/postgres.py``): a command's changes whose outcome it does not
need go to the server together with its next round trip, written into one simple query as literals.
What they write comes back exactly, whatever the text (quotes, backslashes, ``$1``, SQL); one that the
server refuses fails its own command only, and changes nothing of it; a value no literal says exactly
(bytes, a bool) is sent as a parameter instead."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import asyncpg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.storage.pg_literals import literal_sql
from bot.core.storage.store import open_store

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
HOSTILE = ["O'Neill", "van 't Hof", "back\\slash", "\\'", "''", "$1 $2 ? :x", "E'x'", "'; DROP TABLE clubs; --",
           "Émile 🙂", "line\nbreak\ttab", "\\x41", "%s %(name)s", ""]  # fmt: skip


ACCOUNT = "INSERT INTO director_accounts (club_id, user_id, seen_at) VALUES (?, ?, ?)"  # a table with text and a foreign key


async def accounts(url: str) -> list[tuple[str, str]]:
    conn = await asyncpg.connect(url)
    try:
        return [(r[0], r[1]) for r in await conn.fetch("SELECT user_id, seen_at FROM director_accounts ORDER BY user_id")]
    finally:
        await conn.close()


async def test_text_written_later_comes_back_exactly(pg_url: str) -> None:
    store = await open_store(pg_url)
    try:
        club = await store.get_or_create_club("console", "c", "Club", "nl", "Europe/Amsterdam", NOW)
        async with store.transaction(key="console:c"):
            for n, text in enumerate(HOSTILE):
                await store.write_later(
                    ACCOUNT, (club.id, f"{n:02d}{text}", text)
                )
        assert await accounts(pg_url) == sorted((f"{n:02d}{t}", t) for n, t in enumerate(HOSTILE))
        assert len(await store.fetch_all("SELECT * FROM clubs")) == 1
    finally:
        await store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40))
def test_any_text_survives_the_literal(pg_url: str, text: str) -> None:
    async def run() -> str:
        conn = await asyncpg.connect(pg_url)
        try:
            await conn.execute("SET standard_conforming_strings = off")  # the escape string does not depend on it
            sql = literal_sql("SELECT $1::text || $2::text", (text, "|"))
            assert sql is not None
            return str(await conn.fetchval(sql))
        finally:
            await conn.close()

    assert asyncio.run(run()) == text + "|"


def test_values_without_an_exact_literal_are_left_to_parameters() -> None:
    assert literal_sql("SELECT $1", (b"\x00",)) is None
    assert literal_sql("SELECT $1", (True,)) is None
    assert literal_sql("SELECT $1", ("a\x00b",)) is None
    assert literal_sql("SELECT $1", (float("inf"),)) is None
    assert literal_sql("SELECT $1, $2", (1,)) is None  # a placeholder without its value: not guessed
    assert literal_sql("SELECT $1, $2, $10", tuple(range(10))) is None
    assert literal_sql("SELECT $2, $1", (-3, None)) == "SELECT NULL, -3"
    assert literal_sql("SELECT $1", ("it's \\",)) == "SELECT E'it''s \\\\'"


async def test_a_late_write_the_server_refuses_fails_its_own_command_only(pg_url: str) -> None:
    store = await open_store(pg_url)
    try:
        clubs = [await store.get_or_create_club("console", f"c{i}", "Club", "nl", "Europe/Amsterdam", NOW) for i in range(12)]

        async def command(i: int) -> None:
            async with store.transaction(key=f"console:c{i}"):
                await store.add_member(clubs[i].id, f"M{i:02d}", 1500, NOW)
                club_id = clubs[i].id if i % 3 else 999_999  # no such club: the foreign key refuses it
                await store.write_later(
                    ACCOUNT, (club_id, f"u{i:02d}", "x")
                )
            assert (f"u{i:02d}", "x") in await accounts(pg_url)  # committed, carried writes too, once it returns

        results = await asyncio.gather(*(command(i) for i in range(12)), return_exceptions=True)
        refused = [i for i in range(12) if i % 3 == 0]
        assert [type(results[i]).__name__ for i in refused] == ["ForeignKeyViolationError"] * len(refused)
        assert all(results[i] is None for i in range(12) if i not in refused)
        kept = [i for i in range(12) if i not in refused]
        assert await accounts(pg_url) == [(f"u{i:02d}", "x") for i in kept]
        members = [r[0] for r in await store.fetch_all("SELECT name FROM members ORDER BY name")]
        assert members == [f"M{i:02d}" for i in kept]  # the refused commands' own members are gone too
    finally:
        await store.close()


async def test_the_last_commands_refused_late_write_fails_it_at_the_commit_and_the_lane_goes_on(pg_url: str) -> None:
    """The kept writes of a lane's last command go with the COMMIT: refused there, that command fails,
    the others of the group are committed, and the lane takes the next command."""
    store = await open_store(pg_url)
    try:
        clubs = [await store.get_or_create_club("console", f"c{i}", "Club", "nl", "Europe/Amsterdam", NOW) for i in range(3)]

        async def command(i: int, club_id: int) -> None:
            async with store.transaction(key=f"console:c{i}"):
                await store.add_member(clubs[i].id, f"M{i}", 1500, NOW)
                await store.write_later(ACCOUNT, (club_id, f"u{i}", "x"))

        first = await asyncio.gather(command(0, clubs[0].id), command(1, 999_999), return_exceptions=True)
        assert first[0] is None and type(first[1]).__name__ == "ForeignKeyViolationError"
        alone = await asyncio.gather(command(2, 999_999), return_exceptions=True)
        assert type(alone[0]).__name__ == "ForeignKeyViolationError"
        await command(1, clubs[1].id)
        assert await accounts(pg_url) == [("u0", "x"), ("u1", "x")]
        assert [r[0] for r in await store.fetch_all("SELECT name FROM members ORDER BY name")] == ["M0", "M1"]
    finally:
        await store.close()


async def test_a_late_write_is_seen_by_the_commands_next_read(pg_url: str) -> None:
    store = await open_store(pg_url)
    try:
        club = await store.get_or_create_club("console", "c", "Club", "nl", "Europe/Amsterdam", NOW)
        async with store.transaction(key="console:c"):
            await store.write_later(ACCOUNT, (club.id, "u", "x"))
            await store.write_later("INSERT INTO club_logos (club_id, image, stamp, set_at) VALUES (?, ?, ?, ?)",
                                    (club.id, b"\x89PNG\x00'", "s", "t"))  # bytes: sent as a parameter, in order
            rows = await store.fetch_all("SELECT user_id FROM director_accounts ORDER BY user_id")
            image = await store.fetch_one("SELECT image FROM club_logos")
        assert [r[0] for r in rows] == ["u"] and bytes(image[0]) == b"\x89PNG\x00'"
    finally:
        await store.close()


async def test_a_commit_the_server_refuses_tells_every_command_of_the_group(pg_url: str) -> None:
    """A COMMIT that fails (here a deferred foreign key, checked only then) must reach every command that
    waits for it as its error: the commands of the group waited for ever (the error escaped the task
    that commits; found while adding the kept writes to the COMMIT)."""
    conn = await asyncpg.connect(pg_url)
    await conn.execute("CREATE TABLE deferred_check (club_id INTEGER REFERENCES clubs(id) DEFERRABLE INITIALLY DEFERRED)")
    await conn.close()
    store = await open_store(pg_url)
    try:
        clubs = [await store.get_or_create_club("console", f"c{i}", "Club", "nl", "Europe/Amsterdam", NOW) for i in range(6)]

        async def command(i: int) -> None:
            async with store.transaction(key=f"console:c{i}"):
                await store.add_member(clubs[i].id, f"M{i}", 1500, NOW)
                await store.write("INSERT INTO deferred_check (club_id) VALUES (?)", (999_999 if i == 0 else clubs[i].id,))

        results = await asyncio.wait_for(asyncio.gather(*(command(i) for i in range(6)), return_exceptions=True), 20)
        assert type(results[0]).__name__ == "ForeignKeyViolationError"  # the group it committed in failed with it
        assert all(r is None or type(r).__name__ == "ForeignKeyViolationError" for r in results)
        failed = {i for i, r in enumerate(results) if r is not None}
        names = {r[0] for r in await store.fetch_all("SELECT name FROM members")}
        assert names == {f"M{i}" for i in range(6) if i not in failed}  # nothing of a failed group remains
        async with store.transaction(key="console:c1"):  # the lane goes on
            await store.add_member(clubs[1].id, "After", 1500, NOW)
        assert "After" in {r[0] for r in await store.fetch_all("SELECT name FROM members")}
    finally:
        await store.close()
