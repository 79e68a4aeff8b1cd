"""Grades and the Dutch points promotion system (seed 002).

Public API: ``parse_grade``, ``grade_name``, ``points_for``, ``Game``, ``PromotionSettings``, ``score_game``,
``examine`` (-> ``Examination`` with ``Scored`` games and ``Promotion`` records), ``series_now``
(-> ``SeriesStatus``, what a grade card shows), ``months_before``. Pure: no I/O, no clock (dates are passed in).

Grades are one ordered scale of integers: 30 kyu = 0, 29 kyu = 1, ..., 1 kyu = 29, 1 dan = 30, ...,
9 dan = 38. One grade apart means one step on this scale (1 kyu and 1 dan are one grade apart).

Scope (seed 002: the committee "classifies dan-graded players, but in order to do it properly it also keeps
track of 1- and 2-kyu graded players"): points are kept for players of 2 kyu and stronger; 2 kyu is promoted
to 1 kyu, 1 kyu to 1 dan, and so on up to 9 dan, the top of the scale. A player below 2 kyu has a grade
(set by the committee) but no points: none of their games count. Opponents may have any grade.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

LOWEST = 0  # 30 kyu
ONE_KYU = 29
ONE_DAN = 30
HIGHEST = 38  # 9 dan
LOWEST_TRACKED = 28  # 2 kyu

WIN = "win"
LOSS = "loss"
DRAW = "draw"
RESULTS = (WIN, LOSS, DRAW)

# Why a game does not count (``Scored.reason``); None when it counts.
NOT_TRACKED = "not_tracked"  # the player is below 2 kyu
DRAWN = "draw"  # footnote (1)
HANDICAP = "handicap"
TOO_SHORT = "too_short"  # less than 45 minutes per player, or unknown
BYOYOMI = "byoyomi"  # less than 30 s byo-yomi, or unknown
UNOFFICIAL = "unofficial"
UNRELIABLE = "unreliable"  # exception (A): the opponent's grade is marked unreliable
NO_GRADE = "no_grade"  # the opponent's grade is unknown
TABLE = "table"  # footnotes (2) and (3): the table does not count this result


_GRADE = re.compile(r"^\s*(\d{1,2})\s*(k|kyu|d|dan)\s*$", re.IGNORECASE)


def parse_grade(text: str) -> int | None:
    """``"2k"``, ``"2 kyu"``, ``"1d"``, ``"1 Dan"`` -> the grade's place on the scale; None if not a grade."""
    match = _GRADE.match(text)
    if not match:
        return None
    number = int(match.group(1))
    if match.group(2)[0].lower() == "k":
        return 30 - number if 1 <= number <= 30 else None
    return ONE_DAN + number - 1 if 1 <= number <= 9 else None


def grade_name(grade: int) -> str:
    """The scale's place as players write it: ``"2k"``, ``"1d"``."""
    if not LOWEST <= grade <= HIGHEST:
        raise ValueError(f"no such grade: {grade}")
    return f"{30 - grade}k" if grade < ONE_DAN else f"{grade - ONE_DAN + 1}d"


def points_for(own: int, opponent: int, won: bool) -> int | None:
    """Seed 002's table: the points for a win (or a loss) of a player of grade ``own`` against an opponent
    of grade ``opponent``; None when the game is not taken into account.

    ============================  =====  =====
    opponent                      win    loss
    ============================  =====  =====
    3 or more grades stronger     +45    ---(3)
    2 grades stronger             +45    -10
    1 grade stronger              +45    -25
    equal strength                +25    -45
    1 grade weaker                +10(2) -45
    2 or more grades weaker       ---(3) -45
    ============================  =====  =====

    (2) A win against an opponent 1 grade weaker only counts if that opponent is 1 kyu or stronger;
    otherwise the game is not taken into account. (3) A game against an opponent 3 or more grades stronger
    counts only if won; against an opponent 2 or more grades weaker only if lost.
    """
    diff = opponent - own
    if won:
        if diff >= 1:
            return 45
        if diff == 0:
            return 25
        if diff == -1:
            return 10 if opponent >= ONE_KYU else None
        return None
    if diff >= 3:
        return None
    if diff == 2:
        return -10
    if diff == 1:
        return -25
    return -45


