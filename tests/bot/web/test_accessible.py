"""Every page type of the club's website in a real browser checked by axe-core (issue 35 §1): no violation
of its WCAG 2.2 A/AA and best-practice rules, at a phone's width (390 CSS px) and a computer's (1280), with
a screenshot of each under pytest's tmp dir. Debian's Chromium drives the pages; axe-core comes from npm
(``tests/bot/web/axe/package.json``, installed by ``scripts/install.sh --test``); without either the test
fails and says what to install."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import aiohttp
import pytest
from PIL import Image, ImageDraw
from selenium import webdriver

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.conftest import AXE, a_club_with_an_archive, a_club_with_everything, axe_on_new_pages

WIDTHS = {"phone": (390, 844, True), "computer": (1280, 900, False)}


def not_found_pages(base: str, club_base: str) -> dict[str, str]:
    """The 404s (issue 45 §1): an unknown page of the club's (the club's page with its menu) and one outside any club."""
    return {"onbekende-pagina": f"{club_base}/onzin", "buiten-de-club": f"{base}/onzin"}


RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]


def check(browser: webdriver.Chrome, url: str, shot: Path) -> list[str]:
    """Load ``url``, save a screenshot, open what is folded (the phone's menu, the form's later rounds) and
    run axe-core in the page: its violations, one line per element."""
    axe_on_new_pages(browser)
    browser.get(url)
    browser.save_screenshot(str(shot))
    return axe_here(browser)


def axe_here(browser: webdriver.Chrome) -> list[str]:
    """axe-core's violations in the page the browser shows (what is folded opened first), one line per element."""
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")  # folded parts too
    if axe_on_new_pages(browser):  # the page shown was loaded before: axe-core into it now
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


@pytest.mark.parametrize("width_name", WIDTHS)  # one test a width: the suite's workers share them out
async def test_every_page_type_passes_axe_at_phone_and_computer_width(
    commands: Core, clock, site: str, chrome: webdriver.Chrome, tmp_path: Path, width_name: str
) -> None:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/install.sh --test installs it with npm ci (needs Debian's nodejs and npm)")
    base = site  # the bot's web server on 127.0.0.1, its public address pointed at it
    club, personal, pages = await a_club_with_everything(commands)
    club_base = f"{base}/c/{club}"
    other, archived = await a_club_with_an_archive(commands)  # an NK player's page, the archive and its pages
    archive_urls = {name: f"{base}/c/{other}/{path}" for name, path in archived.items()}
    shots = tmp_path / "screenshots"
    shots.mkdir()
    found: list[str] = []
    width, height, mobile = WIDTHS[width_name]
    await asyncio.to_thread(chrome.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})  # fmt: skip
    await asyncio.to_thread(chrome.get, personal)  # the form: the cookie first, then the form itself
    urls = {**{name: f"{club_base}/{path}" for name, path in pages.items()}, "afmelden": f"{club_base}/afmelden",
            **not_found_pages(base, club_base), **archive_urls}  # fmt: skip
    for name, url in urls.items():
        for line in await asyncio.to_thread(check, chrome, url, shots / f"{name}-{width}.png"):
            found.append(f"{name} at {width_name} width: {line}")
    print("screenshots:", sorted(p.name for p in shots.iterdir()))
    assert not found, "axe-core found:\n" + "\n".join(found)
    assert len(list(shots.iterdir())) == len(pages) + 1 + len(not_found_pages(base, club_base)) + len(archived)


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


HOSTILE_COLOURS = ("#ffff00", "#000000", "#777777", "#ffffff")  # too light, too dark, AA's edge grey, none at all
STYLED_PAGES = ("home", "stand", "indeling", "kruistabel", "lid", "go-partij", "afmelden")


def a_logo() -> bytes:
    """A club's logo as a director would send it: a JPEG larger than the website keeps."""
    picture = Image.new("RGB", (640, 480), (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    draw.ellipse((120, 40, 520, 440), fill=(26, 95, 180))
    draw.rectangle((280, 120, 360, 360), fill=(255, 200, 0))
    out = io.BytesIO()
    picture.save(out, "JPEG")
    return out.getvalue()


@pytest.mark.parametrize("colour", HOSTILE_COLOURS)  # one test each: the suite's workers share them out
async def test_any_club_colour_and_logo_keep_axe_quiet_in_light_and_dark(
    commands: Core, site: str, chrome: webdriver.Chrome, tmp_path: Path, colour: str
) -> None:
    """The club's own look (issue 35 §4): whatever colour the director picks (these four are the worst:
    yellow and white on a light page, black on a dark one, the grey at AA's edge), with a logo, the pages
    have no axe violation in light and dark mode; a screenshot of each at 390 and 1280 px."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/install.sh --test installs it")
    club, personal, pages = await a_club_with_everything(commands)
    pages = {**pages, "afmelden": "afmelden"}
    await ok(commands, DIRECTOR, "/website stijl logo", a_logo())
    shots = tmp_path / "screenshots"
    shots.mkdir()
    found: list[str] = []

    def run(colour: str, mode: str) -> list[str]:
        """Every styled page at a phone's width, home and standings at a computer's too; the band's colour."""
        chrome.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": mode}]})
        bands = []
        for width_name, (width, height, mobile) in WIDTHS.items():
            chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            for name in STYLED_PAGES if width_name == "phone" else ("home", "stand"):
                shot = shots / f"stijl-{colour[1:]}-{mode}-{name}-{width}.png"
                found.extend(f"{colour} {mode} {name} at {width}: {line}" for line in check(chrome, f"{site}/c/{club}/{pages[name]}", shot))
                bands.append(chrome.execute_script(
                    "const b = document.querySelector('header .brand.coloured'), i = b && b.querySelector('img');"
                    "return b ? getComputedStyle(b).backgroundColor + (i && i.complete && i.naturalWidth ? ' logo' : ' no logo') : 'no band'"))  # fmt: skip
        return bands

    await asyncio.to_thread(chrome.get, personal)  # the form's cookie
    await ok(commands, DIRECTOR, f"/website stijl kleur={colour}")
    rgb = "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))
    for mode in ("light", "dark"):
        bands = await asyncio.to_thread(run, colour, mode)
        assert set(bands) == {f"{rgb} logo"}, (colour, mode, bands)  # the colour and the logo are shown
    print("screenshots:", sorted(p.name for p in shots.iterdir()))
    assert not found, "axe-core found:\n" + "\n".join(found)
    assert len(list(shots.iterdir())) == 2 * (len(STYLED_PAGES) + 2)
