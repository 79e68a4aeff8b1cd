"""``/waarom punten``'s engine (engine/keizer/explain.py): a score told result by result, at the values
of the current list, adding up to the standings' score."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings as hyp_settings, strategies as st

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, standings
from engine.keizer.explain import ScoreLine, score_lines
from tests.engine.conftest import random_season
from tests.engine.keizer.test_keizer import keizer_settings

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def test_seed_004_note_the_win_told_at_the_value_now() -> None:
    # seed 004, rule i and its note: A beat B when B led (50); after round 2 B is 3rd, so the same win
    # is told at 48, and that is all A's score
    ps = [Player(x, x, rating=r) for x, r in [("B", 2400), ("C", 2300), ("D", 2200), ("A", 2100)]]
    r1 = Round(1, (Game("A", "B", W), Game("C", "D", W)))
    r2 = Round(2, (Game("C", "A", W), Game("B", "D", D)))
    assert score_lines("A", ps, [r1, r2]) == (
        ScoreLine(1, "win", "B", 48, Fraction(1), Fraction(48)),
        ScoreLine(2, "loss", "C", 49, Fraction(0), Fraction(0)),  # C 2nd after round 1
    )
    # after round 1 the values were the start list's: B 50
    assert score_lines("A", ps, [r1, r2], after_round=1) == (ScoreLine(1, "win", "B", 50, Fraction(1), Fraction(50)),)
    # a draw is half the opponent's value: B drew with D (4th after round 1: 47)
    assert score_lines("B", ps, [r1, r2])[1] == ScoreLine(2, "draw", "D", 47, Fraction(1, 2), Fraction(47, 2))


def test_absences_bye_and_forfeits_are_shares_of_the_own_value() -> None:
    ps = [Player(x, x, rating=r) for x, r in [("a", 2000), ("b", 1900), ("c", 1800), ("d", 1700), ("e", 1600)]]
    rounds = [
        Round(1, (Game("a", "b", Result.WHITE_WINS_FORFEIT),), byes=("c",), absent={"d": Absence.NOTICE, "e": Absence.TEAM}),
    ]
    # start values a 50, b 49, c 48, d 47, e 46
    assert score_lines("a", ps, rounds) == (ScoreLine(1, "forfeit_win", "b", 49, Fraction(1), Fraction(49)),)
    assert score_lines("b", ps, rounds) == (ScoreLine(1, "forfeit_loss", "a", 49, Fraction(0), Fraction(0)),)
    assert score_lines("c", ps, rounds) == (ScoreLine(1, "bye", None, 48, Fraction(1), Fraction(48)),)
    assert score_lines("d", ps, rounds) == (ScoreLine(1, "notice", None, 47, Fraction(1, 3), Fraction(47, 3)),)
    assert score_lines("e", ps, rounds) == (ScoreLine(1, "team", None, 46, Fraction(2, 3), Fraction(92, 3)),)


def test_start_points_and_start_bonus_are_lines_of_their_own() -> None:
    ps = [Player("a", "a", rating=2000, start_points=Fraction(7)), Player("b", "b", rating=1900)]
    lines = score_lines("a", ps, [Round(1, (Game("b", "a", Result.WHITE_WINS),))], KeizerSettings(start_bonus=True))
    assert lines == (
        ScoreLine(None, "start", None, 0, Fraction(0), Fraction(7)),
        ScoreLine(None, "bonus", None, 50, Fraction(1), Fraction(50)),
        ScoreLine(1, "loss", "b", 49, Fraction(0), Fraction(0)),
    )


@hyp_settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32), n=st.integers(1, 10), r=st.integers(0, 6), s=keizer_settings, sp=st.booleans(),
    leave=st.integers(0, 7),
)  # fmt: skip
def test_lines_sum_to_the_standings_score(seed: int, n: int, r: int, s: KeizerSettings, sp: bool, leave: int) -> None:
    # for every player of a random season (late joiners, start points, a withdrawal), after every round
    ps, rounds = random_season(random.Random(seed), n, r, start_points=sp)
    if leave and ps and ps[0].joined_round < leave:  # the first player withdraws from round ``leave`` on
        ps[0] = replace(ps[0], withdrawn_from=leave)
        rounds = [replace(x, games=tuple(g for g in x.games if ps[0].id not in (g.white, g.black)),
                          byes=tuple(b for b in x.byes if b != ps[0].id),
                          absent={k: v for k, v in x.absent.items() if k != ps[0].id})
                  if x.number >= leave else x for x in rounds]  # fmt: skip
    for k in range(0, r + 1):
        for row in standings(ps, rounds, s, after_round=k):
            lines = score_lines(row.player.id, ps, rounds, s, after_round=k)
            assert sum((x.points for x in lines), Fraction(0)) == row.score
            assert all(x.points == x.value * x.share for x in lines if x.kind != "start")
            assert all(x.round is not None and x.round <= k for x in lines if x.kind not in ("start", "bonus"))
