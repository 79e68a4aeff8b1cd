"""PostgreSQL restarted or stopped under a running bot (issue 46 §3), against a real server of the test's
own (stopped and started again as an operator's ``systemctl restart postgresql`` does): the first command
after a restart works, reads and changes alike; while the server is down a command says "try again in a
minute" in the club's language and changes nothing, the website answers 503 and ``/healthz`` is bad; once
it is back everything works again, the claims of due work and the other processes' cache news too."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.config import Config
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.running.clock import ShiftedClock
from bot.core.running.scheduler import Alarm
from bot.core.storage.outage import DatabaseDown
from bot.core.storage.store import Announcement, Club, Store, open_store
from bot.systems import make_core
from bot.web.server import start_web
from tests.bot.adapters.fake_telegram import GROUP, FakeTelegram, Harness, callback, user as tg_user
from tests.bot.conftest import DIRECTOR, actor, ok, restart, running_again
from tests.postgres_server import PostgresServer

ANNA, BERT, CAROL = actor("Anna"), actor("Bert"), actor("Carol")


@pytest.fixture
async def restarting(stoppable_postgres: PostgresServer, config: Config, clock: ShiftedClock) -> AsyncIterator[tuple[PostgresServer, Core]]:
    stoppable_postgres.psql("DROP DATABASE IF EXISTS clubs WITH (FORCE)")
    url = stoppable_postgres.create_database("clubs")
    store = await open_store(url)
    core = make_core(store, config, clock)
    await ok(core, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    await ok(core, ANNA, "/aanmelden")
    try:
        yield stoppable_postgres, core
    finally:
        running_again(stoppable_postgres)
        await store.close()


async def test_the_first_command_after_a_restart_works(restarting: tuple[PostgresServer, Core]) -> None:
    server, core = restarting
    await ok(core, ANNA, "/stand")  # the pool's and the lanes' connections are all open and used
    await restart(server)
    assert "Bert" in await ok(core, BERT, "/aanmelden")  # a change: on a lane whose connection was closed
    await restart(server)
    assert "Anna" in await ok(core, CAROL, "/stand")  # a read
    await ok(core, CAROL, "/aanmelden")
    names = [r[0] for r in await core.store.fetch_all("SELECT name FROM members ORDER BY name")]
    assert {"Anna", "Bert", "Carol"} <= set(names)


async def test_while_the_database_is_down_a_command_says_try_again_and_changes_nothing(
    restarting: tuple[PostgresServer, Core],
) -> None:
    server, core = restarting
    await ok(core, DIRECTOR, "/taal en")  # the club speaks English: so does the answer while it is down
    await ok(core, ANNA, "/stand")
    before = await core.store.fetch_all("SELECT name FROM members ORDER BY name")
    await asyncio.to_thread(server.halt)
    for who, text in ((BERT, "/aanmelden"), (ANNA, "/stand")):
        reply = await core.handle(who, text)
        assert not reply.ok
        assert reply.text == t("en", "error_database_down"), reply.text
    other_club = actor("Dirk", club="club-2")  # a club never seen: the bot's default language
    assert (await core.handle(other_club, "/aanmelden")).text == t(core.config.default_language, "error_database_down")
    await asyncio.to_thread(server.resume)
    assert await core.store.fetch_all("SELECT name FROM members ORDER BY name") == before
    assert "Bert" in await ok(core, BERT, "/aanmelden")


async def test_while_the_database_is_down_the_website_answers_503(restarting: tuple[PostgresServer, Core]) -> None:
    server, core = restarting
    runner = await start_web(core, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    core.config = dataclasses.replace(core.config, web_base_url=base)
    await ok(core, DIRECTOR, "/website aan")
    club = await core.store.club_by_external("console", "club-1")
    assert club is not None
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/c/{club.id}/stand") as page:
                assert page.status == 200
            await asyncio.to_thread(server.halt)
            for path in (f"/c/{club.id}/stand", f"/c/{club.id}/", f"/c/{club.id}/indeling", "/healthz"):
                async with session.get(base + path) as page:
                    assert page.status == 503, (path, page.status, await page.text())
                    if path != "/healthz":
                        assert t("nl", "web_database_down") in await page.text()
                        assert page.headers["Retry-After"] == "60"
            await asyncio.to_thread(server.resume)
            for path in (f"/c/{club.id}/stand", "/healthz"):
                async with session.get(base + path) as page:
                    assert page.status == 200, (path, await page.text())
    finally:
        await runner.cleanup()


async def test_claims_and_the_cache_news_come_back_after_a_restart(
    restarting: tuple[PostgresServer, Core], config: Config, clock: ShiftedClock
) -> None:
    """A second process's change to a cached table reaches the first after a restart (its listener
    listens again), and the claims of due work are taken again on fresh connections."""
    server, core = restarting
    other: Store = await open_store(server.url("clubs"))
    try:
        await restart(server)
        async with core.store.claim("due:test") as mine:
            assert mine
            async with other.claim("due:test") as theirs:
                assert not theirs
        club = await core.store.club_by_external("console", "club-1")  # cached in this process
        assert club is not None and club.language == "nl"
        for _ in range(100):  # the listener listens again within a few seconds
            if core.store._listener is not None and not core.store._listener.is_closed() and core.store._listening is None:
                break
            await asyncio.sleep(0.1)
        other_core = make_core(other, config, clock)
        await ok(other_core, DIRECTOR, "/taal en")
        for _ in range(50):
            club = await core.store.club_by_external("console", "club-1")
            if club is not None and club.language == "en":
                break
            await asyncio.sleep(0.1)
        assert club is not None and club.language == "en"
    finally:
        await other.close()


async def test_a_telegram_member_is_told_to_try_again_while_the_database_is_down(
    stoppable_postgres: PostgresServer, config: Config
) -> None:
    """The real Telegram adapter against its fake, on the test's own PostgreSQL: a command while the server
    is down gets "try again in a minute" in the club's language (English here) where the adapter's own
    reads of the database (its directors) crashed it before, and once the server is back it works."""
    stoppable_postgres.psql("DROP DATABASE IF EXISTS chat WITH (FORCE)")
    store = await open_store(stoppable_postgres.create_database("chat"))
    fake = await FakeTelegram().start()
    tg = Harness(fake, store, config)
    await tg.start()
    try:
        fake.admins[str(GROUP)] = [7]
        leider, anna = tg_user(7, "Leider"), tg_user(8, "Anna", language="nl")
        await tg.say(leider, "/taal en")
        answered = [c for c in await tg.say(anna, "/stand") if c.method == "sendMessage"]
        await asyncio.to_thread(stoppable_postgres.halt)
        calls = await tg.send(callback(anna, answered[-1].result, "/stand"))  # a button pressed
        alerts = [c.params.get("text") for c in calls if c.method == "answerCallbackQuery"]
        assert alerts == [t("en", "error_database_down")], calls
        calls = await tg.say(anna, "/stand")
        texts = [c.params.get("text", "") for c in calls if c.method == "sendMessage"]
        assert texts == [t("en", "error_database_down")], texts
        calls = await tg.say(leider, "/stand")  # a director: told once, not again for the club's problems
        texts = [c.params.get("text", "") for c in calls if c.method == "sendMessage"]
        assert texts == [t("en", "error_database_down")], texts
        await asyncio.to_thread(stoppable_postgres.resume)
        calls = await tg.say(anna, "/aanmelden")
        assert any("Anna" in str(c.params.get("text", "")) for c in calls if c.method == "sendMessage"), calls
    finally:
        running_again(stoppable_postgres)
        await tg.stop()
        await fake.close()
        await store.close()


async def test_the_scheduler_waits_for_the_database_without_a_traceback(
    restarting: tuple[PostgresServer, Core], caplog: pytest.LogCaptureFixture
) -> None:
    """The alarm's pass while the server is down says so in one warning (not a traceback per system and
    one from APScheduler), and runs again once the server is back."""
    server, core = restarting

    async def send(club: Club, announcement: Announcement) -> None:
        raise AssertionError("nothing is due")

    alarm = Alarm(core, send)
    try:
        await asyncio.to_thread(server.halt)
        with caplog.at_level(logging.WARNING):
            await alarm._wake()  # what APScheduler calls at the alarm
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
        assert [r for r in caplog.records if "database_down" in r.getMessage()], caplog.text
        await asyncio.to_thread(server.resume)
        before = core.health.last_wake
        await alarm._wake()
        assert core.health.last_wake is not None and core.health.last_wake != before
    finally:
        alarm.shutdown()


async def test_a_change_outside_a_command_while_down_is_said_as_the_database_down(
    restarting: tuple[PostgresServer, Core],
) -> None:
    """A single change outside a command (the scheduler's bookkeeping) is not repeated (it may have been
    made), and its failure while the server is down is ``DatabaseDown``, which the callers say in one line."""
    server, core = restarting
    await asyncio.to_thread(server.halt)
    with pytest.raises(DatabaseDown):
        await core.store.execute("UPDATE seasons SET name = name WHERE id = 0")
    await asyncio.to_thread(server.resume)
    assert await core.store.execute("UPDATE seasons SET name = name WHERE id = 0") == 0
