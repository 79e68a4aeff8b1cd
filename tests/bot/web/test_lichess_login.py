"""``/koppel lichess`` (issue 43 §1): a member's personal, single-use, expiring link to the club's website,
which runs "log in with lichess" (OAuth2 authorization code with PKCE S256, no scope) against the strict
fake of lichess, over real HTTP with a client that follows redirects and keeps cookies as a browser does.
The username comes only from ``/api/account`` after the exchange: a member cannot end up with a username
they did not log in as (a typed one, another login's code, a forged or replayed state), two members
cannot hold one account, and no token is kept."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from yarl import URL

from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.online.pkce import challenge_of
from bot.core.running.clock import ShiftedClock
from bot.systems import make_core
from bot.web.server import start_web
from tests.bot.conftest import DIRECTOR, actor, dump, link, ok, refused, rows
from tests.bot.online.fake_lichess import FakeLichess, lichess, with_lichess  # noqa: F401  (the fixture)

ANNA, BERT = actor("Anna"), actor("Bert")


@pytest.fixture
def commands(store, config, clock: ShiftedClock, lichess: FakeLichess) -> Core:  # noqa: F811  (the fixture)
    """The bot playing online against the fake lichess (its token and address), on the fake's clock."""
    core = make_core(store, with_lichess(config, lichess), clock)
    core.online.timing = lichess.clock
    return core


