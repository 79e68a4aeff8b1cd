"""The club's calendar moved (issue 44 §1): free evenings (``/seizoen vrij``) move the rounds not yet paired
to the next playing evenings with their deadlines and publications; ``/ronde N datum=`` moves one round;
bad input is refused in the club's language and changes nothing."""

from __future__ import annotations

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok, refused, rows
from tests.bot.keizer.test_commands import ANNA, make_season, pair_round_one


def _calendar(config, kind: str = "main") -> dict[int, tuple[str, str, str, str]]:
    """Round number -> (play date, deadline UTC, publication UTC, status) of the club's season of ``kind``."""
    found = rows(config, "SELECT r.number, r.play_date, r.deadline_at, r.publish_at, r.status FROM rounds r"
                         " JOIN seasons s ON s.id = r.season_id WHERE s.kind = ? AND s.status = 'active'", kind)  # fmt: skip
    return {n: (day, deadline[:16], publish[:16], status) for n, day, deadline, publish, status in found}


async def test_a_holiday_moves_the_later_rounds_to_the_next_playing_evenings(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)  # 28 rounds on Thursdays from 2026-12-03, deadline 17:00, publication 18:00
    await pair_round_one(commands, clock)
    before = _calendar(config)
    assert before[4][0] == "2026-12-24" and before[28][0] == "2027-06-10"
    said = await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-31 2026-12-24")
    assert said.splitlines()[:4] == [
        "Vrije avonden in 2026-27: 2026-12-24, 2026-12-31.",
        "Ronde 4 verplaatst van 2026-12-24 naar 2027-01-07.",
        "Ronde 5 verplaatst van 2026-12-31 naar 2027-01-14.",
        "Ronde 6 verplaatst van 2027-01-07 naar 2027-01-21.",
    ]
    after = _calendar(config)
    assert {n: after[n] for n in (1, 2, 3)} == {n: before[n] for n in (1, 2, 3)}  # paired or before the holiday
    # the deadline 17:00 and publication 18:00 of the new evening, in winter time (UTC+1) and in summer (UTC+2)
    assert after[4] == ("2027-01-07", "2027-01-07T16:00", "2027-01-07T17:00", "open")
    assert after[28] == ("2027-06-24", "2027-06-24T15:00", "2027-06-24T16:00", "open")
    assert [after[n][0] for n in range(4, 29)] == [before[n][0] for n in range(6, 29)] + ["2027-06-17", "2027-06-24"]
    listed = await ok(commands, DIRECTOR, "/seizoen vrij")
    assert listed == "Vrije avonden van 2026-27: 2026-12-24, 2026-12-31."
    assert (await ok(commands, DIRECTOR, "/seizoen")).splitlines()[-1] == listed  # the running season shows them
    assert await ok(commands, DIRECTOR, "/season free") == listed  # the English alias

    # undone: 31 December plays again, and the rounds come back one week
    said = await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-31 ongedaan")
    assert said.splitlines()[:2] == ["2026-12-31 is weer een speelavond van 2026-27.", "Ronde 4 verplaatst van 2027-01-07 naar 2026-12-31."]
    again = _calendar(config)
    assert again[4] == ("2026-12-31", "2026-12-31T16:00", "2026-12-31T17:00", "open")
    assert again[28][0] == "2027-06-17"
    assert await ok(commands, DIRECTOR, "/seizoen vrij") == "Vrije avonden van 2026-27: 2026-12-24."

    # a free evening on which no round falls moves nothing
    assert "Geen ronde verplaatst" in await ok(commands, DIRECTOR, "/seizoen vrij 2027-01-06")


async def test_free_evenings_refuse_bad_input_and_change_nothing(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)  # now 2026-12-03 18:05 in Amsterdam; round 1 is paired
    assert "2027-02-30" in await refused(commands, DIRECTOR, "/seizoen vrij 2027-02-30", config)
    assert "geen datum" in await refused(commands, DIRECTOR, "/seizoen vrij morgen", config)
    assert "in het verleden" in await refused(commands, DIRECTOR, "/seizoen vrij 2026-12-02", config)
    said = await refused(commands, DIRECTOR, "/seizoen vrij 2026-12-03", config)
    assert said.startswith("Ronde 1 op 2026-12-03 is al ingedeeld")
    assert "geen vrije avond" in await refused(commands, DIRECTOR, "/seizoen vrij 2026-12-24 ongedaan", config)
    assert "alleen voor de wedstrijdleider" in await refused(commands, ANNA, "/seizoen vrij 2026-12-24", config)
    await ok(commands, DIRECTOR, "/taal en")
    said = await refused(commands, DIRECTOR, "/season free 2026-12-02", config)
    assert said == "2026-12-02 is in the past: a free evening is today or later. Nothing changed."


