"""Go rules of seed 001 on positions built in the test: captures, suicide, ko, passes, handicap,
dead-stone marking and agreement, coordinates."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.go import (
    BLACK, EMPTY, WHITE, Action, Board, GoError, GoGame, GoSettings, default_komi, parse_point, point_name,
    standard_handicap,
)  # fmt: skip


def board_from(rows: list[str]) -> Board:
    """A board from a diagram, top row first: X black, O white, . empty."""
    board = Board(len(rows))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.replace(" ", "")):
            if ch in "Xx":
                board.put(BLACK, y * board.size + x)
            elif ch in "Oo":
                board.put(WHITE, y * board.size + x)
    return board


def game(size: int = 9, handicap: int = 0, *moves: str) -> GoGame:
    g = GoGame(GoSettings(size, default_komi(size, handicap), handicap))
    for text in moves:
        g.apply(Action.parse(text, size))
    return g


def cells_text(board: Board) -> list[str]:
    n = board.size
    return ["".join(".XO"[board.cells[y * n + x]] for x in range(n)) for y in range(n)]


def p(name: str, size: int = 9) -> int:
    return parse_point(name, size)


# ------------------------------------------------------------------ coordinates
def test_coordinates_as_players_write_them() -> None:
    assert parse_point("A1", 19) == 18 * 19  # bottom left
    assert parse_point("T19", 19) == 18  # top right: T is the 19th letter, without I
    assert parse_point("j10", 19) == 9 * 19 + 8  # J comes right after H
    assert point_name(parse_point("Q16", 19), 19) == "Q16"
    assert parse_point("N13", 13) == 12
    with pytest.raises(GoError) as err:
        parse_point("I5", 19)
    assert err.value.reason == "bad_coordinate"
    for text in ("T19", "A14", "O1"):
        with pytest.raises(GoError) as err:
            parse_point(text, 13)
        assert err.value.reason == "off_board", text
    for text in ("A0", "K20"):
        with pytest.raises(GoError) as err:
            parse_point(text, 19)
        assert err.value.reason == "off_board"
    for text in ("", "4D", "DD", "D-4", "D4.5", "🙂1", "D²", "D٣", "D100"):
        with pytest.raises(GoError) as err:
            parse_point(text, 19)
        assert err.value.reason == "bad_coordinate", text


# ------------------------------------------------------------------ captures and liberties
def test_liberties_of_a_lone_stone_and_a_stone_on_the_edge() -> None:
    board = board_from([
        ".........",
        ".........",
        ".........",
        "....X....",
        ".........",
        ".........",
        ".........",
        ".........",
        "O........",
    ])  # fmt: skip
    assert len(board.liberties(p("E6"))) == 4
    assert len(board.liberties(p("A1"))) == 2


def test_a_chain_without_liberties_is_captured_and_counted() -> None:
    board = board_from([
        ".........",
        ".........",
        "..XX.....",
        ".XOOX....",
        "..XO.....",
        "...X.....",
        ".........",
        ".........",
        ".........",
    ])  # fmt: skip
    taken = board.play(BLACK, p("E5"))
    assert taken == 3
    assert cells_text(board)[3] == ".X..X...."
    assert cells_text(board)[4] == "..X.X...."


def test_capture_counted_per_colour_in_a_game() -> None:
    g = game(9, 0, "B E5", "W E6", "B D6", "W A1", "B F6", "W A2", "B E7")
    assert g.captured == {BLACK: 0, WHITE: 1}
    assert g.board.cells[p("E6")] == EMPTY and g.last_captures == 1


def test_suicide_is_illegal_unless_it_captures() -> None:
    # seed 001's picture: white may not play inside the left black group, but may play into the right
    # one where the move captures the whole group
    board = board_from([
        ".X.......",
        "X.X......",
        ".X.......",
        ".........",
        ".........",
        "OOOOO....",
        "XXXXXO...",
        "X.XXXO...",
        "XXXXXO...",
    ])  # fmt: skip
    before = bytes(board.cells)
    with pytest.raises(GoError) as err:
        board.play(WHITE, p("B8"))
    assert err.value.reason == "suicide"
    assert bytes(board.cells) == before
    taken = board.play(WHITE, p("B2"))
    assert taken == 14
    assert cells_text(board)[6:] == [".....O...", ".O...O...", ".....O..."]


def test_a_move_on_an_occupied_point_is_refused() -> None:
    g = game(9, 0, "B E5")
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("W E5", 9))
    assert err.value.reason == "occupied"
    assert g.moves == 1 and g.to_move == WHITE


def test_wrong_turn_is_refused_and_changes_nothing() -> None:
    g = game(9, 0, "B E5")
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("B D4", 9))
    assert err.value.reason == "not_your_turn"
    assert g.board.cells[p("D4")] == EMPTY


# ------------------------------------------------------------------ ko
KO = ["B D5", "W E5", "B E6", "W F6", "B E4", "W F4", "B A9", "W G5"]  # a ko shape around E5/F5


def test_ko_forbids_the_immediate_recapture_but_not_later() -> None:
    g = game(9, 0, *KO)
    g.apply(Action.parse("B F5", 9))  # black captures the white stone at E5
    assert g.captured[WHITE] == 1
    before = bytes(g.board.cells)
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("W E5", 9))  # would recreate the position after white's previous turn
    assert err.value.reason == "ko"
    assert bytes(g.board.cells) == before and g.to_move == WHITE
    g.apply(Action.parse("W A1", 9))  # a ko threat elsewhere
    g.apply(Action.parse("B A2", 9))
    g.apply(Action.parse("W E5", 9))  # now the recapture is allowed
    assert g.captured[BLACK] == 1
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("B F5", 9))
    assert err.value.reason == "ko"


def test_a_pass_does_not_lift_the_ko_for_the_passer() -> None:
    g = game(9, 0, *KO, "B F5")
    g.apply(Action.parse("W pass", 9))
    g.apply(Action.parse("B A2", 9))
    g.apply(Action.parse("W E5", 9))  # white passed; black moved elsewhere: the position differs, allowed
    assert g.board.cells[p("F5")] == EMPTY


# ------------------------------------------------------------------ passes, marking, agreement
def test_two_passes_end_play_and_the_player_to_move_marks() -> None:
    g = game(9, 0, "B E5", "W pass")
    assert g.phase == "play"
    g.apply(Action.parse("B pass", 9))
    assert g.phase == "marking" and g.marker == WHITE and g.to_act == WHITE
    with pytest.raises(GoError):
        g.apply(Action.parse("W D4", 9))  # no moves while marking
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("B mark E5", 9))  # only the marker marks
    assert err.value.reason == "not_your_turn"


def test_a_pass_between_moves_resets_the_count() -> None:
    g = game(9, 0, "B E5", "W pass", "B D4", "W pass")
    assert g.phase == "play"


SPLIT = [  # 9x9: black left of column E, white right of it; a dead white stone at B5, a dead black at H5
    "B E9", "W F9", "B E8", "W F8", "B E7", "W F7", "B E6", "W F6", "B E5", "W F5", "B E4", "W F4",
    "B E3", "W F3", "B E2", "W F2", "B E1", "W F1", "B H5", "W B5", "B pass", "W pass",
]  # fmt: skip


def test_marking_one_stone_marks_its_colour_in_the_surrounded_area_and_unmarking_its_chain() -> None:
    # SPLIT with two more white stones inside black's area (B8 and C2, not connected to each other)
    g = game(9, 0, *SPLIT[:-2], "B pass", "W B8", "B pass", "W C2", "B pass", "W pass")
    assert g.phase == "marking" and g.marker == BLACK
    g.apply(Action.parse("B mark B5", 9))
    assert g.dead == {p("B5"), p("B8"), p("C2")}  # every white stone in the area black surrounds, no more
    g.apply(Action.parse("B mark H5", 9))
    assert g.dead == {p("B5"), p("B8"), p("C2"), p("H5")}
    g.apply(Action.parse("B mark C2", 9))  # unmarking a stone brings back its chain only
    assert g.dead == {p("B5"), p("B8"), p("H5")}
    g.apply(Action.parse("B mark C2", 9))  # and marking it again marks the area's white stones
    assert g.dead == {p("B5"), p("B8"), p("C2"), p("H5")}
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("B mark D5", 9))
    assert err.value.reason == "not_a_stone"


def test_marking_goes_to_the_opponent_who_accepts_or_rejects() -> None:
    g = game(9, 0, *SPLIT)
    assert g.phase == "marking" and g.marker == BLACK
    g.apply(Action.parse("B mark B5", 9))
    g.apply(Action.parse("B mark H5", 9))
    g.apply(Action.parse("B done", 9))
    assert g.phase == "review" and g.to_act == WHITE
    with pytest.raises(GoError):
        g.apply(Action.parse("B accept", 9))  # not the marker's to accept
    g.apply(Action.parse("W reject", 9))
    assert g.phase == "play" and g.to_move == BLACK and g.dead == frozenset()
    g.apply(Action.parse("B pass", 9))
    assert g.phase == "play"
    g.apply(Action.parse("W pass", 9))
    assert g.phase == "marking" and g.marker == BLACK
    g.apply(Action.parse("B mark B5", 9))
    g.apply(Action.parse("B mark H5", 9))
    g.apply(Action.parse("B done", 9))
    g.apply(Action.parse("W accept", 9))
    assert g.phase == "over"
    # black: columns A-D = 4 x 9 = 36 points (B5 under the dead white stone included), no captures,
    # 1 dead (H5); komi 3.5: 36 - 0 - 1 - 3.5 = 31.5. White: columns G, H, J = 27 points (H5 under the
    # dead black stone included), 1 dead (B5): 27 - 0 - 1 = 26. Black wins by 5.5.
    outcome = g.outcome
    assert outcome is not None and outcome.score is not None
    assert outcome.score.black == Fraction(63, 2) and outcome.score.white == 26
    assert outcome.winner == BLACK and outcome.sgf() == "B+5.5"


def test_resign_and_timeout_end_the_game() -> None:
    g = game(9, 0, "B E5")
    g.apply(Action.parse("B resign", 9))  # either player may resign, also out of turn
    assert g.outcome is not None and g.outcome.winner == WHITE and g.outcome.sgf() == "W+R"
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("W D4", 9))
    assert err.value.reason == "game_over"
    t = game(9, 0, "B E5")
    with pytest.raises(GoError):
        t.apply(Action.parse("B timeout", 9))  # only the player to act can run out of time
    t.apply(Action.parse("W timeout", 9))
    assert t.outcome is not None and t.outcome.sgf() == "B+T"


# ------------------------------------------------------------------ handicap and komi
def test_komi_by_size_and_for_handicap_games() -> None:
    assert default_komi(19) == Fraction(11, 2)
    assert default_komi(13) == Fraction(9, 2)
    assert default_komi(9) == Fraction(7, 2)
    assert default_komi(19, handicap=3) == Fraction(1, 2)
    assert default_komi(19, handicap=3, handicap_komi=Fraction(0)) == 0


def test_handicap_stones_on_black_first_turn_then_white() -> None:
    g = game(19, 4)
    assert g.phase == "handicap" and g.to_act == BLACK
    with pytest.raises(GoError) as err:
        g.apply(Action.parse("B D4", 19))  # a single move is not the handicap placement
    assert err.value.reason == "place_handicap"
    with pytest.raises(GoError):
        g.apply(Action("handicap", BLACK, (p("D4", 19), p("D4", 19), p("Q4", 19), p("Q16", 19))))  # twice the same
    g.apply(Action("handicap", BLACK, standard_handicap(19, 4)))
    assert g.phase == "play" and g.to_move == WHITE
    assert sorted(point_name(q, 19) for q in range(361) if g.board.cells[q] == BLACK) == ["D16", "D4", "Q16", "Q4"]
    g.apply(Action.parse("W C3", 19))
    assert g.to_move == BLACK


def test_free_handicap_placement() -> None:
    g = game(9, 2)
    g.apply(Action.parse("B handicap C3 A1", 9))
    assert g.board.cells[p("A1")] == BLACK and g.to_move == WHITE


def test_standard_handicap_points() -> None:
    names = lambda size, n: sorted(point_name(q, size) for q in standard_handicap(size, n))  # noqa: E731
    assert names(19, 2) == ["D4", "Q16"]
    assert names(19, 3) == ["D4", "Q16", "Q4"]
    assert names(19, 5) == ["D16", "D4", "K10", "Q16", "Q4"]
    assert names(19, 6) == ["D10", "D16", "D4", "Q10", "Q16", "Q4"]
    assert names(19, 8) == ["D10", "D16", "D4", "K16", "K4", "Q10", "Q16", "Q4"]
    assert len(set(standard_handicap(19, 9))) == 9
    assert names(13, 2) == ["D4", "K10"]
    assert names(9, 5) == ["C3", "C7", "E5", "G3", "G7"]


def test_stored_action_text_round_trips() -> None:
    for text in ("B D4", "W pass", "B handicap D4 Q16", "W mark C3", "B done", "W accept", "B resign"):
        assert Action.parse(text, 19).text(19) == text
    with pytest.raises(GoError):
        Action.parse("X D4", 19)
