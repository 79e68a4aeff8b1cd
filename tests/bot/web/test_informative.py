"""The club's website as informative as the pages clubs already know (issue 35 §3), in a real browser:
a go game's page steps through its moves, with the captures and komi, its letters in sight; the cross table
has the points and the club's words; a pairing each player's points and value before the round, the
standings the rounds played and absent; dark mode (§4)."""

from __future__ import annotations

import asyncio
import base64
import re
from pathlib import Path

import pytest

from selenium import webdriver

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.keizer import competition
from bot.keizer.formatting import fmt_points
from bot.keizer.lookups import keizer_store
from engine.keizer.model import Standing
from tests.bot.conftest import DIRECTOR, link, ok
from tests.bot.keizer.test_commands import DAAN, EVA, make_season, pair_round_one
from tests.bot.web.conftest import ANNA, BERT, a_club_with_everything, go_game
from tests.bot.web.test_accessible import AXE, check
from tests.bot.web.test_system_pages import get


async def a_go_game(commands: Core, moves: tuple[str, ...]) -> tuple[int, int]:
    """A 9x9 game between Anna and Bert with ``moves`` played, black first: (club id, game id)."""
    for name in ("Anna 2100", "Bert 2000"):
        await ok(commands, DIRECTOR, f"/speler {name}")
    await link(commands, ANNA, BERT)
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    return club.id, await go_game(commands, club.id, moves)


def stones(body: str) -> tuple[int, int]:
    return len(re.findall(r'<circle class="black"', body)), len(re.findall(r'<circle class="white"', body))


async def test_the_go_page_steps_through_the_moves_with_captures_and_komi(commands: Core, site: str) -> None:
    club, game = await a_go_game(commands, ("B1", "A1", "A2", "E5"))  # black's A2 takes white's A1
    page = f"{site}/c/{club}/go/{game}"
    status, body, _ = await get(page)  # the game as it stands: every move, a link back
    assert status == 200 and stones(body) == (2, 1) and "komi 3.5" in body
    assert f'href="/c/{club}/go/{game}?zet=3"' in body and "?zet=5" not in body
    status, body, _ = await get(f"{page}?zet=3")  # after the capture
    assert status == 200 and stones(body) == (2, 0) and "Geslagen: 0 zwarte en 1 witte steen · zet 3" in body
    assert f'href="/c/{club}/go/{game}?zet=2"' in body and f'href="/c/{club}/go/{game}?zet=4"' in body
    status, body, _ = await get(f"{page}?zet=2")  # before it
    assert status == 200 and stones(body) == (1, 1) and "Geslagen: 0 zwarte en 0 witte stenen · zet 2" in body
    status, body, _ = await get(f"{page}?zet=0")  # the empty board: no way back
    assert status == 200 and stones(body) == (0, 0) and f'href="/c/{club}/go/{game}?zet=1"' in body and "?zet=-1" not in body
    for wrong in ("5", "-1", "x", "9" * 12):
        assert (await get(f"{page}?zet={wrong}"))[0] == 404, wrong


async def test_the_go_boards_letters_are_not_under_stones(commands: Core, site: str, chrome: webdriver.Chrome) -> None:
    edge = ("E9", "F9", "A5", "J4", "A1", "J9", "E1", "F1", "A9", "J1")  # stones on every side, at the corners
    club, game = await a_go_game(commands, edge)

    def covered() -> list[str]:
        chrome.get(f"{site}/c/{club}/go/{game}")
        return chrome.execute_script(
            "const circles = [...document.querySelectorAll('svg circle.black, svg circle.white')].map(c => c.getBBox());"
            "return [...document.querySelectorAll('svg text')].filter(t => { const b = t.getBBox();"
            " return circles.some(c => b.x < c.x + c.width && c.x < b.x + b.width && b.y < c.y + c.height && c.y < b.y + b.height); })"
            ".map(t => t.textContent);"
        )

    assert await asyncio.to_thread(covered) == []


async def test_the_cross_table_has_the_points_and_the_clubs_words(commands: Core, clock: ShiftedClock, site: str) -> None:
    await make_season(commands)
    await ok(commands, EVA, "/afmelden 1 teamwedstrijd")
    await ok(commands, DAAN, "/afmelden 1")
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    await pair_round_one(commands, clock)  # Anna, Bert and Carla present: one game and a bye
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0")
    status, body, _ = await get(f"{site}/c/{club.id}/kruistabel")
    assert status == 200
    heads = re.findall(r'<th scope="col">([^<]*)</th>', body)
    rows = {cells[1]: cells for cells in (re.findall(r"<td[^>]*>(?:<a [^>]*>)?([^<]*)", row) for row in re.findall(r"<tr>(.*?)</tr>", body)) if cells}
    assert heads == ["#", "Naam", "Punten", "1"], heads
    assert rows["Carla"][3] == "vrij" and rows["Daan"][3] == "afw" and rows["Eva"][3] == "tw", rows  # was bye, afw, afw
    assert {rows["Anna"][3][1:], rows["Bert"][3][1:]} in ({"w1", "z0"}, {"z1", "w0"}), rows  # z: zwart (was b)
    assert all(re.fullmatch(r"\d+(\.\d+)?", r[2]) for r in rows.values()), rows
    legend = re.search(r'<p class="legend">([^<]*)</p>', body)
    assert legend is not None and all(w in legend.group(1) for w in ("z zwart", "vrij", "tw", "Punten")), legend


