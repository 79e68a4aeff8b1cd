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

import aiohttp
import discord

from bot.adapters.discord.channels import SNOWFLAKE_DIGITS
from bot.adapters.discord.render import UNSAFE, safe_file_name, text_messages
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


CLOSED_DMS = 50007  # Discord's "Cannot send messages to this user": the member's direct messages are closed


async def send_private(adapter: "DiscordAdapter", announcement: Announcement) -> str | None:
    """A member's private notice: to their direct messages (at least once), several messages when long. A
    member whose direct messages are closed (403, 50007) cannot get it: it is dropped (not retried for ever),
    and their account marked so that the club's directors learn it once and ``/leden`` shows it; a notice
    that goes clears the mark. Returns the last message's id."""
    assert announcement.recipient is not None
    store = adapter.core.store
    try:
        user = await adapter.client.fetch_user(int(announcement.recipient))
        view = discord.utils.MISSING
        if announcement.link is not None:  # a button that opens an address (a game on lichess), on the last part
            label, url = announcement.link
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label[:80], url=url))
        parts = text_messages(announcement.body) or [""]
        for number, part in enumerate(parts, start=1):
            last = number == len(parts)
            message = await user.send(part, allowed_mentions=discord.AllowedMentions.none(), view=view if last else discord.utils.MISSING)
    except discord.Forbidden as err:
        if err.code == CLOSED_DMS:
            await store.private_closed(announcement.club_id, announcement.recipient, adapter.core.clock.now())
        log.warning("private notice %s not delivered: %s", announcement.id, err)
        return None
    except (discord.NotFound, ValueError) as err:  # the account is gone: not retried
        log.warning("private notice %s not delivered: %s", announcement.id, err)
        return None
    await store.private_open(announcement.club_id, announcement.recipient)
    return str(message.id)


async def send_announcement(adapter: "DiscordAdapter", club: Club, announcement: Announcement) -> str | None:
    """Post to the club's channel and return the last message's id; raise if it was not posted whole (it
    stays pending and is retried)."""
    if announcement.recipient is not None:
        return await send_private(adapter, announcement)
    try:
        channel_id = int(club.channel_id or "")
    except ValueError:
        adapter.problems.note(club.id, "discord_problem_no_channel", {})
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
    except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as err:
        key, values = failure(err, channel_id)
        adapter.problems.note(club.id, key, values)
        log.warning("announcement %s not posted in channel %s: %s", announcement.id, channel_id, err)
        raise
    adapter.problems.clear(club.id)
    return posted[len(parts) - 1]


def failure(err: BaseException, channel_id: int) -> tuple[str, dict[str, object]]:
    """What a failed post means for the director (``bot/adapters/problems.py``): Discord's 403 (Missing
    Access 50001, Missing Permissions 50013: the bot's role may not post there, or it left the server), 404
    (Unknown Channel 10003), a server error, a rate limit too long to wait or no connection (Discord is
    down), else another refusal."""
    if isinstance(err, discord.Forbidden):
        return "discord_problem_forbidden", {"channel": channel_id}
    if isinstance(err, discord.NotFound):
        return "discord_problem_not_found", {"channel": channel_id}
    if isinstance(err, (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError)):
        return "discord_problem_down", {}
    if isinstance(err, discord.HTTPException) and err.status in (408, 429):
        return "discord_problem_down", {}
    return "discord_problem_other", {}


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
