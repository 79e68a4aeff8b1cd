"""What members look for on chess-results and pairgoth pages (issue 45 §1), fetched over real HTTP from
the bot's web server: the NK table's rounds (opponent's place, colour, result) and its withdrawn players,
the NK pairing's score, group and rating, the Keizer pairing's absent members, the tournament's details,
when the page last changed, and a finished go game's count."""

from __future__ import annotations

import re
from html import unescape

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.test_pages import get
from tests.bot.web.test_system_pages import club_id

FOUR = ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800")


def table_of(body: str) -> tuple[list[str], list[list[str]]]:
    """The page's table: its headers and its rows' cells, as text."""
    headers = [unescape(h) for h in re.findall(r'<th scope="col">(.*?)</th>', body)]
    rows = []
    for row in re.findall(r"<tr>(<td.*?)</tr>", body):
        rows.append([unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)])
    return headers, rows


async def an_nk(commands: Core) -> int:
    for name in FOUR:
        await ok(commands, DIRECTOR, f"/speler {name}")
    await ok(commands, DIRECTOR, "/website aan")
    await ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap")
    for name in FOUR:
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")
    return await club_id(commands)


async def test_the_nk_table_has_a_column_per_round_and_marks_the_withdrawn(commands: Core, site: str) -> None:
    club = await an_nk(commands)
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")  # board 1: Carla (black) - Anna (white)
    await ok(commands, DIRECTOR, "/nk uitslag Bert gewonnen reglementair")  # board 2: Daan (black) - Bert (white)
    await ok(commands, DIRECTOR, "/nk terugtrekken Daan")
    await ok(commands, DIRECTOR, "/nk ronde")  # three left: a bye
    status, body, _ = await get(f"{site}/c/{club}/nk")
    assert status == 200
    headers, rows = table_of(body)
    assert headers[3:5] == ["R1", "R2"]
    by_name = {row[1]: row for row in rows}
    # the opponent's place in this table, the colour (z zwart, w wit), the result (+ - by forfeit); none yet in round 2
    assert by_name["Anna"][3:5] == ["3w1", "2w"] and by_name["Bert"][3:5] == ["4w+", "1z"]
    assert by_name["Carla"][3:5] == ["1z0", "vrij"] and by_name["Daan"][3:5] == ["2z-", ""]
    assert by_name["Daan"][-1] == "teruggetrokken vanaf ronde 2"
    assert "1 gewonnen, ½ jigo, 0 verloren" in body  # the legend says what the cells mean
    await ok(commands, DIRECTOR, "/taal en")
    headers, rows = table_of((await get(f"{site}/c/{club}/nk"))[1])
    assert [row[3] for row in rows] == ["3w1", "4w+", "1b0", "2b-"] and rows[3][-1] == "withdrawn from round 2"
