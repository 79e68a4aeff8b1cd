"""The website in a real browser: Debian's headless Chromium driven by Selenium at a phone's width (issue
17). A round's pairing page before and after its publication, the standings fitting the phone (a
screenshot checked for what it shows), the calendar feed as the browser downloads it, a member's page
reached by clicking their name; a member's personal link, a sign-off through the form that the chat then
shows, and the form after the deadline. Chromium and chromedriver come from ``scripts/install.sh --test``;
without them these tests fail and say so."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.web.server import start_web
from tests.bot.conftest import DIRECTOR, actor, link, ok
from tests.bot.web.conftest import a_club_with_an_archive, worker_chromium

PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)
DEADLINE = datetime(2026, 12, 3, 16, 0, tzinfo=timezone.utc)  # 17:00 in Amsterdam


@pytest.fixture
def browser(_one_chromium: dict[bool, webdriver.Chrome]) -> Iterator[webdriver.Chrome]:
    """Chromium started as a phone: the worker's one, as a new one would be (conftest's ``worker_chromium``)."""
    yield from worker_chromium(_one_chromium, phone=True)


async def in_browser(chrome: webdriver.Chrome, url: str) -> str:
    """Load ``url`` (the blocking driver runs in a thread, so the bot keeps serving) and return the text."""
    await asyncio.to_thread(chrome.get, url)
    return await asyncio.to_thread(lambda: chrome.find_element(By.TAG_NAME, "body").text)


async def test_a_rounds_life_in_a_phone_browser(commands: Core, clock, browser: webdriver.Chrome, tmp_path: Path) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800", '"Zoë Ødegaard" 1700', "Eva 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    runner = await start_web(commands, "127.0.0.1:0")
    commands.config = dataclasses.replace(commands.config, web_base_url=f"http://127.0.0.1:{runner.addresses[0][1]}")
    await ok(commands, DIRECTOR, "/website aan")  # a bot that serves a website
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    base = f"http://127.0.0.1:{runner.addresses[0][1]}/c/{club.id}"
    try:
        before = await in_browser(browser, f"{base}/indeling")
        assert "Bord" not in before and "18:00" in before  # not before its publication
        clock.set(PUBLISH)

        async def send(club_row, announcement) -> None:
            return None

        await Alarm(commands, send).run_due()
        after = await in_browser(browser, f"{base}/indeling")
        assert "Indeling ronde 1" in after and "Anna" in after
        standings = await in_browser(browser, f"{base}/stand")
        assert "Stand 2026-27" in standings and "Zoë Ødegaard" in standings
        shot = Image.open(io.BytesIO(await asyncio.to_thread(browser.get_screenshot_as_png)))
        assert shot.size[0] == 390 * 3  # a phone's width (device pixels)
        dark = sum(shot.convert("L").point(lambda v: 255 if v < 100 else 0).histogram()[255:])
        assert dark > 2000  # text was drawn, not an empty page
        width = await asyncio.to_thread(browser.execute_script, "return document.documentElement.scrollWidth")
        wide = await asyncio.to_thread(browser.execute_script,
            "return [...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > 400).map(e => e.tagName + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)")  # fmt: skip
        assert width <= 420, wide  # the table fits the phone without sideways scrolling
        # the calendar feed a phone subscribes to: the browser fetches it as a file
        folder = tmp_path / "downloads"
        folder.mkdir()
        await asyncio.to_thread(browser.execute_cdp_cmd, "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
        await asyncio.to_thread(browser.get, f"{base}/kalender.ics")
        for _ in range(50):
            files = [f for f in folder.iterdir() if f.suffix == ".ics"]
            if files:
                break
            await asyncio.sleep(0.1)
        assert files, list(folder.iterdir())
        feed = files[0].read_text(encoding="utf-8")
        assert feed.startswith("BEGIN:VCALENDAR") and feed.count("BEGIN:VEVENT") == 5
        await in_browser(browser, f"{base}/stand")
        link = await asyncio.to_thread(browser.find_element, By.LINK_TEXT, "Bert")
        await asyncio.to_thread(link.click)
        page = await asyncio.to_thread(lambda: browser.find_element(By.TAG_NAME, "body").text)
        assert "Bert in 2026-27" in page and "TPR" in page
    finally:
        await runner.cleanup()


async def test_signing_off_through_the_form_in_a_phone_browser(commands: Core, clock, browser: webdriver.Chrome) -> None:
    """A member opens their personal link, presses "Afmelden" for round 1; the chat shows it at once. Past
    the deadline the form says so and has no buttons left."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    anna = actor("Anna")
    await link(commands, anna)
    runner = await start_web(commands, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    commands.config = dataclasses.replace(commands.config, web_base_url=base)
    await ok(commands, DIRECTOR, "/website aan")  # a bot that serves a website
    try:
        reply = await commands.handle(anna, "/website link")
        url = reply.text[reply.text.index(base) :].split()[0]
        page = await in_browser(browser, url)
        assert "Afmelden — Anna" in page and "Ronde 1 — do 3 december 2026" in page
        assert "/m/" not in await asyncio.to_thread(lambda: browser.current_url)  # the secret left the address bar
        button = await asyncio.to_thread(browser.find_element, By.XPATH, "(//button[text()='Afmelden'])[1]")
        await asyncio.to_thread(button.click)
        message = await asyncio.to_thread(WebDriverWait(browser, 10).until, lambda b: b.find_element(By.CLASS_NAME, "message"))
        page = await asyncio.to_thread(lambda: message.text)
        assert "Anna is afgemeld voor ronde 1 (2026-12-03)." in page
        assert "Voor ronde 1 (2026-12-03) ben je afgemeld" in await ok(commands, anna, "/mijn")
        clock.set(DEADLINE)
        page = await in_browser(browser, f"{base}/c/{reply_club(url)}/afmelden")
        assert "De afmeldtermijn is voorbij" in page
        buttons = await asyncio.to_thread(browser.find_elements, By.XPATH, "(//section)[1]//button")
        assert buttons == []
    finally:
        await runner.cleanup()


def reply_club(url: str) -> str:
    return url.split("/c/", 1)[1].split("/", 1)[0]


async def test_an_nk_player_and_last_years_nk_reached_by_clicking_in_a_phone_browser(
    commands: Core, site: str, browser: webdriver.Chrome
) -> None:
    """Issue 45 §1: a name in the NK's standings opens that player's NK page (Jan Koster plays in no Keizer
    round), whose opponent opens theirs; the archive's NK 2025 opens its final table, its champion's page."""
    club, _ = await a_club_with_an_archive(commands)
    base = f"{site}/c/{club}"

    async def click(text: str) -> str:
        found = await asyncio.to_thread(browser.find_element, By.LINK_TEXT, text)
        await asyncio.to_thread(found.click)
        return await asyncio.to_thread(lambda: browser.find_element(By.TAG_NAME, "body").text)

    await in_browser(browser, f"{base}/nk")
    page = await click("Jan Koster")
    assert "Jan Koster in NK 2026" in page and "Startgroep 0" in page and "Kees" in page and "Ken ik niet" not in page
    page = await click("Kees")
    assert "Kees in NK 2026" in page and "Jan Koster" in page and "zwart" in page
    await in_browser(browser, f"{base}/archief")
    page = await click("NK 2025")
    assert "NK 2025: stand na ronde 2" in page and "Nederlands kampioen: Jan Koster" in page
    page = await click("Jan Koster")
    assert "Jan Koster in NK 2025" in page and "1-0" in page
