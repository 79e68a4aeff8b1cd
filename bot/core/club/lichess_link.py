"""``/koppel lichess`` (``/link lichess``, issue 43 §1): a member links their own lichess account by logging
in with lichess, never by typing a username.

The member gets a personal link to the club's website (privately; a random secret of which only the
SHA-256 is kept), good for ``LOGIN_LIFETIME`` and for one login; a new ``/koppel lichess`` replaces it.
The website (``bot/web/lichess_login.py``) runs "log in with lichess": OAuth2's authorization code flow
with PKCE (S256), asking for no scope; its state is kept hashed here and in the member's browser (a cookie),
its verifier only here. When lichess sends the member back, the website exchanges the code (with the
verifier: a code another login got is refused by lichess), reads the username from ``/api/account``, and
``finish_login`` stores it for the member of the link, unless another member of the club holds that account.
The token is used to read the account, given back to lichess (revoked) and never stored. Everything here is the rule; the website only carries it out.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.club.lichess_tables import BY_LOGIN
from bot.core.club.web_links import club_path, site_base, token_hash
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.online.pkce import challenge_of, new_state, new_verifier
from bot.core.storage.store import Club

LOGIN_LIFETIME = timedelta(hours=1)
LOGIN_WORDS = ("lichess",)  # /koppel lichess
LOGIN_PREFIX = "lichess"  # /c/<club>/lichess/<secret>
CALLBACK_PATH = "/lichess/terug"  # where lichess sends the member back (the redirect_uri)


def redirect_uri(core: Core) -> str | None:
    base = site_base(core)
    return f"{base}{CALLBACK_PATH}" if base else None


def client_id(core: Core) -> str:
    """What lichess shows the member as the site asking (any identifier, lichess says: the site's address)."""
    base = site_base(core) or "clubbot"
    return base.partition("://")[2] or base


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


async def cmd_koppel_lichess(core: Core, ctx: Context) -> Reply:
    """``/koppel lichess``: the member's personal link to log in with lichess."""
    if ctx.args:  # /koppel lichess Naam: a username a member types is never trusted
        raise UserError("lichess_link_usage")
    member = ctx.require_member()
    if not core.online.on:
        raise UserError("lichess_link_online_off")
    base = site_base(core)
    if base is None:
        raise UserError("lichess_link_no_website")
    secret = secrets.token_urlsafe(24)
    until = ctx.now + LOGIN_LIFETIME
    await core.store.set_lichess_login(ctx.club.id, member.id, token_hash(secret), until)
    url = f"{base}{club_path(ctx.club.id)}{LOGIN_PREFIX}/{secret}"
    lines = [ctx.t("lichess_link", name=member.name, url=url, until=ctx.local(until))]
    current = await core.store.lichess_account(member.id)
    if current is not None:
        lines.append(ctx.t("lichess_link_replaces", username=current.username))
    return Reply(lines=tuple(lines), private=True, secret=True)


@dataclass(frozen=True)
class Started:
    """A login begun: the state (for the browser's cookie and lichess) and the S256 challenge."""

    state: str
    challenge: str
    until: datetime


async def begin_login(core: Core, club: Club, secret: str, now: datetime) -> Started | None:
    """The member's link opened: a new login (its state and verifier), or None for a link that is unknown,
    used or expired."""
    found = await core.store.lichess_login_of_link(club.id, token_hash(secret))
    if found is None or found[1] <= now:
        return None
    verifier, state = new_verifier(), new_state()
    async with core.store.transaction():
        await core.store.begin_lichess_login(found[0], _hash(state), verifier)
    return Started(state, challenge_of(verifier), found[1])


@dataclass(frozen=True)
class Pending:
    """A login lichess sent the member back from: whose, and the verifier for the code's exchange."""

    club: Club
    member_id: int
    member_name: str
    verifier: str
    expired: bool


async def club_of_login(core: Core, *states: str) -> Club | None:
    """The club of the first of these states that is a login under way (for the language of a refusal)."""
    for state in states:
        club_id = await core.store.lichess_login_club(_hash(state)) if state else None
        if club_id is not None:
            return await core.store.club(club_id)
    return None


async def take_login(core: Core, state: str, now: datetime) -> Pending | None:
    """The login of this state (taken: the same state is good once), or None."""
    async with core.store.transaction():
        taken = await core.store.take_lichess_login(_hash(state))
        if taken is None:
            return None
        club_id, member_id, until, verifier = taken
        club, member = await core.store.club(club_id), await core.store.member(member_id)
        if club is None or member is None:
            return None
        if until <= now:
            await core.store.drop_lichess_login(member_id)
    return Pending(club, member_id, member.name, verifier, until <= now)


async def finish_login(core: Core, pending: Pending, username: str, now: datetime) -> str | None:
    """The member logged in as ``username`` on lichess: it becomes theirs and the link is used up. Returns
    None when linked, or the name of the member of the club who already holds that account (nothing changes
    but the link, which is used up too)."""
    async with core.store.transaction():
        holder = await core.store.lichess_holder(pending.club.id, username)
        await core.store.drop_lichess_login(pending.member_id)
        if holder is not None and holder[0] != pending.member_id:
            return holder[1]
        await core.store.set_lichess_account(pending.club.id, pending.member_id, username, BY_LOGIN, now)
    return None
