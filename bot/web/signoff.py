"""A member's personal link and sign-off form (issue 17, part 2).

``/c/<club>/m/<secret>`` (the link ``/website link`` gives) checks the secret against the stored hashes,
puts it in a cookie for this club's pages only (HttpOnly, SameSite=Lax, Secure behind https) and sends
the browser on to ``/c/<club>/afmelden``, so the secret does not stay in the address bar or history. The
form lists the member's coming rounds (``Registry.web_rounds``) with a button per thing they may do; a
button posts the command line back with the form key (``web_links.form_key``: only a browser that opened
the link knows it), and the command runs as the member through ``Core.handle``: the same rules, checks,
messages and data as ``/afmelden`` and ``/aanmelden`` in the chat. Only those two commands, for the
member themselves, pass (``_ALLOWED``); a request from another site (its ``Origin``) is refused.
"""

from __future__ import annotations

import hmac
import re
from datetime import date, timedelta

from aiohttp import web

from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.registry import FormRound
from bot.core.commands.replies import Reply
from bot.core.storage.store import Club, Member
from bot.core.club.web_links import club_path, form_key, token_hash
from bot.web import render, style

COOKIE = "clubbot_lid"
COOKIE_AGE = timedelta(days=365)
_ALLOWED = re.compile(r"^/(afmelden|aanmelden) [0-9]{1,3}( teamwedstrijd)?( rapid)?$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


async def member_of_secret(core: Core, club: Club, secret: str | None) -> tuple[Member, str] | None:
    """The member a link's secret is for in this club, and the secret's hash; None for any other."""
    if not secret or not _TOKEN.match(secret):
        return None
    hashed = token_hash(secret)
    member = await core.store.member_of_web_link(club.id, hashed)
    return (member, hashed) if member is not None else None


async def visitor(core: Core, club: Club, request: web.Request) -> tuple[Member, str] | None:
    """The member whose link this browser opened (and the link's hash), or None."""
    return await member_of_secret(core, club, request.cookies.get(COOKIE))


async def open_link(core: Core, club: Club, request: web.Request, links: render.Links) -> web.Response:
    """``/c/<club>/m/<secret>``: remember the link in a cookie and go on to the form."""
    secret = request.match_info["secret"]
    if await member_of_secret(core, club, secret) is None:
        return render.page(
            club.language, club.name, t(club.language, "web_link_unknown"), links, Reply(), status=404, look=style.look(club),
        )
    response = web.Response(status=303, headers={"Location": f"{club_path(club.id)}afmelden"})
    secure = (core.config.web_base_url or "").startswith("https://")
    response.set_cookie(COOKIE, secret, path=club_path(club.id), max_age=int(COOKIE_AGE.total_seconds()),
                        httponly=True, samesite="Lax", secure=secure)  # fmt: skip
    response.headers["Cache-Control"] = "no-store"
    return response


async def show_form(core: Core, club: Club, request: web.Request, links: render.Links) -> web.StreamResponse:
    """The form (GET), or a button pressed on it (POST): checked, run as the member, the form again."""
    who = await visitor(core, club, request)
    lang = club.language
    if who is None:
        return render.page(lang, club.name, t(lang, "web_link_needed"), links, Reply(), status=403,
                           current=f"{club_path(club.id)}afmelden", look=style.look(club))  # fmt: skip
    member, hashed = who
    message: tuple[str, ...] = ()
    ok = True
    if request.method == "POST":
        fields = await request.post()
        command = str(fields.get("doe", ""))
        origin = request.headers.get("Origin")
        if not hmac.compare_digest(str(fields.get("sleutel", "")), form_key(hashed)) or (
            origin is not None and origin.partition("://")[2] != request.host
        ):
            return render.page(lang, club.name, t(lang, "web_form_forged"), links, Reply(), status=403, look=style.look(club))
        if not _ALLOWED.match(command):
            return render.page(lang, club.name, t(lang, "web_form_forged"), links, Reply(), status=400, look=style.look(club))
        actor = Actor(
            club.platform, club.external_id, club.name, f"web:{member.id}", member.name, member_id=member.id
        )
        reply = await core.handle(actor, command, limited=False)  # limited per address by the website
        message, ok = reply.lines, reply.ok
    rounds: list[FormRound] = []
    for source in core.registry.web_rounds:
        rounds += await source(core, club, member, core.clock.now())
    rounds.sort(key=lambda r: r.day or date.max)  # every competition's rounds by date (a stable sort)
    texts = {key: t(lang, f"web_form_{key}") for key in ("intro", "closed", "none")}
    return render.form(lang, club.name, t(lang, "web_form_title", name=member.name), links, texts, rounds,
                       f"{club_path(club.id)}afmelden", form_key(hashed), message, ok, status=200 if ok else 409, look=style.look(club))  # fmt: skip
