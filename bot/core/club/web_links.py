"""Members' personal links to the club's website (issue 17): the sign-off form and, for a club whose
website is for members only, every page.

``/website link`` gives the member a link with a random secret (``secrets.token_urlsafe``, 192 bits) that
only they see (privately); only its SHA-256 is stored. A member may hold ``KEEP`` links at once (a phone
and a computer); ``/website nieuw`` removes them all and gives one new one, so a link that went astray
stops working. A director gives a member without a chat account theirs with ``/website link Naam``
(privately, to hand over). The form's protection against cross-site requests is a key derived from the
link's hash (``form_key``): only a browser that opened the link knows it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member

KEEP = 5
LINK_PREFIX = "m"  # /c/<club>/m/<secret>


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def form_key(hashed: str) -> str:
    """The value the sign-off form carries back (a cross-site request cannot know it)."""
    return hmac.new(bytes.fromhex(hashed), b"clubbot sign-off form", hashlib.sha256).hexdigest()


def club_path(club_id: int) -> str:
    """Where a club's pages start on the website."""
    return f"/c/{club_id}/"


def site_base(core: Core) -> str | None:
    """The website's public address (no ``/`` at the end), or None when the operator runs no website."""
    return core.config.web_base_url or (f"http://{core.config.web_address}" if core.config.web_address else None)


def site_url(core: Core, club_id: int) -> str | None:
    """The club's public address, or None when the operator runs no website."""
    base = site_base(core)
    return f"{base}{club_path(club_id)}" if base else None


async def _member_meant(ctx: Context) -> Member:
    if ctx.args:
        if not ctx.is_director:
            raise UserError("error_usage", usage=ctx.t("usage_website"))
        return await ctx.find_member(" ".join(ctx.args))
    return ctx.require_member()


async def _new_link(core: Core, ctx: Context, renew: bool) -> Reply:
    address = site_url(core, ctx.club.id)
    if ctx.club.website == "off" or address is None:
        raise UserError("website_off")
    member = await _member_meant(ctx)
    token = secrets.token_urlsafe(24)
    if renew:
        await core.store.drop_web_links(member.id)
    await core.store.add_web_link(ctx.club.id, member.id, token_hash(token), ctx.now, KEEP)
    key = "website_link_renewed" if renew else "website_link"
    return Reply(
        lines=(ctx.t(key, name=member.name, url=f"{address}{LINK_PREFIX}/{token}"),),
        private=True,
        secret=True,
    )


async def cmd_link(core: Core, ctx: Context) -> Reply:
    """``/website link [Naam]``: a personal link (a director: for a member without a chat account)."""
    return await _new_link(core, ctx, renew=False)


async def cmd_renew(core: Core, ctx: Context) -> Reply:
    """``/website nieuw [Naam]``: the member's earlier links stop working; one new one."""
    return await _new_link(core, ctx, renew=True)
