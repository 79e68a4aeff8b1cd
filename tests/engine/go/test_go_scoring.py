"""Seed 001's worked example (13x13) and territory counting."""

from __future__ import annotations

from fractions import Fraction

from engine.go import BLACK, WHITE, default_komi, parse_point, score, territory, toggle_dead
from engine.go.scoring import marked_stones
from tests.engine.go.test_go_rules import board_from

# The seed's picture is lost; this 13x13 position has its counts. Row 13 on top, columns A-N (no I).
# x: a black stone that will be marked dead, o: a white stone that will be marked dead.
#   black territory: G13-N13 (7) and the right-hand area E9-N9, E10, N10, K8-N8 with the 7 dead white
#   stones F10-M10 under it (15 + 7 = 22): 29.
#   white territory: A12-D13 (8), A9-B10 (4), A1-G3 with the dead black stone B2 (21): 33.
SEED_13 = [
    "....OX.......",  # 13
    "....OXXXXXXXX",  # 12
    "OOOOXXXXXXXXX",  # 11
    "..OX.ooooooo.",  # 10
    "..OX.........",  # 9
    "OOOXXXXXX....",  # 8
    "XXXXXXXXXXXXX",  # 7
    "OOOOOOOOOOOOO",  # 6
    "OOOOOOOOOOOOO",  # 5
    "OOOOOOOOOOOOO",  # 4
    ".......OOOOOO",  # 3
    ".x.....OOOOOO",  # 2
    ".......OOOOOO",  # 1
]


def test_seed_001_worked_example() -> None:
    board = board_from(SEED_13)
    cells = bytes(board.cells)
    # marking one white stone marks the seven in the area black surrounds; one black stone, the one
    dead = toggle_dead(cells, 13, frozenset(), parse_point("H10", 13))
    assert len(dead) == 7 and all(cells[p] == WHITE for p in dead)
    dead = toggle_dead(cells, 13, dead, parse_point("B2", 13))
    assert len(dead) == 8
    black_area, white_area = territory(cells, 13, dead)
    assert len(black_area) == 29 and len(white_area) == 33
    # 3 black stones and 2 white stones were captured during play
    result = score(cells, 13, dead, black_captured=3, white_captured=2, komi=default_komi(13))
    assert result.black == Fraction(41, 2)  # 29 - 3 - 1 - 4.5 = 20.5
    assert result.white == 24  # 33 - 2 - 7
    assert result.winner == WHITE


def test_an_area_touching_both_colours_is_no_ones() -> None:
    board = board_from([
        "...X.O...",
        "...X.O...",
        "...X.O...",
        "...X.O...",
        "...X.O...",
        "...X.O...",
        "...X.O...",
        "...X.O...",
        "...X.O...",
    ])  # fmt: skip
    black_area, white_area = territory(bytes(board.cells), 9, frozenset())
    assert len(black_area) == 27 and len(white_area) == 27  # column E is neutral
    result = score(bytes(board.cells), 9, frozenset(), 0, 0, Fraction(7, 2))
    assert result.black == Fraction(47, 2) and result.white == 27


def test_an_empty_board_is_no_ones_territory() -> None:
    assert territory(bytes(81), 9, frozenset()) == (set(), set())


def test_a_tie_has_no_winner() -> None:
    board = board_from(["...X.O..."] * 9)
    assert score(bytes(board.cells), 9, frozenset(), 0, 0, Fraction(0)).winner is None
    assert BLACK != WHITE


# 9x9: white lives on top (rows 6-9 its territory), black below. White's A3 and A1-B1-B2 (one eye, A2) are
# dead in black's corner, but A4 is open: it touches white's wall A5, black's B4 and A3, so the area black's
# stones bound around A3 runs through A4 into all of white's area (seed 001's rule alone marks the wall too).
OPEN_AREA = [
    ".........",  # 9
    ".........",  # 8
    ".........",  # 7
    ".........",  # 6
    "OOOOOOOOO",  # 5
    ".XXXXXXXX",  # 4
    "oXX......",  # 3
    ".oX......",  # 2
    "ooX......",  # 1
]


