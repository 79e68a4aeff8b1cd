"""/indeling verbied A B (/pairings forbid), ... uit, /indeling verboden on a real store: a pair the
director keeps apart is not paired while a round without it exists; bad input changes nothing."""

from __future__ import annotations

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, dump
from tests.bot.keizer.test_commands import ANNA, make_season, ok, pair_round_one, refused


async def test_a_forbidden_pair_is_not_paired(commands: Core, clock: ShiftedClock) -> None:
    # Anna 2100, Bert 1950, Carla 1800, Daan 1700: round 1 would be Anna-Bert, Carla-Daan
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700"))
    assert "Anna en Bert worden niet meer tegen elkaar" in await ok(commands, DIRECTOR, "/indeling verbied Anna Bert")
    assert (await ok(commands, ANNA, "/indeling verboden")).splitlines() == ["Eén verboden paar:", "Anna – Bert"]
    await pair_round_one(commands, clock)
    games = {frozenset(row[1:3]) for row in (await commands.handle(ANNA, "/indeling")).table.rows}
    assert games == {frozenset({"Anna", "Carla"}), frozenset({"Bert", "Daan"})}


async def test_forbid_lift_and_refusals(commands: Core, config) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/indeling verbied Carla Daan")
    before = dump(config.db_path)
    for who, text, said in (
        (ANNA, "/indeling verbied Anna Bert", "wedstrijdleider"),
        (DIRECTOR, "/indeling verbied Anna", "/indeling verbied A B"),
        (DIRECTOR, "/indeling verbied Anna Anna", "tegen zichzelf"),
        (DIRECTOR, "/indeling verbied Anna Zed", "Zed"),
        (DIRECTOR, "/indeling verbied Daan Carla", "al niet"),
        (DIRECTOR, "/indeling verbied Anna Bert uit", "stonden niet"),
    ):
        assert said in await refused(commands, who, text), text
    assert dump(config.db_path) == before
    assert "weer tegen elkaar" in await ok(commands, DIRECTOR, "/indeling verbied Daan Carla uit")
    assert await ok(commands, DIRECTOR, "/indeling verboden") == "Er zijn geen verboden paren."
    await ok(commands, DIRECTOR, "/language en")
    assert "no longer paired" in await ok(commands, DIRECTOR, "/pairings forbid Anna Eva")
    assert (await ok(commands, ANNA, "/pairings forbidden")).splitlines() == ["One forbidden pair:", "Anna – Eva"]
