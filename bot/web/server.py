"""The website adapter: ``start_web(core, "HOST:PORT")`` serves every club's pages.

``/c/<club id>/`` (the club's home: its links), ``/c/<id>/stand``, ``/c/<id>/indeling[/<round>]``,
``/c/<id>/prijzen``, ``/c/<id>/kruistabel``, ``/c/<id>/kalender.ics``, ``/c/<id>/lid/<member id>`` (a
member's page: ``/kaart``). Each page is the reply of the read-only command of that name,
run through ``Core.handle`` as the website (no member) in the club's language: the same read path, the same
reply cache and the same rules as the chat (a pairing shows from its publication, exactly when the chat
announcement goes out). A club's pages exist only when its director switched them on (``/website aan``);
``besloten`` (members only) is not served yet. Every name is escaped (Jinja2's autoescape); an unknown club
or round is a 404 without a trace; headers forbid framing and scripts; one address asking too fast gets 429.
"""

from __future__ import annotations

import logging
import shlex
import time
from collections import defaultdict
from pathlib import Path
from typing import Awaitable, Callable

import jinja2
from aiohttp import web

from bot.core.context import Actor
from bot.core.dispatch import Core
from bot.core.i18n import t
from bot.core.replies import Reply
from bot.core.store import Club

log = logging.getLogger(__name__)

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,  # every value is text: a member called <script> shows as text
)
PAGES = {"stand": "/stand", "indeling": "/indeling", "prijzen": "/prijzen", "kruistabel": "/kruistabel"}
WEB_USER = "web:public"  # the website asks as nobody: it sees what any chat member may see
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
REQUESTS_PER_SECOND = 50  # per client address; more gets 429
BURST = 100


def club_path(club_id: int) -> str:
    return f"/c/{club_id}/"


class Flood:
    """A token bucket per client address: a flood of requests gets 429, others are served."""

    def __init__(self) -> None:
        self._buckets: dict[str, tuple[float, float]] = defaultdict(lambda: (float(BURST), time.monotonic()))

    def allow(self, address: str) -> bool:
        tokens, at = self._buckets[address]
        now = time.monotonic()
        tokens = min(float(BURST), tokens + (now - at) * REQUESTS_PER_SECOND)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True


