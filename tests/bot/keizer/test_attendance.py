"""A member's attendance mode (issue 34 §2): ``/mijn aanwezig afgemeld`` makes them absent from every round
unless they sign on for it; the pairing, the engine's record of the round (an ordinary sign-off in time,
seed 004 Keizer rule e), the season file's present players and the website's form agree."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.keizer import Absence

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.keizer import competition, season_io
from bot.keizer.lookups import keizer_store
from bot.keizer.web import coming_rounds
from tests.bot.conftest import DIRECTOR, refused, rows
from tests.bot.keizer.test_commands import ANNA, BERT, EVA, PAIRED, make_season, ok

ROUND_TWO = datetime(2026, 12, 10, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam, the second playing day


async def _season(commands: Core):
    season = await keizer_store(commands).active_season(1, "main")
    assert season is not None
    return season


def _member(config, name: str) -> int:
    return rows(config, "SELECT id FROM members WHERE name = ?", name)[0][0]


async def test_absent_unless_signed_on(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    assert "Voortaan ben je voor elke ronde afgemeld" in await ok(commands, EVA, "/mijn aanwezig afgemeld")
    assert "afgemeld" in await ok(commands, EVA, "/mijn aanwezig")
    eva = _member(config, "Eva")
    # the season file (the engine's input for the coming round) has four present players, without Eva
    text = await season_io.export_text(commands.store, await _season(commands))
    assert '"present": [' in text and "Eva" not in text.split('"present"')[1].split("]")[0]
    # the website's form shows Eva signed off for round 1, with the button to sign on
    club = await commands.store.club(1)
    member = await commands.store.member(eva)
    form = await coming_rounds(commands, club, member, clock.now())
    assert form[0].state == "Je bent afgemeld."
    assert form[0].actions == (("Weer aanmelden", "/aanmelden 1"),)
    assert form[0].signed_off == 1
    # /mijn says so too
    assert "Voor ronde 1 (2026-12-03) ben je afgemeld." in await ok(commands, EVA, "/mijn")

    # Eva signs on for round 2 (before its deadline); round 1 is paired without her
    assert "aangemeld voor ronde 2" in await ok(commands, EVA, "/aanmelden 2")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    paired = rows(config, "SELECT white_id, black_id FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 1")
    assert len(paired) == 2 and all(eva not in game for game in paired)
    assert rows(config, "SELECT COUNT(*) FROM byes")[0][0] == 0
    # the engine's record of round 1: an ordinary sign-off in time (1/3 of her value), as /afmelden gives
    data = await competition.load(commands.store, await _season(commands))
    assert data.rounds[0].absent == {str(eva): Absence.NOTICE}
    assert rows(config, "SELECT kind, created_by FROM signoffs WHERE member_id = ?", eva) == [("notice", None)]
    # Anna beat Carla, Bert and Daan drew... results in, standings: Eva has 46/3 (value 46 by rating)
    for who, result in ((ANNA, "1-0"), (BERT, "remise")):
        await ok(commands, who, f"/uitslag {result}")
    stand = await commands.handle(ANNA, "/stand")
    eva_row = next(r for r in stand.table.rows if "Eva" in r)
    assert "15.33" in eva_row

    # round 2: she signed on, so she is paired; five players: one bye
    clock.set(ROUND_TWO)
    await ok(commands, DIRECTOR, "/publiceer toch")
    second = rows(config, "SELECT white_id, black_id FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 2")
    byes = [b for (b,) in rows(config, "SELECT member_id FROM byes b JOIN rounds r ON r.id = b.round_id WHERE r.number = 2")]
    assert any(eva in game for game in second) or byes == [eva]
    assert rows(config, "SELECT COUNT(*) FROM signoffs s JOIN rounds r ON r.id = s.round_id WHERE r.number = 2")[0][0] == 0


async def test_signing_off_takes_back_a_sign_on_and_back_to_default(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    eva = _member(config, "Eva")
    await ok(commands, EVA, "/me attendance absent")
    assert rows(config, "SELECT COUNT(*) FROM signons WHERE member_id = ?", eva)[0][0] == 0  # a clean slate
    await ok(commands, EVA, "/aanmelden")
    assert rows(config, "SELECT COUNT(*) FROM signons WHERE member_id = ?", eva)[0][0] == 1
    await ok(commands, EVA, "/afmelden")
    assert rows(config, "SELECT COUNT(*) FROM signons WHERE member_id = ?", eva)[0][0] == 0
    await ok(commands, EVA, "/aanmelden")  # takes back the sign-off and signs on again
    assert rows(config, "SELECT COUNT(*) FROM signons WHERE member_id = ?", eva)[0][0] == 1
    assert rows(config, "SELECT COUNT(*) FROM signoffs")[0][0] == 0
    # after round 1's deadline she goes back to the default: round 1 stays as it was (she is on)
    clock.set(datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc))
    assert "speel je elke ronde mee" in await ok(commands, EVA, "/mijn aanwezig=standaard")
    assert rows(config, "SELECT mode FROM attendance_modes")[0][0] == "present"
    # and to 'absent' again after the deadline: round 1, where she was on, keeps her on
    await ok(commands, EVA, "/mijn aanwezig afgemeld")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    paired = rows(config, "SELECT white_id, black_id FROM games")
    byes = [b for (b,) in rows(config, "SELECT member_id FROM byes")]
    assert any(eva in game for game in paired) or byes == [eva]


async def test_mode_switch_after_the_deadline_keeps_the_closed_round(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, EVA, "/mijn aanwezig afgemeld")
    clock.set(datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc))  # round 1 closed, not yet paired
    await ok(commands, EVA, "/mijn aanwezig standaard")  # round 1 stays off: a sign-off is written for it
    assert rows(config, "SELECT kind FROM signoffs")[0][0] == "notice"


async def test_bad_input_and_late_sign_on_change_nothing(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    assert "/mijn aanwezig standaard|afgemeld" in await refused(commands, EVA, "/mijn aanwezig misschien", config)
    assert "/mijn aanwezig standaard|afgemeld" in await refused(commands, EVA, "/mijn aanwezig afgemeld nu", config)
    await ok(commands, EVA, "/mijn aanwezig afgemeld")
    assert "al op afgemeld" in await ok(commands, EVA, "/mijn aanwezig afgemeld")
    clock.set(datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc))  # 17:30 local: past the deadline
    assert "17:00" in await refused(commands, EVA, "/aanmelden", config)
    await ok(commands, DIRECTOR, "/language en")
    assert "/me attendance default|absent" in await refused(commands, EVA, "/me attendance maybe", config)


CONSOLE = """
/seizoen naam=2026-27 start=2026-12-03 rondes=28
/speler Anna 2100
/speler Bert 1950
/speler Carla 1800
/speler Daan 1700
/speler Eva 1600
/koppel Eva @Eva
/als Eva
/mijn aanwezig afgemeld
/aanmelden 2
/klok 2026-12-03 18:05
/klok +1w
"""


def test_in_the_console_she_plays_only_the_week_she_signed_on(config) -> None:
    from tests.bot.test_console_week import run_script

    lines = run_script(config, CONSOLE).splitlines()
    announced = [line for line in lines if line.startswith("[kanaal] ")]
    first = announced[announced.index("[kanaal] Indeling ronde 1 (2026-12-03)") + 1 :][:3]
    second = announced[announced.index("[kanaal] Indeling ronde 2 (2026-12-10)") + 1 :][:3]
    assert not any("Eva" in line for line in first), first  # four play, no bye: Eva is signed off
    assert any("Eva" in line for line in second), second  # she signed on for round 2


async def test_a_pairing_taken_back_takes_her_default_sign_off_with_it(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, EVA, "/mijn aanwezig afgemeld")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    eva = _member(config, "Eva")
    assert rows(config, "SELECT kind FROM signoffs WHERE member_id = ?", eva) == [("notice",)]
    await ok(commands, DIRECTOR, "/publiceer ongedaan")
    assert rows(config, "SELECT COUNT(*) FROM signoffs WHERE member_id = ?", eva) == [(0,)]
    await ok(commands, EVA, "/mijn aanwezig standaard")  # after the deadline: round 1 stays as it was, off
    assert rows(config, "SELECT kind, created_by FROM signoffs WHERE member_id = ?", eva) == [("notice", eva)]
