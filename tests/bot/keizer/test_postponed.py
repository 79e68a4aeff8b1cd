"""Postponed games (inhaalpartijen, issue 44 §1), on a real store with the real commands and scheduler:
``/uitstel`` by the director (or asked by a player, confirmed by the director), the result entered later into
its own round, the standings "voorlopig" naming it, its players left out of the evening they catch up, the
report of a postponed game not played in time, and ``/kaart``, ``/mijn`` and ``/uitslagen`` showing it.

Round 1 (2026-12-03) of the five players: board 1 Bert (white) - Anna, board 2 Daan (white) - Carla, Eva
has the bye. Round 2 is played on 2026-12-10, round 3 on 2026-12-17.
"""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.commands.dispatch import Core
from bot.core.output.pictures import table_png
from bot.core.running.clock import ShiftedClock
from tests.bot.conftest import DIRECTOR, refused, rows
from tests.bot.keizer.test_commands import ANNA, BERT, CARLA, make_season, ok, pair_round_one
from tests.bot.keizer.test_open_results import ROUND_TWO_PUBLISHED, private, run_scheduler
from tests.bot.keizer.test_results import director_member

ROUND_TWO_EVENING = datetime(2026, 12, 10, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam, round 2's day


def postponed(config) -> list[tuple]:
    return rows(config, "SELECT r.number, g.board, p.until_date FROM postponed_games p JOIN games g ON g.id = p.game_id"
                        " JOIN rounds r ON r.id = g.round_id ORDER BY r.number, g.board")  # fmt: skip


def round_players(config, number: int) -> set[str]:
    found = rows(config, "SELECT w.name, b.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN members w"
                         " ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE r.number = ?", number)  # fmt: skip
    return {name for pair in found for name in pair}


def score_of(text: str, name: str) -> str:
    """A player's score in /stand's text table."""
    line = next(line for line in text.splitlines() if f" {name} " in f" {line} ")
    return line.split()[2]


async def test_a_postponed_game_keeps_its_round_and_its_result_comes_in_later(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    text = await ok(commands, DIRECTOR, "/uitstel Anna")
    assert "Ronde 1, bord 1: Bert - Anna is uitgesteld; uiterlijk 2026-12-10 spelen" in text  # the next round's evening
    assert "/uitslag Anna 1-0 1" in text
    assert postponed(config) == [(1, 1, None)]
    first = (await ok(commands, CARLA, "/stand")).splitlines()[0]
    assert first == "Stand 2026-27 na ronde 1 (voorlopig: 1 uitslag ontbreekt; inhaalpartij nog te spelen: 1: Bert - Anna)"
    assert rows(config, "SELECT body FROM announcements WHERE kind = 'standings'") == []
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    first = (await ok(commands, CARLA, "/stand")).splitlines()[0]
    assert first == "Stand 2026-27 na ronde 1 (voorlopig: inhaalpartij nog te spelen: 1: Bert - Anna)"
    reply = await commands.handle(CARLA, "/stand")
    assert reply.image == table_png(first, reply.table)  # the picture carries the same title
    ((body,),) = rows(config, "SELECT body FROM announcements WHERE kind = 'standings'")  # the round's, provisional
    assert body.splitlines()[0] == first
    await ok(commands, DIRECTOR, "/language en")
    assert "(provisional: catch-up game still to be played: 1: Bert - Anna)" in await ok(commands, CARLA, "/standings")
    await ok(commands, DIRECTOR, "/language nl")
    clock.set(ROUND_TWO_EVENING)
    assert "ronde 2" in (await ok(commands, DIRECTOR, "/publiceer")).lower()  # no "toch": the postponed game is played later
    assert {"Anna", "Bert"} <= round_players(config, 2)  # no date given: paired as usual
    bert_before = score_of(await ok(commands, CARLA, "/stand 1"), "Bert")
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0 1")  # into round 1, after round 2 was paired
    assert rows(config, "SELECT g.result FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 1 AND g.board = 1") == [("1-0",)]
    after = await ok(commands, CARLA, "/stand 1")
    assert "voorlopig" not in after.splitlines()[0]
    assert score_of(after, "Bert") != bert_before  # the recalculation counts it now
    assert postponed(config) == [(1, 1, None)]  # kept, but played: no longer pending
    assert "inhaalpartij" not in await ok(commands, CARLA, "/stand")


async def test_the_catch_up_evening_leaves_both_players_out_of_its_round(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    text = await ok(commands, DIRECTOR, "/uitstel Anna 1 tot=2026-12-10")
    assert "uitgesteld tot 2026-12-10" in text
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(ROUND_TWO_EVENING)
    await ok(commands, DIRECTOR, "/publiceer")
    assert len(round_players(config, 2)) == 2 and round_players(config, 2) < {"Carla", "Daan", "Eva"}  # not paired twice that evening
    assert rows(config, "SELECT m.name, s.kind FROM signoffs s JOIN rounds r ON r.id = s.round_id JOIN members m"
                        " ON m.id = s.member_id WHERE r.number = 2 ORDER BY m.name") == [("Anna", "notice"), ("Bert", "notice")]  # fmt: skip
    # her card and /mijn say why she is not in round 2: her catch-up game, not a sign-off of hers
    assert "inhaalpartij van ronde 1" in await ok(commands, CARLA, "/kaart Anna")
    cross = (await commands.handle(CARLA, "/kruistabel")).table
    assert cross is not None
    marks = {row[1]: row[4] for row in cross.rows}  # round 2's column: left out for the catch-up game
    assert marks["Anna"] == marks["Bert"] == "inh" and "inh" not in {marks["Carla"], marks["Daan"], marks["Eva"]}
    assert "Afgemeld" not in await ok(commands, ANNA, "/mijn")
    # the players report their catch-up game without a round number: it goes to round 1
    assert "Bert" in await ok(commands, ANNA, "/uitslag verloren")
    assert "ronde 1" in await ok(commands, BERT, "/bevestig")
    assert rows(config, "SELECT g.result FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 1 AND g.board = 1") == [("1-0",)]


async def test_a_catch_up_evening_already_paired_is_told_to_the_director(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(ROUND_TWO_EVENING)
    await ok(commands, DIRECTOR, "/publiceer toch")  # Anna and Bert are in round 2
    text = await ok(commands, DIRECTOR, "/uitstel Anna 1 tot=2026-12-10")
    assert "Let op: ronde 2 van 2026-12-10 is al ingedeeld en daarin spelen Bert, Anna al" in text
    assert "Let op" not in await ok(commands, DIRECTOR, "/uitstel Anna 1 tot=2026-12-17")  # round 3: not paired yet


async def test_a_player_asks_and_the_director_confirms_or_takes_it_back(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    reply = await commands.handle(ANNA, "/uitstel tot=2026-12-17")
    assert reply.ok and reply.private, reply.text
    assert "naar de wedstrijdleider gestuurd" in reply.text
    assert postponed(config) == []  # only asked
    (notice,) = private(config, account)
    assert "Anna vraagt uitstel van ronde 1, bord 1: Bert - Anna. Akkoord: /uitstel Anna 1 tot=2026-12-17" in notice
    await ok(commands, DIRECTOR, "/uitstel Anna 1 tot=2026-12-17")
    assert postponed(config) == [(1, 1, "2026-12-17")]
    assert "is al uitgesteld" in await refused(commands, BERT, "/uitstel", config)
    assert "niet meer uitgesteld" in await ok(commands, DIRECTOR, "/uitstel Anna ongedaan")
    assert postponed(config) == []
    await ok(commands, DIRECTOR, "/postpone Anna until=2026-12-17")  # the English words
    assert "niet meer uitgesteld" in await ok(commands, DIRECTOR, "/postpone Anna undo")  # the club speaks Dutch


async def test_a_postponement_that_cannot_be_is_refused_and_changes_nothing(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    assert "geen datum" in await refused(commands, DIRECTOR, "/uitstel Anna tot=morgen", config)
    assert "kies een latere datum" in await refused(commands, DIRECTOR, "/uitstel Anna tot=2026-12-01", config)
    assert "alleen voor de wedstrijdleider" in await refused(commands, ANNA, "/uitstel Carla", config)
    assert "alleen voor de wedstrijdleider" in await refused(commands, ANNA, "/uitstel ongedaan", config)
    assert "is niet uitgesteld" in await refused(commands, DIRECTOR, "/uitstel Anna ongedaan", config)
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    assert "al gespeeld (1-0)" in await refused(commands, DIRECTOR, "/uitstel Carla", config)
    assert "Eva" in await refused(commands, DIRECTOR, "/uitstel Eva", config)  # the bye: no game
    await ok(commands, DIRECTOR, "/uitstel Anna")
    assert "/uitstel Anna ongedaan" in await refused(commands, DIRECTOR, "/invaller Anna", config)  # not both
    await ok(commands, DIRECTOR, "/language en")
    assert "is no date" in await refused(commands, DIRECTOR, "/postpone Anna until=tomorrow", config)


async def test_postponing_the_last_open_game_announces_the_provisional_standings(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    assert rows(config, "SELECT body FROM announcements WHERE kind = 'standings'") == []
    await ok(commands, DIRECTOR, "/uitstel Bert")
    ((body,),) = rows(config, "SELECT body FROM announcements WHERE kind = 'standings'")
    assert body.splitlines()[0] == "Stand 2026-27 na ronde 1 (voorlopig: inhaalpartij nog te spelen: 1: Bert - Anna)"


async def test_a_postponed_game_not_played_in_time_is_reported_to_the_director_once(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitstel Anna tot=2026-12-06")
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(datetime(2026, 12, 7, 10, 59, tzinfo=timezone.utc))  # 11:59 the day after: not yet
    await run_scheduler(commands)
    assert not [n for n in private(config, account) if "nog niet gespeeld" in n]
    clock.set(datetime(2026, 12, 7, 11, 0, tzinfo=timezone.utc))  # noon in Amsterdam
    await run_scheduler(commands)
    (notice,) = [n for n in private(config, account) if "nog niet gespeeld" in n]
    assert "ronde 1, bord 1: Bert - Anna (tot 2026-12-06)" in notice and "/uitslag Bert 1-0 1" in notice
    await run_scheduler(commands)
    assert len([n for n in private(config, account) if "nog niet gespeeld" in n]) == 1  # once


async def test_a_played_postponed_game_is_not_reported(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitstel Anna tot=2026-12-06")
    await ok(commands, DIRECTOR, "/uitslag Anna 1/2-1/2")
    clock.set(datetime(2026, 12, 8, 11, 0, tzinfo=timezone.utc))
    await run_scheduler(commands)
    assert not [n for n in private(config, account) if "nog niet gespeeld" in n]


async def test_kaart_mijn_and_uitslagen_show_the_postponed_game(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitstel Anna tot=2026-12-10")
    assert "uitgesteld tot 2026-12-10" in await ok(commands, CARLA, "/kaart Bert")
    assert "uitgesteld tot 2026-12-10" in await ok(commands, CARLA, "/indeling 1")  # the pairing's result column
    clock.set(datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc))  # round 1's evening has gone by
    mine = await ok(commands, ANNA, "/mijn")
    assert "uitgesteld tot 2026-12-10" in mine  # the card's round 1
    assert "Inhaalpartij van ronde 1 tegen Bert: uitgesteld tot 2026-12-10" in mine and "ontbreekt" not in mine
    # round 2's evening is the catch-up evening: no deadline to sign off, she is left out of it (the scripted
    # season of issue 44 found /mijn offering "afmelden kan tot 17:00" for it)
    assert "Ronde 2 is op 2026-12-10: dan speel je je inhaalpartij, dus je wordt in ronde 2 niet ingedeeld" in mine
    assert "afmelden kan tot" not in mine
    assert "afmelden kan tot" in await ok(commands, CARLA, "/mijn")  # a player without a catch-up game that evening
    assert "nog geen uitslag" in await ok(commands, CARLA, "/kaart Carla")  # an open game that is not postponed
    text = await ok(commands, DIRECTOR, "/uitslagen")
    assert "Bert - Anna: geen uitslag" in text and "Uitgesteld tot 2026-12-10." in text


async def test_a_pairing_that_waits_for_results_does_not_wait_for_a_postponed_game(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/seizoen ontbrekend=wachten")
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitstel Anna")
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(ROUND_TWO_PUBLISHED)
    await run_scheduler(commands)
    assert rows(config, "SELECT status FROM rounds WHERE number = 2") == [("paired",)]