def make_app(core: Core) -> web.Application:
    flood = Flood()

    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not flood.allow(request.remote or "?"):
            response: web.StreamResponse = web.Response(status=429, text="Too many requests\n")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:  # a 404, 403: answered as a plain response
                response = web.Response(status=exc.status, text=exc.text or exc.reason)
            except Exception:  # a bug: no trace to the visitor
                log.exception("web page %s failed", request.path)
                response = web.Response(status=500, text="Something went wrong\n")
        response.headers.update(HEADERS)
        return response

    async def club_named(text: str) -> Club | None:
        return await core.store.club(int(text)) if text.isdigit() and len(text) < 12 else None

    async def ask(club: Club, command: str) -> Reply:
        """A read-only command for the club, asked as the website (no member; limited by address above)."""
        return await core.handle(Actor(club.platform, club.external_id, club.name, WEB_USER, "web"), command, limited=False)

    def links(club: Club) -> list[tuple[str, str]]:
        return [(f"{club_path(club.id)}{p}", t(club.language, f"web_link_{p}")) for p in PAGES]

    async def page(request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("page", "")
        club = await club_named(request.match_info["club"])
        if club is None or club.website == "off" or (name and name not in PAGES and name != "kalender.ics"):
            raise web.HTTPNotFound(text="Not found\n")
        if club.website == "members":
            raise web.HTTPForbidden(text=t(club.language, "web_members_only") + "\n")
        if not name:
            return _html(club.language, club.name, t(club.language, "web_home_title"), links(club), Reply(lines=(t(club.language, "web_home"),)))
        if name == "kalender.ics":  # the season calendar, to subscribe to on a phone
            feed = await ask(club, "/kalender")
            if not feed.ok or feed.attachment is None:
                raise web.HTTPNotFound(text="Not found\n")
            return web.Response(body=feed.attachment[1], content_type="text/calendar", charset="utf-8")
        command = PAGES[name]
        number = request.match_info.get("round", "")
        if number:
            if name != "indeling" or not number.isdigit() or len(number) > 3:
                raise web.HTTPNotFound(text="Not found\n")
            command += f" {number}"
        reply = await ask(club, command)
        if not reply.ok:  # no season, a round not paired (published) yet: said in words, as in the chat
            return _html(club.language, club.name, t(club.language, f"web_link_{name}"), links(club), reply, status=404)
        title = reply.lines[0] if reply.lines else t(club.language, f"web_link_{name}")
        members = {m.name: f"{club_path(club.id)}lid/{m.id}" for m in await core.store.members(club.id)}
        return _html(club.language, club.name, title, links(club), Reply(lines=reply.lines[1:], table=reply.table), members=members)

    async def member_page(request: web.Request) -> web.StreamResponse:
        """A member's page: their games, colours and score per round, and performance (``/kaart Naam``)."""
        wanted = request.match_info["member"]
        club = await club_named(request.match_info["club"])
        if club is None or club.website != "on" or not wanted.isdigit() or len(wanted) > 12:
            raise web.HTTPNotFound(text="Not found\n")
        member = await core.store.member(int(wanted))
        if member is None or member.club_id != club.id:  # another club's member: not here
            raise web.HTTPNotFound(text="Not found\n")
        reply = await ask(club, f"/kaart {shlex.quote(member.name)}")  # any name, quotes and all, as one word
        if not reply.ok:
            return _html(club.language, club.name, member.name, links(club), reply, status=404)
        history = await ask(club, "/verloop")
        places = next((row[1:] for row in (history.table.rows if history.ok and history.table else ()) if row[0] == member.name), ())
        plot = rank_plot([int(p) if p.isdigit() else None for p in places], len(history.table.rows) if history.table else 0)
        return _html(club.language, club.name, reply.lines[0], links(club), Reply(lines=reply.lines[1:], table=reply.table), plot=plot)

    app = web.Application(middlewares=[guard], client_max_size=64 * 1024)
    app.router.add_get("/c/{club}/lid/{member}", member_page)  # before the general pattern below
    app.router.add_get("/c/{club}/", page)
    app.router.add_get("/c/{club}/{page}", page)
    app.router.add_get("/c/{club}/{page}/{round}", page)
    return app


def rank_plot(places: list[int | None], players: int, width: int = 560, height: int = 200) -> str:
    """A member's place after each round as an SVG line (first place at the top); '' without data. Only
    numbers go into it: nothing a member typed."""
    points = [(i, p) for i, p in enumerate(places) if p is not None]
    if len(points) < 2 or players < 1:
        return ""
    pad = 24
    step = (width - 2 * pad) / max(1, len(places) - 1)

    def y(place: int) -> float:
        return pad + (height - 2 * pad) * (place - 1) / max(1, players - 1)

    line = " ".join(f"{pad + i * step:.1f},{y(p):.1f}" for i, p in points)
    dots = "".join(f'<circle cx="{pad + i * step:.1f}" cy="{y(p):.1f}" r="3"/>' for i, p in points)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' role="img"><rect width="{width}" height="{height}" fill="#fafafa"/>'
        f'<text x="4" y="{pad - 8}" font-size="11">1</text><text x="4" y="{height - 8}" font-size="11">{players}</text>'
        f'<polyline points="{line}" fill="none" stroke="#333" stroke-width="2"/><g fill="#333">{dots}</g></svg>'
    )


def _html(
    lang: str, club: str, title: str, links: list[tuple[str, str]], reply: Reply, status: int = 200,
    members: dict[str, str] | None = None, plot: str = "",
) -> web.Response:
    """``members``: a member's name -> their page: names in the table link to it. ``plot``: an SVG made
    of numbers only (``rank_plot``), put in as it is."""
    body = TEMPLATES.get_template("base.html").render(
        lang=lang, club=club, title=title, links=links, lines=reply.lines, table=reply.table, members=members or {},
        plot=jinja2.utils.markupsafe.Markup(plot),
    )
    return web.Response(status=status, text=body, content_type="text/html", charset="utf-8")


async def start_web(core: Core, address: str) -> web.AppRunner:
    """Serve the websites on ``HOST:PORT`` until the runner is cleaned up."""
    host, _, port = address.rpartition(":")
    runner = web.AppRunner(make_app(core), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host or "127.0.0.1", int(port)).start()
    log.info("club websites on http://%s/c/<club>/", address)
    return runner
