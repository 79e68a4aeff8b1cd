"""A 150-member club on Discord: a 75-board round and its standings are announced whole, in several messages
of at most 2,000 characters, tables in code blocks narrow enough for a phone, nothing left to a file."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import datetime, timezone

from bot.adapters.discord.render import text_messages
from bot.config import Config
from bot.core.commands.context import Actor
from tests.bot.adapters.discord_markdown import CODE, live_markdown, shown
from tests.bot.adapters.fake_discord import ANNOUNCE, GUILD, FakeDiscord, Harness, Request, bot, fake  # noqa: F401
from tests.bot.adapters.discord_world import USERS

AFTER_PUBLISH = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)
LONG_NAME = "Maria Magdalena Josephina van den Heuvel-Vanderbroecke X"  # 56 characters
PHONE = 48  # characters of a code block's line a phone shows without scrolling (Discord's mobile app, ~390 pt)
NAMES = [LONG_NAME if i == 7 else f"Speler {i:03d}" for i in range(150)]


def director() -> Actor:
    return Actor("discord", str(GUILD), "Schaakclub De Toren", str(USERS["Leider"]), "Leider", True)


async def big_club(bot: Harness) -> None:
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    assert (await bot.commands.handle(director(), "/seizoen naam=S start=2026-12-03 rondes=4", limited=False)).ok
    for i, name in enumerate(NAMES):
        assert (await bot.commands.handle(director(), f"/speler {name} {2400 - i}", limited=False)).ok, name


def readable(posts: list[Request], header: str | None = None) -> str:
    """Each post within Discord's limit, inert, no file but the picture, each table under its ``header``;
    their text as one."""
    for post in posts:
        assert len(post.content) <= 2000, len(post.content)
        assert live_markdown(post.content) == [], live_markdown(post.content)
        assert all(name.endswith(".png") for name, _, _ in post.files.values()), post.files
        for block in CODE.findall(post.content):
            lines = block.strip("`").strip("\n").splitlines()
            assert max(len(line) for line in lines) <= PHONE, block
            assert header is None or lines[0].split() == header.split(), block
    return "\n".join(shown(p.content) for p in posts)


async def test_a_75_board_round_and_its_standings_are_announced_whole(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    assert len(LONG_NAME) == 56
    fake.channel_period = 1.0  # Discord's 5 posts per 5 s per channel, five times as fast
    await big_club(bot)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    posts = fake.channel_posts(ANNOUNCE)
    assert len(posts) > 1 and posts[0].content.startswith("Indeling ronde 1")
    assert [len(p.files) for p in posts] == [1] + [0] * (len(posts) - 1)  # the picture with the first
    text = readable(posts)
    for board in range(1, 76):
        assert len(re.findall(rf"^Bord {board}:", text, re.M)) == 1, board
    for name in NAMES:
        assert name in text, name

    db = sqlite3.connect(config.db_path)
    try:
        whites = [r[0] for r in db.execute("SELECT m.name FROM games g JOIN members m ON m.id = g.white_id")]
    finally:
        db.close()
    assert len(whites) == 75
    for white in whites:
        assert (await bot.commands.handle(director(), f"/uitslag \"{white}\" 1-0", limited=False)).ok, white
    await bot.alarm.run_due()
    standings = fake.channel_posts(ANNOUNCE)[len(posts) :]
    assert standings and standings[0].content.startswith("Stand S na ronde 1")
    text = readable(standings, header="#  Naam  Punten  Waarde  Gesp.")
    rows = re.findall(r"^\s*(\d+)\s+(\S.*?)\s{2,}", text, re.M)
    assert sorted(int(rank) for rank, _ in rows) == list(range(1, 151)), rows[:3]
    names = {name for _, name in rows}
    assert {n for n in NAMES if n != LONG_NAME} <= names
    (cut,) = names - set(NAMES)
    assert cut.endswith("…") and LONG_NAME.startswith(cut[:-1])


async def test_a_long_announcement_cut_short_by_a_crash_is_completed_not_repeated(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    """The bot died after the first of its messages was made: the retry finds it (the nonce long forgotten)
    and posts only the rest."""
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    body = "Mededeling\n" + "\n".join(f"Regel {i}: " + "x" * 70 for i in range(80))
    await bot.commands.store.queue_announcement(1, None, "notice", body, bot.clock.now())
    club = await bot.commands.store.club_by_external("discord", str(GUILD))
    assert club is not None
    (announcement,) = await bot.commands.store.pending_announcements()
    await bot.commands.store.mark_announcement_attempted(announcement, bot.clock.now())
    fake.nonce_window = 0.0
    # as the dying bot left it: the first of the announcement's messages is in the channel
    parts = text_messages(body)
    assert len(parts) >= 3
    first = fake.message(str(ANNOUNCE), {"content": parts[0]}, {})
    fake.history.setdefault(str(ANNOUNCE), []).append(first)
    await bot.alarm.run_due()
    made = [p.content for p in fake.channel_posts(ANNOUNCE)]
    assert made == parts[1:]
    lines = "\n".join([first["content"], *made]).splitlines()
    assert [line for line in lines if line.startswith("Regel")] == [f"Regel {i}: " + "x" * 70 for i in range(80)]
    with sqlite3.connect(config.db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0


async def test_under_the_channel_limit_no_post_and_no_reply_is_dropped(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    """Three long announcements (nine messages) meet the channel's limit, already spent by another process
    of the bot (the first post gets a 429), while seven members use commands: every message is posted once,
    in order, every member is answered (interaction answers are not under the channel's limit)."""
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    fake.channel_period = 1.0
    bodies = [f"Mededeling {n}\n" + "\n".join(f"{n}.{i} " + "x" * 80 for i in range(50)) for n in range(3)]
    for n, body in enumerate(bodies):
        await bot.commands.store.queue_announcement(1, None, f"notice-{n}", body, bot.clock.now())
    fake._posted[str(ANNOUNCE)] = [fake.now()] * fake.channel_limit
    users = ["Leider", "Anna", "Bert", "Carla", "Daan", "Eva", "Vreemde"]
    answers = await asyncio.gather(bot.alarm.run_due(), *(bot.command("help", user) for user in users))
    assert all(answer.status == 200 for answer in answers[1:])
    statuses = [p.status for p in fake.channel_posts(ANNOUNCE, created_only=False)]
    assert 429 in statuses and set(statuses) == {200, 429}, statuses
    lines = "\n".join(p.content for p in fake.channel_posts(ANNOUNCE)).splitlines()
    assert [line for line in lines if line[:1].isdigit()] == [f"{n}.{i} " + "x" * 80 for n in range(3) for i in range(50)]
    with sqlite3.connect(config.db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0
