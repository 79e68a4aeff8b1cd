"""Every page type of the club's website in a real browser checked by axe-core (issue 35 §1): no violation
of its WCAG 2.2 A/AA and best-practice rules, at a phone's width (390 CSS px) and a computer's (1280), with
a screenshot of each under pytest's tmp dir. Debian's Chromium drives the pages; axe-core comes from npm
(``tests/bot/web/axe/package.json``, installed by ``scripts/install.sh --test``); without either the test
fails and says what to install."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import aiohttp
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from bot.core.dispatch import Core
from bot.core.scheduler import Alarm
from bot.web.server import start_web
from tests.bot.conftest import DIRECTOR, actor, link, ok

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)
ANNA, BERT = actor("Anna"), actor("Bert")
WIDTHS = {"phone": (390, 844, True), "computer": (1280, 900, False)}
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]


@pytest.fixture
def chrome() -> Iterator[webdriver.Chrome]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.fail("chromium and chromedriver are needed for the website's browser tests: scripts/install.sh --test installs them (as root)")
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/install.sh --test installs it with npm ci (needs Debian's nodejs and npm)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(driver), options=options)
    try:
        yield browser
    finally:
        browser.quit()


def check(browser: webdriver.Chrome, url: str, shot: Path) -> list[str]:
    """Load ``url``, save a screenshot, run axe-core in the page: its violations, one line per element."""
    browser.get(url)
    browser.save_screenshot(str(shot))
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => v.nodes.map(n => v.id + ' (' + v.impact + '): ' + n.target.join(' ')"
        " + ' ' + n.html.slice(0, 120) + ' ' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 200))).flat()),"
        " e => done(['axe failed: ' + e]))",
        RULES,
    )
    return list(found)


async def a_club_with_everything(commands: Core) -> tuple[int, str, dict[str, str]]:
    """A club with a Keizer season (round 1 published, a result in), a rapid season, an NK, grades and
    a go game; the paths of each page type, and Anna's personal link."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800", '"Zoë Ødegaard" 1700', "Eva 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await ok(commands, DIRECTOR, "/seizoen naam=R1 start=2026-12-09 soort=rapid rondes=3")
    await ok(commands, DIRECTOR, "/speler Anna 2100 rapid")
    await link(commands, ANNA, BERT)
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    await ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap")
    for name in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")
    await ok(commands, DIRECTOR, "/graadzetten Anna 1d vanaf=2026-01-01")
    await ok(commands, DIRECTOR, "/graadzetten Bert 5k vanaf=2026-01-01")
    await ok(commands, ANNA, "/go uitdagen @Bert 9")
    await ok(commands, BERT, "/go accepteren")
    game = await commands.store.fetch_one("SELECT id, black_id FROM go_games")
    anna = await commands.store.member_by_name(club.id, "Anna")
    assert game is not None and anna is not None
    black, white = (ANNA, BERT) if game["black_id"] == anna.id else (BERT, ANNA)
    for who, move in ((black, "E5"), (white, "C3"), (black, "G7")):
        await ok(commands, who, f"/zet {move}")
    reply = await commands.handle(ANNA, "/website link")
    personal = reply.text[reply.text.index("http") :].split()[0]
    commands.clock.set(PUBLISH)  # type: ignore[attr-defined]

    async def send(club_row, announcement) -> None:
        return None

    await Alarm(commands, send).run_due()  # round 1 published
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0 1")
    commands.clock.set(PUBLISH + timedelta(days=7))  # type: ignore[attr-defined]
    await Alarm(commands, send).run_due()  # round 2 published: Anna's chart has two points
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0 2")
    pages = {
        "home": "",
        "stand": "stand",
        "stand-ronde": "stand/1",
        "indeling": "indeling",
        "indeling-niet-gepubliceerd": "indeling/3",
        "prijzen": "prijzen",
        "kruistabel": "kruistabel",
        "rapid": "rapid",
        "rapid-indeling": "rapid-indeling",
        "lid": f"lid/{anna.id}",
        "nk": "nk",
        "nk-indeling": "nk-indeling/1",
        "graden": "graden",
        "go": "go",
        "go-partij": f"go/{game['id']}",
        "onbekende-link": "m/" + "x" * 32,
    }
    return club.id, personal, pages


async def test_every_page_type_passes_axe_at_phone_and_computer_width(
    commands: Core, clock, chrome: webdriver.Chrome, tmp_path: Path
) -> None:
    runner = await start_web(commands, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    commands.config = dataclasses.replace(commands.config, web_base_url=base)
    club, personal, pages = await a_club_with_everything(commands)
    club_base = f"{base}/c/{club}"
    shots = tmp_path / "screenshots"
    shots.mkdir()
    found: list[str] = []
    try:
        for width_name, (width, height, mobile) in WIDTHS.items():
            await asyncio.to_thread(chrome.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})  # fmt: skip
            await asyncio.to_thread(chrome.get, personal)  # the form: the cookie first, then the form itself
            urls = {**{name: f"{club_base}/{path}" for name, path in pages.items()}, "afmelden": f"{club_base}/afmelden"}
            for name, url in urls.items():
                for line in await asyncio.to_thread(check, chrome, url, shots / f"{name}-{width}.png"):
                    found.append(f"{name} at {width_name} width: {line}")
        print("screenshots:", sorted(p.name for p in shots.iterdir()))
    finally:
        await runner.cleanup()
    assert not found, "axe-core found:\n" + "\n".join(found)
    assert len(list(shots.iterdir())) == 2 * (len(pages) + 1)


async def test_the_members_chart_and_the_cross_tables_legend_say_what_they_show(commands: Core, site: str) -> None:
    club, _, pages = await a_club_with_everything(commands)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{site}/c/{club}/{pages['lid']}") as response:
            body = await response.text()
        async with session.get(f"{site}/c/{club}/kruistabel") as response:
            table = await response.text()
    chart = body[body.index("<svg") : body.index("</svg>")]
    assert '<title id="plot-title">Plaats per ronde</title>' in chart and 'aria-labelledby="plot-title plot-text"' in chart
    assert ">ronde</text>" in chart and ">plaats</text>" in chart  # the axes say what they count
    # the places in words: Anna (2100) lost to Bert (2000) in round 1 and the others have no result yet: 2nd
    assert "De plaats in de stand na elke ronde: ronde 1: 2, ronde 2: " in chart, chart[:600]
    assert '<p class="legend">Per ronde: de plaats van de tegenstander' in table
