"""The website on a phone (issue 45 §1): a round's pairing, the NK's pairing and its standings fit 390 CSS
px with the result (the title) in view and no word cut, and show every column at 1280; a member's chart
has letters of at least 12 px. Measured in Debian's headless Chromium, with a screenshot of each
(``screenshots/smal-<page>-<width>.png`` under pytest's tmp dir)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from pathlib import Path

from selenium import webdriver

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.conftest import a_club_with_everything
from tests.bot.web.test_accessible import check

PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)
LONG_NAMES = ("Alexandra van den Oosterhout", "Maximiliaan de Vries-Bakker", "Zoë Ødegaard-Lindqvist",
              "Jan-Willem Hoogendoorn", "Fatima El Amrani", "Bartholomeus Verschuuren")  # fmt: skip
WIDTHS = {390: (844, True), 1280: (900, False)}

MEASURE = """
const box = document.querySelector('div.scroll'), table = box.querySelector('table');
const wide = window.innerWidth, lines = [];
const visible = e => getComputedStyle(e).display !== 'none';
for (const row of table.querySelectorAll('tr')) {
  const cells = [...row.children].filter(visible), last = cells[cells.length - 1], r = last.getBoundingClientRect();
  if (r.left < 0 || r.right > wide) lines.push('last cell off-screen: ' + last.textContent + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  for (const cell of cells) {
    if (cell.scrollWidth > cell.clientWidth + 1) lines.push('cut: ' + cell.textContent);
    const name = cell.querySelector('a');
    if (name && name.getClientRects().length && name.getBoundingClientRect().height > 2.6 * parseFloat(getComputedStyle(name).lineHeight))
      lines.push('more than two lines: ' + name.textContent);
  }
}
if (table.getBoundingClientRect().width > box.clientWidth + 1) lines.push('table ' + Math.round(table.getBoundingClientRect().width) + ' px in a box of ' + box.clientWidth);
if (document.documentElement.scrollWidth > wide + 1) lines.push('page ' + document.documentElement.scrollWidth + ' px wide in ' + wide);
return {problems: lines, headers: [...table.querySelectorAll('th')].filter(visible).map(h => h.innerText.replace(/\\s+/g, ' '))};
"""


async def a_club_with_long_names(commands: Core) -> int:
    """A Keizer season whose round 1 is published with a draw in, and an NK whose round 1 is paired, all
    with long names."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=12")
    for i, name in enumerate(LONG_NAMES):
        await ok(commands, DIRECTOR, f'/speler "{name}" {2100 - 100 * i}')
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    await ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap")
    for i, name in enumerate(LONG_NAMES):
        await ok(commands, DIRECTOR, f'/nk inschrijven "{name}" {2100 - 100 * i}')
    await ok(commands, DIRECTOR, "/nk ronde")
    commands.clock.set(PUBLISH)  # type: ignore[attr-defined]

    async def send(club_row, announcement) -> None:
        return None

    await Alarm(commands, send).run_due()  # round 1 published
    await ok(commands, DIRECTOR, f'/uitslag "{LONG_NAMES[1]}" remise 1')
    return club.id


