"""Announcements out: a club's announcement as one or more messages in its channel, exactly once.

A long announcement (a 75-board pairing, the standings of 150 players) is several messages
(``render.text_messages``), the picture with the first. Each message carries its own nonce (Discord drops
a repeat within a few minutes), and an announcement tried before is first looked for in the channel's
history: the bot's own messages since the club's previous announcement, the first by its picture's file
name (as Discord gives it back: only ``[A-Za-z0-9_.-]``) or its text, the others by their text; what is there is not posted again, the rest is. The
announcement's reference is its last message (the next one's history starts after it).
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.adapters.discord.channels import SNOWFLAKE_DIGITS
from bot.adapters.discord.render import MAX_CONTENT, UNSAFE, escape, safe_file_name, text_messages
from bot.core.commands.context import parse_id
from bot.core.storage.store import Announcement, Club

if TYPE_CHECKING:
    from bot.adapters.discord.adapter import DiscordAdapter

log = logging.getLogger(__name__)


def picture_name(announcement: Announcement) -> str:
    """``<kind>-<id>.png`` in the characters Discord keeps (``nk_1_round_1-7.png``), so the history shows
    it under the same name."""
    return safe_file_name(f"{announcement.kind}-{announcement.id}.png")


def picture_names(announcement: Announcement) -> set[str]:
    """The names the picture may have in the history: this version's, and what Discord made of an earlier
    version's ``nk:1:round:1-7.png`` (it drops what it does not keep: ``nk1round1-7.png``)."""
    return {picture_name(announcement), UNSAFE.sub("", f"{announcement.kind}-{announcement.id}.png")}


def nonce(announcement: Announcement, part: int) -> str:
    return f"clubbot-{announcement.id}" + (f"-{part}" if part else "")


async def send_private(adapter: "DiscordAdapter", announcement: Announcement) -> str | None:
    """A member's private notice: to their direct messages (at least once; closed DMs: dropped, logged)."""
    assert announcement.recipient is not None
    try:
        user = await adapter.client.fetch_user(int(announcement.recipient))
        view = discord.utils.MISSING
        if announcement.link is not None:  # a button that opens an address (a game on lichess)
            label, url = announcement.link
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label[:80], url=url))
        message = await user.send(escape(announcement.body)[:MAX_CONTENT], allowed_mentions=discord.AllowedMentions.none(), view=view)
    except (discord.Forbidden, discord.NotFound, ValueError) as err:  # DMs closed, gone: not retried
        log.warning("private notice %s not delivered: %s", announcement.id, err)
        return None
    return str(message.id)


async def send_announcement(adapter: "DiscordAdapter", club: Club, announcement: Announcement) -> str | None:
    """Post to the club's channel and return the last message's id; raise if it was not posted whole (it
    stays pending and is retried)."""
    if announcement.recipient is not None:
        return await send_private(adapter, announcement)
    try:
        channel_id = int(club.channel_id or "")
    except ValueError:
        adapter._problem(club, "discord_problem_no_channel", {})
        raise RuntimeError(f"club {club.id} has no Discord channel for announcements (/kanaal)")
    parts = text_messages(announcement.body) or [""]
    channel = adapter.client.get_partial_messageable(channel_id)
    try:
        posted: dict[int, str] = {}
        if announcement.attempted:
            posted = await posted_already(adapter, channel, announcement, parts)
            if posted:
                log.info("announcement %s: %d of %d messages were already posted", announcement.id, len(posted), len(parts))
        for part in range(max(posted, default=-1) + 1, len(parts)):
            files = []
            if part == 0 and announcement.image is not None:
                files.append(discord.File(io.BytesIO(announcement.image), filename=picture_name(announcement)))
            message = await channel.send(
                content=parts[part], files=files, nonce=nonce(announcement, part), suppress_embeds=True
            )
            posted[part] = str(message.id)
    except discord.Forbidden as err:
        adapter._problem(club, "discord_problem_forbidden", {"channel": channel_id})
        log.warning("no permission to post announcement %s in channel %s: %s", announcement.id, channel_id, err)
        raise
    except discord.NotFound as err:
        adapter._problem(club, "discord_problem_not_found", {"channel": channel_id})
        log.warning("channel %s of announcement %s is gone: %s", channel_id, announcement.id, err)
        raise
    except (discord.HTTPException, discord.RateLimited) as err:
        adapter._problem(club, "discord_problem_other", {"error": str(err)[:200]})
        log.warning("announcement %s not posted: %s", announcement.id, err)
        raise
    adapter._problems.pop(club.id, None)
    return posted[len(parts) - 1]


async def posted_already(
    adapter: "DiscordAdapter", channel: discord.PartialMessageable, announcement: Announcement, parts: list[str]
) -> dict[int, str]:
    """The messages of this announcement an earlier try made (part -> message id): among the bot's own
    messages in the channel since the club's previous announcement (the newest 100), oldest first, the
    first part by its picture's file name (or without a picture its text), the others by their text.
    Reading the history needs the Read Message History permission; without it the announcement is posted
    again (at least once)."""
    assert adapter.client.user is not None
    after_id = parse_id(announcement.after_ref or "", SNOWFLAKE_DIGITS)
    after = discord.Object(after_id) if after_id is not None else None
    found: dict[int, str] = {}
    try:
        newest = [m async for m in channel.history(limit=100, after=after, oldest_first=False)]
        for message in reversed(newest):
            if message.author.id != adapter.client.user.id or message.webhook_id is not None:
                continue
            part = len(found)
            if part >= len(parts):
                break
            if part == 0 and announcement.image is not None:
                mine = any(a.filename in picture_names(announcement) for a in message.attachments)
            else:
                mine = message.content == parts[part]
            if mine:
                found[part] = str(message.id)
    except discord.Forbidden as err:
        log.warning(
            "cannot read the history of channel %s (%s); announcement %s may be posted twice",
            channel.id, err, announcement.id,
        )  # fmt: skip
    return found
