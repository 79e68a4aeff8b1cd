"""A member's page shows what ``/waarom punten`` says in the chat (issue 45 §1, issue 34): each game's
opponent with the value it counts now, the same number as the chat's explanation."""

from __future__ import annotations

import re

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.conftest import a_club_with_everything
from tests.bot.web.test_consistent import fetch


def table_rows(body: str) -> tuple[list[str], list[list[str]]]:
    """The page's table: its headers and rows, as text."""
    headers = re.findall(r'<th scope="col"[^>]*>([^<]*)', body)
    rows = [re.findall(r"<td[^>]*>(?:<a[^>]*>)?([^<]*)", row) for row in re.findall(r"<tr>(<td.*?)</tr>", body)]
    return headers, rows


async def test_the_member_page_shows_the_value_each_game_counts_now(commands: Core, site: str) -> None:
    club, _, _ = await a_club_with_everything(commands)
    await ok(commands, DIRECTOR, "/uitslag Carla remise 2")  # Bert: won round 1 against Anna, a draw with Carla in 2
    bert = await commands.store.member_by_name(club, "Bert")
    assert bert is not None
    _, body = await fetch(site, f"/c/{club}/lid/{bert.id}")
    headers, rows = table_rows(body)
    assert headers == ["Ronde", "Tegenstander", "Waarde nu", "Kleur", "Uitslag", "Punten"], headers
    why = await ok(commands, DIRECTOR, "/waarom punten Bert")
    told = dict(re.findall(r"ronde (\d+): (?:winst|remise) tegen \w+, (?:de helft van )?waarde (\d+)", why))
    assert set(told) == {"1", "2"}, why
    shown = {row[0]: row[2] for row in rows}
    assert shown == told, (shown, why)  # the same numbers as the chat's explanation
    card = await ok(commands, DIRECTOR, "/kaart Bert")  # and the chat's /kaart has the column too
    assert "Waarde nu" in card
