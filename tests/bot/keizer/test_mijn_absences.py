"""Issue 44 §3: /mijn tells a no-show from a sign-off, and each kind of absence is shown as what it is."""

from __future__ import annotations

from datetime import timedelta

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok, rows
from tests.bot.keizer.test_club_season import ANNA, MAIN_PUBLISH, main_season


async def play_round_without_anna(commands: Core, clock, config, number: int) -> None:
    clock.set(MAIN_PUBLISH + timedelta(weeks=number - 1, minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    await ok(commands, DIRECTOR, f"/nietverschenen Anna {number}")
    games = rows(config, "SELECT w.name, b.name, g.result FROM games g JOIN rounds r ON r.id = g.round_id"
                         f" JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE r.number = {number}")  # fmt: skip
    for white, _, result in games:
        if result is None:
            await ok(commands, DIRECTOR, f"/uitslag {white} 1-0 {number}")


async def test_a_no_show_is_not_told_as_a_sign_off(commands: Core, clock, config) -> None:
    await main_season(commands)
    for number in (1, 2):
        await play_round_without_anna(commands, clock, config, number)
    text = (await commands.handle(ANNA, "/mijn")).text
    assert "Afgemeld voor ronde 1" not in text and "afgemeld voor ronde 1" not in text, text
    assert "Niet verschenen in ronde 1, 2" in text, text
    assert "automatische afmelding" in text, text
    assert "afmelden kan tot" not in text, text  # she is signed off automatically: /aanmelden, not a deadline
    assert "/aanmelden" in text, text
    assert "reglementair verloren (0)" in text and "nog geen uitslag" not in text, text
    await ok(commands, DIRECTOR, "/taal en")
    english = (await commands.handle(ANNA, "/me")).text
    assert "No-show in round 1, 2" in english and "/aanmelden" in english, english


async def test_the_card_tells_each_kind_of_round_apart(commands: Core, clock, config) -> None:
    await main_season(commands)
    await ok(commands, ANNA, "/afmelden 1")
    await ok(commands, ANNA, "/afmelden 2 teamwedstrijd")
    for number in (1, 2, 3):
        clock.set(MAIN_PUBLISH + timedelta(weeks=number - 1, minutes=1))
        await ok(commands, DIRECTOR, "/publiceer")
        if number < 3:
            for (white,) in rows(config, "SELECT w.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN members w"
                                         f" ON w.id = g.white_id WHERE r.number = {number}"):  # fmt: skip
                await ok(commands, DIRECTOR, f"/uitslag {white} 1-0 {number}")
    card = (await commands.handle(ANNA, "/kaart")).text
    lines = {line.split()[0]: line for line in card.splitlines() if line.strip()[:1].isdigit()}
    assert "afwezig" in lines["1"] and "teamwedstrijd" not in lines["1"], card
    assert "teamwedstrijd" in lines["2"], card
    assert "nog geen uitslag" in lines["3"], card
    mine = (await commands.handle(ANNA, "/mijn")).text
    assert "Afgemeld voor ronde 1." in mine and "teamwedstrijd in ronde 2" in mine and "Niet verschenen" not in mine, mine


async def test_a_past_round_without_its_result_is_not_the_coming_game(commands: Core, clock, config) -> None:
    await main_season(commands)
    clock.set(MAIN_PUBLISH + timedelta(minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    assert "Ronde 1: bord" in (await commands.handle(ANNA, "/mijn")).text  # that evening: her game
    clock.set(MAIN_PUBLISH + timedelta(days=5))  # Tuesday 8 December, round 1's result still missing
    text = (await commands.handle(ANNA, "/mijn")).text
    assert "Ronde 1: bord" not in text, text
    assert "Ronde 1 (2026-12-03) tegen" in text and "ontbreekt nog" in text, text
    assert "Ronde 2 is op 2026-12-10" in text, text


async def test_the_cross_table_tells_a_no_show_from_a_sign_off_and_marks_a_missing_result(commands: Core, clock, config) -> None:
    await main_season(commands)
    for number in (1, 2):
        await play_round_without_anna(commands, clock, config, number)
    await ok(commands, DIRECTOR, "/afmelden Bert 3")
    clock.set(MAIN_PUBLISH + timedelta(weeks=2, minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    table = (await commands.handle(ANNA, "/kruistabel")).table
    assert table is not None
    row = {r[1]: r[3:] for r in table.rows}
    assert row["Anna"][2] == "auto", row  # signed off by the no-show rule
    assert row["Bert"][2] == "afw", row  # signed off in time
    assert row["Carla"][2].endswith("?") and row["Daan"][2].endswith("?"), row  # paired, no result yet
