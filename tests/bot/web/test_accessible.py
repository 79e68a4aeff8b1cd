"""Every page type of the club's website in a real browser checked by axe-core (issue 35 §1): no violation
of its WCAG 2.2 A/AA and best-practice rules, at a phone's width (390 CSS px) and a computer's (1280), with
a screenshot of each under pytest's tmp dir. Debian's Chromium drives the pages; axe-core comes from npm
(``tests/bot/web/axe/package.json``, installed by ``scripts/install.sh --test``); without either the test
fails and says what to install."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import aiohttp
import pytest
from selenium import webdriver

from bot.core.dispatch import Core
from bot.web.server import start_web
from tests.bot.web.conftest import a_club_with_everything

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {"phone": (390, 844, True), "computer": (1280, 900, False)}
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]


def check(browser: webdriver.Chrome, url: str, shot: Path) -> list[str]:
    """Load ``url``, save a screenshot, open what is folded (the phone's menu, the form's later rounds) and
    run axe-core in the page: its violations, one line per element."""
    browser.get(url)
    browser.save_screenshot(str(shot))
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")  # folded parts too
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


async def test_every_page_type_passes_axe_at_phone_and_computer_width(
    commands: Core, clock, chrome: webdriver.Chrome, tmp_path: Path
) -> None:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/install.sh --test installs it with npm ci (needs Debian's nodejs and npm)")
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
