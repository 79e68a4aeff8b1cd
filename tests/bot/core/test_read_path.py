"""The read path (issue 16): read-only commands run on their own connection without the writer's lock, see
only committed data, are served from the reply cache until what they show changes, and cannot write."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3

from bot.config import Config
from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Command
from bot.core.commands.replies import Reply
from bot.core.storage.store import Store
from tests.bot.conftest import DIRECTOR, START, actor, dump, ok, rows

ANNA = actor("Anna")


async def season(commands: Core, names: tuple[str, ...] = ("Anna", "Bert", "Carla", "Daan")) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for i, name in enumerate(names):
        await ok(commands, DIRECTOR, f"/speler {name} {2000 - 100 * i}")


async def test_a_read_does_not_wait_for_a_writer_and_sees_only_what_is_committed(commands: Core, store: Store) -> None:
    await season(commands)
    before = await ok(commands, ANNA, "/stand")
    written, release = asyncio.Event(), asyncio.Event()

    async def slow_writer() -> None:
        async with store.transaction():
            await store.write("UPDATE members SET rating = 1 WHERE name = 'Anna'")
            await store.write("UPDATE season_players SET rating = 1")  # not committed while the read runs
            written.set()
            await release.wait()

    writer = asyncio.create_task(slow_writer())
    await written.wait()
    during = await asyncio.wait_for(commands.handle(actor("Eva"), "/stand"), timeout=5)
    assert during.ok and during.text == before  # answered while the writer holds the lock, without its change
    release.set()
    await writer


async def test_the_reply_is_served_from_the_cache_until_the_season_changes(commands: Core, clock, config: Config) -> None:
    await season(commands)
    first = await commands.handle(ANNA, "/stand")
    again = await commands.handle(actor("Bert"), "/stand")
    assert again is first  # the same reply object: not computed again
    hits = commands.replies.hits
    await ok(commands, DIRECTOR, "/speler Eva 2500")  # a new player shows in the standings
    changed = await commands.handle(ANNA, "/stand")
    assert changed is not first and "Eva" in changed.text and "Eva" not in first.text
    assert commands.replies.hits == hits
    english = await ok(commands, DIRECTOR, "/taal en") and await commands.handle(ANNA, "/stand")
    assert english.text != changed.text  # the language is part of what it depends on


async def test_every_change_that_shows_bumps_the_season_version(commands: Core, clock, config: Config) -> None:
    await season(commands)

    def version() -> int:
        return rows(config, "SELECT version FROM seasons")[0][0]

    steps = [
        "/speler Bert 1500",  # a rating
        "/afmelden Carla",  # a sign-off
    ]
    for text in steps:
        v = version()
        await ok(commands, DIRECTOR, text)
        assert version() > v, text
    clock.set(START.replace(day=3, hour=17, minute=5))
    v = version()
    await ok(commands, DIRECTOR, "/publiceer")  # rounds, games, byes
    assert version() > v
    v = version()
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0")
    assert version() > v
    conn = sqlite3.connect(config.db_path)
    try:
        v = version()
        conn.execute("UPDATE members SET name = 'Anne' WHERE name = 'Anna'")  # a rename, by any path
        conn.commit()
        assert version() > v
    finally:
        conn.close()


async def test_a_read_only_command_that_writes_is_refused_and_changes_nothing(commands: Core, config: Config) -> None:
    await season(commands)

    async def sneaky(core: Core, ctx: Context) -> Reply:
        await core.store.write("UPDATE members SET rating = 0")
        return Reply(lines=("wrote",))

    commands.registry.add(Command("sneaky", sneaky, reads_only=True))
    before = dump(config.db_path)
    reply = await commands.handle(ANNA, "/sneaky")
    assert not reply.ok and dump(config.db_path) == before


async def test_a_cache_filled_on_the_read_path_during_a_write_is_emptied_at_its_commit(store: Store) -> None:
    club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", START)
    anna = await store.add_member(club.id, "Anna", 1800, START)
    await store.link_identity(club.id, "u-anna", anna.id)
    async with store.transaction():
        await store.write("UPDATE members SET name = 'Anne' WHERE id = ?", (anna.id,))

        async def read():  # type: ignore[no-untyped-def]
            async with store.reading():
                return await store.member_by_identity(club.id, "u-anna")

        # another command's read (a task of its own, outside this transaction): the committed name, cached
        seen = await asyncio.create_task(read(), context=contextvars.Context())
        assert seen is not None and seen.name == "Anna"
    after = await store.member_by_identity(club.id, "u-anna")
    assert after is not None and after.name == "Anne"