def table_of(body: str) -> tuple[list[str], list[list[str]]]:
    """A page's table: its headers and its rows' cell texts."""
    heads = re.findall(r'<th scope="col"[^>]*>([^<]*)', body)  # a header's own text (a phone's folded names follow it)
    rows = [re.findall(r"<td[^>]*>(?:<a [^>]*>)?([^<]*)", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]
    return heads, [r for r in rows if r]


async def test_the_pairing_shows_points_and_value_before_the_round_and_the_standings_absences(
    commands: Core, clock: ShiftedClock, site: str
) -> None:
    await make_season(commands)
    await ok(commands, EVA, "/afmelden 1 teamwedstrijd")
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    await pair_round_one(commands, clock)  # Anna, Bert, Carla and Daan: two games
    before = {s.player.name: s for s in await standings_before(commands, club.id, 1)}
    status, body, _ = await get(f"{site}/c/{club.id}/indeling/1")
    heads, rows = table_of(body)
    assert status == 200 and heads == ["Bord", "Wit", "Punten", "Waarde", "Zwart", "Punten", "Waarde", "Uitslag"], heads
    for row in rows:  # each player's points and value before the round, the result still open
        for name, points, value in (row[1:4], row[4:7]):
            assert (points, value) == (fmt_points(before[name].score), str(before[name].value)), (row, before[name])
        assert row[7] == "-" or row[7] == "", row
    await ok(commands, DIRECTOR, f"/uitslag {rows[0][1]} 1-0")
    status, body, _ = await get(f"{site}/c/{club.id}/indeling/1")
    assert table_of(body)[1][0][7] == "1-0"  # filled in as it comes in
    status, body, _ = await get(f"{site}/c/{club.id}/stand")
    heads, rows = table_of(body)
    assert heads[-2:] == ["Gesp.", "Afw."], heads
    played = {r[1]: (r[-2], r[-1]) for r in rows}
    assert played["Eva"] == ("0", "1") and played["Anna"] == ("1", "0") and played["Bert"][1] == "0", played


async def standings_before(commands: Core, club: int, number: int) -> list[Standing]:
    season = await keizer_store(commands).active_season(club, "main")
    assert season is not None
    return competition.standings(await competition.load(commands.store, season), after_round=number - 1)


async def test_dark_mode_follows_the_phone_and_keeps_axe_quiet(
    commands: Core, site: str, chrome: webdriver.Chrome, tmp_path: Path
) -> None:
    """The club's own look (issue 35 §4), its dark mode: a browser that prefers dark gets a dark page, every
    text still AA against its background (axe-core's contrast rules among the rest)."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/install.sh --test installs it")
    club, _, pages = await a_club_with_everything(commands)
    found: list[str] = []

    def look() -> list[str]:
        chrome.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        backgrounds = []
        for name in ("home", "stand", "indeling", "kruistabel", "lid", "go-partij"):
            url = f"{site}/c/{club}/{pages[name]}"
            found.extend(f"{name}: {line}" for line in check(chrome, url, tmp_path / f"dark-{name}.png"))
            backgrounds.append(chrome.execute_script("return getComputedStyle(document.body).backgroundColor"))
        return backgrounds

    backgrounds = await asyncio.to_thread(look)
    assert all(sum(int(c) for c in re.findall(r"\d+", b)[:3]) < 150 for b in backgrounds), backgrounds  # dark
    assert not found, "\n".join(found)


async def test_the_standings_and_the_pairing_print_on_a4(commands: Core, site: str, chrome: webdriver.Chrome, tmp_path: Path) -> None:
    """Printing (issue 35 §4): the standings and a round's pairing as Chromium prints them to PDF with the
    page's own paper size: A4, one or two pages, without the menu and the links between rounds."""
    club, _, pages = await a_club_with_everything(commands)

    def printed(path: str) -> bytes:
        chrome.get(f"{site}/c/{club}/{path}")
        pdf = chrome.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": False})
        return base64.b64decode(pdf["data"])

    for name in ("stand", "indeling"):
        pdf = await asyncio.to_thread(printed, pages[name])
        (tmp_path / f"{name}.pdf").write_bytes(pdf)
        boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
        assert 1 <= len(boxes) <= 2, (name, boxes)
        assert all(abs(float(w) - 595.3) < 2 and abs(float(h) - 841.9) < 2 for w, h in boxes), (name, boxes)  # A4 in points

    def shown_in_print() -> list[str]:
        chrome.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        return chrome.execute_script(
            "return [...document.querySelectorAll('header nav, nav.rounds, ul.more')]"
            ".filter(e => getComputedStyle(e).display != 'none').map(e => e.outerHTML.slice(0, 60))"
        )

    assert await asyncio.to_thread(shown_in_print) == []  # the page shown last: the pairing, with its links
