"""The sign-off form and the members' personal links (issue 17, part 2), over real HTTP on 127.0.0.1:
links unguessable and stored hashed, renewed by /website nieuw (the old one dies); the form runs
/afmelden and /aanmelden as the member (the chat sees it at once, and the form sees the chat's), refuses
after the deadline with the chat's words and changes nothing; a request without the form key, from
another site, or with any other command is refused; ``besloten`` pages only for a member's browser."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone

import aiohttp
from yarl import URL

from bot.core.commands.dispatch import Core
from bot.web.signoff import OUTCOME, outcome_cookie, read_outcome
from tests.bot.conftest import DIRECTOR, actor, dump, link, ok, refused

ANNA, BERT = actor("Anna"), actor("Bert")
DEADLINE = datetime(2026, 12, 3, 16, 0, tzinfo=timezone.utc)  # 17:00 in Amsterdam, round 1


async def a_club(commands: Core) -> int:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await link(commands, ANNA, BERT)
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    return club.id


async def personal_link(commands: Core, who=ANNA, command: str = "/website link") -> str:
    reply = await commands.handle(who, command)
    assert reply.ok and reply.private and reply.secret, reply.text
    found = re.search(r"(http://\S+/m/([A-Za-z0-9_-]+))", reply.text)
    assert found, reply.text
    return found.group(1)


def browser() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # unsafe: cookies of 127.0.0.1


async def form_of(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as response:
        return response.status, await response.text()


async def press(session: aiohttp.ClientSession, site: str, club: int, command: str, key: str | None = None,
                origin: str | None = None) -> tuple[int, str]:  # fmt: skip
    """Post one of the form's buttons, with the key the form carried unless another is given."""
    if key is None:
        _, page = await form_of(session, f"{site}/c/{club}/afmelden")
        key = re.search(r'name="sleutel" value="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
    headers = {"Origin": origin} if origin else {}
    async with session.post(
        f"{site}/c/{club}/afmelden", data={"sleutel": key, "doe": command}, headers=headers
    ) as response:
        return response.status, await response.text()


async def test_a_personal_link_is_secret_hashed_and_renewable(commands: Core, config, site: str) -> None:
    club = await a_club(commands)
    offer = await commands.handle(ANNA, "/website")
    assert [b.command for b in offer.buttons] == ["/website link"] and "/c/" in offer.text
    url = await personal_link(commands)
    secret = url.rsplit("/", 1)[1]
    assert len(secret) >= 32
    everything = repr(dump(config.db_path))
    assert (
        secret not in everything and hashlib.sha256(secret.encode()).hexdigest() in everything
    )  # only its hash
    async with browser() as session:
        async with session.get(url, allow_redirects=False) as response:
            assert response.status == 303 and response.headers["Location"] == f"/c/{club}/afmelden"
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path=/c/{club}/" in cookie
        status, page = await form_of(session, f"{site}/c/{club}/afmelden")
        assert status == 200 and "Afmelden — Anna" in page and "Ronde 1 — do 3 december 2026" in page
        assert secret not in page  # the page never shows the secret
        second = await personal_link(commands)  # a second device: both work
        assert (await form_of(session, second))[0] == 200
        await ok(commands, ANNA, "/website nieuw")  # renewed: every earlier link dies
        assert (await form_of(session, f"{site}/c/{club}/afmelden"))[0] == 403
        assert (await form_of(session, url))[0] == 404 and (await form_of(session, second))[0] == 404
    # a director hands a member without a chat account theirs; a member cannot take another's
    daan = await personal_link(commands, DIRECTOR, "/website link Daan")
    async with browser() as session:
        assert "Afmelden — Daan" in (await form_of(session, daan))[1]
    await refused(commands, ANNA, "/website link Bert", config)
    await ok(commands, DIRECTOR, "/website uit")
    await refused(commands, ANNA, "/website link", config)  # no website: no links


async def test_the_form_signs_off_as_the_chat_does_and_the_chat_sees_it(
    commands: Core, clock, config, site: str
) -> None:
    club = await a_club(commands)
    url = await personal_link(commands)
    async with browser() as session:
        await form_of(session, url)
        status, page = await press(session, site, club, "/afmelden 1")
        assert status == 200 and "Anna is afgemeld voor ronde 1 (2026-12-03)." in page
        assert "Je bent afgemeld." in page and "Weer aanmelden" in page
        assert "Voor ronde 1 (2026-12-03) ben je afgemeld" in await ok(
            commands, ANNA, "/mijn"
        )  # the chat sees it
        await ok(commands, ANNA, "/aanmelden 1")  # and the form sees the chat
        _, page = await form_of(session, f"{site}/c/{club}/afmelden")
        assert page.count("Je speelt mee.") == 5
        status, page = await press(session, site, club, "/afmelden 2 teamwedstrijd")
        assert status == 200 and "wegens een teamwedstrijd" in page
        # after the deadline: the form says so, offers nothing, and a late button changes nothing
        _, before_page = await form_of(session, f"{site}/c/{club}/afmelden")
        clock.set(DEADLINE)
        _, page = await form_of(session, f"{site}/c/{club}/afmelden")
        assert "De afmeldtermijn is voorbij" in page and 'value="/afmelden 1"' not in page
        key = re.search(r'name="sleutel" value="([0-9a-f]+)"', before_page).group(1)  # type: ignore[union-attr]
        before = dump(config.db_path)
        status, page = await press(session, site, club, "/afmelden 1", key=key)
        assert status == 200 and "afmeldtermijn" in page.lower() and "17:00" in page and "message refused" in page
        assert dump(config.db_path) == before


async def test_the_form_refuses_forged_requests_and_other_commands(commands: Core, config, site: str) -> None:
    club = await a_club(commands)
    url = await personal_link(commands)
    async with browser() as session:
        await form_of(session, url)
        before = dump(config.db_path)
        assert (await press(session, site, club, "/afmelden 1", key="0" * 64))[0] == 403  # no form key
        assert (await press(session, site, club, "/afmelden 1", origin="https://evil.example"))[0] == 403
        for other in (
            "/uitslag 1-0",
            "/afmelden 1 Bert",
            "/website nieuw",
            "/afmelden 1\n/uitslag 1-0",
            "x" * 5000,
        ):
            assert (await press(session, site, club, other))[0] == 400, other
        assert dump(config.db_path) == before
    async with browser() as stranger:  # no link opened: no form
        status, page = await form_of(stranger, f"{site}/c/{club}/afmelden")
        assert status == 403 and "persoonlijke link" in page
        async with stranger.post(f"{site}/c/{club}/afmelden", data={"doe": "/afmelden 1"}) as response:
            assert response.status == 403
        assert (await form_of(stranger, f"{site}/c/{club}/m/{'A' * 32}"))[0] == 404


async def test_members_only_pages_open_with_a_members_link(commands: Core, site: str) -> None:
    club = await a_club(commands)
    await ok(commands, DIRECTOR, "/website besloten")
    url = await personal_link(commands)
    async with browser() as session:
        assert (await form_of(session, f"{site}/c/{club}/stand"))[0] == 403
        assert (await form_of(session, url))[0] == 200
        status, page = await form_of(session, f"{site}/c/{club}/stand")
        assert status == 200 and "Stand 2026-27" in page
        assert (await form_of(session, f"{site}/c/{club}/"))[0] == 200
    other = actor("Baas", director=True, club="club-2")
    await ok(commands, other, "/seizoen naam=Ander start=2026-12-03 rondes=3")
    await ok(commands, other, "/website besloten")
    elsewhere = await commands.store.club_by_external("console", "club-2")
    assert elsewhere is not None
    async with browser() as session:  # one club's link opens nothing of another club
        await form_of(session, url)
        session.cookie_jar.update_cookies({"clubbot_lid": url.rsplit("/", 1)[1]})
        assert (await form_of(session, f"{site}/c/{elsewhere.id}/stand"))[0] == 403
        assert (await form_of(session, f"{site}/c/{elsewhere.id}/afmelden"))[0] == 403


async def test_a_member_outside_the_competition_is_offered_to_join(commands: Core, site: str) -> None:
    """An NK-only member (not in the Keizer season) is not told "you are playing": the form offers to join
    from a round, which is /aanmelden as in the chat."""
    club = await a_club(commands)
    await ok(commands, DIRECTOR, "/nk nieuw Kampioenschap")
    await ok(commands, DIRECTOR, "/nk inschrijven Eva 1500")
    url = await personal_link(commands, DIRECTOR, "/website link Eva")
    async with browser() as session:
        status, page = await form_of(session, url)
        assert status == 200 and "Je doet (nog) niet mee" in page and "Je speelt mee." not in page
        status, page = await press(session, site, club, "/aanmelden 2")
        assert status == 200 and "ronde 2" in page and page.count("Je speelt mee.") == 4  # rounds 2-5
        assert page.count("Je doet (nog) niet mee") == 1 and 'value="/aanmelden 1"' not in page


async def test_a_button_is_answered_with_a_redirect_and_its_outcome_is_shown_once(commands: Core, config, site: str) -> None:
    """Issue 45 §1: the form answered a POST with the page itself, so a reload sent the command again. Now
    a 303 to the form; the outcome travels in a signed cookie and shows on the next form only."""
    club = await a_club(commands)
    url = await personal_link(commands)
    async with browser() as session:
        _, page = await form_of(session, url)
        key = re.search(r'name="sleutel" value="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
        async with session.post(f"{site}/c/{club}/afmelden", data={"sleutel": key, "doe": "/afmelden 1"},
                                allow_redirects=False) as response:  # fmt: skip
            assert response.status == 303 and response.headers["Location"] == f"/c/{club}/afmelden"
            assert response.headers["Cache-Control"] == "no-store" and "Anna" not in await response.text()
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path=/c/{club}/" in cookie
        assert "Voor ronde 1 (2026-12-03) ben je afgemeld" in await ok(commands, ANNA, "/mijn")  # done once
        after = dump(config.db_path)
        status, page = await form_of(session, f"{site}/c/{club}/afmelden")  # the redirect followed
        assert status == 200 and "Anna is afgemeld voor ronde 1 (2026-12-03)." in page and 'role="status"' in page
        status, page = await form_of(session, f"{site}/c/{club}/afmelden")  # a reload: the form, no message
        assert status == 200 and "Anna is afgemeld" not in page and "Je bent afgemeld." in page
        assert dump(config.db_path) == after  # and nothing sent again
        status, page = await press(session, site, club, "/aanmelden 1")  # followed as a browser does
        assert status == 200 and "message" in page and "Je speelt mee." in page
        # an outcome cookie not signed for this link shows nothing
        forged = outcome_cookie("00" * 32, ("Alles is afgemeld.",), True)
        session.cookie_jar.update_cookies({OUTCOME: forged}, response_url=URL(f"{site}/c/{club}/"))
        async with session.get(f"{site}/c/{club}/afmelden") as response:
            assert response.status == 200 and "Alles is afgemeld." not in await response.text()
            assert f'{OUTCOME}=""' in response.headers["Set-Cookie"]  # it was sent, and is removed
    hashed = "ab" * 32
    value = outcome_cookie(hashed, tuple("x" * 100 for _ in range(100)), False)
    assert len(value) <= 3100 and read_outcome(hashed, value) is not None and read_outcome("cd" * 32, value) is None
    assert read_outcome(hashed, value + "0") is None and read_outcome(hashed, "") is None


async def test_the_form_and_the_pages_show_a_moved_rounds_evening(commands: Core, site: str) -> None:
    """Issue 44 §1: a free evening moves round 2 from 10 to 17 December; the form and the pages say so."""
    club = await a_club(commands)
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-10")
    url = await personal_link(commands)
    async with browser() as session:
        await form_of(session, url)
        _, page = await form_of(session, f"{site}/c/{club}/afmelden")
        assert "<h3>Ronde 2 — do 17 december 2026</h3>" in page and "10 december" not in page
        assert "<p>Afmelden tot do 17 december 2026 17:00, indeling om do 17 december 2026 18:00.</p>" in page
        assert "<h3>Ronde 5 — do 7 januari 2027</h3>" in page  # the season a week longer
        status, page = await press(session, site, club, "/afmelden 2")
        assert status == 200 and "Anna is afgemeld voor ronde 2 (2026-12-17)." in page
        _, page = await form_of(session, f"{site}/c/{club}/kalender.ics")
        assert "DTSTART:20261217T190000Z" in page and "DTSTART:20261210T190000Z" not in page
