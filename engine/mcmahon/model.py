"""The Dutch Go Championship (NK): a McMahon-like double elimination in groups of 16 (seed 000).

Public API: ``Player``, ``Game``, ``Round``, ``Settings``, ``Tournament``; ``start_groups``,
``standings``, ``status``, ``pair_next``, ``earned_right``, ``egf_grade``.
Pure: plain frozen data in and out, no I/O, no clock.

Vocabulary. A player's *start group* is 0 (top group), 1, 2, ...; their start score is minus that.
A win (or a bye) is +1, a loss 0, so the score after ``r`` rounds is ``-start_group + wins``, and the
player's *current group* is ``r - score`` = start group + losses: a win keeps a player in their group,
a loss drops them one group. Only the top group and group 1 (start group + losses <= 1) can still
become champion: the *contenders*.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PlayerId = str

EARNED_TOP = "top"
EARNED_GROUP1 = "group1"


@dataclass(frozen=True)
class Player:
    """A registered player. ``rating``: the highest EGF rating of the previous year; the director's
    ``strength_override`` replaces it (seed 000: a rating reset, no active rating, too few
    tournaments). ``earned``: last year's earned right, ``"top"`` or ``"group1"`` (``earned_right``).
    Only ``eligible`` players (Dutch passport, or resident for 2 years on 1 January; the director
    confirms) take part. ``country``, ``club``, ``grade`` and ``egf_pin`` are for the EGF export."""

    id: PlayerId
    name: str
    rating: int
    strength_override: int | None = None
    earned: str | None = None
    eligible: bool = True
    country: str = "NL"
    club: str = ""
    grade: str | None = None
    egf_pin: str | None = None
    # Withdrawn by the director: not paired (and never the bye) from this round on; the games played stand
    withdrawn_from: int | None = None

    @property
    def strength(self) -> int:
        return self.rating if self.strength_override is None else self.strength_override


@dataclass(frozen=True)
class Game:
    """An even game (no handicap, no nigiri): ``black`` moves first. ``winner`` None: no result yet.
    A ``forfeit`` counts like a win for the winner and a loss for the other, but was not played; a
    forfeit without a winner is a double forfeit: neither came, both lose. A ``jigo`` (no winner, the
    same score on the board: possible with an integer komi) is half a point for each, and counts as half
    a win and half a loss: each player drops half a group."""

    black: PlayerId
    white: PlayerId
    winner: PlayerId | None = None
    forfeit: bool = False
    board: int = 0
    jigo: bool = False


def decided(game: "Game") -> bool:
    """Has the game a result (a winner, a jigo, or a double forfeit)?"""
    return game.winner is not None or game.forfeit or game.jigo


Points = int | float  # whole points, or a half after a jigo


def points_text(value: Points) -> str:
    """A score as people write it: 3, 3½, -1½, -½, 0."""
    size = abs(value)
    whole = int(size)
    text = str(whole) if size == whole else ("½" if whole == 0 else f"{whole}½")
    return "-" + text if value < 0 else text


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Game, ...] = ()
    bye: PlayerId | None = None


@dataclass(frozen=True)
class Settings:
    rounds: int = 7
    group_size: int = 16
    endgame_from: int = 6  # seed 000's endgame rules (scenarios 1 and 2) apply from this round on: "Na 5 ronden"


@dataclass(frozen=True)
class Tournament:
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    settings: Settings = field(default_factory=Settings)
    name: str = ""


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Player
    start_group: int
    score: Points
    wins: Points
    losses: Points
    sos: Points
    sosos: Points
    group: Points  # current group: start group + losses (0 top group, 1 group 1, ...; a jigo: half)
    contender: bool
    champion: bool


@dataclass(frozen=True)
class Status:
    """Where the title stands. ``contenders``: who can still become champion (the champion alone
    once known). ``title_rounds``: rounds after the regular ones that were (or will be) title games."""

    rounds_complete: int
    contenders: tuple[PlayerId, ...]
    champion: PlayerId | None
    champion_after: int | None  # the round after which the champion became known
    next_round: int | None  # None: the tournament is over
    title_round_next: bool


@dataclass(frozen=True)
class Pairing:
    round: int
    games: tuple[Game, ...]
    bye: PlayerId | None
    repeats: int = 0
    title_round: bool = False


# --------------------------------------------------------------------------- registration


def earned_right(last_year_points: Points | None) -> str | None:
    """Seed 000, "Verdiende Rechten": 4 points after 7 rounds qualifies for next year's top group,
    3 points for at least group 1 (points counted from the 0, -1, -2 start scores). More than 4
    points is read as 4 ("at least"): such a player started in the top group and won more; 3½ (after a
    jigo) is at least 3."""
    if last_year_points is None:
        return None
    if last_year_points >= 4:
        return EARNED_TOP
    if last_year_points >= 3:
        return EARNED_GROUP1
    return None


def egf_grade(rating: int) -> str:
    """The EGF grade of a rating: 2100 is 1 dan (2050-2149), 2000 is 1 kyu, 100 points a grade;
    clamped to 30k..9d."""
    level = (rating + 50) // 100 - 20
    if level >= 1:
        return f"{min(level, 9)}d"
    return f"{min(1 - level, 30)}k"
