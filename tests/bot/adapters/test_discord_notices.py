"""Telling the right person, in their language (issue 46 §4), on Discord through the real discord.py against
the local fake: a director hears why the club's announcements wait only when they have failed for a few
minutes, in the club's language and without the platform's raw error; a single 503 is retried silently.
A member whose direct messages are closed is named to a director once and in ``/leden``; a long private
notice is several messages."""

from __future__ import annotations

from datetime import timedelta

from bot.adapters.problems import NOTICE_AFTER
from bot.config import Config
from tests.bot.adapters.discord_markdown import shown
from tests.bot.adapters.discord_world import DM_CHANNEL, USERS, UserOption
from tests.bot.adapters.fake_discord import ANNOUNCE, EPHEMERAL, FakeDiscord, Harness, bot, content, fake, flags  # noqa: F401 - fixtures
from tests.bot.adapters.test_discord_adapter import AFTER_PUBLISH, pending, season_with_players

FEW_MINUTES = NOTICE_AFTER + timedelta(seconds=10)  # the clock runs on from each moment set: a margin
RAW = ("503", "403", "Service Unavailable", "Forbidden", "Missing Access", "error code", "error")


def notes(fake: FakeDiscord) -> list[str]:
    """What the directors were told privately after their commands (ephemeral follow-ups)."""
    return [r.json["content"] for r in fake.of("POST", "/api/v10/webhooks/") if r.json["flags"] & EPHEMERAL]


async def test_a_single_server_error_is_retried_without_a_word_to_the_director(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await season_with_players(bot)
    fake.fail_channel(ANNOUNCE, 503)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    assert pending(config) == 1
    await bot.command("indeling", "Leider", director=True)
    assert notes(fake) == []
    await bot.alarm.run_due()  # the retry: posted
    assert pending(config) == 0 and len(fake.channel_posts(ANNOUNCE)) == 1
    bot.clock.set(AFTER_PUBLISH + 2 * NOTICE_AFTER)
    await bot.command("indeling", "Leider", director=True)
    assert notes(fake) == []


async def test_an_outage_of_some_minutes_is_told_once_in_the_clubs_language_without_the_raw_error(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await season_with_players(bot)
    fake.fail_channel(ANNOUNCE, 503, times=100)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    bot.clock.set(AFTER_PUBLISH + NOTICE_AFTER - timedelta(seconds=30))
    await bot.alarm.run_due()
    await bot.command("indeling", "Leider", director=True)
    assert notes(fake) == []  # still within the few minutes
    bot.clock.set(AFTER_PUBLISH + FEW_MINUTES)
    await bot.alarm.run_due()
    await bot.command("indeling", "Anna")  # a player is not told
    assert notes(fake) == []
    await bot.command("indeling", "Leider", director=True)
    (note,) = notes(fake)
    assert "Discord is al een paar minuten niet bereikbaar" in note and "niets te doen" in note, note
    assert not any(raw in note for raw in RAW), note
    await bot.command("indeling", "Leider", director=True)
    assert len(notes(fake)) == 1  # once
    fake._failures.clear()
    await bot.alarm.run_due()
    assert pending(config) == 0 and len(fake.channel_posts(ANNOUNCE)) == 1


async def test_no_rights_in_the_channel_is_told_in_english_for_an_english_club(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await season_with_players(bot)
    await bot.command("taal", "Leider", {"taal": "en"}, director=True)
    fake.fail_channel(ANNOUNCE, 403, times=100)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    await bot.command("indeling", "Leider", director=True)
    assert notes(fake) == []  # the permission may be given back within minutes
    bot.clock.set(AFTER_PUBLISH + FEW_MINUTES)
    await bot.command("indeling", "Leider", director=True)
    (note,) = notes(fake)
    assert note.startswith("Note: the bot may not post in") and f"<#{ANNOUNCE}>" in note and "/channel" in note, note
    assert not any(raw in note for raw in RAW), note


# ---------------------------------------------------------------------------------------------- private notices
def direct_messages(fake: FakeDiscord, who: str, ok_only: bool = True) -> list[str]:
    channel = str(DM_CHANNEL + USERS[who] % 1000)
    return [r.json["content"] for r in fake.of("POST", f"/api/v10/channels/{channel}/messages") if r.status == 200 or not ok_only]


async def linked_with_notices(bot: Harness, *names: str) -> None:
    for name in names:
        await bot.command("koppel", "Leider", {"speler": name, "account": UserOption(name)}, director=True)
        await bot.command("mijn", name, {"meldingen": "aan"})


async def test_a_member_with_closed_direct_messages_is_named_to_the_director_once_and_in_the_member_list(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await season_with_players(bot)
    await linked_with_notices(bot, "Anna", "Bert")
    fake.closed_dms.add(USERS["Bert"])
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    assert len(direct_messages(fake, "Anna")) == 1 and direct_messages(fake, "Bert") == []
    assert len(direct_messages(fake, "Bert", ok_only=False)) == 1  # refused with 50007, not retried for ever
    assert pending(config) == 0
    await bot.command("indeling", "Anna")
    assert notes(fake) == []  # a member is not told
    await bot.command("indeling", "Leider", director=True)
    (note,) = notes(fake)
    assert "dit lid kan geen privéberichten" in note and "Bert" in note and "Anna" not in note, note
    await bot.command("indeling", "Leider", director=True)
    assert len(notes(fake)) == 1  # once, not per notice
    listing = await bot.command("leden", "Leider", director=True)
    assert flags(listing) & EPHEMERAL
    rows = {line.split()[0]: line for line in shown(content(listing)).splitlines() if line.startswith(("Anna", "Bert"))}
    assert rows["Bert"].endswith("kan niet") and not rows["Anna"].endswith("kan niet"), rows
    assert "1 lid kan" not in content(listing) and "Eén lid kan geen privéberichten" in shown(content(listing))
    # Bert opens his direct messages: the next notice goes, and the list no longer names him
    fake.closed_dms.clear()
    club = await bot.commands.store.club_by_external("discord", str(bot.client.guilds[0].id))
    assert club is not None
    await bot.commands.store.queue_announcement(club.id, None, "notice:bert", "Herinnering", bot.clock.now(), recipient=str(USERS["Bert"]))
    await bot.alarm.run_due()
    assert direct_messages(fake, "Bert") == ["Herinnering"]
    listing = await bot.command("leden", "Leider", director=True)
    assert "kan niet" not in content(listing)


async def test_a_long_private_notice_is_split_into_several_messages_not_cut(bot: Harness, fake: FakeDiscord) -> None:
    await season_with_players(bot)
    await linked_with_notices(bot, "Anna")
    club = await bot.commands.store.club_by_external("discord", str(bot.client.guilds[0].id))
    assert club is not None
    body = "\n".join(f"Regel {i:03d} " + "x" * 60 for i in range(80))  # about 5,600 characters
    await bot.commands.store.queue_announcement(club.id, None, "notice:lang", body, bot.clock.now(), recipient=str(USERS["Anna"]))
    await bot.alarm.run_due()
    messages = direct_messages(fake, "Anna")
    assert len(messages) == 3 and all(len(m) <= 2000 for m in messages)
    assert "\n".join(messages).splitlines() == body.splitlines()
