"""A member's personal link and sign-off form (issue 17, part 2).

``/c/<club>/m/<secret>`` (the link ``/website link`` gives) checks the secret against the stored hashes,
puts it in a cookie for this club's pages only (HttpOnly, SameSite=Lax, Secure behind https) and sends
the browser on to ``/c/<club>/afmelden``, so the secret does not stay in the address bar or history. The
form lists the member's coming rounds (``Registry.web_rounds``) with a button per thing they may do; a
button posts the command line back with the form key (``web_links.form_key``: only a browser that opened
the link knows it), and the command runs as the member through ``Core.handle``: the same rules, checks,
messages and data as ``/afmelden`` and ``/aanmelden`` in the chat. Only those two commands, for the
member themselves, pass (``_ALLOWED``); a request from another site (its ``Origin``) is refused. A button
pressed is answered with a redirect (303) to the form, so a reload asks for the form and never sends the
command again; what the command answered goes along in a short-lived cookie signed with a key derived from
the link's hash (``OUTCOME``), shown by the next form once and then removed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
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
OUTCOME = "clubbot_uitkomst"  # the cookie that carries a pressed button's outcome to the next form
OUTCOME_AGE = 300  # seconds: the redirect is followed at once; a cookie left behind expires soon
OUTCOME_SIZE = 3000  # bytes of the cookie's value at most (a browser keeps 4096 a cookie): later lines left out


def _outcome_signature(hashed: str, body: str) -> str:
    key = hmac.new(bytes.fromhex(hashed), b"clubbot sign-off outcome", hashlib.sha256).digest()
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).hexdigest()


def outcome_cookie(hashed: str, lines: tuple[str, ...], ok: bool) -> str:
    """A pressed button's outcome (the command's reply lines, whether it was done) as a cookie value: its
    JSON in base64url, a dot and its HMAC under a key only this link's browser and the bot can derive."""
    while True:
        data = json.dumps({"lines": list(lines), "ok": ok}, ensure_ascii=False).encode("utf-8")
        body = base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")
        if len(body) <= OUTCOME_SIZE or not lines:
            return f"{body}.{_outcome_signature(hashed, body)}"
        lines = lines[:-1]


def read_outcome(hashed: str, value: str | None) -> tuple[tuple[str, ...], bool] | None:
    """The outcome in a cookie made by ``outcome_cookie`` for this link, or None (none, or not ours)."""
    body, _, signature = (value or "").partition(".")
    if not body or not hmac.compare_digest(signature, _outcome_signature(hashed, body)):
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        lines, ok = tuple(str(line) for line in data["lines"]), bool(data["ok"])
    except (ValueError, KeyError, TypeError):
        return None
    return lines, ok


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
    response.set_cookie(COOKIE, secret, path=club_path(club.id), max_age=int(COOKIE_AGE.total_seconds()),
                        httponly=True, samesite="Lax", secure=_secure(core))  # fmt: skip
    response.headers["Cache-Control"] = "no-store"
    return response


def _secure(core: Core) -> bool:
    return (core.config.web_base_url or "").startswith("https://")


async def show_form(core: Core, club: Club, request: web.Request, links: render.Links) -> web.StreamResponse:
    """The form (GET, with the outcome of a button pressed just before, once), or a button pressed on it
    (POST): checked, run as the member, and a redirect to the form with the outcome in a cookie."""
    who = await visitor(core, club, request)
    lang = club.language
    if who is None:
        return render.page(lang, club.name, t(lang, "web_link_needed"), links, Reply(), status=403,
                           current=f"{club_path(club.id)}afmelden", look=style.look(club))  # fmt: skip
    member, hashed = who
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
        done = web.Response(status=303, headers={"Location": f"{club_path(club.id)}afmelden", "Cache-Control": "no-store"})
        done.set_cookie(OUTCOME, outcome_cookie(hashed, reply.lines, reply.ok), path=club_path(club.id),
                        max_age=OUTCOME_AGE, httponly=True, samesite="Lax", secure=_secure(core))  # fmt: skip
        return done
    shown = read_outcome(hashed, request.cookies.get(OUTCOME))
    message, ok = shown if shown is not None else ((), True)
    rounds: list[FormRound] = []
    for source in core.registry.web_rounds:
        rounds += await source(core, club, member, core.clock.now())
    rounds.sort(key=lambda r: r.day or date.max)  # every competition's rounds by date (a stable sort)
    texts = {key: t(lang, f"web_form_{key}") for key in ("intro", "closed", "none")}
    response = render.form(lang, club.name, t(lang, "web_form_title", name=member.name), links, texts, rounds,
                           f"{club_path(club.id)}afmelden", form_key(hashed), message, ok, look=style.look(club))  # fmt: skip
    if OUTCOME in request.cookies:  # shown once (or not ours): gone
        response.del_cookie(OUTCOME, path=club_path(club.id), secure=_secure(core), httponly=True, samesite="Lax")
    return response
