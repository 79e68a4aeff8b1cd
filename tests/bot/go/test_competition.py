"""A competition pairing played as a go game (issue 31 §3): the game is the result's one source while it
runs (a player's /uitslag is refused, the director may still enter one), and a finished game whose result
differs from what the round already holds is reported to the director privately. On a real store."""

from __future__ import annotations

import sqlite3
from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, refused, rows
from tests.bot.go.test_commands import ANNA, BERT, ok, pair_anna_and_bert
from tests.bot.keizer.test_results import director_member


async def pairing_game(commands: Core, clock: ShiftedClock, config) -> tuple:
    """Round 1 of a season with Anna and Bert, their pairing challenged and accepted as go game #1: the
    players (black, white) as the go game has them, and the Keizer game's white player's name."""
    await pair_anna_and_bert(commands, clock)
    await ok(commands, ANNA, "/go uitdagen Bert 9")
    await ok(commands, BERT, "/go accepteren")
    db = sqlite3.connect(config.db_path)
    (white,) = db.execute("SELECT m.name FROM games g JOIN members m ON m.id = g.white_id").fetchone()
    return (BERT, ANNA) if white == "Anna" else (ANNA, BERT), white


async def test_a_players_report_is_refused_while_the_go_game_runs(commands: Core, clock: ShiftedClock, config) -> None:
    (black, white), white_name = await pairing_game(commands, clock, config)
    text = await refused(commands, white, "/uitslag gewonnen", config)
    assert "#1" in text and "go" in text
    text = await refused(commands, black, "/uitslag 0-1", config)
    assert "#1" in text
    # the director may still enter one; the go game's end then leaves it and tells the director
    account = await director_member(commands)
    await ok(commands, DIRECTOR, f"/uitslag {white_name} 1-0")
    reply = await ok(commands, white, "/opgeven")  # black wins the go game: 0-1, the round says 1-0
    assert rows(config, "SELECT result FROM games") == [("1-0",)]
    assert "wedstrijdleider" in reply.text
    notices = rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)
    assert len(notices) == 1
    body = notices[0][0]
    assert "#1" in body and "0-1" in body and "1-0" in body and f"/uitslag {white_name} 0-1" in body


async def test_a_report_made_before_the_game_that_it_contradicts_is_told(commands: Core, clock: ShiftedClock, config) -> None:
    """A report made before the pairing was challenged as a go game: the game's result is entered, and the
    director hears that it differs from the report."""
    await pair_anna_and_bert(commands, clock)
    account = await director_member(commands)
    await ok(commands, ANNA, "/uitslag gewonnen")
    await ok(commands, ANNA, "/go uitdagen Bert 9")
    await ok(commands, BERT, "/go accepteren")
    assert "#1" in await refused(commands, BERT, "/bevestig", config)  # the game decides now
    await ok(commands, ANNA, "/opgeven")  # Bert wins the go game
    db = sqlite3.connect(config.db_path)
    (white,) = db.execute("SELECT m.name FROM games g JOIN members m ON m.id = g.white_id").fetchone()
    expected = "1-0" if white == "Bert" else "0-1"
    assert rows(config, "SELECT result, reported_result FROM games") == [(expected, None)]
    notices = rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)
    assert len(notices) == 1 and "#1" in notices[0][0] and "Anna" in notices[0][0]


async def test_a_go_result_equal_to_the_entered_one_tells_no_one(commands: Core, clock: ShiftedClock, config) -> None:
    (black, white), white_name = await pairing_game(commands, clock, config)
    account = await director_member(commands)
    await ok(commands, DIRECTOR, f"/uitslag {white_name} 0-1")
    await ok(commands, white, "/opgeven")
    assert rows(config, "SELECT body FROM announcements WHERE recipient = ?", account) == []