async def test_pairings_and_nk_standings_fit_a_phone_with_the_result_in_view(
    commands: Core, clock, site: str, chrome: webdriver.Chrome, tmp_path: Path
) -> None:
    club = await a_club_with_long_names(commands)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    found: list[str] = []
    headers: dict[tuple[str, int], list[str]] = {}

    def look(page: str, width: int) -> None:
        height, mobile = WIDTHS[width]
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        chrome.get(f"{site}/c/{club}/{page}")
        chrome.save_screenshot(str(shots / f"smal-{page.replace('/', '-')}-{width}.png"))
        measured = chrome.execute_script(MEASURE)
        found.extend(f"{page} at {width}: {line}" for line in measured["problems"])
        headers[page, width] = measured["headers"]

    first = await commands.store.member_by_name(club, LONG_NAMES[0])
    assert first is not None
    for page in ("indeling/1", "nk-indeling/1", "nk", f"nk-speler/{first.id}"):
        for width in WIDTHS:
            await asyncio.to_thread(look, page, width)
    print("screenshots:", sorted(p.name for p in shots.iterdir()))
    assert not found, "\n".join(found)
    # on a phone the points and values stand under the names; on a computer in their own columns
    assert headers["indeling/1", 390] == ["Bord", "Wit Punten · Waarde", "Zwart Punten · Waarde", "Uitslag"], headers
    assert headers["indeling/1", 1280] == ["Bord", "Wit", "Punten", "Waarde", "Zwart", "Punten", "Waarde", "Uitslag"]
    assert headers["nk", 390] == ["#", "Naam", "Punten R1 · WP · WWP · Sterkte", "Titel"], headers
    assert headers["nk-indeling/1", 390] == ["Bord", "Zwart Punten · Groep · Sterkte", "Wit Punten · Groep · Sterkte", "Uitslag"]
    assert len(headers["nk", 1280]) == 8 and len(headers["nk-indeling/1", 1280]) == 10
    assert len(headers[f"nk-speler/{first.id}", 390]) == 4 and len(headers[f"nk-speler/{first.id}", 1280]) == 6


async def test_the_members_chart_labels_are_at_least_12_px_on_a_phone(
    commands: Core, clock, site: str, chrome: webdriver.Chrome, tmp_path: Path
) -> None:
    """The chart of a member's place per round is drawn so its letters are at least 12 CSS px on a 390 px
    screen (they were about 7: a 560-wide drawing with 12-unit letters shrunk to the phone); the page's
    table fits the phone."""
    club, _, pages = await a_club_with_everything(commands)

    def sizes() -> list[float]:
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        chrome.get(f"{site}/c/{club}/{pages['lid']}")
        chrome.save_screenshot(str(tmp_path / "smal-lid-390.png"))
        table = chrome.execute_script(MEASURE)  # its table fits too: the value now under the opponent
        assert not table["problems"] and table["headers"][1] == "Tegenstander Waarde nu", table
        return list(chrome.execute_script(
            "return [...document.querySelectorAll('figure svg text')]"
            ".map(t => { const m = t.getScreenCTM(); return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); })"))  # fmt: skip

    shown = await asyncio.to_thread(sizes)
    assert len(shown) >= 5 and min(shown) >= 12, shown  # the axis's name turned on its side too


async def test_a_table_wider_than_the_phone_says_it_scrolls(commands: Core, clock, site: str, chrome: webdriver.Chrome, tmp_path: Path) -> None:
    """A table that cannot fit (the cross table of a season ten rounds in) says under it that it scrolls
    sideways, while it does (a container query on the box's scroll state: no script); one that fits (the
    pairing) says nothing."""
    club = await a_club_with_long_names(commands)

    async def send(club_row, announcement) -> None:
        return None

    for week in range(1, 10):  # rounds 2 to 10 published
        commands.clock.set(PUBLISH + timedelta(days=7 * week))  # type: ignore[attr-defined]
        await Alarm(commands, send).run_due()

    def hints(page: str, width: int) -> list[str]:
        height, mobile = WIDTHS[width]
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        chrome.get(f"{site}/c/{club}/{page}")
        chrome.save_screenshot(str(tmp_path / f"smal-schuif-{page.replace('/', '-')}-{width}.png"))
        return list(chrome.execute_script(
            "return [...document.querySelectorAll('.scrolls')].filter(e => e.getClientRects().length)"
            ".map(e => { const r = e.getBoundingClientRect(); return e.textContent + (r.left >= 0 && r.right <= innerWidth ? '' : ' off-screen'); })"))  # fmt: skip

    assert await asyncio.to_thread(hints, "kruistabel", 390) == ["Schuif opzij voor de hele tabel →"]
    shot = tmp_path / "smal-schuif-axe-390.png"
    assert not await asyncio.to_thread(check, chrome, f"{site}/c/{club}/kruistabel", shot)  # axe-core: nothing, hint shown
    assert await asyncio.to_thread(hints, "kruistabel", 1280) == []  # ten rounds fit a computer
    assert await asyncio.to_thread(hints, "indeling/1", 390) == []
