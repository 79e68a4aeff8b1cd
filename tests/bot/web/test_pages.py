"""The club's website (issue 17, first part): pages served by the bot on 127.0.0.1 from the same store and
commands as the chat, fetched over real HTTP: a pairing only from its publication, names escaped, 404 for
what does not exist or is switched off, the security headers, 429 for a flood."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import datetime, timedelta, timezone

import aiohttp
import pytest

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.web import server
from bot.web.server import BURST
from tests.bot.conftest import DIRECTOR, actor, ok, refused
from tests.bot.web.conftest import ANNA, a_club_with_everything

PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)


async def get(url: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text(), dict(response.headers)


async def club_with_a_season(commands: Core) -> int:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ('"<script>alert(1)</script>" 2100', "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    return club.id


async def test_the_pages_follow_the_directors_switch_and_the_publication(commands: Core, clock, config, site: str) -> None:
    club = await club_with_a_season(commands)
    status, _, _ = await get(f"{site}/c/{club}/stand")
    assert status == 404  # off until the director switches it on
    assert "geen website" in await ok(commands, DIRECTOR, "/website")
    await refused(commands, actor("Anna"), "/website aan", config)  # the director's switch
    await ok(commands, DIRECTOR, "/website aan")
    status, body, headers = await get(f"{site}/c/{club}/stand")
    assert status == 200 and "Stand 2026-27" in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body and "<script>" not in body  # escaped
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"] and headers["X-Frame-Options"] == "DENY"
    # the pairing: not before its publication, from then on as in the chat
    status, body, _ = await get(f"{site}/c/{club}/indeling")
    assert status == 200 and "nog niet gepubliceerd" in body and "18:00" in body and "<table" not in body
    clock.set(PUBLISH)

    async def send(club_row, announcement) -> None:
        return None

    await Alarm(commands, send).run_due()  # the publication minute: paired and announced
    status, body, _ = await get(f"{site}/c/{club}/indeling")
    assert status == 200 and "Indeling ronde 1" in body and "Bert" in body
    status, body, _ = await get(f"{site}/c/{club}/indeling/1")
    assert status == 200 and "Bert" in body and "1-0" not in body
    assert (await get(f"{site}/c/{club}/indeling/1"))[1] == body  # the same page again (kept rendered)
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0 1")  # a result comes in: the page shows it at once
    status, body, _ = await get(f"{site}/c/{club}/indeling/1")
    assert status == 200 and "1-0" in body
    status, body, _ = await get(f"{site}/c/{club}/stand/1")  # the standings after round 1, a group's
    assert status == 200 and "Stand 2026-27 na ronde 1" in body
    assert (await get(f"{site}/c/{club}/stand/A"))[0] == 200
    for missing in ("/c/999/stand", f"/c/{club}/onzin", f"/c/{club}/indeling/99", f"/c/{club}/stand/9", f"/c/{club}/stand/E",
                    "/c/x/", "/"):  # fmt: skip
        status, body, _ = await get(site + missing)
        assert status == 404 and "Traceback" not in body, missing
    await ok(commands, DIRECTOR, "/website besloten")
    status, _, _ = await get(f"{site}/c/{club}/stand")
    assert status == 403
    await ok(commands, DIRECTOR, "/website uit")
    assert (await get(f"{site}/c/{club}/"))[0] == 404


async def test_a_flood_from_one_address_gets_429(commands: Core, site: str, monkeypatch: pytest.MonkeyPatch) -> None:
    club = await club_with_a_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    # the bucket refills at one request a minute here: a busy machine serves fewer than 50 a second, and
    # then a flood at the real rate would never empty it; BURST is as it is
    monkeypatch.setattr(server, "REQUESTS_PER_SECOND", 1 / 60)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=16)) as session:

        async def status() -> int:
            async with session.get(f"{site}/c/{club}/") as response:
                return response.status

        first = await status()
        statuses = await asyncio.gather(*(status() for _ in range(BURST + 40)))
    assert first == 200 and 429 in statuses


async def test_the_season_calendar_to_subscribe_to(commands: Core, site: str) -> None:
    """/kalender in the chat and /c/<id>/kalender.ics on the website: an iCalendar file (RFC 5545) with one
    timed event per playing day (the club's evening, 20:00 local without /speelavond), the deadline and
    publication in the club's time, lines folded at 75 octets and CRLF-terminated, text escaped."""
    club = await club_with_a_season(commands)
    reply = await commands.handle(DIRECTOR, "/kalender")
    assert reply.ok and reply.attachment is not None and reply.attachment[0] == "2026-27.ics"
    await ok(commands, DIRECTOR, "/website aan")
    async with aiohttp.ClientSession() as session, session.get(f"{site}/c/{club}/kalender.ics") as response:
        assert response.status == 200 and response.content_type == "text/calendar"
        raw = await response.read()
    assert raw == reply.attachment[1]
    text = raw.decode("utf-8")
    lines = text.split("\r\n")
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR" and lines[-1] == ""
    assert all(len(line.encode("utf-8")) <= 75 for line in lines)
    assert text.count("BEGIN:VEVENT") == 5
    assert "DTSTART:20261203T190000Z" in text and "DTSTART:20261231T190000Z" in text
    unfolded = text.replace("\r\n ", "")
    assert "DESCRIPTION:Afmelden tot 17:00\\, indeling om 18:00." in unfolded


async def test_a_members_page_shows_their_season_and_nothing_of_another_club(commands: Core, clock, site: str) -> None:
    club = await club_with_a_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    bert = await commands.store.member_by_name(club, "Bert")
    assert bert is not None
    status, body, _ = await get(f"{site}/c/{club}/stand")
    assert f'<a href="/c/{club}/lid/{bert.id}">Bert</a>' in body  # names in the table link to their pages
    status, body, _ = await get(f"{site}/c/{club}/lid/{bert.id}")
    assert status == 200 and "Bert in 2026-27" in body and "TPR" in body, body[-600:]
    await ok(commands, DIRECTOR, r'/speler "Anna \"Ann\" Bakker" 1500')  # a double quote in a name
    ann = await commands.store.member_by_name(club, 'Anna "Ann" Bakker')
    assert ann is not None
    status, body, _ = await get(f"{site}/c/{club}/lid/{ann.id}")
    assert status == 200 and "TPR" in body
    other = actor("Baas", director=True, club="club-2")
    await ok(commands, other, "/seizoen naam=Ander start=2026-12-03 rondes=3")
    await ok(commands, other, "/speler Xander 1500")
    await ok(commands, other, "/website aan")
    xander = await commands.store.member_by_name((await commands.store.club_by_external("console", "club-2")).id, "Xander")  # type: ignore[union-attr]
    assert xander is not None
    assert (await get(f"{site}/c/{club}/lid/{xander.id}"))[0] == 404  # club 1's site never shows club 2's member
    assert (await get(f"{site}/c/{club}/lid/abc"))[0] == 404
    # after two rounds the member's page draws their place per round
    for week in range(2):
        clock.set(PUBLISH + timedelta(weeks=week))

        async def send(club_row, announcement) -> None:
            return None

        await Alarm(commands, send).run_due()
        games = await commands.store.fetch_all(
            "SELECT w.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN members w ON w.id = g.white_id"
            " WHERE r.number = ? AND w.club_id = ?", (week + 1, club))  # fmt: skip
        for (white,) in games:
            await ok(commands, DIRECTOR, f'/uitslag "{white}" 1-0 {week + 1}')
    status, body, _ = await get(f"{site}/c/{club}/lid/{bert.id}")
    assert status == 200 and "<svg" in body and "<polyline" in body


async def test_a_404_is_the_clubs_page_with_its_menu_and_outside_a_club_a_proper_page(commands: Core, site: str) -> None:
    """Issue 45 §1: an unknown page, member, game, move number or round under a club's address is the club's
    page (its language, title, menu, viewport) with a 404; a round not yet published is its own page that says so; outside any
    club (or of a club whose website is off) a plain page in the default language that names no club."""
    club, _, pages = await a_club_with_everything(commands)
    await ok(commands, DIRECTOR, "/taal en")  # the club's language, not the bot's default (nl)
    base = f"{site}/c/{club}"
    unknown = ("onzin", "lid/99999", "lid/abc", "go/99999", f"{pages['go-partij']}?zet=999", f"{pages['go-partij']}?zet=x",
               "kalender/x", "a/b/c/d", "logo.png", "stand/9", "nk-indeling/99")  # fmt: skip
    for path in unknown:
        status, body, headers = await get(f"{base}/{path}")
        assert status == 404, path
        assert headers["Content-Type"].startswith("text/html") and '<html lang="en">' in body, path
        assert '<meta name="viewport"' in body and "<title>" in body and f'href="/c/{club}/stand"' in body, path
        if path in ("stand/9", "nk-indeling/99"):  # the chat's words: there is no such round
            assert "9" in body and "There is no page" not in body, path
        else:
            assert "Not found ·" in body and "There is no page at this address" in body, path
        assert headers["X-Frame-Options"] == "DENY", path
    status, body, _ = await get(f"{base}/{pages['indeling-niet-gepubliceerd']}")  # round 3 of 5: not yet out
    assert status == 200 and f'href="/c/{club}/stand"' in body and '<html lang="en">' in body  # the round's own page
    assert "round 3" in body.lower() and "not published yet" in body and "There is no page" not in body, body
    for path in ("/", "/c/999/", "/c/999/stand", "/c/x/", "/onzin", "/c/"):
        status, body, headers = await get(site + path)
        assert status == 404 and headers["Content-Type"].startswith("text/html"), path
        assert '<html lang="nl">' in body and '<meta name="viewport"' in body and "<h1" in body, path
        assert "Niet gevonden" in body and "<nav" not in body and "/c/" not in body, path
    await ok(commands, DIRECTOR, "/website uit")  # a club whose website is off: nothing says it exists
    status, body, _ = await get(f"{base}/onzin")
    assert status == 404 and "<nav" not in body and "Niet gevonden" in body
    await ok(commands, DIRECTOR, "/website besloten")  # members only: the menu for a member's browser only
    reply = await commands.handle(ANNA, "/website link")
    personal = reply.text[reply.text.index("http") :].split()[0]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:  # cookies of 127.0.0.1
        async with session.get(personal) as response:
            assert response.status == 200  # the cookie, then the form
        async with session.get(f"{base}/a/b/c/d") as response:
            assert response.status == 404 and f'href="/c/{club}/stand"' in await response.text()
    status, body, _ = await get(f"{base}/a/b/c/d")
    assert status == 404 and "<nav" not in body


async def test_the_calendar_feeds_address_is_absolute_without_a_base_url(commands: Core, site: str) -> None:
    """Issue 45 §1: without ``[web] base_url`` the calendar page gave ``/c/1/kalender.ics``, which no calendar
    app accepts: the address is the request's own (scheme and host), https from a trusted proxy that says so."""
    club = await club_with_a_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    commands.config = dataclasses.replace(commands.config, web_base_url=None)
    feed = f"/c/{club}/kalender.ics"
    status, body, _ = await get(f"{site}/c/{club}/kalender")
    assert status == 200 and f"<p>{site}{feed}</p>" in body
    async with aiohttp.ClientSession() as session:
        headers = {"Host": "schaak.example.org", "X-Forwarded-Proto": "https"}  # not from a trusted proxy: http
        async with session.get(f"{site}/c/{club}/kalender", headers=headers) as response:
            assert f"<p>http://schaak.example.org{feed}</p>" in await response.text()
    commands.config = dataclasses.replace(commands.config, web_trusted_proxies=("127.0.0.1",))
    runner = await server.start_web(commands, "127.0.0.1:0")  # behind a proxy the operator trusts
    try:
        behind = f"http://127.0.0.1:{runner.addresses[0][1]}/c/{club}/kalender"
        async with aiohttp.ClientSession() as session:
            async with session.get(behind, headers=headers) as response:
                assert f"<p>https://schaak.example.org{feed}</p>" in await response.text()
            async with session.get(behind, headers={"Host": "schaak.example.org"}) as response:
                assert f"<p>http://schaak.example.org{feed}</p>" in await response.text()
    finally:
        await runner.cleanup()
    commands.config = dataclasses.replace(commands.config, web_base_url="https://club.example.org")
    assert f"<p>https://club.example.org{feed}</p>" in (await get(f"{site}/c/{club}/kalender"))[1]  # configured: that
