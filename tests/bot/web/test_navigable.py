"""Finding one's way on the club's website (issue 35 §2): a menu that fits a phone with the page one is on
marked, links between a competition's rounds, the calendar feed linked from the home and the round pages
(and ``/kalender`` a page), and a sign-off form that shows the next rounds first by date, the rest folded,
with dates as people write them ("do 3 december 2026", "Thu 3 December 2026")."""

from __future__ import annotations

import asyncio
import re

import aiohttp
from selenium import webdriver
from selenium.webdriver.common.by import By

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok
from tests.bot.web.conftest import a_club_with_everything

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
COMPUTER = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


def current(body: str) -> list[str]:
    """The texts of the menu's links marked as the page one is on."""
    return re.findall(r'<a href="[^"]*" aria-current="page"[^>]*>([^<]*)</a>', body[: body.index("</header>")])


async def test_the_menu_fits_a_phone_and_marks_the_page(commands: Core, site: str, chrome: webdriver.Chrome) -> None:
    club, _, _ = await a_club_with_everything(commands)
    base = f"{site}/c/{club}"

    def look(url: str, metrics: dict[str, object]) -> tuple[int, str, list[str]]:
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        chrome.get(url)
        menu = chrome.find_element(By.TAG_NAME, "nav")
        marked = [a.text for a in chrome.find_elements(By.CSS_SELECTOR, "header nav a[aria-current=page]") if a.is_displayed()]
        return menu.rect["height"], menu.text, marked

    height, text, marked = await asyncio.to_thread(look, f"{base}/kruistabel", PHONE)
    assert height <= 60, (height, text)  # one line on a phone (11 links took 3 lines, then 4 at 44 px each)
    assert "Kruistabel" in text  # the closed menu names the page one is on
    # opened, every page is one tap away, and the one shown is marked
    summary = await asyncio.to_thread(chrome.find_element, By.CSS_SELECTOR, "nav summary")
    await asyncio.to_thread(summary.click)
    prizes = await asyncio.to_thread(chrome.find_element, By.LINK_TEXT, "Prijzen")
    assert await asyncio.to_thread(prizes.is_displayed)
    assert (await asyncio.to_thread(look, f"{base}/kruistabel", PHONE))[2] == []  # closed again on the next page
    height, text, marked = await asyncio.to_thread(look, f"{base}/indeling/1", COMPUTER)
    assert marked == ["Indeling"] and "Graden" in text and "Go-partijen" in text  # all in sight on a computer
    for path, page in (("", "Start"), ("stand", "Stand"), ("stand/1", "Stand"), ("rapid-indeling", "Indeling rapid"),
                       ("go", "Go-partijen"), ("graden", "Graden"), ("afmelden", "Afmelden")):  # fmt: skip
        _, body = await get(f"{base}/{path}")
        assert set(current(body)) == {page}, (path, current(body))


async def test_rounds_link_to_each_other_and_to_the_calendar(commands: Core, site: str) -> None:
    club, _, _ = await a_club_with_everything(commands)  # rounds 1 and 2 of 5 published
    base = f"/c/{club}"
    _, body = await get(f"{site}{base}/indeling/1")
    rounds = body[body.index('aria-label="Rondes"') :]
    rounds = rounds[: rounds.index("</nav>")]
    assert f'href="{base}/indeling/2"' in rounds and f'href="{base}/indeling/3"' not in rounds  # not published
    assert re.search(rf'<a href="{base}/indeling/1" aria-current="page"[^>]*>1</a>', rounds)
    assert f'<a href="{base}/indeling/2" rel="next"' in rounds and 'rel="prev"' not in rounds
    _, body = await get(f"{site}{base}/indeling")  # the current round: round 2
    assert re.search(rf'<a href="{base}/indeling/2" aria-current="page"[^>]*>2</a>', body)
    assert f'<a href="{base}/indeling/1" rel="prev"' in body and 'rel="next"' not in body
    _, body = await get(f"{site}{base}/nk-indeling/1")
    assert re.search(rf'<a href="{base}/nk-indeling/1" aria-current="page"[^>]*>1</a>', body)
    # the calendar: the feed linked from the home and the round pages, /kalender a page that links it
    for path in ("", "indeling", "indeling/1", "rapid-indeling"):
        status, body = await get(f"{site}{base}/{path}")
        assert f'href="{base}/kalender.ics"' in body, path
    status, body = await get(f"{site}{base}/kalender")
    assert status == 200 and f'href="{base}/kalender.ics"' in body and f"{site}{base}/kalender.ics" in body
    assert (await get(f"{site}{base}/kalender.ics"))[0] == 200


async def test_the_form_shows_the_next_rounds_first(commands: Core, site: str, chrome: webdriver.Chrome) -> None:
    """28 rounds and a rapid season: the next three by date (the rapid round between the first two) are
    open, the other 27 are folded; dates as "do 3 december 2026", in English "Thu 3 December 2026"."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=28")
    await ok(commands, DIRECTOR, "/seizoen naam=R1 start=2026-12-09 soort=rapid rondes=2")
    for line in ("Anna 2100", "Bert 2000"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await ok(commands, DIRECTOR, "/speler Anna 2100 rapid")
    anna = actor("Anna")
    await link(commands, anna)
    await ok(commands, DIRECTOR, "/website aan")
    reply = await commands.handle(anna, "/website link")
    url = reply.text[reply.text.index(site) :].split()[0]

    def form(metrics: dict[str, object]) -> tuple[list[str], list[str], int, int]:
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        chrome.get(url)
        shown = [h.text for h in chrome.find_elements(By.CSS_SELECTOR, "main > section.round h3")]
        folded = [h.get_attribute("textContent") for h in chrome.find_elements(By.CSS_SELECTOR, "details section.round h3")]
        buttons = [b for b in chrome.find_elements(By.TAG_NAME, "button") if b.is_displayed()]
        return shown, folded, len(buttons), chrome.execute_script("return document.documentElement.scrollHeight")

    shown, folded, buttons, height = await asyncio.to_thread(form, PHONE)
    assert shown == ["Ronde 1 — do 3 december 2026", "Rapidcompetitie: Ronde 1 — wo 9 december 2026", "Ronde 2 — do 10 december 2026"], shown
    assert len(folded) == 27 and folded[0] == "Rapidcompetitie: Ronde 2 — wo 16 december 2026" and folded[1] == "Ronde 3 — do 17 december 2026"
    assert folded[-1] == "Ronde 28 — do 10 juni 2027"
    assert buttons == 6 and height < 2000, (buttons, height)  # was 56 buttons, 5,934 px on a phone
    await ok(commands, DIRECTOR, "/taal en")
    shown, _, _, _ = await asyncio.to_thread(form, PHONE)
    assert shown[0] == "Round 1 — Thu 3 December 2026" and shown[1].endswith("Round 1 — Wed 9 December 2026"), shown