@dataclass(frozen=True)
class PromotionSettings:
    """Seed 002's numbers: 125 points over a continuous series of 12 to 20 games within 14 months; the
    worst a game can give is -45, so 125 out of 12 cannot be prevented with 170 after 11 games, 215 after
    10 and 260 after 9 (the seed names no earlier case, so ``min_early_games`` is 9). Valid games: at least
    45 minutes per player and 30 s byo-yomi."""

    target: int = 125
    min_games: int = 12
    max_games: int = 20
    months: int = 14
    worst_loss: int = 45
    min_early_games: int = 9
    min_minutes: int = 45
    min_byoyomi_seconds: int = 30

    def threshold(self, games: int) -> int | None:
        """The points a series of ``games`` games needs for a promotion; None if it cannot promote."""
        if games < self.min_early_games or games > self.max_games:
            return None
        if games >= self.min_games:
            return self.target
        return self.target + self.worst_loss * (self.min_games - games)


@dataclass(frozen=True)
class Game:
    """One game from the player's side. ``key`` identifies it and orders the games of one day (games are
    taken in (``played_on``, ``key``) order). ``opponent_grade`` None: unknown. ``minutes``: main time per
    player; ``byoyomi_seconds``: None when unknown (then the game is not valid). ``official``: played in an
    international tournament, a national or European championship or an (inter)district tournament (seed
    002), or counted as such by the committee. ``opponent_unreliable``: the committee marked the opponent's
    grade unreliable (seed 002 exception A). An estimated grade (exception B) is simply the grade given."""

    key: str
    played_on: date
    opponent_grade: int | None
    result: str
    handicap: int = 0
    minutes: int | None = None
    byoyomi_seconds: int | None = None
    official: bool = True
    opponent_unreliable: bool = False


@dataclass(frozen=True)
class Scored:
    """A game as the system saw it: the player's grade when it was played, and its points, or why it does
    not count."""

    game: Game
    grade: int
    points: int | None
    reason: str | None

    @property
    def counts(self) -> bool:
        return self.points is not None


@dataclass(frozen=True)
class Promotion:
    from_grade: int
    to_grade: int
    games: tuple[Scored, ...]  # the continuous series that earned it, oldest first

    @property
    def points(self) -> int:
        return sum(s.points or 0 for s in self.games)

    @property
    def last(self) -> Game:
        return self.games[-1].game


@dataclass(frozen=True)
class Examination:
    start_grade: int
    grade: int  # after every promotion found
    scored: tuple[Scored, ...]  # every game given, in order
    promotions: tuple[Promotion, ...]
    series: tuple[Scored, ...]  # the counted games since the last promotion (or the start), oldest first


@dataclass(frozen=True)
class SeriesStatus:
    """What a grade card shows: the series the promotion rule reads, as of the last counted game
    (``as_of``, None before any): the counted games since the last promotion that were played within the
    months before that game, at most the last 20; its points; how far it is from a promotion:
    ``points_needed`` = 125 - points (at least 0), ``games_needed`` = 12 - games (at least 0); and
    ``dropping``: how many of its oldest games a game played today would no longer read (played more
    than 14 months before today)."""

    tracked: bool
    games: tuple[Scored, ...]
    points: int
    points_needed: int
    games_needed: int
    as_of: date | None = None
    dropping: int = 0


def months_before(day: date, months: int) -> date:
    """The same day ``months`` months earlier (the last day of that month when it is shorter)."""
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    month += 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise AssertionError("unreachable")


