"""The website's side of ``/koppel lichess`` (issue 43 §1): "log in with lichess", whose rules are the core's
(``bot/core/club/lichess_link.py``).

``/c/<club>/lichess/<secret>`` (the member's link) begins a login: a fresh PKCE verifier and state (kept by
the core, the state also in an HttpOnly cookie of this browser for ``CALLBACK_PATH`` only), and sends the
browser to lichess's ``/oauth`` (response_type=code, S256, no scope; ``Lichess.authorize_url``). Lichess
sends it back to ``CALLBACK_PATH`` with ``code`` and ``state`` (or ``error``): the state must be this
browser's (the cookie) and a login under way; the code is exchanged with the login's verifier, the username
read from ``/api/account`` with the token, the token dropped. A page in the club's language says what came
of it: linked, someone else holds that account, the link expired or was used, the state does not match,
the member cancelled, lichess could not be reached or refused.
"""

from __future__ import annotations

import hmac
import logging
import re

from aiohttp import web

from bot.core.club.lichess_link import (CALLBACK_PATH, Pending, begin_login, client_id, club_of_login, finish_login,
                                        redirect_uri, take_login)  # fmt: skip
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.i18n import t
from bot.core.online.lichess import Lichess
from bot.core.online.lichess_answers import LichessError, Refused
from bot.core.storage.store import Club
from bot.web import render, style

log = logging.getLogger(__name__)

COOKIE = "clubbot_lichess"
_SECRET = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def _page(core: Core, club: Club | None, key: str, status: int, **values: str) -> web.Response:
    lang = club.language if club is not None else core.config.default_language
    response = render.page(lang, club.name if club else "clubbot", t(lang, "lichess_web_title"), [],
                           Reply(lines=(t(lang, key, **values),)), status=status,
                           look=style.look(club) if club else style.PLAIN)  # fmt: skip
    response.headers["Cache-Control"] = "no-store"
    return response


async def open_login(core: Core, club: Club, request: web.Request) -> web.StreamResponse:
    """``/c/<club>/lichess/<secret>``: a new login, and on to lichess."""
    secret = request.match_info["secret"]
    started = await begin_login(core, club, secret, core.clock.now()) if _SECRET.match(secret) else None
    uri = redirect_uri(core)
    if started is None or uri is None:
        return _page(core, club, "lichess_web_expired", 404)
    if not core.online.on:  # the operator took the token away since the link was given
        return _page(core, club, "lichess_link_online_off", 503)
    where = core.online.client().authorize_url(client_id(core), uri, started.challenge, started.state)
    response = web.Response(status=303, headers={"Location": where, "Cache-Control": "no-store"})
    seconds = max(1, int((started.until - core.clock.now()).total_seconds()))
    response.set_cookie(COOKIE, started.state, path=CALLBACK_PATH, max_age=seconds, httponly=True, samesite="Lax",
                        secure=uri.startswith("https://"))  # fmt: skip
    return response


async def come_back(core: Core, request: web.Request) -> web.StreamResponse:
    """``CALLBACK_PATH``: lichess sends the member back; the login is finished or refused, and said so."""
    state, mine = request.query.get("state", ""), request.cookies.get(COOKIE, "")
    if not state or not mine or not hmac.compare_digest(state.encode(), mine.encode()):
        club = await club_of_login(core, mine, state)  # said in its club's language; nothing is taken
        return _page(core, club, "lichess_web_state", 400)
    now = core.clock.now()
    pending = await take_login(core, state, now)
    if pending is None or pending.expired:
        return _done(_page(core, pending.club if pending else None, "lichess_web_expired", 410))
    if "error" in request.query or not request.query.get("code"):  # access_denied: the member cancelled
        return _done(_page(core, pending.club, "lichess_web_cancelled", 200))
    if not core.online.on:
        return _done(_page(core, pending.club, "lichess_link_online_off", 503))
    return _done(await _link(core, pending, request.query["code"], core.online.client()))


async def _link(core: Core, pending: Pending, code: str, lichess: Lichess) -> web.Response:
    uri = redirect_uri(core)
    assert uri is not None  # the website runs: it has an address
    try:
        token = await lichess.exchange_code(code, pending.verifier, uri, client_id(core))
        account = await lichess.account(token)  # the token is used for this alone, given back and kept nowhere
    except Refused as exc:  # a code of another login, or used: lichess does not take it
        log.info("event=lichess_login outcome=refused status=%s", exc.status)
        return _page(core, pending.club, "lichess_web_refused", 400)
    except LichessError as exc:  # down, or a 429: nothing linked, the member may try again
        log.info("event=lichess_login outcome=unavailable error=%s", exc.__class__.__name__)
        return _page(core, pending.club, "lichess_web_unavailable", 503)
    try:
        await lichess.revoke(token)
    except LichessError as exc:  # not given back: it is still kept nowhere, and expires on lichess's side
        log.info("event=lichess_login revoke=failed error=%s", exc.__class__.__name__)
    other = await finish_login(core, pending, account.username, core.clock.now())
    if other is not None:
        return _page(core, pending.club, "lichess_web_taken", 409, username=account.username, other=other)
    return _page(core, pending.club, "lichess_web_linked", 200, username=account.username, name=pending.member_name)


def _done(response: web.Response) -> web.Response:
    """The login's cookie is spent."""
    response.del_cookie(COOKIE, path=CALLBACK_PATH)
    return response
