"""/kanaal on Discord: announcements go only to a text channel of the club's own server in which the bot
may write and post pictures, picked in Discord's channel picker or typed where the command is typed."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import discord

from bot.config import Config
from bot.core.commands.context import Actor
from tests.bot.adapters.discord_world import UserOption
from tests.bot.adapters.fake_discord import (  # noqa: F401 - fixtures
    ANNOUNCE,
    EPHEMERAL,
    GENERAL,
    GUILD,
    READ_ONLY,
    USERS,
    FakeDiscord,
    Harness,
    Request,
    bot,
    fake,
    flags,
)
from tests.bot.adapters.test_discord_adapter import season_with_players


async def kanaal_option(bot: Harness, fake: FakeDiscord, channel: int, name: str) -> Request:
    """/kanaal with a channel picked in Discord's channel picker (typed in #algemeen)."""
    payload = bot.slash("kanaal", "Leider", director=True, channel=GENERAL)
    payload["data"]["options"] = [{"name": "kanaal", "type": 7, "value": str(channel)}]
    payload["data"]["resolved"] = {"channels": {str(channel): {
        "id": str(channel), "name": name, "type": 0, "permissions": "0", "parent_id": None,
    }}}  # fmt: skip
    await bot.client.tree._call(discord.Interaction(data=payload, state=bot.client._connection))
    (answer,) = fake.callbacks(payload["id"])
    return answer


def club_channel(config: Config) -> str | None:
    db = sqlite3.connect(config.db_path)
    try:
        row = db.execute("SELECT channel_id FROM clubs WHERE platform = 'discord'").fetchone()
        return row[0] if row else None
    finally:
        db.close()


async def test_kanaal_can_name_another_channel(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    answer = await kanaal_option(bot, fake, ANNOUNCE, "competitie")
    assert answer.json["type"] == 4 and not flags(answer) & EPHEMERAL
    assert club_channel(config) == str(ANNOUNCE)


async def test_kanaal_takes_only_a_channel_of_this_server_the_bot_can_post_in(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    """A director cannot point the club's announcements at a channel of another server (or at an id
    that is no text channel here), nor at one where the bot's role may not write: each is refused with
    the reason and the club's channel stays where it was."""
    await kanaal_option(bot, fake, ANNOUNCE, "competitie")
    answer = await kanaal_option(bot, fake, READ_ONLY, "mededelingen")
    assert "niet schrijven" in answer.json["data"]["content"] and flags(answer) & EPHEMERAL
    assert club_channel(config) == str(ANNOUNCE)
    director = Actor("discord", str(GUILD), "Schaakclub De Toren", str(USERS["Leider"]), "Leider", True)
    for elsewhere in ("720000000000000999", str(GUILD + 5), "algemeen", str(USERS["Anna"]), "²", "٣", "9" * 30):
        reply = await bot.commands.handle(director, f"/kanaal {elsewhere}")
        assert not reply.ok and "tekstkanaal van deze server" in reply.text, elsewhere
    assert club_channel(config) == str(ANNOUNCE)
    assert (await bot.commands.handle(director, f"/kanaal {GENERAL}")).ok
    assert club_channel(config) == str(GENERAL)


async def test_a_private_notice_goes_to_the_members_direct_messages(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    """/mijn meldingen:aan, then the round is paired: Anna gets a direct message with her opponent and
    colour; Bert, who does not accept direct messages (Discord refuses the message: 50007), is skipped, not
    retried for ever."""
    await season_with_players(bot)
    for name in ("Anna", "Bert"):
        await bot.command("koppel", "Leider", {"speler": name, "account": UserOption(name)}, director=True)
        answer = await bot.command("mijn", name, {"meldingen": "aan"})
        assert "privébericht" in answer.json["data"]["content"] and flags(answer) & EPHEMERAL
    fake.closed_dms.add(USERS["Bert"])
    bot.clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await bot.alarm.run_due()
    opened = [r for r in fake.of("POST", "/api/v10/users/@me/channels")]
    assert {int(r.json["recipient_id"]) for r in opened} == {USERS["Anna"], USERS["Bert"]}
    dms = [r for r in fake.of("POST", "/api/v10/channels/") if "Ronde 1" in r.content and r.path.split("/")[4] != str(ANNOUNCE) and r.status == 200]
    assert len(dms) == 1 and "tegen Bert" in dms[0].content
    db = sqlite3.connect(config.db_path)
    try:
        assert db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0
    finally:
        db.close()
