"""The website's fixtures: the bot's web server on 127.0.0.1 (a free port), with the config's public
address pointing at it so the links the chat hands out lead there."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.web.server import start_web
from tests.bot.conftest import DIRECTOR, actor, link, ok

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
_AXE_ON_NEW_PAGES: dict[str, str] = {}  # a browser's session: the identifier of its axe-core on every new page


def axe_on_new_pages(browser: webdriver.Chrome) -> bool:
    """axe-core evaluated in every page the browser loads from now to the test's end (its 500 KB sent to
    the browser once, not with every page: the same axe, its text as in a script the page would have
    first; the website's pages have no script nor frame of their own). True when this call asked for it:
    the page shown has no axe yet."""
    if str(browser.session_id) in _AXE_ON_NEW_PAGES:
        return False
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AXE.read_text(encoding="utf-8")})
    _AXE_ON_NEW_PAGES[str(browser.session_id)] = added["identifier"]
    return True


PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # round 1's publication, 18:00 in Amsterdam
ANNA, BERT = actor("Anna"), actor("Bert")


@pytest.fixture
async def site(commands: Core) -> AsyncIterator[str]:
    runner = await start_web(commands, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    commands.config = dataclasses.replace(commands.config, web_base_url=base)
    try:
        yield base
    finally:
        await runner.cleanup()


def chromium(phone: bool = False) -> webdriver.Chrome:
    """Debian's headless Chromium, at a computer's size or a phone's (390 x 844 CSS pixels at 3 device
    pixels each: a window cannot be made that narrow); fails saying what to install when it is missing.
    V8 without its optimizing compilers (Maglev, TurboFan): a test's page lives a second, too short for them
    to pay back their compiling: axe.run costs a third less, with the same results and the same pixels. No
    back-forward cache: no test goes back, and keeping every page it left cost 7 % of Chromium's CPU."""
    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not binary or not driver:
        pytest.fail("chromium and chromedriver are needed for the website's browser tests: scripts/install.sh --test installs them (as root)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--js-flags=--no-opt --no-maglev", "--disable-back-forward-cache"):
        options.add_argument(arg)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0}})
    return webdriver.Chrome(service=Service(driver), options=options)


@pytest.fixture(scope="session")
def _one_chromium() -> Iterator[dict[bool, webdriver.Chrome]]:
    """The worker's Chromiums, each started once (half a second of CPU a start) when a test first asks for
    it and quit at the end: the computer's (``False``) and the phone's (``True``, started as a phone)."""
    started: dict[bool, webdriver.Chrome] = {}
    try:
        yield started
    finally:
        for browser in started.values():
            browser.quit()


def worker_chromium(started: dict[bool, webdriver.Chrome], phone: bool = False) -> Iterator[webdriver.Chrome]:
    """The worker's one browser of its kind, as a new one would be after the test: on a blank page, without
    cookies, its size and media as started, a test's downloads into its tmp_path undone (each test's site
    has a port, so an origin, of its own)."""
    if phone not in started:
        started[phone] = chromium(phone)
    browser = started[phone]
    try:
        yield browser
    finally:
        axe = _AXE_ON_NEW_PAGES.pop(str(browser.session_id), None)
        if axe is not None:  # the next test's pages as without axe
            browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": axe})
        browser.get("about:blank")
        browser.delete_all_cookies()
        if phone:  # as started: its tests set no size nor media; one lets it download into its tmp_path
            browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})
        else:
            browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})


@pytest.fixture
def chrome(_one_chromium: dict[bool, webdriver.Chrome]) -> Iterator[webdriver.Chrome]:
    """Chromium at a computer's size; a test sets a phone's with ``Emulation.setDeviceMetricsOverride``
    (and dark mode with ``Emulation.setEmulatedMedia``). The worker's one browser, as a new one would be."""
    yield from worker_chromium(_one_chromium)


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
    game = await go_game(commands, club.id, ("E5", "C3", "G7"))
    anna = await commands.store.member_by_name(club.id, "Anna")
    assert anna is not None
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
        "kalender": "kalender",
        "go": "go",
        "go-partij": f"go/{game}",
        "onbekende-link": "m/" + "x" * 32,
    }
    return club.id, personal, pages