def score_game(grade: int, game: Game, settings: PromotionSettings = PromotionSettings()) -> Scored:
    """A game's points for a player of ``grade``, or why it does not count: the player is below 2 kyu, a
    draw (seed 002 footnote 1), not a valid game (a handicap, less than 45 minutes per player or 30 s
    byo-yomi, not official), the opponent's grade unreliable or unknown, or the table's footnotes."""
    reason: str | None = None
    if grade < LOWEST_TRACKED:
        reason = NOT_TRACKED
    elif game.result == DRAW:
        reason = DRAWN
    elif game.handicap != 0:
        reason = HANDICAP
    elif game.minutes is None or game.minutes < settings.min_minutes:
        reason = TOO_SHORT
    elif game.byoyomi_seconds is None or game.byoyomi_seconds < settings.min_byoyomi_seconds:
        reason = BYOYOMI
    elif not game.official:
        reason = UNOFFICIAL
    elif game.opponent_unreliable:
        reason = UNRELIABLE
    elif game.opponent_grade is None:
        reason = NO_GRADE
    if reason is not None:
        return Scored(game, grade, None, reason)
    assert game.opponent_grade is not None
    if game.result not in (WIN, LOSS):
        raise ValueError(f"unknown result {game.result!r}")
    points = points_for(grade, game.opponent_grade, game.result == WIN)
    return Scored(game, grade, points, None if points is not None else TABLE)


def _promoting_series(series: Sequence[Scored], settings: PromotionSettings) -> tuple[Scored, ...] | None:
    """The shortest continuous series ending at the latest counted game that earns a promotion, or None.

    Examined: every series of the last n counted games (n from 9 to 20, not reaching back before the last
    promotion) whose first game was played no earlier than 14 months before the latest game's date
    (``months_before``); it promotes with at least 125 points when n >= 12, or with 170, 215, 260 when n is
    11, 10, 9 (seed 002: "cannot be prevented to score at least 125 points out of 12 games")."""
    if not series:
        return None
    earliest = months_before(series[-1].game.played_on, settings.months)
    for n in range(settings.min_early_games, min(len(series), settings.max_games) + 1):
        tail = series[-n:]
        if tail[0].game.played_on < earliest:
            break  # longer series reach back even further
        need = settings.threshold(n)
        if need is not None and sum(s.points or 0 for s in tail) >= need:
            return tuple(tail)
    return None


def examine(grade: int, games: Sequence[Game], settings: PromotionSettings = PromotionSettings()) -> Examination:
    """Replay a player's games from ``grade`` in (date, key) order (seed 002: "If a player scores at least
    125 points within a period of 14 months over a continuous series of at least 12 and at most 20 games he
    will be promoted one grade", and the early promotion with 170/11, 215/10, 260/9).

    After every counted game the series ending at that game are examined (``_promoting_series``). A
    promotion raises the grade by one at once: the games after it are scored at the new grade, and the
    series restarts: no game up to and including the promoting one belongs to a later series. At 9 dan
    there is nothing to promote to: games are still scored, nothing more happens."""
    current = grade
    scored: list[Scored] = []
    series: list[Scored] = []
    promotions: list[Promotion] = []
    for game in sorted(games, key=lambda g: (g.played_on, g.key)):
        item = score_game(current, game, settings)
        scored.append(item)
        if not item.counts:
            continue
        series.append(item)
        if current >= HIGHEST:
            continue
        earned = _promoting_series(series, settings)
        if earned is not None:
            promotions.append(Promotion(current, current + 1, earned))
            current += 1
            series = []
    return Examination(grade, current, tuple(scored), tuple(promotions), tuple(series))


def series_now(exam: Examination, today: date, settings: PromotionSettings = PromotionSettings()) -> SeriesStatus:
    """The grade card's figures (see ``SeriesStatus``): the series as ``_promoting_series`` reads it after
    the last counted game, not counted back from ``today``: a game entered later with an earlier date is
    read by the rule in the months before the last game, so the card shows those (issue 45 §3). ``today``
    only says which of them a game played today would no longer read."""
    tracked = LOWEST_TRACKED <= exam.grade < HIGHEST
    if not tracked:
        return SeriesStatus(False, (), 0, 0, 0)
    if not exam.series:
        return SeriesStatus(True, (), 0, settings.target, settings.min_games)
    as_of = exam.series[-1].game.played_on
    earliest = months_before(as_of, settings.months)
    games = tuple(s for s in exam.series if s.game.played_on >= earliest)[-settings.max_games :]
    points = sum(s.points or 0 for s in games)
    cutoff = months_before(today, settings.months)
    dropping = sum(1 for s in games if s.game.played_on < cutoff)
    return SeriesStatus(True, games, points, max(0, settings.target - points),
                        max(0, settings.min_games - len(games)), as_of, dropping)  # fmt: skip
