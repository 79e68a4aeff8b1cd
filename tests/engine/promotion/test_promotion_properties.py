"""Properties of the promotion system over random game histories (hypothesis)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.promotion import (
    DRAW, LOSS, WIN, Game, PromotionSettings, examine, months_before, score_game, series_now,
)

START = date(2026, 1, 1)


# The strategies a history draws from, made once: a strategy made anew for every draw is validated and
# labelled anew each time, which cost Hypothesis more than the examples themselves (the same draws either way).
_GRADES = st.integers(26, 38)
_LENGTHS = st.integers(0, 45)
_GAPS = st.integers(0, 60)
_OPPONENT_GRADES = st.one_of(st.none(), st.integers(20, 38))
_RESULTS = st.sampled_from([WIN, WIN, LOSS, LOSS, DRAW])
_HANDICAPS = st.sampled_from([0, 0, 0, 0, 2])
_MINUTES = st.sampled_from([None, 30, 45, 60, 90])
_BYOYOMI = st.sampled_from([None, 20, 30, 30, 60])
_UNRELIABLE = st.integers(0, 9)


@st.composite
def histories(draw: st.DrawFn) -> tuple[int, list[Game]]:
    grade = draw(_GRADES)
    n = draw(_LENGTHS)
    day = START
    games = []
    for i in range(n):
        day += timedelta(days=draw(_GAPS))
        games.append(
            Game(
                key=f"g{i:03d}",
                played_on=day,
                opponent_grade=draw(_OPPONENT_GRADES),
                result=draw(_RESULTS),
                handicap=draw(_HANDICAPS),
                minutes=draw(_MINUTES),
                byoyomi_seconds=draw(_BYOYOMI),
                official=draw(st.booleans()) or draw(st.booleans()),
                opponent_unreliable=draw(_UNRELIABLE) == 0,
            )
        )
    return grade, games


def naive_promotion_at(grade: int, games: list[Game], rules: PromotionSettings) -> int | None:
    """The index of the first game after which some series promotes, found by brute force."""
    counted: list[tuple[date, int]] = []
    for index, g in enumerate(games):
        s = score_game(grade, g, rules)
        if s.points is None:
            continue
        counted.append((g.played_on, s.points))
        for n in range(1, len(counted) + 1):
            tail = counted[-n:]
            need = rules.threshold(n)
            if need is None or tail[0][0] < months_before(g.played_on, rules.months):
                continue
            if sum(p for _, p in tail) >= need:
                return index
    return None


@settings(max_examples=300, deadline=None)
@given(histories())
def test_the_points_of_a_series_never_depend_on_games_outside_it(history: tuple[int, list[Game]]) -> None:
    grade, games = history
    exam = examine(grade, games)
    # The series after the last promotion scores the same when examined alone, from the grade it started at.
    alone = examine(exam.grade, [s.game for s in exam.series])
    assert [s.points for s in alone.scored] == [s.points for s in exam.series]
    # Every promotion's series, examined alone from its grade, earns the same promotion with the same points.
    for promotion in exam.promotions:
        again = examine(promotion.from_grade, [s.game for s in promotion.games])
        assert [(p.points, p.last) for p in again.promotions] == [(promotion.points, promotion.last)]
    # The games after a promotion are scored as if the history started there, at the new grade.
    keys = [s.game.key for s in exam.scored]
    for promotion in exam.promotions:
        cut = keys.index(promotion.last.key) + 1
        rest = examine(promotion.to_grade, [s.game for s in exam.scored[cut:]])
        assert [(s.points, s.reason) for s in rest.scored] == [(s.points, s.reason) for s in exam.scored[cut:]]


@settings(max_examples=300, deadline=None)
@given(histories())
def test_the_first_promotion_comes_exactly_when_some_series_first_earns_it(history: tuple[int, list[Game]]) -> None:
    grade, games = history
    exam = examine(grade, games)
    expected = naive_promotion_at(grade, games, PromotionSettings()) if grade < 38 else None
    if expected is None:
        assert exam.promotions == ()
    else:
        assert exam.promotions and exam.promotions[0].last == games[expected]
        assert exam.promotions[0].points >= 125


@settings(max_examples=200, deadline=None)
@given(histories(), st.data())
def test_invalid_games_change_nothing(history: tuple[int, list[Game]], data: st.DataObject) -> None:
    grade, games = history
    extra = []
    for i, g in enumerate(games):
        if data.draw(st.booleans()):
            kind = data.draw(st.sampled_from(["handicap", "short", "draw"]))
            fields = {"handicap": {"handicap": 4}, "short": {"minutes": 10}, "draw": {"result": DRAW}}[kind]
            base = {"opponent_grade": 30, "result": LOSS, "minutes": 90, "byoyomi_seconds": 30, "official": True}
            extra.append(Game(key=f"{g.key}x", played_on=g.played_on, **{**base, **fields}))  # type: ignore[arg-type]
    before = examine(grade, games)
    after = examine(grade, games + extra)
    assert [(p.from_grade, p.points, p.last) for p in after.promotions] == [
        (p.from_grade, p.points, p.last) for p in before.promotions
    ]
    assert after.series == before.series


@settings(max_examples=300, deadline=None)
@given(histories(), st.integers(0, 3000))
def test_the_card_shows_the_series_the_rule_reads_whatever_today_is(history: tuple[int, list[Game]], later: int) -> None:
    """The grade card's series is the one the promotion rule reads (issue 45 §3): one more counted game on
    the card's date promotes exactly when it and a tail of the card's games earn it, whatever day the card
    is looked at; and the card never shows a complete series (12 games, 125 points) that did not promote."""
    grade, games = history
    exam = examine(grade, games)
    status = series_now(exam, START + timedelta(days=later))
    if not status.tracked:
        return
    assert not (status.points_needed == 0 and status.games_needed == 0)
    rules = PromotionSettings()
    new = Game("zzz", status.as_of or START, exam.grade, WIN, 0, 90, 30)
    points = score_game(exam.grade, new).points
    assert points is not None  # a win against an equal grade always counts
    card = [s.points or 0 for s in status.games]
    predicted = any(
        (need := rules.threshold(n)) is not None and sum(card[len(card) - (n - 1):]) + points >= need
        for n in range(1, min(len(card) + 1, rules.max_games) + 1)
    )
    assert (len(examine(grade, [*games, new]).promotions) > len(exam.promotions)) == predicted
    cutoff = months_before(START + timedelta(days=later), rules.months)
    assert status.dropping == sum(1 for s in status.games if s.game.played_on < cutoff)