async def go_game(commands: Core, club: int, moves: tuple[str, ...]) -> int:
    """Anna challenges Bert (both linked) to a 9x9 game, he accepts, and ``moves`` are played, black's
    first: the game's id."""
    await ok(commands, ANNA, "/go uitdagen @Bert 9")
    await ok(commands, BERT, "/go accepteren")
    game = await commands.store.fetch_one("SELECT id, black_id FROM go_games ORDER BY id DESC")
    anna = await commands.store.member_by_name(club, "Anna")
    assert game is not None and anna is not None
    black, white = (ANNA, BERT) if game["black_id"] == anna.id else (BERT, ANNA)
    for i, move in enumerate(moves):
        await ok(commands, (black, white)[i % 2], f"/zet {move}")
    return int(game["id"])


ARCHIVE_DIRECTOR = actor("Leider", director=True, club="club-2")  # a club of its own: the others' pages stay as they are


async def a_club_with_an_archive(commands: Core, website: bool = True) -> tuple[int, dict[str, str]]:
    """A second club (issue 45 §1) whose NK "NK 2025" (Jan Koster beat Piet de Vries in both its rounds) and
    Keizer season "2025-26" (Piet beat Jan in its one round) are over, with "NK 2026" and "2026-27" made
    after them; the paths of its NK pages, its archive and the archive's pages (a player's NK page, a past
    NK's standings, pairing and player, a past season's standings, cross table and pairing)."""
    who = ARCHIVE_DIRECTOR
    first = (commands.clock.now() + timedelta(days=1)).date()
    await ok(commands, who, f"/seizoen naam=2025-26 start={first.isoformat()} rondes=1")
    for line in ('"Jan Koster" 1900', '"Piet de Vries" 1800'):
        await ok(commands, who, f"/speler {line}")
    if website:  # the chat's tests have no website
        await ok(commands, who, "/website aan")
    club = await commands.store.club_by_external(who.platform, who.club_external_id)
    assert club is not None
    await ok(commands, who, "/nk nieuw NK 2025 rondes=2")
    for line in ('"Jan Koster" 1900', '"Piet de Vries" 1800'):
        await ok(commands, who, f"/nk inschrijven {line}")
    for _ in range(2):  # a double elimination: Piet is out after his second loss
        await ok(commands, who, "/nk ronde")
        await ok(commands, who, '/nk uitslag "Jan Koster" gewonnen')
    await ok(commands, who, "/nk nieuw NK 2026")  # NK 2025 is finished: the next one may be made
    for line in ('"Jan Koster" 1900', '"Piet de Vries" 1800', "Kees 1700", "Lies 1600"):
        await ok(commands, who, f"/nk inschrijven {line}")
    await ok(commands, who, "/nk ronde")
    commands.clock.set(datetime.combine(first, datetime.min.time(), timezone.utc) + timedelta(hours=17))  # type: ignore[attr-defined]

    async def send(club_row, announcement) -> None:
        return None

    await Alarm(commands, send).run_due()  # 2025-26's only round published
    await ok(commands, who, '/uitslag "Piet de Vries" 1-0 1')
    await ok(commands, who, f"/seizoen naam=2026-27 start={(first + timedelta(days=1)).isoformat()} rondes=3")
    jan = await commands.store.member_by_name(club.id, "Jan Koster")
    assert jan is not None
    nk = await commands.store.fetch_one("SELECT id FROM nk_tournaments WHERE name = 'NK 2025'")
    season = await commands.store.fetch_one("SELECT id FROM seasons WHERE name = '2025-26'")
    assert nk is not None and season is not None
    past_nk, past_season = f"archief/nk/{nk['id']}", f"archief/keizer/{season['id']}"
    return club.id, {
        "nk-speler": f"nk-speler/{jan.id}",
        "archief": "archief",
        "archief-nk-stand": f"{past_nk}/stand",
        "archief-nk-indeling": f"{past_nk}/indeling/1",
        "archief-nk-speler": f"{past_nk}/speler/{jan.id}",
        "archief-keizer-stand": f"{past_season}/stand",
        "archief-keizer-kruistabel": f"{past_season}/kruistabel",
        "archief-keizer-indeling": f"{past_season}/indeling/1",
    }