async def test_one_round_moves_to_another_evening(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    said = await ok(commands, DIRECTOR, "/ronde 3 datum=2026-12-15")
    assert said == ("Ronde 3 verplaatst van 2026-12-17 naar 2026-12-15: afmelden kan tot 2026-12-15 17:00,"
                    " de indeling komt om 2026-12-15 18:00.")  # fmt: skip
    assert _calendar(config)[3] == ("2026-12-15", "2026-12-15T16:00", "2026-12-15T17:00", "open")
    assert await ok(commands, DIRECTOR, "/ronde 3") == (
        "Ronde 3 speelt op 2026-12-15: afmelden kan tot 2026-12-15 17:00, de indeling komt om 2026-12-15 18:00.")
    await ok(commands, DIRECTOR, "/round 3 date=2026-12-10")  # the same evening as round 2: a double round
    assert _calendar(config)[3][0] == "2026-12-10"

    await ok(commands, DIRECTOR, "/seizoen vrij 2027-01-14")
    for text, words in (
        ("/ronde 1 datum=2026-12-30", "Ronde 1 is al ingedeeld"),
        ("/ronde 3 datum=2026-12-09", "vóór ronde 2 (2026-12-10)"),
        ("/ronde 3 datum=2026-12-25", "later dan ronde 4 (2026-12-24)"),
        ("/ronde 2 datum=2026-12-01", "in het verleden"),
        ("/ronde 4 datum=2027-02-30", "\"2027-02-30\" is geen datum"),
        ("/ronde 6 datum=2027-01-14", "2027-01-14 is een vrije avond"),
        ("/ronde 40 datum=2027-01-14", "Ronde 40 bestaat niet"),
        ("/ronde datum=2027-01-14", "/ronde N [datum=JJJJ-MM-DD] [rapid]"),
    ):
        assert words in await refused(commands, DIRECTOR, text, config), text
    assert "alleen voor de wedstrijdleider" in await refused(commands, ANNA, "/ronde 3 datum=2026-12-11", config)


async def test_the_rapid_competition_has_its_own_free_evenings(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/seizoen naam=R start=2026-12-02 rondes=5 soort=rapid")  # Wednesdays
    said = await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-09 rapid")
    assert said.startswith("Rapid: Vrije avond in R: 2026-12-09.")
    assert [day for day, *_ in _calendar(config, "rapid").values()] == ["2026-12-02", "2026-12-16", "2026-12-23", "2026-12-30", "2027-01-06"]
    assert _calendar(config)[2][0] == "2026-12-10"  # the main competition plays on
    assert (await ok(commands, DIRECTOR, "/seizoen vrij")).startswith("2026-27 heeft geen vrije avonden.")
    await ok(commands, DIRECTOR, "/ronde 5 datum=2027-01-07 soort=rapid")
    assert _calendar(config, "rapid")[5][0] == "2027-01-07"



async def test_free_evenings_given_when_the_season_is_made(commands: Core, clock: ShiftedClock, config) -> None:
    said = await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5 vrij=2026-12-24,2026-12-31")
    assert said.splitlines()[-1] == "Vrije avonden in 2026-27: 2026-12-24, 2026-12-31."
    assert [v[0] for v in _calendar(config).values()] == ["2026-12-03", "2026-12-10", "2026-12-17", "2027-01-07", "2027-01-14"]
    assert await ok(commands, DIRECTOR, "/seizoen vrij") == "Vrije avonden van 2026-27: 2026-12-24, 2026-12-31."
    # Discord's line puts its option vrije_avonden first
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-09 naam=R start=2026-12-02 rondes=3 soort=rapid")
    assert [v[0] for v in _calendar(config, "rapid").values()] == ["2026-12-02", "2026-12-16", "2026-12-23"]
    assert "2026-12-32" in await refused(commands, DIRECTOR, "/seizoen naam=X start=2027-01-06 vrij=2026-12-32 toch", config)
