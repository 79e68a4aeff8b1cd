"""Dead stones and the final score (seed 001, "Het einde van de partij" and "De uiteindelijke score")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from engine.go.board import BLACK, EMPTY, WHITE, neighbours

DEFAULT_KOMI: dict[int, Fraction] = {19: Fraction(11, 2), 13: Fraction(9, 2), 9: Fraction(7, 2)}
HANDICAP_KOMI = Fraction(1, 2)


def default_komi(size: int, handicap: int = 0, handicap_komi: Fraction = HANDICAP_KOMI) -> Fraction:
    """Seed 001: komi 5.5 on 19x19, 4.5 on 13x13, 3.5 on 9x9. A handicap game has ``handicap_komi``
    instead (0.5 unless the club sets another: the seed is silent, 0.5 is the usual choice)."""
    return handicap_komi if handicap > 0 else DEFAULT_KOMI[size]


def marking_region(cells: Sequence[int], size: int, point: int) -> set[int]:
    """The area the opponent surrounds around the stone at ``point``: every point reachable from it
    without crossing a stone of the opponent's colour."""
    colour = cells[point]
    if colour == EMPTY:
        return set()
    enemy = 3 - colour
    near = neighbours(size)
    seen = {point}
    stack = [point]
    while stack:
        q = stack.pop()
        for r in near[q]:
            if r not in seen and cells[r] != enemy:
                seen.add(r)
                stack.append(r)
    return seen


def toggle_dead(cells: Sequence[int], size: int, dead: frozenset[int], point: int) -> frozenset[int]:
    """Seed 001: marking a stone dead marks every stone of that colour in the area the opponent
    surrounds; unmarking a dead stone unmarks them likewise."""
    colour = cells[point]
    if colour == EMPTY:
        return dead
    group = {q for q in marking_region(cells, size, point) if cells[q] == colour}
    return dead - group if point in dead else dead | group


@dataclass(frozen=True)
class Score:
    """Seed 001's count for each player; ``black`` and ``white`` are the final scores."""

    black_territory: int
    white_territory: int
    black_captured: int  # black stones the opponent captured during play
    white_captured: int
    black_dead: int
    white_dead: int
    komi: Fraction
    black: Fraction
    white: Fraction

    @property
    def winner(self) -> int | None:
        if self.black == self.white:
            return None
        return BLACK if self.black > self.white else WHITE

    @property
    def margin(self) -> Fraction:
        return abs(self.black - self.white)


def territory(cells: Sequence[int], size: int, dead: frozenset[int]) -> tuple[set[int], set[int]]:
    """Black's and white's territory: the empty points (and the points under dead stones) of every area
    bordered by living stones of one colour only. An area touching both colours, or none, is no one's."""
    near = neighbours(size)
    live = [EMPTY if p in dead else c for p, c in enumerate(cells)]
    black: set[int] = set()
    white: set[int] = set()
    seen: set[int] = set()
    for start in range(size * size):
        if live[start] != EMPTY or start in seen:
            continue
        area = [start]
        seen.add(start)
        borders = 0
        i = 0
        while i < len(area):
            q = area[i]
            i += 1
            for r in near[q]:
                c = live[r]
                if c == EMPTY:
                    if r not in seen:
                        seen.add(r)
                        area.append(r)
                else:
                    borders |= c
        if borders == BLACK:
            black.update(area)
        elif borders == WHITE:
            white.update(area)
    return black, white


def score(
    cells: Sequence[int], size: int, dead: frozenset[int], black_captured: int, white_captured: int, komi: Fraction
) -> Score:
    """Seed 001: final score = intersections of the player's territory (points under the opponent's
    dead stones included) - the player's stones captured by the opponent - the player's dead stones;
    komi is subtracted from black's score. The higher score wins."""
    black_area, white_area = territory(cells, size, dead)
    black_dead = sum(1 for p in dead if cells[p] == BLACK)
    white_dead = sum(1 for p in dead if cells[p] == WHITE)
    b = Fraction(len(black_area) - black_captured - black_dead) - komi
    w = Fraction(len(white_area) - white_captured - white_dead)
    return Score(len(black_area), len(white_area), black_captured, white_captured, black_dead, white_dead, komi, b, w)
