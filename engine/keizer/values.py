"""What a place and a late joiner are worth: the ranking values of seeds 003/004, the start points
of a player who joins during the season (seed 004, Keizer rule b), and what each result and absence adds
in the recalculation's integer arithmetic (``scaled_worth``)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

from engine.keizer.model import Absence, KeizerSettings, Result

# (result -> (white's share of black's value, black's share of white's value, own-value share of white,
# of black, played over the board); absence -> own-value share; a bye's own-value share), all scaled and
# keyed by id(): enum members are singletons, and hashing them is slow.
Worth = tuple[dict[int, tuple[int, int, int, int, int]], dict[int, int], int]


def _exact(f: Fraction | int) -> Fraction:
    """``Fraction(f)``, without making a new one of a ``Fraction`` (the same value either way)."""
    return f if type(f) is Fraction else Fraction(f)


def _times(f: Fraction | int, scale: int) -> int:
    """``int(Fraction(f) * scale)`` (truncated toward zero) in integers, without the Fractions between."""
    q = _exact(f)
    n = q.numerator * scale
    return n // q.denominator if n >= 0 else -(-n // q.denominator)


def settings_scale(settings: KeizerSettings) -> int:
    """The least common multiple of 2 and the denominators of the settings' fractions: the scale that
    makes every share of a value an integer (a player's start points may make it larger)."""
    scale = 2
    for f in (
        settings.notice_fraction,
        settings.team_fraction,
        settings.unexcused_fraction,
        settings.bye_fraction,
        settings.forfeit_win_fraction,
        settings.auto_signoff_fraction,
    ):
        scale = math.lcm(scale, _exact(f).denominator)
    return scale


def scaled_worth(settings: KeizerSettings, scale: int) -> Worth:
    """The shares of a value each result, absence and bye gives (see ``standings``), times ``scale``: the
    recalculation makes them once for each scale, not for every round (six ``Fraction`` products cost more
    than a round's games). Not cached across seasons: hashing the settings' fractions costs as much."""
    st = settings
    win, draw = scale, scale // 2
    forfeit_win = _times(st.forfeit_win_fraction, scale)
    unexcused = _times(st.unexcused_fraction, scale)
    table: dict[int, tuple[int, int, int, int, int]] = {
        id(None): (0, 0, 0, 0, 0),
        id(Result.WHITE_WINS): (win, 0, 0, 0, 1),
        id(Result.BLACK_WINS): (0, win, 0, 0, 1),
        id(Result.DRAW): (draw, draw, 0, 0, 1),
        id(Result.WHITE_WINS_FORFEIT): (forfeit_win, 0, 0, unexcused, 0),
        id(Result.BLACK_WINS_FORFEIT): (0, forfeit_win, unexcused, 0, 0),
        id(Result.DOUBLE_FORFEIT): (0, 0, unexcused, unexcused, 0),
    }
    for_absence = {
        id(Absence.NOTICE): _times(st.notice_fraction, scale),
        id(Absence.TEAM): _times(st.team_fraction, scale),
        id(Absence.UNEXCUSED): unexcused,
        id(Absence.AUTO): _times(st.auto_signoff_fraction, scale),
    }
    return table, for_absence, _times(st.bye_fraction, scale)


def ranking_values(count: int, settings: KeizerSettings = KeizerSettings()) -> list[int]:
    """The ranking values of places 1..count, best first.

    ``value_rule == "top"`` (seed 004, Keizer rule a): the first gets ``top_value`` (50), each next
    place one less, never below ``min_value``.

    ``value_rule == "ratio"`` (seed 003, "Calculation of the Keizer evaluation points"): the top value
    is chosen so that the first gets about three times the last.  With ``n`` places the last gets
    ``L = max(min_value, (n - 1) // 2)`` and the first ``T = L + n - 1``; each place one less.  For
    odd ``n`` this is exactly three times (``T = 3L``); for even ``n`` the ratio is just above three
    (6 players: 7, 6, 5, 4, 3, 2, the seed's example).
    """
    if count <= 0:
        return []
    if settings.value_rule == "top":
        top, floor = settings.top_value, settings.min_value
        stop = max(top - count, floor - 1)
        values = list(range(top, stop, -1))
        return values + [floor] * (count - len(values))
    if settings.value_rule == "ratio":
        last = max(settings.min_value, (count - 1) // 2)
        top = last + count - 1
        return [top - i for i in range(count)]
    raise ValueError(f"unknown value_rule {settings.value_rule!r} (expected 'top' or 'ratio')")


def late_joiner_start_points(rating: int, existing: Sequence[tuple[int, Fraction]]) -> Fraction:
    """Start points of a player who joins during the season (seed 004, Keizer rule b).

    ``existing`` holds ``(rating, score)`` of every player already in the competition, with the
    scores of the standings after the round before the joiner's first round.  Let A be the player
    with the lowest rating >= the joiner's rating (ties: the highest score) and B the player with
    the highest rating < the joiner's rating (ties: the lowest score).  The start points are the
    linear interpolation by rating between B's and A's scores::

        start = score_B + (score_A - score_B) * (rating - rating_B) / (rating_A - rating_B)

    With only A or only B, that player's score; with no players at all, 0.  A joiner therefore
    enters between the players just above and below them by rating, and the earlier standings are
    not changed.  A director can override this with ``Player.start_points``.

    Rating 0 is no rating (issue 44 §2): an unrated joiner (without an estimate) starts at the lowest
    score, below every player already in, as an unrated player starts below the rated ones; and a rated
    joiner is placed among the rated players only (an unrated player's 0 says nothing of their strength:
    it made an unrated joiner take the score of an unrated player high in the standings).
    """
    if rating <= 0:
        return min((s for _, s in existing), default=Fraction(0))
    rated = [(r, s) for r, s in existing if r > 0] or list(existing)
    above = [(r, s) for r, s in rated if r >= rating]
    below = [(r, s) for r, s in rated if r < rating]
    a = min(above, key=lambda rs: (rs[0], -rs[1])) if above else None
    b = max(below, key=lambda rs: (rs[0], -rs[1])) if below else None
    if a is not None and b is not None:
        return b[1] + (a[1] - b[1]) * Fraction(rating - b[0], a[0] - b[0])
    if a is not None:
        return a[1]
    if b is not None:
        return b[1]
    return Fraction(0)
