"""Issue 44 §2, members as they are, through the commands layer on a real SQLite file: equal ratings in
joining order."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok, rows


def start_names(text: str) -> list[str]:
    """The names of a /stand before round 1, top first (rows ``place name ...``)."""
    return [line.split()[1] for line in text.splitlines() if line.split() and line.split()[0].isdigit()]


async def test_equal_ratings_keep_joining_order_past_member_ten(commands: Core, config) -> None:
    """Twelve members of one rating, added in the order Lid12..Lid01 (so that neither their names nor
    their ids read as text give the joining order). As text member id "10" sorts before "2"; the
    start order is the order they joined."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    names = [f"Lid{i:02}" for i in range(12, 0, -1)]
    for name in names:
        await ok(commands, DIRECTOR, f"/speler {name} 1500")
    ids = dict(rows(config, "SELECT name, id FROM members"))
    assert sorted(ids[n] for n in names) == [ids[n] for n in names] and ids["Lid01"] >= 10  # ids cross "9" -> "10"
    assert start_names(await ok(commands, DIRECTOR, "/stand")) == names
