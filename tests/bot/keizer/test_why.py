"""/waarom punten (/why points) on a real store: a member's score told result by result, at the values
of the list after the last round, adding up to what /stand shows."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR
from tests.bot.keizer.test_commands import ANNA, BERT, EVA, make_season, ok, pair_round_one, refused

ROUND_TWO = datetime(2026, 12, 10, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the second playing day


async def two_rounds(commands: Core, clock: ShiftedClock) -> None:
    """Start values Anna 50, Bert 49, Carla 48, Daan 47, Eva 46. Round 1: Bert-Anna 0-1, Daan-Carla 1-0,
    Eva the bye: list Anna 49, Daan 48, Eva 46, Bert 0, Carla 0, so values Anna 50, Daan 49, Eva 48,
    Bert 47, Carla 46. Round 2: Anna-Daan draw, Bert beats Eva, Carla the bye."""
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Bert 0-1")
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(ROUND_TWO)
    await ok(commands, DIRECTOR, "/publiceer")
    pairing = await commands.handle(ANNA, "/indeling")
    assert {frozenset(row[1:3]) for row in pairing.table.rows} == {frozenset({"Anna", "Daan"}), frozenset({"Bert", "Eva"})}
    await ok(commands, DIRECTOR, "/uitslag Anna 1/2-1/2")
    await ok(commands, BERT, "/uitslag gewonnen")
    await ok(commands, EVA, "/uitslag verloren")


async def test_why_points_tells_each_result_at_todays_values(commands: Core, clock: ShiftedClock) -> None:
    await two_rounds(commands, clock)
    standings = {row[1]: row[2] for row in (await commands.handle(ANNA, "/stand")).table.rows}
    assert standings == {"Anna": "71.5", "Daan": "71", "Bert": "48", "Eva": "48", "Carla": "46"}
    # the win of round 1 against Bert (then 49) is worth Bert's value now: 47
    text = await ok(commands, ANNA, "/waarom punten")
    assert text.splitlines()[1:] == [
        "ronde 1: winst tegen Bert, waarde 47 → 47",
        "ronde 2: remise tegen Daan, de helft van waarde 49 → 24.5",
        "totaal: 71.5",
    ]
    assert "71.5" in text.splitlines()[0] and "plaats 1" in text.splitlines()[0]
    # Eva's bye of round 1 (then 46) is her own value now: 48
    assert (await ok(commands, BERT, "/waarom punten Eva")).splitlines()[1:] == [
        "ronde 1: vrij, eigen waarde 48 → 48", "ronde 2: verlies tegen Bert → 0", "totaal: 48",
    ]
    for name, score in standings.items():
        assert (await ok(commands, ANNA, f"/waarom punten {name}")).splitlines()[-1] == f"totaal: {score}"


async def test_why_points_tells_a_sign_off_as_a_share_of_the_own_value(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    await ok(commands, EVA, "/afmelden")
    await pair_round_one(commands, clock)
    assert (await ok(commands, ANNA, "/waarom punten Eva")).splitlines()[1:] == [
        "ronde 1: afgemeld, 1/3 × eigen waarde 46 → 15.33", "totaal: 15.33",
    ]


async def test_why_points_in_english(commands: Core, clock: ShiftedClock) -> None:
    await two_rounds(commands, clock)
    await ok(commands, DIRECTOR, "/language en")
    assert (await ok(commands, BERT, "/why points")).splitlines()[1:] == [
        "round 1: loss against Anna → 0", "round 2: win against Eva, value 48 → 48", "total: 48",
    ]


async def test_why_refuses_what_it_cannot_answer(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    assert "/waarom punten" in await refused(commands, ANNA, "/waarom")
    assert "/waarom punten" in await refused(commands, ANNA, "/waarom stand")
    assert "Zed" in await refused(commands, ANNA, "/waarom punten Zed")
    assert "Van wie?" in await refused(commands, DIRECTOR, "/waarom punten")
    await refused(commands, ANNA, "/waarom punten rapid")  # no rapid season


async def test_why_pairing_tells_opponent_board_colour_and_bye(commands: Core, clock: ShiftedClock) -> None:
    # round 2 is paired from the list after round 1: Anna 49, Daan 48, Eva 46, Bert 0, Carla 0; five
    # present: Carla, the lowest without a bye, has it; Anna (black in round 1) gets white against Daan
    # (white in round 1), Eva (the bye in round 1) white against Bert (white in round 1)
    await two_rounds(commands, clock)
    assert (await ok(commands, ANNA, "/waarom indeling")).splitlines() == [
        "Indeling ronde 2 voor Anna: plaats 1 op de ranglijst van 5 aanwezigen.",
        "Anna speelt aan bord 1 tegen Daan (plaats 2): de hoogst geplaatste speelt tegen de eerstvolgende die"
        " deze cyclus nog niet tegen hem speelde, zolang de rest van de ronde dan rond komt.",
        "Wit voor Anna: minder vaak wit dan zwart gehad (Anna 0×wit 1×zwart, Daan 1×wit 0×zwart).",
    ]
    assert (await ok(commands, ANNA, "/waarom indeling Bert")).splitlines()[1:] == [
        "Bert speelt aan bord 2 tegen Eva (plaats 3): de hoogst geplaatste speelt tegen de eerstvolgende die"
        " deze cyclus nog niet tegen hem speelde, zolang de rest van de ronde dan rond komt.",
        "Wit voor Eva: minder vaak wit dan zwart gehad (Eva 0×wit 0×zwart, Bert 1×wit 0×zwart).",
    ]
    assert (await ok(commands, ANNA, "/waarom indeling Carla")).splitlines()[1:] == [
        "Carla is vrij: het aantal aanwezigen is oneven, en de laagst geplaatste met de minste vrije rondes"
        " krijgt de bye (Carla was eerder 0 keer vrij).",
    ]
    await ok(commands, DIRECTOR, "/language en")
    assert (await ok(commands, BERT, "/why pairing")).splitlines()[0] == "Pairing of round 2 for Bert: place 4 in the ranking of 5 players present."


async def test_why_pairing_refuses_a_player_not_paired(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    assert "Ronde 1 is nog niet ingedeeld" in await refused(commands, ANNA, "/waarom indeling")
    await ok(commands, EVA, "/afmelden")
    await pair_round_one(commands, clock)
    assert "niet ingedeeld" in await refused(commands, ANNA, "/waarom indeling Eva")

