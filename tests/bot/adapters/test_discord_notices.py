"""Telling the right person, in their language (issue 46 §4), on Discord through the real discord.py against
the local fake: a director hears why the club's announcements wait only when they have failed for a few
minutes, in the club's language and without the platform's raw error; a single 503 is retried silently."""

from __future__ import annotations

from datetime import timedelta

from bot.adapters.problems import NOTICE_AFTER
from bot.config import Config
from tests.bot.adapters.fake_discord import ANNOUNCE, EPHEMERAL, FakeDiscord, Harness, bot, fake  # noqa: F401 - fixtures
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
    bot.clock.set(AFTER_PUBLISH + FEW_MINUTES)
    await bot.command("indeling", "Leider", director=True)
    (note,) = notes(fake)
    assert note.startswith("Note: the bot may not post in") and f"<#{ANNOUNCE}>" in note and "/channel" in note, note
    assert not any(raw in note for raw in RAW), note
