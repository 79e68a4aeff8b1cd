"""May a club's announcements go to a channel? (``/kanaal``, ``Core.channel_checks``.)

Only to a text channel of the club's own server in which the bot may read, write and post pictures:
never to a channel of another server, a voice channel or a category. The server's channels are in the
gateway's cache (the ``guilds`` intent); the bot's own roles are asked once over REST (the bot does not
receive member lists), then its permissions in that channel are worked out as Discord does, overwrites
included.
"""

from __future__ import annotations

import logging

import discord

from bot.core.commands.context import Actor, parse_id

SNOWFLAKE_DIGITS = 20  # a Discord id is a 64-bit number: at most 20 digits

log = logging.getLogger(__name__)


async def check_channel(client: discord.Client, actor: Actor, channel: str) -> str | None:
    """None when ``channel`` (an id) may carry the club's announcements; else why not (a message key)."""
    guild_id, channel_id = parse_id(actor.club_external_id, SNOWFLAKE_DIGITS), parse_id(channel, SNOWFLAKE_DIGITS)
    guild = client.get_guild(guild_id) if guild_id is not None else None
    target = guild.get_channel(channel_id) if guild is not None and channel_id is not None else None
    if guild is None or not isinstance(target, discord.TextChannel):
        return "error_channel_not_here"
    me: discord.Member | None = guild.me
    if me is None and client.user is not None:
        try:
            me = await guild.fetch_member(client.user.id)
        except discord.HTTPException as err:
            log.warning("could not read the bot's roles in server %s: %s", guild.id, err)
    if me is None:
        return "error_channel_bot_cannot_post"
    allowed = target.permissions_for(me)
    if not (allowed.view_channel and allowed.send_messages and allowed.attach_files):
        return "error_channel_bot_cannot_post"
    return None
