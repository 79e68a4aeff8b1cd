"""Exactly once with Discord's file renaming: Discord keeps only ``[A-Za-z0-9_.-]`` of an uploaded file's
name (as werkzeug's ``secure_filename``; the fake does the same), so a picture is found in the channel's
history after a crash only by the name Discord gave it back."""

from __future__ import annotations

import re
import sqlite3

from bot.config import Config
from tests.bot.adapters.fake_discord import ANNOUNCE, GUILD, FakeDiscord, Harness, bot, fake  # noqa: F401

PNG = b"\x89PNG\r\n\x1a\n fake"


async def test_an_nk_picture_posted_before_a_crash_is_found_by_the_name_discord_gave_it(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    await bot.commands.store.queue_announcement(1, None, "nk:1:round:1", "NK ronde 1\nBord 1: A - B", bot.clock.now(), PNG)
    club = await bot.commands.store.club_by_external("discord", str(GUILD))
    assert club is not None
    (announcement,) = await bot.commands.store.pending_announcements()
    attempted = await bot.commands.store.mark_announcement_attempted(announcement, bot.clock.now())
    await bot.adapter.send_announcement(club, attempted)  # posted; the bot dies before it records that
    ((sent, _, _),) = fake.channel_posts(ANNOUNCE)[0].files.values()
    (kept,) = fake.history[str(ANNOUNCE)][0]["attachments"]
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", sent) and kept["filename"] == sent  # Discord keeps the name
    fake.nonce_window = 0.0
    await bot.alarm.run_due()
    assert len(fake.channel_posts(ANNOUNCE)) == 1
    with sqlite3.connect(config.db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0


def test_the_fake_renames_files_as_discord_does() -> None:
    from tests.bot.adapters.fake_discord import discord_file_name

    assert discord_file_name("nk:1:round:1-7.png") == "nk1round1-7.png"
    assert discord_file_name("Stand ronde 1.png") == "Stand_ronde_1.png"
    assert discord_file_name("../../etc/passwd") == "etc_passwd"
    assert discord_file_name("Zoë één.json") == "Zoe_een.json"
    assert discord_file_name("_.hidden.") == "hidden"


async def test_a_picture_an_earlier_version_posted_under_its_old_name_is_found_too(bot: Harness, fake: FakeDiscord) -> None:
    """Posted by a version that named it ``nk:1:round:1-1.png`` (Discord kept ``nk1round1-1.png``), then the
    bot was upgraded before it recorded the post."""
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    await bot.commands.store.queue_announcement(1, None, "nk:1:round:1", "NK ronde 1", bot.clock.now(), PNG)
    (announcement,) = await bot.commands.store.pending_announcements()
    await bot.commands.store.mark_announcement_attempted(announcement, bot.clock.now())
    old = fake.message(str(ANNOUNCE), {"content": "NK ronde 1"}, {"files[0]": ("nk:1:round:1-1.png", PNG, "image/png")})
    fake.history.setdefault(str(ANNOUNCE), []).append(old)
    fake.nonce_window = 0.0
    await bot.alarm.run_due()
    assert fake.channel_posts(ANNOUNCE) == []
