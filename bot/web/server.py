"""The website adapter: ``start_web(core, "HOST:PORT")`` serves every club's pages.

``/c/<club id>/`` (the club's home: its coming rounds and its pages), one page per ``Registry.web_pages``
entry (``/c/<id>/stand``, ``/c/<id>/indeling[/<round>]``, ``/c/<id>/nk``, ``/c/<id>/go/<game>``, ...),
``/c/<id>/kalender.ics``, ``/c/<id>/kalender/<token>.ics`` (a member's own feed, ``/mijn kalender``),
``/c/<id>/lid/<member id>`` (a member's page: ``/kaart``), ``/c/<id>/archief[/<system>/...]`` (past
competitions: ``bot/web/archive.py``), and a member's own ``/c/<id>/m/<secret>`` and ``/c/<id>/afmelden`` (``bot/web/signoff.py``). A page is the reply of a read-only
command asked as the website (no member) in the club's language, through ``Core.handle``: the same read
path, the same reply cache and the same rules as the chat (a pairing shows from its publication, exactly
when the chat announcement goes out); or a system's own view. A club's pages exist only when its director
switched them on (``/website aan``); ``besloten``: only for a browser that opened a member's link. An
unknown club, page or round is a 404 page without a trace (the club's, with its menu, under its address); headers forbid framing and scripts; one address
asking too fast gets 429.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Awaitable, Callable

from aiohttp import web

from bot.config import ConfigError

from bot.core.commands.command_line import quote_word
from bot.core.commands.context import Actor, parse_id
from bot.core.commands.dispatch import UNAVAILABLE, Core
from bot.core.i18n import t
from bot.core.commands.registry import WebPage
from bot.core.commands.replies import Reply
from bot.core.running.open_files import kept_for_the_bot
from bot.core.storage.outage import DatabaseDown, connection_lost
from bot.core.storage.store import Club
from bot.core.club.web_links import LINK_PREFIX, club_path, site_base
from bot.core.club.lichess_link import CALLBACK_PATH, LOGIN_PREFIX
from bot.web import archive, lichess_login, render, signoff, style
from bot.web.connections import HEADER_TIMEOUT, Guard, address_key, install
from bot.web.freshness import Freshness
from bot.web.kept import Kept
from bot.web.health_routes import add_health_routes

log = logging.getLogger(__name__)

WEB_USER = "web:public"  # the website asks as nobody: it sees what any chat member may see
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self';"
    " frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # others learn nothing; the form's own POST carries its Origin
}
MAX_REST = 40  # the longest rest of a page's address: archief/keizer/<id>/indeling/<round>
RENDERED_PAGES = 512  # pages kept rendered, least recently asked out first
REQUESTS_PER_SECOND = 50  # per client address; more gets 429
BURST = 100


class Flood:
    """A token bucket per client address: a flood of requests gets 429, others are served. An address
    whose bucket has filled up again is forgotten (swept once per refill time), so a crowd of addresses
    that came once holds no memory."""

    REFILL = BURST / REQUESTS_PER_SECOND  # seconds after which an idle address's bucket is full again

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._swept = clock()

    def __len__(self) -> int:
        return len(self._buckets)

    def allow(self, address: str) -> bool:
        now = self._clock()
        if now - self._swept > self.REFILL:
            self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < self.REFILL}
            self._swept = now
        tokens, at = self._buckets.get(address, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - at) * REQUESTS_PER_SECOND)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True


def database_down() -> web.Response:
    """While the database cannot be reached: 503, and a line in both languages (the club's own cannot be
    read), with when to come back."""
    text = "\n".join(t(language, "web_database_down") for language in ("nl", "en"))
    return web.Response(status=503, text=text + "\n", headers={"Retry-After": "60"})


def _not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound(text="Not found\n")


GUARD = web.AppKey("guard", Guard)
_CLUB_PATH = re.compile(r"^/c/([^/]{1,20})(?:/|$)")  # a club's address: its 404 is the club's page


def make_app(core: Core) -> web.Application:
    flood = Flood()
    guard_of_connections = Guard(HEADERS, core.config.web_trusted_proxies, kept_for_the_bot(
        core.store.dialect == "postgresql", core.config.chat_platforms))
    pages = {p.path: p for p in (*core.registry.web_pages, archive.PAGE)}  # the archive last in the menu
    # A command page by its address (club, page, rest), kept beside what it was made of: while the reply
    # cache hands out that same reply (the season unchanged) and the club, its menu and round links are the
    # same, the page is the same bytes, sent without rendering the template again; and while the store's
    # change stamp is the one it was last found current under, sent without asking anything at all.
    rendered: OrderedDict[tuple[str, str, str], Kept] = OrderedDict()
    fresh = Freshness(core.store)

    @web.middleware
    async def guard(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not flood.allow(address_key(guard_of_connections.client(request))):
            response: web.StreamResponse = web.Response(status=429, text="Too many requests\n")
        else:
            try:
                try:
                    response = await handler(request)
                except web.HTTPNotFound:  # an unknown page, round, member, game or move: a page that says so
                    response = await not_found(request)
            except web.HTTPException as exc:  # a 403, 405: answered as a plain response
                response = web.Response(status=exc.status, text=exc.text or exc.reason)
            except Exception as exc:
                if connection_lost(exc, connecting=True):  # PostgreSQL stopped or restarting: for a while
                    guard_of_connections.throttled.log("database", "web page %s: %s", request.path, exc)
                    response = database_down()
                else:  # a bug: no trace to the visitor
                    log.exception("web page %s failed", request.path)
                    response = web.Response(status=500, text="Something went wrong\n")
        if "X-Frame-Options" not in response.headers:  # a kept page has them already
            response.headers.update(HEADERS)
        return response

    async def not_found(request: web.Request) -> web.Response:
        """A 404 as a page: under a club's address whose pages the visitor may see, the club's page in its
        language with its menu; anywhere else (no such club, its website off, members only to a stranger)
        a plain page in the bot's default language that names no club."""
        match = _CLUB_PATH.match(request.path)
        number = parse_id(match[1]) if match else None
        club = await core.store.club(number) if number is not None else None
        if club is not None and (club.website == "on" or (
            club.website == "members" and await signoff.visitor(core, club, request) is not None
        )):
            lang = club.language
            return render.page(lang, club.name, t(lang, "web_not_found_title"), await links(club),
                               Reply(lines=(t(lang, "web_not_found"),)), status=404, look=style.look(club))  # fmt: skip
        lang = core.config.default_language
        return render.page(lang, "", t(lang, "web_not_found_title"), [], Reply(lines=(t(lang, "web_not_found_plain"),)),
                           status=404)  # fmt: skip

    async def club_of(request: web.Request, personal: bool = False) -> Club:
        """The club in the path, when its website is on; for ``besloten``, only to a member's browser
        (``personal``: the link and the form, which check the member themselves)."""
        text = request.match_info["club"]
        number = parse_id(text)
        club = await core.store.club(number) if number is not None else None
        if club is None or club.website == "off":
            raise _not_found()
        if club.website == "members" and not personal and await signoff.visitor(core, club, request) is None:
            raise web.HTTPForbidden(
                text=t(club.language, "web_members_only") + " " + t(club.language, "web_link_needed") + "\n"
            )
        return club

    async def ask(club: Club, command: str) -> Reply:
        """A read-only command for the club, asked as the website (no member; limited by address above)."""
        reply = await core.handle(
            Actor(club.platform, club.external_id, club.name, WEB_USER, "web"), command, limited=False
        )
        if UNAVAILABLE in reply.extra:  # the database out of reach: the page says so (503), not "not found"
            raise DatabaseDown(reply.text)
        return reply

    async def links(club: Club) -> render.Links:
        asked: dict[object, bool] = {}  # one answer per question: four Keizer pages ask "a season?"

        async def answer(question: archive.Shown) -> bool:
            if question not in asked:
                asked[question] = await question(core, club)
            return asked[question]

        shown = [p for p in core.registry.web_pages if p.shown is None or await answer(p.shown)]
        if await archive.has_any(core, club, answer):  # asks only the systems the menu found in use
            shown.append(archive.PAGE)
        home = [(club_path(club.id), t(club.language, "web_link_home"))]
        return home + [(f"{club_path(club.id)}{p.path}", t(club.language, p.label)) for p in shown] + [
            (f"{club_path(club.id)}afmelden", t(club.language, "web_link_form"))
        ]

    async def round_links(club: Club, wanted: WebPage, rest: str) -> render.Rounds | None:
        """A round's page links to every round there is, the previous and the next one."""
        numbers = await wanted.rounds(core, club) if wanted.rounds is not None else []
        if not numbers:
            return None
        shown = int(rest) if rest.isdigit() else numbers[-1]
        path = f"{club_path(club.id)}{wanted.path}/"
        before = [n for n in numbers if n < shown]
        after = [n for n in numbers if n > shown]
        return render.Rounds([(n, f"{path}{n}") for n in numbers], shown,
                             f"{path}{before[-1]}" if before else "", f"{path}{after[0]}" if after else "")  # fmt: skip

    def calendar_link(club: Club, menu: render.Links) -> render.Links:
        """The season calendar to subscribe to, linked where the rounds are: while the menu has its page."""
        if not any(href == f"{club_path(club.id)}kalender" for href, _ in menu):
            return []
        return [(f"{club_path(club.id)}kalender.ics", t(club.language, "web_calendar_download"))]

    async def home(request: web.Request) -> web.StreamResponse:
        club = await club_of(request)
        lines = [t(club.language, "web_home")]
        for source in core.registry.web_rounds:
            for coming in await source(core, club, None, core.clock.now()):
                title = f"{coming.competition}: {coming.title}" if coming.competition else coming.title
                lines.append(t(club.language, "web_home_signed_off", title=title, when=coming.when, count=coming.signed_off))
        menu = await links(club)
        return render.page(
            club.language,
            club.name,
            t(club.language, "web_home_title"),
            menu,
            Reply(lines=tuple(lines)),
            current=club_path(club.id),
            more=calendar_link(club, menu), look=style.look(club),
        )

    async def calendar(request: web.Request) -> web.StreamResponse:
        """The season calendar, to subscribe to on a phone (``/kalender``)."""
        club = await club_of(request)
        feed = await ask(club, "/kalender")
        if not feed.ok or feed.attachment is None:
            raise _not_found()
        return web.Response(body=feed.attachment[1], content_type="text/calendar", charset="utf-8")

    async def own_calendar(request: web.Request) -> web.StreamResponse:
        """A member's own calendar feed (``/mijn kalender``): the secret in the address is the key, so a
        calendar app without the member's cookie reads it, of a members-only club too."""
        club = await club_of(request, personal=True)
        member = await core.registry.member_of_feed(core, club.id, request.match_info["token"])
        if member is None:
            raise _not_found()
        actor = Actor(club.platform, club.external_id, club.name, f"web:{member.id}", member.name, member_id=member.id)
        feed = await core.handle(actor, "/kalender mijn", limited=False)
        if UNAVAILABLE in feed.extra:
            raise DatabaseDown(feed.text)
        if not feed.ok or feed.attachment is None:
            raise _not_found()
        return web.Response(body=feed.attachment[1], content_type="text/calendar", charset="utf-8",
                            headers={"Cache-Control": "no-store"})  # fmt: skip

    async def page(request: web.Request) -> web.StreamResponse:
        stamp = await fresh.stamp()  # taken first: what is read below is at least as new
        rest = request.match_info.get("rest", "")
        key = (request.match_info["club"], request.match_info["page"], rest)
        made = rendered.get(key)
        if made is not None and made.stamp == stamp and (not made.members_only or await club_of(request)):
            rendered.move_to_end(key)  # nothing written since it was found current: the same page
            return made.response(request)
        club = await club_of(request)
        wanted = pages.get(request.match_info["page"])
        if wanted is None or len(rest) > MAX_REST:
            raise _not_found()
        if wanted.view is not None:
            site = core.config.web_base_url or guard_of_connections.origin(request) or site_base(core) or ""
            return await _view(club, wanted, rest, request.query, site)
        command = wanted.command
        if rest:
            if not (wanted.numbered and parse_id(rest, 3) is not None) and rest not in wanted.words:
                raise _not_found()
            command += f" {rest}"
        reply = await ask(club, command)
        menu = await links(club)
        here = f"{club_path(club.id)}{wanted.path}"
        rounds = await round_links(club, wanted, rest)
        more = calendar_link(club, menu) if wanted.rounds is not None else []
        if not reply.ok:  # no season, a round not paired (published) yet: said in words, as in the chat
            return render.page(club.language, club.name, t(club.language, wanted.label), menu, reply, status=404,
                               current=here, rounds=rounds, more=more, look=style.look(club))  # fmt: skip
        details = await wanted.details(core, club, rest) if wanted.details is not None else ()
        if made is not None and made.reply is reply and made.made_of == (club, menu, rounds, details):
            made = rendered[key] = dataclasses.replace(made, stamp=stamp)  # the chat's cached reply, unchanged
            rendered.move_to_end(key)
            return made.response(request)
        title = reply.lines[0] if reply.lines else t(club.language, wanted.label)
        names = await wanted.names(core, club) if wanted.names is not None else {
            m.name: f"lid/{m.id}" for m in await core.store.members(club.id)}  # the NK's names: their NK pages
        members = {name: f"{club_path(club.id)}{path}" for name, path in names.items()}
        shown = Reply(lines=(*details, *reply.lines[1:]), table=reply.table)
        legend = t(club.language, wanted.legend) if wanted.legend else ""
        response = render.page(club.language, club.name, title, menu, shown, cell_links=members, legend=legend,
                               current=here, rounds=rounds, more=more, look=style.look(club))  # fmt: skip
        assert isinstance(response.body, bytes)
        made = rendered[key] = Kept.of(reply, (club, menu, rounds, details), response.body, club.website == "members", HEADERS)
        rendered.move_to_end(key)
        if len(rendered) > RENDERED_PAGES:
            rendered.popitem(last=False)
        return made.response(request)

    async def _view(club: Club, wanted: WebPage, rest: str, query: Mapping[str, str], site: str) -> web.StreamResponse:
        assert wanted.view is not None
        content = await wanted.view(core, club, rest, query, site)
        if content is None:
            raise _not_found()
        if content.file is not None:
            name, body, kind = content.file
            return web.Response(
                body=body,
                content_type=kind,
                headers={"Content-Disposition": f'attachment; filename="{name}"'},
            )
        cells = {text: f"{club_path(club.id)}{path}" for text, path in content.links}
        in_table = {c for row in (content.reply.table.rows if content.reply.table else ()) for c in row}
        more = [(href, text) for text, href in cells.items() if text not in in_table]
        return render.page(club.language, club.name, content.title, await links(club), content.reply,
                           cell_links=cells, svg=content.svg, more=more, current=f"{club_path(club.id)}{wanted.path}", look=style.look(club),
                           legend=content.legend)  # fmt: skip

    async def member_page(request: web.Request) -> web.StreamResponse:
        """A member's page: their games, colours and score per round, and performance (``/kaart Naam``)."""
        club = await club_of(request)
        wanted = request.match_info["member"]
        number = parse_id(wanted)
        member = await core.store.member(number) if number is not None else None
        if member is None or member.club_id != club.id:  # another club's member: not here
            raise _not_found()
        menu = await links(club)
        reply = await ask(club, f"/kaart {quote_word(member.name)}")  # any name, quotes and all, as one word
        if not reply.ok:
            return render.page(club.language, club.name, member.name, menu, reply, status=404, look=style.look(club))
        history = await ask(club, "/verloop")
        places = next(
            (
                row[1:]
                for row in (history.table.rows if history.ok and history.table else ())
                if row[0] == member.name
            ),
            (),
        )
        plot = render.rank_plot(
            club.language, [int(p) if p.isdigit() else None for p in places], len(history.table.rows) if history.table else 0
        )
        return render.page(
            club.language,
            club.name,
            reply.lines[0],
            menu,
            Reply(lines=reply.lines[1:], table=reply.table),
            svg=plot, look=style.look(club),
        )

    async def logo(request: web.Request) -> web.StreamResponse:
        """The club's logo: the PNG the bot made of it (``/website stijl logo``), kept by the browser for a
        year (its address changes with the logo: ``bot/web/style.py``)."""
        club = await club_of(request)
        image = await core.store.club_logo(club.id) if club.logo is not None else None
        if image is None:
            raise _not_found()
        headers = {"ETag": f'"{club.logo}"', "Cache-Control": style.logo_caching(club)}
        if request.headers.get("If-None-Match") == headers["ETag"]:
            return web.Response(status=304, headers=headers)
        return web.Response(body=image, content_type="image/png", headers=headers)

    async def personal_link(request: web.Request) -> web.StreamResponse:
        club = await club_of(request, personal=True)
        return await signoff.open_link(core, club, request, await links(club))

    async def form(request: web.Request) -> web.StreamResponse:
        club = await club_of(request, personal=True)
        return await signoff.show_form(core, club, request, await links(club))

    # "log in with lichess" (/koppel lichess): a member's own link, whatever the club's pages are set to
    async def lichess_link(request: web.Request) -> web.StreamResponse:
        number = parse_id(request.match_info["club"])
        club = await core.store.club(number) if number is not None else None
        if club is None:
            raise _not_found()
        return await lichess_login.open_login(core, club, request)

    async def lichess_back(request: web.Request) -> web.StreamResponse:
        return await lichess_login.come_back(core, request)

    app = web.Application(middlewares=[guard], client_max_size=16 * 1024)
    app[GUARD] = guard_of_connections
    # The systems' pages of one word first (a name of theirs, never that of a route below: checked at the
    # end): a request is matched against the routes in order, and these are most of what is asked. A
    # page's numbered form (``indeling/3``) comes after the others: a route such as ``kalender/<token>.ics``
    # shares its first word with a page.
    if pages:
        app.router.add_get(f"/c/{{club}}/{{page:{'|'.join(re.escape(path) for path in pages)}}}", page)
    app.router.add_get("/c/{club}/", home)
    app.router.add_get("/c/{club}/kalender.ics", calendar)
    app.router.add_get("/c/{club}/kalender/{token}.ics", own_calendar)
    app.router.add_get("/c/{club}/lid/{member}", member_page)
    app.router.add_get("/c/{club}/logo.png", logo)
    app.router.add_get(f"/c/{{club}}/{LINK_PREFIX}/{{secret}}", personal_link)
    app.router.add_route("GET", "/c/{club}/afmelden", form)
    app.router.add_route("POST", "/c/{club}/afmelden", form)
    app.router.add_get(f"/c/{{club}}/{LOGIN_PREFIX}/{{secret}}", lichess_link)
    app.router.add_get(CALLBACK_PATH, lichess_back)
    app.router.add_get("/c/{club}/{page}", page)  # an unknown page: its 404
    app.router.add_get("/c/{club}/{page}/{rest}", page)
    app.router.add_get(f"/c/{{club}}/{{page:{archive.PATH}}}/{{rest:[^/]+(?:/[^/]+){{1,3}}}}", page)  # archief/nk/3/stand
    add_health_routes(app, core)
    for resource in app.router.resources():
        words = resource.canonical.split("/")  # "", "c", "{club}", "afmelden"
        assert len(words) != 4 or words[3] not in pages, f"the page {words[3]} hides a route"
    return app


async def start_web(core: Core, address: str, header_timeout: float = HEADER_TIMEOUT) -> web.AppRunner:
    """Serve the websites on ``HOST:PORT`` until the runner is cleaned up. A connection has
    ``header_timeout`` seconds to send a whole request, and may stay that long idle between two."""
    host, _, port = address.rpartition(":")
    app = make_app(core)
    runner = web.AppRunner(app, access_log=None, keepalive_timeout=header_timeout)
    await runner.setup()
    install(runner, app[GUARD])
    try:
        await web.TCPSite(runner, host or "127.0.0.1", int(port)).start()
    except OSError as exc:  # a host that is not this machine's, a port in use: one line at start, not a traceback
        await runner.cleanup()
        raise ConfigError(f"the website cannot listen on {address}: {exc.strerror or exc}") from None
    log.info("club websites on http://%s/c/<club>/", address)
    return runner
