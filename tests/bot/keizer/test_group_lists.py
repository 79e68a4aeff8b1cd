"""Issue 44 §2, groups from lists, through the commands layer on a real SQLite file: the member list's group
column (a column the Keizer system adds to the core's import), ``/groepen`` from a file or a pasted list,
and a late joiner's reply saying their group, start points and first round."""

from __future__ import annotations

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused
from tests.bot.keizer.test_commands import make_season, pair_round_one
from tests.bot.keizer.test_groups import groups

HEADER = "Naam;Rating;Account;KNSB;FIDE;EGD;lichess;Groep\n"


async def test_the_member_list_takes_a_group_column(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S1 start=2026-12-03 rondes=3")
    await ok(commands, DIRECTOR, "/speler Anna 2100 groep=B")
    said = await ok(commands, DIRECTOR, "/leden importeer", (HEADER + "Anna;2100;;;;;;A\nBert;2000;;;;;;b\nTim Koster;;;;;;;C\nCarla;1800\n").encode())
    assert "Anna: groep B → A" in said and "Bert: groep - → B" in said and "Tim Koster: groep - → C" in said
    assert "Carla" not in said.split("\n", 1)[1]  # no group cell: nothing said, no group, not in the season
    assert groups(config, "S1") == {"Anna": "A", "Bert": "B", "Tim Koster": "C"}
    again = await ok(commands, DIRECTOR, "/leden importeer", (HEADER + "Anna;2100;;;;;;A\n").encode())
    assert len(again.splitlines()) == 1  # the same group: no change to say
    # a group that is none of A-D, or too many columns: the line is named and nothing is read
    bad = await refused(commands, DIRECTOR, "/leden importeer", config, b"Bert;2000;;;;;;E\nDaan;1700\n")
    assert "regel 1" in bad.lower() and '"E"' in bad
    many = await refused(commands, DIRECTOR, "/leden importeer", config, b"Bert;2000;;;;;;A;x\n")
    assert "meer dan 8 kolommen" in many and "lichess, groep" in many


async def test_a_group_column_without_a_season_is_refused(commands: Core, config) -> None:
    text = await refused(commands, DIRECTOR, "/leden importeer", config, b"Anna;2100;;;;;;A\n")
    assert "lopend seizoen" in text
    await ok(commands, DIRECTOR, "/taal en")
    assert "running season" in await refused(commands, DIRECTOR, "/members import", config, b"Anna;2100;;;;;;A\n")
    assert "1 new" in await ok(commands, DIRECTOR, "/members import", b"Anna;2100\n")  # no group: no season needed


async def test_groups_from_a_file_or_a_pasted_list(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S1 start=2026-12-03 rondes=3")
    for line in ("Anna 2100", "Bert 2000", "Carla de Vries 1800", "Daan 1700"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    said = await ok(commands, DIRECTOR, "/groepen", b"Naam;Groep\nAnna;A\nBert,a\nB: Carla de Vries, Daan\n")
    assert said.splitlines() == ["Groepen in seizoen S1:", "Anna: groep - → A", "Bert: groep - → A",
                                 "Carla de Vries: groep - → B", "Daan: groep - → B"]  # fmt: skip
    pasted = await ok(commands, DIRECTOR, "/groepen\nDaan\tC\nA: Carla de Vries")
    assert "Daan: groep B → C" in pasted and "Carla de Vries: groep B → A" in pasted
    before = groups(config, "S1")
    assert "Regel 2" in await refused(commands, DIRECTOR, "/groepen", config, b"Anna;B\nBert\n")
    await refused(commands, DIRECTOR, "/groepen", config, b"Anna;B\nanna;C\n")  # twice
    await refused(commands, DIRECTOR, "/groepen", config, b"Anna;E\n")  # no such group
    await refused(commands, DIRECTOR, "/groepen", config, b"Anna;B\nZed;C\n")  # nobody's name
    await refused(commands, DIRECTOR, "/groepen", config, b"\xff\x00\x01")  # no text
    await refused(commands, actor("Anna"), "/groepen", config, b"Anna;B\n")  # the director's
    assert groups(config, "S1") == before


async def round_one_played(commands: Core, clock: ShiftedClock) -> None:
    """Anna 2100, Bert 1950, Carla 1800, Daan 1700; round 1: Bert - Anna 0-1, Daan - Carla draw. Valued at
    the start order (50, 49, 48, 47): Anna 49, Daan 24, Carla 23.5, Bert 0."""
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700"))
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Anna 0-1")
    await ok(commands, DIRECTOR, "/uitslag Daan remise")


async def test_a_late_joiner_is_told_group_start_points_and_first_round(commands: Core, clock: ShiftedClock, config) -> None:
    """Eva (1600) joins in round 2: below the lowest rated (Daan, 24) by rating, so she starts at Daan's
    24 (seed 004 rule b, interpolation with only a player above) and below him on rating: 3rd of 5."""
    await round_one_played(commands, clock)
    said = await ok(commands, DIRECTOR, "/speler Eva 1600 groep=C")
    assert "Eva: groep - → C" in said
    assert "Eva stroomt in vanaf ronde 2: groep C, 24 startpunten (plaats 3 van 5 in de ranglijst zoals die nu is)." in said
    assert "stroomt in" not in await ok(commands, DIRECTOR, "/speler Eva 1600")  # the same rating: no joiner's line again


async def test_a_late_joiners_rating_set_before_their_first_round_says_their_new_start_points(commands: Core, clock: ShiftedClock, config) -> None:
    """Fred signs on in the chat, unrated: he starts at the bottom (Bert's 0, 5th of 5), not at anyone's
    score by a rating of 0. The director sets his rating 1900 before round 2: the reply says his start
    points now, between Bert (1950, 0) and Carla (1800, 23.5) by rating: 23.5 - 23.5 * 100/150 = 7.83."""
    await round_one_played(commands, clock)
    said = await ok(commands, actor("Fred"), "/aanmelden")
    assert "0 startpunten (plaats 5 van 5" in said
    said = await ok(commands, DIRECTOR, "/speler Fred 1900")
    assert "Fred stroomt in vanaf ronde 2: nog geen groep (die zet de wedstrijdleider: /speler Naam groep=A), 7.83 startpunten (plaats 4 van 5" in said


async def test_a_newcomer_signing_on_mid_season_is_told_the_same(commands: Core, clock: ShiftedClock, config) -> None:
    await round_one_played(commands, clock)
    fred = actor("Fred")
    said = await ok(commands, fred, "/aanmelden")
    assert "Fred stroomt in vanaf ronde 2: nog geen groep (die zet de wedstrijdleider: /speler Naam groep=A)" in said
    await ok(commands, DIRECTOR, "/taal en")
    said = await ok(commands, DIRECTOR, "/speler Gert 1600")
    assert "Gert joins from round 2: no group yet (the director sets it: /player Name group=A), 24 start points (place" in said
