"""The Keizer competition's data: the plain frozen values every Keizer rule takes and returns.

``KeizerSettings`` (every club setting, the seed-004 club's values as defaults), ``Player``, ``Game``,
``Result``, ``Absence``, ``Round`` and ``Standing``. The rules live beside this module: ``scores``
(values, recalculation, ranking), ``pairing``, ``season`` (cycles, no-shows, attendance), ``prizes``,
``groups`` and ``season_file``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

PlayerId = str


class Result(enum.Enum):
    """A game's result as written in a season file ("1-0" ...); F marks a forfeit."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_FORFEIT = "1-0F"
    BLACK_WINS_FORFEIT = "0-1F"
    DOUBLE_FORFEIT = "0-0F"


class Absence(enum.Enum):
    """Why a player was not paired in a round (seed 004, Keizer rules d, e, f)."""

    NOTICE = "notice"  # signed off in time: 1/3 of own value
    TEAM = "team"  # club team match: 2/3 of own value
    UNEXCUSED = "unexcused"  # no notice: 0
    AUTO = "auto"  # signed off by the no-show rule (seed 004 j): ``auto_signoff_fraction`` of own value


@dataclass(frozen=True)
class KeizerSettings:
    """Every number of the system is a club setting; defaults are the seed-004 club's."""

    value_rule: str = "top"  # "top": first gets top_value, each next place one less; "ratio": seed 003
    top_value: int = 50
    min_value: int = 1
    notice_fraction: Fraction = Fraction(1, 3)
    team_fraction: Fraction = Fraction(2, 3)
    unexcused_fraction: Fraction = Fraction(0)
    bye_fraction: Fraction = Fraction(1)
    forfeit_win_fraction: Fraction = Fraction(1)  # of the opponent's value, for a win by forfeit
    cycle_length: int = 7  # rounds per cycle; 0 = repeats always allowed
    cycles: int = 4
    extra_passes: int = 0  # further recalculation passes towards a fixed point
    start_bonus: bool = False  # own value added once to the total
    attendance_for_prizes: Fraction = Fraction(2, 3)
    no_show_limit: int = 2  # consecutive unexcused absences before the automatic sign-off
    start_order: str = "rating"  # "rating", or "list": the players' order as given (last season's ranking)
    auto_signoff_fraction: Fraction = Fraction(1, 3)  # after the no-show rule signed a player off (1/3: "with notice")
    riser_from: str = "start"  # the riser prize counts places from the "start" order, or from the list after "round1"


@dataclass(frozen=True)
class Player:
    id: PlayerId
    name: str
    rating: int = 0
    group: str | None = None
    joined_round: int = 1
    start_points: Fraction | None = None
    # Withdrawn by the director: out of the pairing and the ranking from this round on (their games
    # before it keep counting for their opponents, at the value they had in the last ranking they were in).
    withdrawn_from: int | None = None
    # Back after a withdrawal: in the pairing and the ranking again from this round on (the standings of
    # the rounds between stay as they were; the points of their games before are theirs again).
    returned_from: int | None = None
    # An unrated player's (rating 0) estimated rating, the director's choice (issue 44 §2): it places them in
    # the start order (and a late joiner's start points) as a rating would, and nothing else: ties after a
    # round, performances and the TRF file still see them unrated. Ignored for a rated player.
    estimate: int | None = None

    @property
    def start_rating(self) -> int:
        """The rating that places the player in the start order: their rating, else their estimate."""
        return self.rating or (self.estimate or 0)


@dataclass(frozen=True)
class Game:
    white: PlayerId
    black: PlayerId
    result: Result | None = None  # None: not played / not confirmed yet


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Game, ...] = ()
    byes: tuple[PlayerId, ...] = ()
    absent: Mapping[PlayerId, Absence] = field(default_factory=dict)


@dataclass(frozen=True)
class Standing:
    """One line of the standings (see ``standings``): ``rank`` 1-based and distinct, ``score`` exact,
    ``value`` the ranking value of this rank, ``played`` games played over the board."""

    rank: int
    player: Player
    score: Fraction
    value: int
    played: int = 0
