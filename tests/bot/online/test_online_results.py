"""The results that come in by themselves (issue 43 §3), against the strict fake lichess with the real alarm and
a real SQLite file: mate, draw and out of time entered as 1-0, 1/2-1/2 and 0-1 with nobody typing and the
standings announced once; a game the players started themselves entered when it is the one asked for, refused
with the director told when its colours are reversed; timeout and cheat held;
an expired challenge and a noStart proposing a no-show; a result a director entered never written over."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any
from datetime import datetime, timedelta, timezone

import pytest

from bot.core.commands.command_line import quote_word
from bot.core.commands.dispatch import Core
from bot.core.online.lichess import Lichess
from bot.core.online.lichess_answers import Unavailable
from bot.core.running.scheduler import Alarm
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, actor, link, ok, rows
from tests.bot.online.fake_lichess import FakeLichess, with_lichess
from tests.bot.online.online_fixtures import core, lichess  # noqa: F401  (the fixtures)
from tests.bot.online.round_setup import PLAYERS, PUBLISHED, Posted, at, online_club

STARTS = datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)  # the start of play, 20:00 in Amsterdam
LATEST = datetime(2026, 12, 3, 22, 30, tzinfo=timezone.utc)  # the latest start, 23:30


async def published(core: Core, config, clock, lichess: FakeLichess, posted: Posted) -> dict[int, tuple[str, str, str]]:
    """The round published at 18:00 with its six challenges: board -> (lichess id, white, black)."""
    await online_club(core, lichess)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    made = rows(config, "SELECT o.board, o.lichess_id, w.name, k.name FROM online_games o JOIN members w ON w.id = o.white_id"
                        " JOIN members k ON k.id = o.black_id ORDER BY o.board")  # fmt: skip
    assert len(made) == 6 and all(lichess_id for _, lichess_id, _, _ in made)
    return {board: (lichess_id, white, black) for board, lichess_id, white, black in made}


def results(config) -> dict[int, str | None]:
    return dict(rows(config, "SELECT board, result FROM games ORDER BY board"))


async def test_mate_draw_and_out_of_time_come_in_as_results_and_the_standings_are_announced_once(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    clock.set(STARTS + timedelta(minutes=5))
    lichess.clock.set(clock.now().timestamp())
    for board, (game, _, _) in boards.items():
        lichess.start_game(game)
    lichess.end_game(boards[1][0], "mate", "white")
    lichess.end_game(boards[2][0], "draw")
    lichess.end_game(boards[3][0], "outoftime", "black")
    lichess.end_game(boards[4][0], "resign", "black")
    lichess.end_game(boards[5][0], "stalemate")
    await at(core, clock, lichess, STARTS + timedelta(minutes=40), Alarm(core, posted.send))
    assert results(config) == {1: "1-0", 2: "1/2-1/2", 3: "0-1", 4: "0-1", 5: "1/2-1/2", 6: None}
    assert posted.channel("standings") == []  # board 6 still plays
    lichess.end_game(boards[6][0], "draw")
    await at(core, clock, lichess, STARTS + timedelta(minutes=41), Alarm(core, posted.send))
    assert results(config)[6] == "1/2-1/2"
    (standings,) = posted.channel("standings")
    assert standings.startswith("Stand 2026-27 na ronde 1") and "voorlopig" not in standings.splitlines()[0]
    exports = len(lichess.requests("/api/games/export/_ids"))
    for minutes in (42, 60, 24 * 60):  # nothing is followed any more: no request, no second announcement
        await at(core, clock, lichess, STARTS + timedelta(minutes=minutes), Alarm(core, posted.send))
    assert len(lichess.requests("/api/games/export/_ids")) == exports and len(posted.channel("standings")) == 1
    assert posted.private("leider") == []  # nothing for the director to do
    assert rows(config, "SELECT DISTINCT status, outcome FROM online_games") == [("finished", "entered")]


def users_of(config, board: int) -> tuple[str, str]:
    """The lichess usernames of a board's two players, white first."""
    ((white, black),) = rows(config, "SELECT white_user, black_user FROM online_games WHERE board = ?", board)
    return white, black


def asked_between(lichess: FakeLichess) -> list[str]:
    """The requests for the games between two players (the export of a user's games), their paths."""
    return [seen.path for seen in lichess.requests() if seen.path.startswith("/api/games/user/")]


