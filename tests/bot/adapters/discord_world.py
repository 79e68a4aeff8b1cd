"""The Discord world the tests' fake serves: the club's server, its channels and roles, its members, and the
payloads of their interactions, as Discord's API sends them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

BOT_ID = 900000000000000001
APP_ID = 900000000000000002
OWNER_ID = 900000000000000003
TIMESTAMP = "2026-12-01T12:00:00.000000+00:00"


def user_payload(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id), "username": name, "global_name": name, "discriminator": "0", "avatar": None,
        "bot": bot, "public_flags": 0, "flags": 0, "primary_guild": None,
    }  # fmt: skip



GUILD = 710000000000000001
GENERAL = 720000000000000001  # where the members type
ANNOUNCE = 720000000000000002  # the club's channel for announcements
READ_ONLY = 720000000000000003  # a channel where the bot's role may read but not write
DIRECTOR_ROLE = 730000000000000001
BOT_ROLE = 730000000000000002  # the bot's own role: it may read, write and post pictures
POSTING = (1 << 10) | (1 << 11) | (1 << 15)  # view channel, send messages, attach files
DM_CHANNEL = 740000000000000001
MANAGE_GUILD = 1 << 5
EPHEMERAL = 64

USERS = {name: 800000000000000000 + i for i, name in enumerate(["Leider", "Anna", "Bert", "Carla", "Daan", "Eva", "Vreemde"], 1)}
ids = itertools.count(500000000000000000)  # ids of the interactions the tests make


def role(role_id: int, name: str, permissions: int = 0) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "permissions": str(permissions), "position": 1, "color": 0, "hoist": False,
            "managed": False, "mentionable": False, "flags": 0}  # fmt: skip


def text_channel(channel_id: int, name: str, overwrites: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD), "name": name, "position": 0,
            "permission_overwrites": overwrites or [], "nsfw": False, "parent_id": None, "topic": None}  # fmt: skip


def bot_member() -> dict[str, Any]:
    """The bot as a member of the server (GET /guilds/{id}/members/{bot}): it has the bot role."""
    return {"user": user_payload(BOT_ID, "clubbot", bot=True), "roles": [str(BOT_ROLE)], "joined_at": TIMESTAMP,
            "deaf": False, "mute": False, "flags": 0, "nick": None}  # fmt: skip


def guild_payload() -> dict[str, Any]:
    """What GUILD_CREATE carries (the only intent the bot asks for is ``guilds``: of the members, only the
    bot itself)."""
    return {
        "id": str(GUILD), "name": "Schaakclub De Toren", "icon": None, "owner_id": str(USERS["Leider"]),
        "roles": [role(GUILD, "@everyone"), role(DIRECTOR_ROLE, "Wedstrijdleider"), role(BOT_ROLE, "clubbot", POSTING)],
        "channels": [
            text_channel(GENERAL, "algemeen"), text_channel(ANNOUNCE, "competitie"),
            text_channel(READ_ONLY, "mededelingen", [{"id": str(BOT_ROLE), "type": 0, "allow": "0", "deny": str(1 << 11)}]),
        ],
        "members": [bot_member()], "member_count": 7, "emojis": [], "stickers": [], "features": [], "preferred_locale": "nl",
        "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
        "mfa_level": 0, "premium_tier": 0, "nsfw_level": 0, "system_channel_flags": 0,
    }  # fmt: skip


def interaction_payload(
    kind: int,
    data: dict[str, Any],
    user: str,
    director: bool = False,
    manage_guild: bool = False,
    channel: int = GENERAL,
    dm: bool = False,
    locale: str = "nl",
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An interaction as the gateway delivers it (INTERACTION_CREATE's data), from one of ``USERS``."""
    n = next(ids)
    who = user_payload(USERS[user], user)
    payload: dict[str, Any] = {
        "id": str(n), "application_id": str(APP_ID), "type": kind, "token": f"token-{n}", "version": 1,
        "data": data, "locale": locale, "attachment_size_limit": 8 * 1024 * 1024,
        "app_permissions": str((1 << 11) | (1 << 15)), "entitlements": [],
    }  # fmt: skip
    if dm:
        payload.update(
            user=who, channel_id=str(DM_CHANNEL), context=1,
            channel={"id": str(DM_CHANNEL), "type": 1, "recipients": [who]},
        )  # fmt: skip
    else:
        payload.update(
            guild_id=str(GUILD), guild_locale="nl", channel_id=str(channel), context=0,
            channel=text_channel(channel, "algemeen" if channel == GENERAL else "competitie"),
            member={
                "user": who, "roles": [str(DIRECTOR_ROLE)] if director else [], "joined_at": TIMESTAMP,
                "deaf": False, "mute": False, "flags": 0, "nick": None,
                "permissions": str(MANAGE_GUILD if manage_guild else 0),
            },
        )  # fmt: skip
    if message is not None:
        payload["message"] = message
    return payload


@dataclass(frozen=True)
class UserOption:
    """A user option's value: one of ``USERS``, picked in Discord's user picker."""

    name: str


def slash_payload(name: str, user: str, options: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """A slash command with its options (bool, int and str values, and ``UserOption``: the picked member
    comes in ``resolved`` as Discord sends it)."""
    kinds = {bool: 5, int: 4, str: 3}
    opts, resolved = [], {}
    for k, v in (options or {}).items():
        if isinstance(v, UserOption):
            uid = str(USERS[v.name])
            opts.append({"name": k, "type": 6, "value": uid})
            resolved.setdefault("users", {})[uid] = user_payload(USERS[v.name], v.name)
            resolved.setdefault("members", {})[uid] = {
                "roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0, "nick": None,
                "permissions": "0",
            }  # fmt: skip
        else:
            opts.append({"name": k, "type": kinds[type(v)], "value": v})
    data: dict[str, Any] = {"id": str(next(ids)), "name": name, "type": 1, "options": opts}
    if resolved:
        data["resolved"] = resolved
    return interaction_payload(2, data, user, **kw)


