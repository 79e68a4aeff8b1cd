"""The website's pages agree with each other and with the chat (issue 45 §1): no title ends in a colon,
a draw reads ½-½ as in the chat's sentences, every date is the club language's long date ("do 3 december
2026"), and a round not yet published has its own page that says so and when it comes."""

from __future__ import annotations

import html
import re

import aiohttp

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.conftest import a_club_with_everything

ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


async def fetch(site: str, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{site}{path}") as response:
            return response.status, await response.text()


def heading(body: str) -> tuple[str, str]:
    """The page's <title> and its main heading, as text."""
    title = html.unescape(body[body.index("<title>") + 7 : body.index("</title>")])
    start = body.index('id="title">') + len('id="title">')
    return title, html.unescape(body[start : body.index("</h", start)])


def text_of(body: str) -> str:
    """What the page shows in its main part, tags left out."""
    main = body[body.index("<main>") : body.index("</main>")]
    return html.unescape(re.sub(r"<[^>]+>", " ", main))


async def test_no_page_title_ends_in_a_colon(commands: Core, site: str) -> None:
    club, _, pages = await a_club_with_everything(commands)
    for name, path in pages.items():
        _, body = await fetch(site, f"/c/{club}/{path}")
        title, shown = heading(body)
        assert not title.split(" · ")[0].rstrip().endswith(":"), (name, title)
        assert not shown.rstrip().endswith(":"), (name, shown)
    _, body = await fetch(site, f"/c/{club}/prijzen")
    assert heading(body)[1] == "Prijzen 2026-27 na ronde 2 (meedingen vanaf 4 gespeelde rondes)"
    _, body = await fetch(site, f"/c/{club}/nk-indeling/1")
    assert heading(body)[1] == "Clubkampioenschap, ronde 1"


async def test_a_draw_reads_as_in_the_chat(commands: Core, site: str) -> None:
    club, _, _ = await a_club_with_everything(commands)
    await ok(commands, DIRECTOR, "/uitslag Carla remise 2")  # Carla - Bert in round 2
    _, body = await fetch(site, f"/c/{club}/indeling/2")
    assert "½-½" in text_of(body) and "1/2-1/2" not in body
    reported = await ok(commands, DIRECTOR, "/indeling 2 tabel")  # the chat's table says it the same way
    assert "½-½" in reported and "1/2-1/2" not in reported


async def test_every_page_writes_dates_as_the_clubs_long_date(commands: Core, site: str) -> None:
    club, _, pages = await a_club_with_everything(commands)
    for name, path in pages.items():
        if name == "indeling-niet-gepubliceerd":
            continue
        _, body = await fetch(site, f"/c/{club}/{path}")
        assert not ISO_DATE.search(heading(body)[0] + text_of(body)), (name, ISO_DATE.findall(text_of(body)))
    _, body = await fetch(site, f"/c/{club}/indeling/2")
    assert heading(body)[1] == "Indeling ronde 2 (do 10 december 2026)"
    _, body = await fetch(site, f"/c/{club}/")
    assert "Ronde 3 — do 17 december 2026. Afmelden tot do 17 december 2026 17:00" in text_of(body)
    await ok(commands, DIRECTOR, "/taal en")
    _, body = await fetch(site, f"/c/{club}/indeling/1")
    assert heading(body)[1] == "Pairings round 1 (Thu 3 December 2026)"


async def test_a_round_not_yet_published_has_its_page_saying_when(commands: Core, site: str) -> None:
    club, _, pages = await a_club_with_everything(commands)
    status, body = await fetch(site, f"/c/{club}/indeling/3")
    assert status == 200
    assert heading(body) == ("Indeling ronde 3 (do 17 december 2026) · Test club", "Indeling ronde 3 (do 17 december 2026)")
    assert "Deze ronde is nog niet gepubliceerd: de indeling verschijnt hier op do 17 december 2026 om 18:00." in text_of(body)
    assert "<table" not in body and 'href="/c/1/indeling/2" rel="prev"' in body  # the rounds that are out, linked
    status, body = await fetch(site, f"/c/{club}/rapid-indeling/2")
    assert status == 200 and "Rapid: Indeling ronde 2 (wo 16 december 2026)" in heading(body)[1]
    reply = await commands.handle(DIRECTOR, "/indeling 3")  # the chat refuses it as before, saying when
    assert not reply.ok and reply.text == "Ronde 3 is nog niet ingedeeld; de indeling verschijnt 2026-12-17 18:00."
    status, body = await fetch(site, f"/c/{club}/indeling/9")  # a round the season does not have: not found
    assert status == 404