async def others_drawn(lichess: FakeLichess, boards: dict[int, tuple[str, str, str]], but: int) -> None:
    for board, (game, _, _) in boards.items():
        if board != but:
            lichess.start_game(game)
            lichess.end_game(game, "draw")


async def test_a_game_the_players_started_themselves_with_reversed_colours_is_refused_and_the_director_told(
        core: Core, config, clock, lichess) -> None:  # fmt: skip
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    await others_drawn(lichess, boards, but=2)
    _, white, black = boards[2]
    white_user, black_user = users_of(config, 2)
    own = lichess.play_game(white=black_user, black=white_user)  # not the challenge: a game of their own, its own id
    lichess.end_game(own.id, "mate", "white")
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    assert results(config)[2] is None and posted.private("leider") == []  # the challenge may still be taken
    await at(core, clock, lichess, LATEST + timedelta(minutes=5), Alarm(core, posted.send))
    assert results(config)[2] is None
    (told,) = posted.private("leider")  # refused, with why, and no no-show proposed
    assert told == (f"Ronde 1, bord 2: de partij op lichess ({lichess.url}/{own.id}) is niet de partij die werd aangemaakt "
                    f"(de kleuren zijn omgedraaid) en is niet ingevoerd. Telt ze toch, voer de uitslag dan in met "
                    f"/uitslag {white} 1-0 1 (of 0-1, remise).")  # fmt: skip
    assert asked_between(lichess) == [f"/api/games/user/{white_user}"]  # asked once
    await at(core, clock, lichess, LATEST + timedelta(hours=2), Alarm(core, posted.send))
    assert asked_between(lichess) == [f"/api/games/user/{white_user}"] and len(posted.private("leider")) == 1
    await ok(core, DIRECTOR, f"/uitslag {black} 0-1 1")  # the director enters it: black (white on lichess) won
    assert results(config)[2] == "0-1"


