"""Keizer scores and ranking (engine/keizer.py), worked examples from seeds 003 and 004."""

from __future__ import annotations

from fractions import Fraction

from engine.keizer import Game, KeizerSettings, Player, Result, Round, ranking_values, standings


def test_ratio_values_six_players() -> None:
    # seed 003: with 6 participants 7 points for the 1st ... down to 2 for the 6th
    assert ranking_values(6, KeizerSettings(value_rule="ratio")) == [7, 6, 5, 4, 3, 2]


def test_first_round_scored_at_rating_values() -> None:
    ps = [Player(str(i), f"p{i}", rating=2000 - 10 * i) for i in range(4)]
    r1 = Round(1, (Game("0", "1", Result.BLACK_WINS), Game("2", "3", Result.DRAW)))
    table = {s.player.id: s.score for s in standings(ps, [r1])}
    assert table == {"1": 50, "0": 0, "2": Fraction(47, 2), "3": 24}
