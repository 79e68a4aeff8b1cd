"""Seed 002, the Dutch points promotion system: every row and footnote of the table, the thresholds, early
promotion, the 14-month and 20-game limits, valid games. Expected values are worked by hand from the seed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from engine.promotion import (
    BYOYOMI, DRAWN, HANDICAP, LOSS, NO_GRADE, NOT_TRACKED, TABLE, TOO_SHORT, UNOFFICIAL, UNRELIABLE, WIN,
    Game, PromotionSettings, examine, grade_name, months_before, parse_grade, points_for, score_game, series_now,
)  # fmt: skip

D1, D2, D3, D4, D5 = 30, 31, 32, 33, 34  # 1 dan .. 5 dan
K1, K2, K3, K4 = 29, 28, 27, 26  # 1 kyu .. 4 kyu
START = date(2027, 1, 2)

# Shorthand for a 1-dan player's games: what the seed's table gives for each.
KINDS = {
    "W45": (WIN, D2),  # a win against 1 grade stronger
    "W25": (WIN, D1),  # a win against equal strength
    "W10": (WIN, K1),  # a win against 1 grade weaker, who is 1 kyu
    "L10": (LOSS, D3),  # a loss against 2 grades stronger
    "L25": (LOSS, D2),  # a loss against 1 grade stronger
    "L45": (LOSS, D1),  # a loss against equal strength
}


def game(kind: str, day: date, key: str = "", **fields: object) -> Game:
    result, opponent = KINDS[kind]
    values: dict[str, object] = {"minutes": 90, "byoyomi_seconds": 30, "official": True, **fields}
    return Game(key or day.isoformat(), day, opponent, result, **values)  # type: ignore[arg-type]


def weekly(kinds: list[str], start: date = START) -> list[Game]:
    return [game(kind, start + timedelta(weeks=i), key=f"g{i:03d}") for i, kind in enumerate(kinds)]


def valid(result: str, opponent: int | None, **fields: object) -> Game:
    values: dict[str, object] = {"minutes": 90, "byoyomi_seconds": 30, "official": True, **fields}
    return Game("x", START, opponent, result, **values)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------- grades


def test_grades_are_one_scale_from_30_kyu_to_9_dan() -> None:
    assert parse_grade("30k") == 0
    assert parse_grade("1 kyu") == 29
    assert parse_grade("1D") == 30
    assert parse_grade("9 dan") == 38
    assert [parse_grade(x) for x in ("0k", "31k", "10d", "0d", "2", "kyu", "")] == [None] * 7
    assert [grade_name(g) for g in (0, 28, 29, 30, 38)] == ["30k", "2k", "1k", "1d", "9d"]
    with pytest.raises(ValueError):
        grade_name(39)


# ---------------------------------------------------------------------------------------------- the table


@pytest.mark.parametrize(
    "opponent, win, loss",
    [
        (D5, 45, None),  # 4 grades stronger: only a win counts
        (D4, 45, None),  # 3 grades stronger: only a win counts (footnote 3)
        (D3, 45, -10),  # 2 grades stronger
        (D2, 45, -25),  # 1 grade stronger
        (D1, 25, -45),  # equal
        (K1, 10, -45),  # 1 grade weaker, and 1 kyu: the win counts (footnote 2)
        (K2, None, -45),  # 2 grades weaker: only a loss counts (footnote 3)
        (K4, None, -45),  # 4 grades weaker
    ],
)
def test_every_row_of_the_table_for_a_1_dan(opponent: int, win: int | None, loss: int | None) -> None:
    assert points_for(D1, opponent, won=True) == win
    assert points_for(D1, opponent, won=False) == loss


def test_footnote_2_a_win_against_one_grade_weaker_needs_a_1_kyu_or_stronger_opponent() -> None:
    assert points_for(D3, D2, won=True) == 10  # a 2 dan is 1 kyu or stronger
    assert points_for(K1, K2, won=True) is None  # a 2 kyu is not
    assert points_for(K2, K3, won=True) is None
    assert points_for(K2, K3, won=False) == -45  # the loss still counts
    scored = score_game(K1, valid(WIN, K2))
    assert (scored.points, scored.reason) == (None, TABLE)


def test_the_table_across_the_kyu_dan_border() -> None:
    assert points_for(K1, D1, won=False) == -25  # 1 dan is one grade stronger than 1 kyu
    assert points_for(K2, D1, won=False) == -10
    assert points_for(K2, D2, won=False) is None
    assert points_for(K2, K1, won=True) == 45


def test_draws_and_invalid_games_do_not_count() -> None:
    cases = [
        (valid("draw", D1), DRAWN),
        (valid(WIN, D1, handicap=2), HANDICAP),
        (valid(WIN, D1, minutes=44), TOO_SHORT),
        (valid(WIN, D1, minutes=None), TOO_SHORT),
        (valid(WIN, D1, byoyomi_seconds=29), BYOYOMI),
        (valid(WIN, D1, byoyomi_seconds=None), BYOYOMI),
        (valid(WIN, D1, official=False), UNOFFICIAL),
        (valid(WIN, D1, opponent_unreliable=True), UNRELIABLE),
        (valid(WIN, None), NO_GRADE),
    ]
    for g, reason in cases:
        scored = score_game(D1, g)
        assert (scored.points, scored.reason) == (None, reason), g
    boundary = score_game(D1, valid(WIN, D1, minutes=45, byoyomi_seconds=30))
    assert (boundary.points, boundary.reason) == (25, None)


def test_players_below_2_kyu_get_no_points() -> None:
    assert score_game(K3, valid(WIN, K1)).reason == NOT_TRACKED
    assert score_game(K2, valid(WIN, K1)).points == 45
    exam = examine(K3, weekly(["W45"] * 12))
    assert exam.promotions == () and exam.series == ()
    assert not series_now(exam, START).tracked


# ---------------------------------------------------------------------------------------------- thresholds


def test_125_points_over_12_games_promote() -> None:
    # 7 wins against equal strength (7 x 25 = 175) and 5 losses against 2 stronger (5 x -10): 125.
    # No shorter series gets near 170/215/260 (11 games: at most 135).
    exam = examine(D1, weekly(["W25", "L10"] * 5 + ["W25", "W25"]))
    assert len(exam.promotions) == 1
    promotion = exam.promotions[0]
    assert (promotion.from_grade, promotion.to_grade, promotion.points) == (D1, D2, 125)
    assert len(promotion.games) == 12 and promotion.last.key == "g011"
    assert exam.grade == D2 and exam.series == ()


def test_120_points_over_12_games_do_not_promote() -> None:
    # 3 x -45, 3 x 45, 4 x 25, 2 x 10 = -135 + 135 + 100 + 20 = 120. The shorter tails fall just short:
    # last 11: 120 + 45 = 165 < 170; last 10: 210 < 215; last 9: 255 < 260.
    exam = examine(D1, weekly(["L45"] * 3 + ["W45"] * 3 + ["W25"] * 4 + ["W10"] * 2))
    assert exam.promotions == ()
    assert sum(s.points or 0 for s in exam.series) == 120
    status = series_now(exam, START + timedelta(weeks=12))
    assert (status.points, status.points_needed, len(status.games), status.games_needed) == (120, 5, 12, 0)


def test_early_promotion_after_9_games_with_260() -> None:
    # -45, -10, then 7 x 45: 260 after 9 games.
    exam = examine(D1, weekly(["L45", "L10"] + ["W45"] * 7))
    assert [len(p.games) for p in exam.promotions] == [9]
    assert exam.promotions[0].points == 260


def test_no_promotion_after_9_games_with_255() -> None:
    # 5 x 45 + 2 x 25 - 2 x 10 = 255 < 260.
    assert examine(D1, weekly(["W45"] * 5 + ["W25"] * 2 + ["L10"] * 2)).promotions == ()


def test_early_promotion_after_10_games_with_215() -> None:
    # 7 x 45, then -45, -45, -10: after 9 games 225 (< 260), after 10 games 215.
    exam = examine(D1, weekly(["W45"] * 7 + ["L45", "L45", "L10"]))
    assert [len(p.games) for p in exam.promotions] == [10]
    assert exam.promotions[0].points == 215


def test_no_promotion_after_10_games_with_210() -> None:
    # 5 x 45 + 25 = 250, then 4 x -10: after 9 games 220 (< 260), after 10 games 210 (< 215).
    assert examine(D1, weekly(["W45"] * 5 + ["W25"] + ["L10"] * 4)).promotions == ()


def test_early_promotion_after_11_games_with_170() -> None:
    # 5 x 45 + 10, then 4 x -10 and -25: 9 games 205, 10 games 195, 11 games 170.
    exam = examine(D1, weekly(["W45"] * 5 + ["W10"] + ["L10"] * 4 + ["L25"]))
    assert [len(p.games) for p in exam.promotions] == [11]
    assert exam.promotions[0].points == 170


def test_no_promotion_after_11_games_with_165() -> None:
    # 5 x 45, then 6 x -10: 9 games 195, 10 games 185, 11 games 165 (< 170).
    assert examine(D1, weekly(["W45"] * 5 + ["L10"] * 6)).promotions == ()


def test_no_promotion_after_8_games_even_with_360() -> None:
    # The seed names 9 games (260) as the earliest case; 8 wins give 360 but promote only at the 9th game.
    exam = examine(D1, weekly(["W45"] * 8))
    assert exam.promotions == ()
    assert [len(p.games) for p in examine(D1, weekly(["W45"] * 9)).promotions] == [9]


# ---------------------------------------------------------------------------------------------- limits


def test_the_14_month_limit() -> None:
    # 125 over 12 games (7 x 25, 5 x -10): the first on 10 January 2026, the other 11 from 2027-01-01 on.
    first = date(2026, 1, 10)
    rest = ["L10"] * 4 + ["W25"] * 7
    last = date(2027, 3, 10)  # exactly 14 months after the first game: still within

    def games(last_day: date) -> list[Game]:
        middle = [game(k, date(2027, 1, 1) + timedelta(days=i), key=f"g{i + 1:03d}") for i, k in enumerate(rest[:-1])]
        return [game("L10", first, key="g000"), *middle, game(rest[-1], last_day, key="g999")]

    assert months_before(last, 14) == first
    assert [len(p.games) for p in examine(D1, games(last)).promotions] == [12]
    assert examine(D1, games(last + timedelta(days=1))).promotions == ()


def test_months_before_at_month_ends() -> None:
    assert months_before(date(2027, 4, 30), 14) == date(2026, 2, 28)
    assert months_before(date(2028, 4, 30), 14) == date(2027, 2, 28)
    assert months_before(date(2029, 4, 29), 14) == date(2028, 2, 29)


# Checked by hand: the 21 games total 125, the last 20 of them 80; no series of 9 to 20 games ending at
# any game reaches its threshold (every running total from game 12 on is at most 80).
TWENTY_ONE = [45, 45, -25, 10, -25, 45, 45, 25, -25, 10, -45, -25, -45, 10, 10, -10, 25, 10, -45, 45, 45]


def test_the_20_game_limit() -> None:
    by_points = {45: "W45", 25: "W25", 10: "W10", -10: "L10", -25: "L25", -45: "L45"}
    games = weekly([by_points[p] for p in TWENTY_ONE])
    exam = examine(D1, games)
    assert [s.points for s in exam.scored] == TWENTY_ONE
    assert exam.promotions == ()
    wider = examine(D1, games, PromotionSettings(max_games=21))  # the same games, were 21 allowed
    assert [len(p.games) for p in wider.promotions] == [21]


# ---------------------------------------------------------------------------------------------- valid games


def test_a_handicap_game_and_a_too_short_game_are_ignored() -> None:
    # 125 over 12 games, with a handicap loss and a blitz loss in between: still promoted after the 12th
    # counted game, and the two games are in no series.
    kinds = ["W25", "L10"] * 5 + ["W25", "W25"]
    games = weekly(kinds)
    games.insert(3, game("L45", games[2].played_on, key="g002h", handicap=3))
    games.insert(7, game("L45", games[6].played_on, key="g005s", minutes=30))
    exam = examine(D1, games)
    assert [len(p.games) for p in exam.promotions] == [12]
    assert {s.game.key for s in exam.promotions[0].games}.isdisjoint({"g002h", "g005s"})
    reasons = {s.game.key: s.reason for s in exam.scored}
    assert (reasons["g002h"], reasons["g005s"]) == (HANDICAP, TOO_SHORT)


def test_a_too_short_win_does_not_complete_a_promotion() -> None:
    games = weekly(["W25", "L10"] * 5 + ["W25"])  # 11 games, 90 points
    games.append(game("W25", START + timedelta(weeks=20), key="g500", minutes=25))
    assert examine(D1, games).promotions == ()


def test_an_unreliable_opponent_does_not_count_and_an_estimated_grade_is_used() -> None:
    games = weekly(["W25", "L10"] * 5 + ["W25", "W25"])
    games[-1] = game("W25", games[-1].played_on, key=games[-1].key, opponent_unreliable=True)
    assert examine(D1, games).promotions == ()
    estimated = Game("est", games[-1].played_on, D2, WIN, minutes=60, byoyomi_seconds=30)  # estimated 2 dan
    assert score_game(D1, estimated).points == 45


# ---------------------------------------------------------------------------------------------- after a promotion


def test_the_series_restarts_after_a_promotion_and_later_games_use_the_new_grade() -> None:
    kinds = ["W25", "L10"] * 5 + ["W25", "W25"]  # promoted to 2 dan after game 12
    after = [game("L45", START + timedelta(weeks=20), key="h1")]  # a loss against a 1 dan: now 1 weaker
    exam = examine(D1, weekly(kinds) + after)
    assert exam.grade == D2
    last = exam.scored[-1]
    assert (last.grade, last.points) == (D2, -45)
    assert [s.game.key for s in exam.series] == ["h1"]
    status = series_now(exam, START + timedelta(weeks=20))
    assert (status.points, len(status.games), status.points_needed, status.games_needed) == (-45, 1, 170, 11)


def test_two_promotions_in_one_replay() -> None:
    first = weekly(["W45"] * 9)  # 1 dan -> 2 dan at game 9
    # At 2 dan a win against a 2 dan is 25: 9 of them give 225 (< 260), the 10th gives 250 (>= 215).
    second = [Game(f"z{i}", START + timedelta(weeks=10 + i), D2, WIN, 0, 60, 30) for i in range(10)]
    exam = examine(D1, first + second)
    assert [(p.from_grade, p.to_grade, len(p.games), p.points) for p in exam.promotions] == [
        (D1, D2, 9, 405),
        (D2, D3, 10, 250),
    ]


def test_nothing_above_9_dan() -> None:
    exam = examine(38, [Game(f"g{i}", START + timedelta(days=i), 38, WIN, 0, 60, 30) for i in range(20)])
    assert exam.promotions == () and exam.grade == 38
    assert not series_now(exam, START).tracked


def test_the_card_drops_games_older_than_14_months_and_keeps_the_last_20() -> None:
    exam = examine(D1, weekly(["L45", "W25"] * 15))  # 30 games, never promoting: each pair -20
    assert exam.promotions == ()
    today = START + timedelta(weeks=29)
    status = series_now(exam, today)
    assert len(status.games) == 20 and status.points == -200
    assert status.as_of == START + timedelta(weeks=29) and status.dropping == 0
    much_later = series_now(exam, date(2029, 1, 1))  # the same series, the rule reads it as of the last game
    assert much_later.games == status.games and much_later.dropping == 20


def test_the_card_reads_the_series_as_of_the_last_game_so_a_back_dated_game_promotes_what_it_showed() -> None:
    """Issue 45 §3: 11 games two years ago (6 x 25 - 5 x 10 = 100). Counted back from today the card
    showed 0 from 0; the rule reads them as of the last game, and a 12th game entered now with its date
    right after them promotes with 125. The card shows those 11 and says a game of today reads none."""
    games = weekly(["W25", "L10"] * 5 + ["W25"])
    today = START + timedelta(days=730)
    status = series_now(examine(D1, games), today)
    assert (status.points, len(status.games), status.points_needed, status.games_needed) == (100, 11, 25, 1)
    assert status.as_of == START + timedelta(weeks=10) and status.dropping == 11
    late = game("W25", START + timedelta(weeks=11), key="late")
    assert [p.points for p in examine(D1, [*games, late]).promotions] == [125]
