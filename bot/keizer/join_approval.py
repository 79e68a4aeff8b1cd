"""A club may require the director's approval for new players (issue 44 §2): ``/seizoen
aanmelden=open|goedkeuring`` (``joining=open|approval``; ``open`` by default, the running season's setting,
stored in its settings as ``ontbrekend`` and ``herinnering`` are). With ``goedkeuring`` a chat account's
``/aanmelden`` as a player new to the season joins the club but not the season: the sign-on waits
(``join_requests``), each director gets a private notice, and the player hears that they wait for approval.
The director approves by signing them on by name, ``/aanmelden Naam`` (as for any member): that enrols them
from the coming round, and the player is told. A director's own sign-on, a sign-on of a player already in
the season and the director's ``/speler`` are never held."""

from __future__ import annotations


from bot.core.commands.command_line import quote_word
from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.storage.store import Member
from bot.keizer.club_settings import club_setting, with_club_setting
from bot.keizer.formatting import for_competition
from bot.keizer.join_store import JoinStore
from bot.keizer.store import Season

APPROVAL_KEY = "joining"  # in the season's settings_json; only "approval" is stored
APPROVAL_KEYS = {"aanmelden", "joining"}  # /seizoen aanmelden=... (bot/keizer/seasons.py)
APPROVAL_VALUES = {"open": "open", "goedkeuring": "approval", "approval": "approval"}
APPROVAL_WORDS = {"aanmelden": "open|goedkeuring", "joining": "open|approval"}  # what the setting takes


def needs_approval(season: Season) -> bool:
    return club_setting(season, APPROVAL_KEY, "open") == "approval"


def with_approval_setting(settings_json: str, mode: str) -> str:
    """A season's stored settings with the ``aanmelden`` setting (``open``, the default, is not stored)."""
    return with_club_setting(settings_json, APPROVAL_KEY, mode, "open")


def held(ctx: Context, season: Season, enrol: bool) -> bool:
    """Whether this sign-on waits for the director: the season asks approval, the asker is no director, and
    the sign-on would put them in the season."""
    return enrol and needs_approval(season) and not ctx.is_director


async def hold(core: Core, ctx: Context, season: Season, member: Member) -> str:
    """Hold ``member``'s sign-on (once: a second /aanmelden tells no director again); the player's line."""
    if await JoinStore(core.store).request(season.id, member.id, ctx.now):
        body = for_competition(ctx.lang, season.kind, ctx.t("notice_join_request", name=member.name,
                                                            season=season.name, quoted=quote_word(member.name)))  # fmt: skip
        for account in await core.store.director_accounts(ctx.club.id):
            await core.store.queue_announcement(ctx.club.id, None, f"join_request:{season.id}:{member.id}:{account}",
                                                body, ctx.now, recipient=account)  # fmt: skip
    return for_competition(ctx.lang, season.kind, ctx.t("join_held", season=season.name))


async def approve(core: Core, ctx: Context, season: Season, member: Member, first_round: int) -> str | None:
    """The director signed a waiting player on: the request is settled and the player told (privately);
    the director's line, or None when the player was not waiting."""
    if not await JoinStore(core.store).settle(season.id, member.id):
        return None
    accounts = await core.store.accounts_to_notify(ctx.club.id, [member.id], reminders=True)
    if member.id in accounts:
        body = for_competition(ctx.lang, season.kind, ctx.t("notice_join_approved", season=season.name, round=first_round))
        await core.store.queue_announcement(ctx.club.id, None, f"join_approved:{season.id}:{member.id}", body, ctx.now,
                                            recipient=accounts[member.id])  # fmt: skip
    return ctx.t("join_approved", name=member.name, told=int(member.id in accounts))