@pytest.fixture
async def site(commands: Core) -> AsyncIterator[str]:
    """The club's website on 127.0.0.1, of the bot playing online."""
    runner = await start_web(commands, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    commands.config = dataclasses.replace(commands.config, web_base_url=base)
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    await ok(commands, DIRECTOR, "/speler Bert 1700")
    await link(commands, ANNA, BERT)
    try:
        yield base
    finally:
        await runner.cleanup()


def browser() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # unsafe: cookies of 127.0.0.1


async def login_link(commands: Core, who=ANNA) -> str:
    reply = await commands.handle(who, "/koppel lichess")
    assert reply.ok and reply.private and reply.secret, reply.text
    found = re.search(r"(http://\S+/lichess/[A-Za-z0-9_-]+)", reply.text)
    assert found, reply.text
    return found.group(1)


async def follow(session: aiohttp.ClientSession, url: str) -> tuple[int, str, list[aiohttp.ClientResponse]]:
    async with session.get(url) as response:
        return response.status, await response.text(), list(response.history)


async def step(session: aiohttp.ClientSession, url: str) -> str:
    """One request without following: where it sends the browser."""
    async with session.get(url, allow_redirects=False) as response:
        assert response.status in (302, 303), (response.status, await response.text())
        return response.headers["Location"]


def account(config) -> list[tuple]:
    return rows(config, "SELECT m.name, a.username, a.user_id, a.linked_by FROM lichess_accounts a"
                        " JOIN members m ON m.id = a.member_id ORDER BY m.name")  # fmt: skip


async def test_a_member_links_the_account_they_log_in_with(commands: Core, site: str, lichess: FakeLichess, config) -> None:  # noqa: F811
    lichess.add_user("AnnaDV")
    lichess.log_in_as("AnnaDV")
    url = await login_link(commands)
    async with browser() as session:
        status, page, history = await follow(session, url)
    assert status == 200, page
    assert "Gelukt: het lichess-account AnnaDV is nu gekoppeld aan Anna." in page
    assert account(config) == [("Anna", "AnnaDV", "annadv", "lichess")]
    # the way there: the site sent the browser to lichess's /oauth with a code, S256 and no scope
    sent = urlsplit(history[0].headers["Location"])
    query = {k: v[0] for k, v in parse_qs(sent.query).items()}
    assert f"{sent.scheme}://{sent.netloc}{sent.path}" == f"{lichess.url}/oauth"
    assert query["response_type"] == "code" and query["code_challenge_method"] == "S256" and "scope" not in query
    assert query["redirect_uri"] == f"{site}/lichess/terug" and query["client_id"] == site.partition("://")[2]
    assert len(query["code_challenge"]) == 43 and len(query["state"]) >= 32
    assert history[1].url.path == "/oauth" and str(history[1].headers["Location"]).startswith(f"{site}/lichess/terug?code=")
    # the member's token was given back to lichess, and no token or code is kept, nor the login's state or verifier
    assert [user for user in lichess.world.tokens.values() if user == "annadv"] == []
    assert "lio_" not in repr(dump(config.db_path)) and "liu_" not in repr(dump(config.db_path))
    assert rows(config, "SELECT COUNT(*) FROM lichess_logins") == [(0,)]
    said = await ok(commands, DIRECTOR, "/speler Anna")
    assert said.endswith("lichess AnnaDV (zelf gekoppeld door in te loggen op lichess).")
    async with browser() as session:  # the link is used up
        status, page, _ = await follow(session, url)
    assert status == 404 and "verlopen of al gebruikt" in page


async def test_a_state_that_is_not_this_browsers_is_refused(commands: Core, site: str, lichess: FakeLichess, config) -> None:  # noqa: F811
    lichess.add_user("AnnaDV")
    lichess.log_in_as("AnnaDV")
    url = await login_link(commands)
    async with browser() as anna, browser() as stranger:
        back = await step(anna, await step(anna, url))  # to lichess, and lichess's answer for the site
        state = parse_qs(urlsplit(back).query)["state"][0]
        forged = back.replace(f"state={state}", "state=" + "x" * len(state))
        status, page, _ = await follow(anna, forged)
        assert status == 400 and "de controlecode klopt niet" in page
        status, page, _ = await follow(stranger, back)  # the right answer in a browser that did not begin it
        assert status == 400 and "de controlecode klopt niet" in page
        await ok(commands, DIRECTOR, "/taal en")  # said in the club's language
        status, page, _ = await follow(stranger, back)
        assert status == 400 and "the check code does not match" in page
        await ok(commands, DIRECTOR, "/taal nl")
        assert account(config) == []
        status, page, _ = await follow(anna, back)  # the login itself is still good in Anna's browser
        assert status == 200 and "gekoppeld aan Anna" in page
        status, page, _ = await follow(anna, back)  # and is good once: its cookie is gone,
        assert status == 400 and "de controlecode klopt niet" in page
        anna.cookie_jar.update_cookies({"clubbot_lichess": state}, URL(f"{site}/lichess/terug"))  # and kept, still
        status, page, _ = await follow(anna, back)
        assert status == 410 and "verlopen of al gebruikt" in page
    assert account(config) == [("Anna", "AnnaDV", "annadv", "lichess")]


async def test_a_member_cannot_end_up_with_a_username_they_did_not_log_in_as(
    commands: Core, site: str, lichess: FakeLichess, config  # noqa: F811
) -> None:
    lichess.add_user("AnnaDV")
    assert "je typt geen gebruikersnaam" in (await refused(commands, BERT, "/koppel lichess AnnaDV", config)).lower()
    anna_url, bert_url = await login_link(commands, ANNA), await login_link(commands, BERT)
    async with browser() as anna, browser() as bert:
        lichess.log_in_as("AnnaDV")
        annas_answer = await step(anna, await step(anna, anna_url))  # Anna logged in: a code for her login
        code = parse_qs(urlsplit(annas_answer).query)["code"][0]
        to_lichess = await step(bert, bert_url)  # Bert begins his own login, and brings Anna's code back with it
        bert_state = parse_qs(urlsplit(to_lichess).query)["state"][0]
        assert parse_qs(urlsplit(to_lichess).query)["code_challenge"][0] != challenge_of("x")
        status, page, _ = await follow(bert, f"{site}/lichess/terug?code={code}&state={bert_state}")
        assert status == 400 and "Lichess heeft het inloggen niet bevestigd" in page  # another login's verifier
        assert account(config) == []
        lichess.log_in_as("AnnaDV")  # Bert's own link again, logging in as Anna would need her password:
        status, page, _ = await follow(bert, bert_url)  # whoever logs in is who gets linked
        assert status == 200 and "AnnaDV is nu gekoppeld aan Bert" in page
    assert account(config) == [("Bert", "AnnaDV", "annadv", "lichess")]


async def test_two_members_cannot_hold_one_account(commands: Core, site: str, lichess: FakeLichess, config) -> None:  # noqa: F811
    lichess.add_user("annadv")
    await ok(commands, DIRECTOR, "/speler Bert lichess=AnnaDV")
    lichess.log_in_as("annadv")
    async with browser() as session:
        status, page, _ = await follow(session, await login_link(commands))
    assert status == 409 and "het lichess-account annadv hoort in deze club al bij Bert" in page
    assert account(config) == [("Bert", "AnnaDV", "annadv", "director")]


async def test_an_expired_link_a_cancel_and_lichess_down_link_nothing(
    commands: Core, site: str, lichess: FakeLichess, config, clock: ShiftedClock  # noqa: F811
) -> None:
    lichess.add_user("AnnaDV")
    url = await login_link(commands)
    clock.advance(timedelta(hours=1, minutes=1))
    async with browser() as session:
        status, page, _ = await follow(session, url)
        assert status == 404 and "verlopen of al gebruikt" in page
        url = await login_link(commands)  # a new one
        lichess.log_in_as(None)  # the member cancels on lichess
        status, page, _ = await follow(session, url)
        assert status == 200 and "Je hebt het inloggen op lichess afgebroken" in page
        lichess.log_in_as("AnnaDV")
        back = await step(session, await step(session, url))
        lichess.fail_next(1)  # lichess is down at the exchange
        status, page, _ = await follow(session, back)
        assert status == 503 and "Lichess is nu niet bereikbaar" in page
        assert account(config) == []
        await ok(commands, DIRECTOR, "/taal en")
        status, page, _ = await follow(session, url)  # the same link, once it works
    assert status == 200 and "Done: the lichess account AnnaDV is now linked to Anna." in page


async def test_without_online_play_or_a_website_there_is_no_link(commands: Core, store, config, clock) -> None:
    offline = make_core(store, config, clock)  # no lichess token
    await ok(offline, DIRECTOR, "/speler Anna 1800")
    await link(offline, ANNA)
    assert "Online spelen staat uit op deze bot" in await refused(offline, ANNA, "/koppel lichess", config)
    assert "Deze bot heeft geen website" in await refused(commands, ANNA, "/koppel lichess", config)
    assert "wedstrijdleider" in await refused(commands, ANNA, "/koppel Bert", config)  # the rest is the director's
    assert await refused(commands, actor("Vreemde"), "/koppel lichess", config) == t("nl", "error_not_a_member")
