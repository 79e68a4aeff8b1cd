"""A private notice with a button that opens an address (a player's game on lichess, issue 43 §2): the real
Discord adapter sends it with a link button, the real Telegram adapter with an inline keyboard's url button,
each against its platform's strict fake; a notice without one has no button."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.adapters.discord.announce import send_private
from bot.core.storage.store import Announcement
from tests.bot.adapters.fake_discord import USERS, FakeDiscord, Harness, bot, fake  # noqa: F401 - fixtures
from tests.bot.adapters.fake_telegram import Harness as TelegramHarness
from tests.bot.adapters.fake_telegram import FakeTelegram

URL = "https://lichess.org/AbCd1234?color=white"
NOW = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)


def notice(recipient: str, link: tuple[str, str] | None) -> Announcement:
    return Announcement(1, 1, None, "notice:1", "Ronde 1: jij speelt met wit tegen Bert, bord 1.", recipient=recipient, link=link)


async def test_on_discord_a_notice_s_link_is_a_link_button(bot: Harness, fake: FakeDiscord) -> None:
    await send_private(bot.adapter, notice(str(USERS["Anna"]), ("Naar je partij op lichess", URL)))
    await send_private(bot.adapter, notice(str(USERS["Anna"]), None))
    with_button, without = [r for r in fake.of("POST", "/api/v10/channels/") if "jij speelt" in r.content]
    (row,) = with_button.json["components"]
    assert row["type"] == 1 and row["components"] == [{"type": 2, "style": 5, "disabled": False, "label": "Naar je partij op lichess", "url": URL}]
    assert not without.json.get("components")


async def test_on_telegram_a_notice_s_link_is_a_url_button(store, config) -> None:
    server = await FakeTelegram().start()
    harness = TelegramHarness(server, store, config)
    try:
        club = await store.get_or_create_club("telegram", "-100123", "Club", "nl", "Europe/Amsterdam", NOW)
        assert harness.adapter is not None
        await harness.adapter.send_announcement(club, notice("4242", ("Naar je partij op lichess", URL)))
        await harness.adapter.send_announcement(club, notice("4242", None))
        with_button, without = server.of("sendMessage")
        assert with_button.params["reply_markup"] == {"inline_keyboard": [[{"text": "Naar je partij op lichess", "url": URL}]]}
        assert "reply_markup" not in without.params
    finally:
        await server.close()
    assert not server.violations, server.violations