def test_a_mark_in_an_open_area_takes_only_the_marked_group() -> None:
    cells = bytes(board_from(OPEN_AREA).cells)
    a3, a1, rest = parse_point("A3", 9), parse_point("A1", 9), {parse_point(n, 9) for n in ("B1", "B2")}
    # the dead group: A3 and the chain A1-B1-B2, joined through their eye A2; not white's wall beyond A4
    dead = toggle_dead(cells, 9, frozenset(), a3)
    assert dead == {a3, a1} | rest
    assert marked_stones(cells, 9, frozenset(), a3) == ({a3, a1} | rest, False)
    # black: D1-J3 = 18 points; white: rows 6-9 = 36. The corner A1-B3 and A4 touch both through A4
    # (black did not fill it): no one's.
    black_area, white_area = territory(cells, 9, dead)
    assert len(black_area) == 18 and len(white_area) == 36
    # marking a dead stone again brings back its chain only
    assert toggle_dead(cells, 9, dead, parse_point("B2", 9)) == {a3}
    assert toggle_dead(cells, 9, dead, a3) == {a1} | rest
    # marking a stone of white's living wall marks that wall, not the dead stones beyond A4
    wall = toggle_dead(cells, 9, frozenset(), parse_point("E5", 9))
    assert wall == {q for q in range(36, 45)}


def test_a_closed_area_is_marked_whole_as_seed_001_says() -> None:
    # SEED_13: F10-M10 lie in black's closed area; marking them with one stone of them marks all 7
    cells = bytes(board_from(SEED_13).cells)
    stones, closed = marked_stones(cells, 13, frozenset(), parse_point("M10", 13))
    assert closed and len(stones) == 7


# 9x9, an unequal seki with eyes at the top. Black's B9-A8-B8-C8 and D9 (two chains) hold the eye A9 and
# the false eye C9; white's eleven stones A7-D7, D8-H8, F9, H9 hold the eye G9; E9 is their one shared
# liberty. Whoever plays E9 puts his own group in atari; C9, A9 and G9 are suicide: a seki (GNU Go 3.8 agrees:
# final_status_list seki names all three chains). Below, black's wall lives with the eyes E6 and G6; white's
# row 4 has rows 1-3.
SEKI = [
    ".X.X.O.OX",  # 9
    "XXXOOOOOX",  # 8
    "OOOOXXXXX",  # 7
    "XXXX.X.XX",  # 6
    "XXXXXXXXX",  # 5
    "OOOOOOOOO",  # 4
    ".........",  # 3
    ".........",  # 2
    ".........",  # 1
]


def test_an_unequal_seki_counts_its_eyes_for_the_player_who_surrounds_them() -> None:
    """Seed 001 counts "the intersections of the area the player controls"; an empty area bordered by one
    colour's living stones only is that colour's, in seki too. By hand, komi 3.5, nothing captured or dead:
    black E6, G6, and in the seki A9 and C9 = 4 points: 4 - 3.5 = 0.5; white rows 1-3 (27) and in the seki
    G9 = 28; E9 touches both: no one's. White wins by 27.5.
    (Japanese rules count no points in a seki: black 2 - 3.5 = -1.5, white 27, W+28.5, which is GNU Go
    3.8's final_score with --japanese-rules; the unequal eyes make the one point of difference.)"""
    cells = bytes(board_from(SEKI).cells)
    black_area, white_area = territory(cells, 9, frozenset())
    names = {"A9", "C9", "E6", "G6"}
    assert black_area == {parse_point(n, 9) for n in names}
    assert parse_point("G9", 9) in white_area and len(white_area) == 28
    assert parse_point("E9", 9) not in black_area | white_area
    result = score(cells, 9, frozenset(), 0, 0, default_komi(9))
    assert result.black == Fraction(1, 2) and result.white == 28
    assert result.winner == WHITE and result.margin == Fraction(55, 2)
