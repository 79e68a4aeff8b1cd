"""Telegram's updates kept until answered (``bot/adapters/telegram/inbox.py``, issue 46 §2), in one process;
``test_crash_telegram.py`` kills the real process. And the fake's queue, which must be as unforgiving as
Telegram's: a confirmed update never comes again."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from telegram import Update

from bot.adapters.telegram.inbox import Inbox
from bot.core.commands.context import Actor
from bot.config import Config
from bot.core.commands.dispatch import Core
from bot.core.running.clock import ShiftedClock
from bot.systems import make_core
from bot.core.storage.store import Store
from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    BOT_ID,
    GROUP,
    GROUP_CHAT,
    TOKEN,
    FakeTelegram,
    Harness,
    fake,
    message,
    tg,
    user,
)
from tests.bot.adapters.test_telegram_pacing import HeldClock
from tests.bot.conftest import DIRECTOR

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER = user(1, "Leider")


async def get_updates(fake: FakeTelegram, **params: Any) -> list[int]:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake.base_url}{TOKEN}/getUpdates", json=params) as response:
            return [u["update_id"] for u in (await response.json())["result"]]


async def test_the_fake_sends_an_update_again_until_it_is_confirmed_and_never_after(fake: FakeTelegram) -> None:
    ids = [fake.push(message(LEIDER, f"/stand {n}", message_id=n)) for n in range(1, 5)]
    assert await get_updates(fake) == ids  # no offset: every unconfirmed update
    assert await get_updates(fake) == ids  # not confirmed: sent again (a bot started anew)
    assert await get_updates(fake, offset=ids[2]) == ids[2:]  # confirms the first two
    assert await get_updates(fake) == ids[2:]  # they never come again
    assert await get_updates(fake, offset=-1) == ids[3:]  # only the last one; the one before is forgotten
    assert await get_updates(fake, limit=1) == ids[3:]
    assert await get_updates(fake, offset=ids[3] + 1) == []  # all confirmed
    assert fake.updates.confirmed == ids[3]


def director() -> Actor:
    return Actor("telegram", str(GROUP), "Club", str(LEIDER["id"]), "Leider", True)


async def test_a_command_handled_before_a_crash_is_answered_from_its_kept_reply_not_run_again(
    any_store: Store, config: Config, clock: ShiftedClock
) -> None:
    store, commands = any_store, make_core(any_store, config, clock)  # on SQLite and on PostgreSQL
    update = Update.de_json({"update_id": 7, **message(LEIDER, "/seizoen naam=S start=2026-12-03 rondes=5")}, None)
    before = Inbox(store, commands.clock)
    before.bot_id = BOT_ID
    await before.put(update)
    with before.handling_update(7):
        first = await before.handle(commands, director(), "/seizoen naam=S start=2026-12-03 rondes=5")
    assert first.ok
    # the bot dies here: its reply may or may not have gone out. Started again, the update comes back
    after = Inbox(store, commands.clock)
    after.bot_id = BOT_ID
    await after.put(update)  # Telegram sends it again (not confirmed): kept already, not queued twice
    assert after.qsize() == 0
    with after.handling_update(7):
        again = await after.handle(commands, director(), "/seizoen naam=S start=2026-12-03 rondes=5")
    assert again == first  # the same answer, from the kept reply; run again it would be a refusal
    assert [tuple(r) for r in await store.fetch_all("SELECT name FROM seasons")] == [("S",)]
    await after.answered(7)
    row = await store.fetch_one("SELECT body, reply, answered_at FROM telegram_inbox WHERE update_id = 7")
    assert row is not None and row["body"] is None and row["reply"] is None and row["answered_at"] is not None


async def test_an_update_whose_reply_waits_for_the_groups_limit_is_answered_only_once_it_is_out(
    tg: Harness, fake: FakeTelegram, store: Store
) -> None:
    clock = HeldClock()
    fake.group_limit_window(3.0, clock)  # 20 messages in 3 s: the 21st and later wait
    tg.wait_for_queued = False
    senders = [user(200 + n, f"Lid{n}") for n in range(23)]
    for n, sender in enumerate(senders):
        await tg.say(sender, "/stand", GROUP_CHAT, message_id=3000 + n)
    unanswered = "SELECT COUNT(*) FROM telegram_inbox WHERE answered_at IS NULL"
    assert len(fake.sent(GROUP)) == 20  # one reply each (a refusal: no season yet); three wait
    assert (await store.fetch_one(unanswered))[0] == len(senders) - 20  # a kill now: these are handled again
    clock.now = 4.0
    assert tg.adapter is not None
    await tg.adapter.replies_out(timeout=60)
    assert (await store.fetch_one(unanswered))[0] == 0
    assert all(fake.updates.answers[(str(GROUP), 3000 + n)] == 1 for n in range(len(senders)))


async def test_answered_updates_are_forgotten_after_two_days_unanswered_ones_never(store: Store, clock: ShiftedClock) -> None:
    inbox = Inbox(store, clock)
    inbox.bot_id = BOT_ID
    for update_id in (1, 2, 3):
        await inbox.put(Update.de_json({"update_id": update_id, **message(LEIDER, "/stand")}, None))
    await inbox.answered(1)
    clock.advance(timedelta(days=1))
    await inbox.answered(2)
    clock.advance(timedelta(days=1, hours=12))  # 2.5 days after the first answer, 1.5 after the second
    later = Inbox(store, clock)  # a bot started again (or an hour later): the purge is due
    later.bot_id = BOT_ID
    await later.put(Update.de_json({"update_id": 4, **message(LEIDER, "/stand")}, None))
    ids = [r[0] for r in await store.fetch_all("SELECT update_id FROM telegram_inbox ORDER BY update_id")]
    assert ids == [2, 3, 4]  # 3 is not answered: kept however old


async def test_a_clubs_backup_holds_no_kept_update(commands: Core, store: Store, tmp_path: Path) -> None:
    """The inbox belongs to no club: another club's messages waiting there never go into a director's file."""
    inbox = Inbox(store, commands.clock)
    inbox.bot_id = BOT_ID
    other_club = {"id": -1009999, "type": "supergroup", "title": "Another club"}
    await inbox.put(Update.de_json({"update_id": 9, **message(LEIDER, "/speler Geheim 1800", other_club)}, None))
    assert (await commands.handle(DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")).ok
    backup = await commands.handle(DIRECTOR, "/backup")
    assert backup.ok and backup.attachment is not None
    path = tmp_path / "backup.sqlite3"
    path.write_bytes(backup.attachment[1])
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM telegram_inbox").fetchone() == (0,)
        assert conn.execute("SELECT name FROM seasons").fetchall() == [("S",)]
    finally:
        conn.close()
    assert (await store.fetch_one("SELECT COUNT(*) FROM telegram_inbox"))[0] == 1  # the bot's own kept as it was