async def test_a_game_the_players_started_themselves_exactly_as_asked_is_entered(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    await others_drawn(lichess, boards, but=2)
    white_user, black_user = users_of(config, 2)
    clock.set(STARTS + timedelta(minutes=5))
    lichess.clock.set(clock.now().timestamp())
    own = lichess.play_game(white=white_user, black=black_user, clock="15+10", rated=True)  # the season's: 15+10, rated
    await at(core, clock, lichess, LATEST + timedelta(minutes=5), Alarm(core, posted.send))
    assert results(config)[2] is None and posted.private("leider") == []  # still being played: looked at again
    lichess.end_game(own.id, "resign", "white")  # black resigned
    await at(core, clock, lichess, LATEST + timedelta(minutes=10), Alarm(core, posted.send))
    assert results(config)[2] == "1-0" and posted.private("leider") == []
    assert rows(config, "SELECT status, outcome, result, reason FROM online_games WHERE board = 2") == [("expired", "entered", "1-0", "resign")]
    assert len(posted.channel("standings")) == 1


async def test_lichess_down_when_asked_for_the_players_games_is_asked_again_later(core: Core, config, clock, lichess, monkeypatch) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    await others_drawn(lichess, boards, but=2)
    real, calls = Lichess.games_between, []

    async def down_once(self: Lichess, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise Unavailable("lichess answered 503")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Lichess, "games_between", down_once)
    await at(core, clock, lichess, LATEST + timedelta(minutes=5), Alarm(core, posted.send))
    assert posted.private("leider") == [] and rows(config, "SELECT status FROM online_games WHERE board = 2") == [("created",)]
    await at(core, clock, lichess, LATEST + timedelta(minutes=7), Alarm(core, posted.send))
    (told,) = posted.private("leider")  # asked again: no game of their own, so nobody came
    assert "bord 2" in told and "verlopen zonder partij" in told and len(calls) == 2


async def test_timeout_and_cheat_are_held_for_the_director_and_the_standings_stay_provisional(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    for board, (game, _, _) in boards.items():
        lichess.start_game(game)
        status, winner = {1: ("timeout", "white"), 2: ("cheat", "black")}.get(board, ("resign", "white"))
        lichess.end_game(game, status, winner)
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    assert results(config) == {1: None, 2: None, 3: "1-0", 4: "1-0", 5: "1-0", 6: "1-0"}
    told = sorted(posted.private("leider"))
    assert len(told) == 2
    assert "bord 1" in told[0] and "(timeout)" in told[0] and "tot dan is de stand voorlopig" in told[0]
    assert "bord 2" in told[1] and "fair-playreden (cheat)" in told[1]
    # what lichess gave is named and offered, the winner's side as /uitslag reads it (1-0: white's score)
    white1, white2 = boards[1][1], boards[2][1]
    assert "lichess gaf 1-0 (" in told[0] and f"/uitslag {quote_word(white1)} 1-0 1 " in told[0], told[0]
    assert "lichess gaf 0-1 (" in told[1] and f"/uitslag {quote_word(white2)} 0-1 1 " in told[1], told[1]
    assert posted.channel("standings") == []
    stand = await ok(core, DIRECTOR, "/stand")
    assert "(voorlopig: 2 uitslagen ontbreken)" in stand.splitlines()[0]
    open_results = (await ok(core, DIRECTOR, "/uitslagen")).splitlines()[1:]  # the director's list says why
    assert len(open_results) == 2 and open_results[0].startswith("Ronde 1, bord 1: ")
    assert open_results[0].endswith(" Op lichess: lichess kende de winst toe nadat de tegenstander de verbinding verloor (timeout).")
    assert open_results[1].endswith(" Op lichess: lichess beëindigde de partij om een fair-playreden (cheat).")
    assert rows(config, "SELECT board, outcome, reason FROM online_games WHERE outcome = 'held' ORDER BY board") == [
        (1, "held", "timeout"), (2, "held", "cheat")]  # fmt: skip


async def test_an_expired_challenge_and_a_game_nobody_started_propose_a_no_show(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    nostart, white4, _ = boards[4]
    lichess.start_game(nostart)
    lichess.end_game(nostart, "noStart", "black", plies=0)  # white never moved
    for board in (1, 2, 3, 5, 6):
        if board != 3:
            lichess.start_game(boards[board][0])
            lichess.end_game(boards[board][0], "draw")
    await at(core, clock, lichess, LATEST, Alarm(core, posted.send))  # board 3 could still start
    (nostart_told,) = posted.private("leider")
    assert nostart_told == (f"Ronde 1, bord 4: {white4} - {boards[4][2]}: {white4} deed op lichess geen eerste zet "
                            f"({lichess.url}/{nostart}). Kwam {white4} niet, markeer dat met /nietverschenen {white4} 1.")  # fmt: skip
    assert lichess.expire() == [boards[3][0]]
    await at(core, clock, lichess, LATEST + timedelta(minutes=5), Alarm(core, posted.send))
    _, white3, black3 = boards[3]
    expired = posted.private("leider")[1:]
    assert asked_between(lichess) == [f"/api/games/user/{users_of(config, 3)[0]}"]  # no game of their own either
    assert expired == [f"Ronde 1, bord 3: {white3} - {black3} is niet gespeeld: de uitdaging op lichess is verlopen zonder "
                       f"partij. Kwam een van beiden niet, markeer dat met /nietverschenen {white3} 1 of /nietverschenen "
                       f"{black3} 1 (of allebei)."]  # fmt: skip
    assert results(config)[3] is None and results(config)[4] is None
    await ok(core, DIRECTOR, f"/nietverschenen {white4} 1")
    assert results(config)[4] == "0-1F"
    await at(core, clock, lichess, LATEST + timedelta(hours=3), Alarm(core, posted.send))
    assert len(posted.private("leider")) == 2  # one notice per board


async def test_a_result_the_director_entered_is_never_written_back(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    game1, white1, _ = boards[1]
    game2, white2, _ = boards[2]
    lichess.start_game(game1)
    lichess.start_game(game2)
    await ok(core, DIRECTOR, f"/uitslag {white1} 1/2-1/2 1")  # before the game ends (the players agreed, say)
    lichess.end_game(game1, "mate", "white")
    lichess.end_game(game2, "resign", "black")
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    assert results(config)[1] == "1/2-1/2" and results(config)[2] == "0-1"
    (told,) = posted.private("leider")
    assert told.startswith("Ronde 1, bord 1: ") and "eindigde op lichess in 1-0, maar de ingevoerde uitslag ½-½ blijft staan" in told
    await ok(core, DIRECTOR, f"/uitslag {white2} 1-0 1")  # the director corrects what came in
    for minutes in (31, 60, 600):
        await at(core, clock, lichess, STARTS + timedelta(minutes=minutes), Alarm(core, posted.send))
    assert results(config)[1] == "1/2-1/2" and results(config)[2] == "1-0"


async def test_exporteer_pgn_gives_the_rounds_lichess_games_with_the_clubs_event_and_round(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    reply = await core.handle(DIRECTOR, "/exporteer pgn")
    assert not reply.ok and reply.text == "Ronde 1 heeft (nog) geen partijen die op lichess zijn uitgespeeld."
    for board in (3, 1, 2):  # played in another order than the boards'
        lichess.start_game(boards[board][0])
        lichess.end_game(boards[board][0], "mate", "white" if board != 2 else "black")
    lichess.start_game(boards[4][0])  # still playing: not in the file
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    reply = await core.handle(DIRECTOR, "/exporteer pgn 1")
    assert reply.ok and reply.text == "Ronde 1: 3 partijen van lichess als PGN."
    assert reply.attachment is not None and reply.attachment[0] == "2026-27_1.pgn"
    text = reply.attachment[1].decode()
    games = re.split(r"\n\n(?=\[)", text.strip())
    assert len(games) == 3
    for board, game in zip((1, 2, 3), games):
        assert '[Event "Test club 2026-27"]' in game and f'[Round "1.{board}"]' in game
        assert f'[Site "{lichess.url}/{boards[board][0]}"]' in game
        assert f'[White "{boards[board][1]}"]' in game and f'[Black "{boards[board][2]}"]' in game
        assert ("0-1" if board == 2 else "1-0") in game.splitlines()[-1]
    assert "Rated" not in text and "Round \"-\"" not in text  # lichess's own Event and Round replaced
    english = await core.handle(DIRECTOR, "/export pgn 1")
    assert english.ok and english.attachment is not None and english.attachment[1] == reply.attachment[1]
    # lichess limiting (429): the export is refused now, and while its minute lasts no command waits it out
    lichess.fail_next(1, 429)
    for _ in range(2):
        asked = len(lichess.requests())
        refused_now = await core.handle(DIRECTOR, "/exporteer pgn 1")
        assert not refused_now.ok and "lichess is nu niet bereikbaar" in refused_now.text, refused_now.text
    assert len(lichess.requests()) == asked  # the second: nothing asked of lichess inside its minute


@pytest.mark.parametrize("status", [429, 503])
async def test_lichess_limiting_or_down_the_follower_asks_again_a_minute_later(core: Core, config, clock, lichess, status) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    for game, _, _ in boards.values():
        lichess.start_game(game)
        lichess.end_game(game, "resign", "white")
    lichess.fail_next(1, status)
    moment = STARTS + timedelta(minutes=30)
    await at(core, clock, lichess, moment, Alarm(core, posted.send))
    asked = len(lichess.requests())
    await at(core, clock, lichess, moment + timedelta(seconds=50), Alarm(core, posted.send))  # within the minute (429: lichess's rule)
    assert len(lichess.requests()) == asked and set(results(config).values()) == {None}
    await at(core, clock, lichess, moment + timedelta(seconds=61), Alarm(core, posted.send))
    assert set(results(config).values()) == {"1-0"} and len(posted.channel("standings")) == 1


@pytest.fixture
async def any_core(any_store, config, clock, lichess: FakeLichess) -> AsyncIterator[Core]:
    made = make_core(any_store, with_lichess(config, lichess), clock)
    made.online.timing = lichess.clock
    yield made
    await made.online.close()


async def test_results_come_in_on_both_databases(any_core: Core, clock, lichess) -> None:
    core, posted = any_core, Posted()
    await online_club(core, lichess)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    made = await core.store.fetch_all("SELECT board, lichess_id FROM online_games ORDER BY board")
    endings = {1: ("mate", "white"), 2: ("draw", None), 3: ("outoftime", "black"), 4: ("timeout", "white")}
    for row in made:
        lichess.start_game(row["lichess_id"])
        lichess.end_game(row["lichess_id"], *endings.get(row["board"], ("resign", "white")))
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    await at(core, clock, lichess, STARTS + timedelta(minutes=31), Alarm(core, posted.send))
    entered = {r["board"]: r["result"] for r in await core.store.fetch_all("SELECT board, result FROM games ORDER BY board")}
    assert entered == {1: "1-0", 2: "1/2-1/2", 3: "0-1", 4: None, 5: "1-0", 6: "1-0"}
    assert len(posted.private("leider")) == 1 and posted.channel("standings") == []  # board 4 is held
    white4 = await core.store.fetch_one("SELECT w.name FROM games g JOIN members w ON w.id = g.white_id WHERE g.board = 4")
    await ok(core, DIRECTOR, f"/uitslag {white4['name']} 1-0 1")  # the director settles the held game
    assert len(posted.channel("standings")) == 0  # queued by the director's command, posted by the next pass
    await Alarm(core, posted.send).run_due()
    assert len(posted.channel("standings")) == 1


def test_a_game_is_looked_at_on_the_beat_of_the_evening() -> None:
    from bot.core.online.follow import next_look
    from bot.core.online.games_store import OnlineGame
    from bot.core.online.lichess_answers import TimeControl

    row = OnlineGame(club_id=1, system="keizer", round_ref=1, game_ref=1, board=1, white_id=1, black_id=2, white_user="a",
                     black_user="b", clock=TimeControl(900, 10), rated=False, name="R1 B1", starts_at=STARTS, expires_at=LATEST,
                     id=1, status="created", lichess_id="abcd1234")  # fmt: skip
    at = STARTS.replace(hour=17, minute=7, second=23)  # 18:07:23, before the start of play: every 10 minutes
    assert next_look(row, at) == at.replace(minute=10, second=0)
    assert next_look(row, STARTS - timedelta(minutes=3)) == STARTS  # never later than the start of play
    assert next_look(row, STARTS + timedelta(seconds=61.5)) == STARTS + timedelta(minutes=2)  # the evening: every minute
    evening_end = LATEST + timedelta(seconds=2 * (900 + 100 * 10))  # the latest start and the longest 15+10 game: 23:33:20
    assert next_look(row, evening_end - timedelta(seconds=30)) == evening_end.replace(second=0)  # 23:32:50: at 23:33
    assert next_look(row, evening_end + timedelta(minutes=1)) == evening_end.replace(minute=40, second=0)  # every 10 minutes
    day_after = evening_end + timedelta(days=1, minutes=5)
    assert next_look(row, day_after) == day_after.replace(minute=0, second=0) + timedelta(hours=1)  # then hourly


async def test_the_old_game_of_a_board_the_director_paired_again_is_never_entered(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    await online_club(core, lichess, players=(*PLAYERS, "Mies"))  # 13: one has the bye, the standby
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    assert len(rows(config, "SELECT member_id FROM byes")) == 1
    board, old, white, black = rows(config, "SELECT o.board, o.lichess_id, w.name, k.name FROM online_games o JOIN members w"
                                            " ON w.id = o.white_id JOIN members k ON k.id = o.black_id WHERE o.board = 1")[0]  # fmt: skip
    lichess.start_game(old)
    await ok(core, DIRECTOR, f"/invaller {white}")  # the standby plays instead of white: a new challenge
    lichess.end_game(old, "mate", "white")  # the old game played on all the same (too far to be aborted)
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    assert results(config)[board] is None  # the old game says nothing of the new pairing
    (new,) = rows(config, "SELECT lichess_id FROM online_games WHERE board = 1 AND status = 'created'")
    lichess.start_game(new[0])
    lichess.end_game(new[0], "resign", "white")
    await at(core, clock, lichess, STARTS + timedelta(minutes=60), Alarm(core, posted.send))
    assert results(config)[board] == "1-0"
    assert rows(config, "SELECT status, outcome FROM online_games WHERE board = 1 ORDER BY id") == [("cancelled", None), ("finished", "entered")]


async def test_an_english_club_s_director_is_told_in_english(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    await ok(core, DIRECTOR, "/taal en")
    boards = await published(core, config, clock, lichess, posted)
    game, white, black = boards[1]
    lichess.start_game(game)
    lichess.end_game(game, "noStart", "black", plies=1)  # white moved, black never did
    lichess.start_game(boards[2][0])
    lichess.end_game(boards[2][0], "aborted")
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    nostart, aborted = sorted(posted.private("leider"))
    assert nostart == (f"Round 1, board 1: {white} - {black}: {black} made no first move on lichess ({lichess.url}/{game}). "
                       f"If {black} did not come, mark it with /noshow {black} 1.")  # fmt: skip
    assert aborted.startswith("Round 1, board 2: ") and ": the game was aborted. Look at the game and enter the result with /result " in aborted


async def test_the_rapid_competition_s_held_game_names_the_rapid_command(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    await ok(core, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    await ok(core, DIRECTOR, "/seizoen naam=R start=2026-12-02 rondes=3 soort=rapid deadline=12:00 publicatie=13:00 "
                             "online=lichess tempo=10+5")  # fmt: skip
    for name in ("Anna", "Bert"):
        await ok(core, DIRECTOR, f"/speler {name} 1800 lichess={name}")
        lichess.add_user(name)
        await link(core, actor(name))
        await ok(core, actor(name), "/aanmelden rapid")
    published = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)  # 13:00 in Amsterdam
    await at(core, clock, lichess, published, Alarm(core, posted.send))
    ((game, white),) = rows(config, "SELECT o.lichess_id, w.name FROM online_games o JOIN members w ON w.id = o.white_id")
    lichess.start_game(game)
    lichess.end_game(game, "timeout", "black")
    await at(core, clock, lichess, published + timedelta(hours=8), Alarm(core, posted.send))
    (told,) = posted.private("leider")
    assert told.startswith("Rapid: Ronde 1, bord 1: ")
    assert "lichess gaf 0-1 (" in told and f"/uitslag {white} 0-1 1 rapid (of een andere: 1-0, 0-1, remise)" in told, told
    await ok(core, DIRECTOR, f"/uitslag {white} 0-1 1 rapid")  # the command as proposed settles it
    assert rows(config, "SELECT g.result FROM games g JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
                        " WHERE s.kind = 'rapid'") == [("0-1",)]  # fmt: skip


async def test_a_players_report_gives_way_to_lichess_and_the_director_is_told(core: Core, config, clock, lichess) -> None:
    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    game, white, black = boards[1]
    lichess.start_game(game)
    await ok(core, actor(white), "/uitslag gewonnen")  # white says they won; black has not confirmed
    lichess.end_game(game, "resign", "black")  # lichess: white resigned
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    assert results(config)[1] == "0-1"
    (told,) = posted.private("leider")
    assert told == (f"Ronde 1, bord 1: {white} - {black} eindigde op lichess in 0-1 en is zo ingevoerd; {white} had 1-0 "
                    f"gemeld. Klopt lichess niet, verbeter het met /uitslag {white} 1-0 1.")  # fmt: skip


async def test_a_game_whose_entering_fails_stops_no_other_and_is_tried_again(core: Core, config, clock, lichess, caplog) -> None:
    from bot.keizer.online_results import KeizerResults

    class FailsOnBoardOne(KeizerResults):  # a fault put in the system's hook: a bug, a lost connection
        async def settle(self, core, game, ending, now):
            if game.board == 1:
                raise RuntimeError("entering board 1 failed")
            return await super().settle(core, game, ending, now)

    posted = Posted()
    boards = await published(core, config, clock, lichess, posted)
    for game, _, _ in boards.values():
        lichess.start_game(game)
        lichess.end_game(game, "mate", "white")
    core.registry.online_results["keizer"] = FailsOnBoardOne()
    await at(core, clock, lichess, STARTS + timedelta(minutes=30), Alarm(core, posted.send))
    assert results(config) == {1: None, 2: "1-0", 3: "1-0", 4: "1-0", 5: "1-0", 6: "1-0"}
    assert "entering board 1 failed" in caplog.text
    assert rows(config, "SELECT status, outcome FROM online_games WHERE board = 1") == [("created", None)]  # rolled back
    core.registry.online_results["keizer"] = KeizerResults()
    await at(core, clock, lichess, STARTS + timedelta(minutes=40), Alarm(core, posted.send))
    assert results(config)[1] == "1-0" and len(posted.channel("standings")) == 1
