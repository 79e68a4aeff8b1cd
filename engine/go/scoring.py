"""Dead stones and the final score (seed 001, "Het einde van de partij" and "De uiteindelijke score")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from engine.go.board import BLACK, EMPTY, WHITE, neighbours, other

DEFAULT_KOMI: dict[int, Fraction] = {19: Fraction(11, 2), 13: Fraction(9, 2), 9: Fraction(7, 2)}
HANDICAP_KOMI = Fraction(1, 2)


def default_komi(size: int, handicap: int = 0, handicap_komi: Fraction = HANDICAP_KOMI) -> Fraction:
    """Seed 001: komi 5.5 on 19x19, 4.5 on 13x13, 3.5 on 9x9. A handicap game has ``handicap_komi``
    instead (0.5 unless the club sets another: the seed is silent, 0.5 is the usual choice)."""
    return handicap_komi if handicap > 0 else DEFAULT_KOMI[size]


def _flood(size: int, start: int, passable: Callable[[int], bool]) -> set[int]:
    """Every point reachable from ``start`` through points ``passable`` says yes to (``start`` included)."""
    near = neighbours(size)
    seen = {start}
    stack = [start]
    while stack:
        q = stack.pop()
        for r in near[q]:
            if r not in seen and passable(r):
                seen.add(r)
                stack.append(r)
    return seen


def marking_region(cells: Sequence[int], size: int, point: int) -> set[int]:
    """The area the opponent surrounds around the stone at ``point``: every point reachable from it
    without crossing a stone of the opponent's colour."""
    colour = cells[point]
    if colour == EMPTY:
        return set()
    enemy = other(colour)
    return _flood(size, point, lambda r: cells[r] != enemy)


def marked_stones(cells: Sequence[int], size: int, dead: frozenset[int], point: int) -> tuple[set[int], bool]:
    """The stones a mark on the living stone at ``point`` makes dead, and whether that is the whole area
    the opponent surrounds (False: only the stone's own group, the area being open).

    Seed 001: marking a stone marks every stone of that colour in the area the opponent surrounds
    (``marking_region``). That area is only the opponent's while it is closed: when it reaches, through
    open (neutral) points, stones of that colour that have territory of their own, it is not, and
    marking it all would kill living groups. So the area counts as closed when every point of the
    colour's territory in it (empty points, and the opponent's stones marked dead, of areas bordered by
    that colour only: ``territory``; the opponent's ``enclosed_stones``, invaders not yet marked, count as
    dead here, so that a living group keeps its territory while they stand in it) belongs to the marked
    stone's own group; otherwise only that group is marked: its chain and the stones of its colour joined
    to it through the empty points of such territory (its eyes)."""
    colour = cells[point]
    enemy = other(colour)
    own = set(territory(cells, size, dead | enclosed_stones(cells, size, dead, enemy))[colour - 1])
    area = marking_region(cells, size, point)
    group = _flood(size, point, lambda r: cells[r] == colour and r not in dead or r in own and cells[r] != enemy)
    closed = all(q in group for q in area if q in own)
    chosen = area if closed else group
    return {q for q in chosen if cells[q] == colour}, closed


def _regions(cells: Sequence[int], size: int, dead: frozenset[int], colour: int) -> list[tuple[set[int], set[int]]]:
    """Each area reachable from the living stones of ``colour`` without crossing the other colour, with
    those stones in it."""
    enemy = other(colour)
    seen: set[int] = set()
    found = []
    for start in range(size * size):
        if cells[start] == colour and start not in dead and start not in seen:
            area = _flood(size, start, lambda r: cells[r] != enemy)
            seen |= area
            found.append((area, {q for q in area if cells[q] == colour and q not in dead}))
    return found


def enclosed_stones(cells: Sequence[int], size: int, dead: frozenset[int], colour: int) -> frozenset[int]:
    """The living stones of ``colour`` that lie in an area the other colour surrounds without any
    territory of ``colour`` in it (an invader left in the opponent's territory, not yet marked): every
    point reachable from them without crossing the other colour is a stone or touches the other colour.
    An invader of the other colour in a smaller such area of its own does not count against ``colour``'s
    territory (white's unmarked dead stone in black's territory does not make black's group an invader).
    They are not counted as dead, but the area around them is the other colour's when ``marked_stones``
    asks whether that colour has territory of its own there: else a living group whose territory holds an
    unmarked invader would look like one without territory, and a mark on a dead chain next to it would
    take it too."""
    enemy = other(colour)
    enemy_territory = territory(cells, size, dead)[enemy - 1]
    bare = [(len(area), stones) for area, stones in _regions(cells, size, dead, enemy) if not area & enemy_territory]
    found: set[int] = set()
    for area, stones in _regions(cells, size, dead, colour):
        smaller = frozenset(q for n, others in bare if n < len(area) for q in others)
        if not area & territory(cells, size, dead | smaller)[colour - 1]:
            found |= stones
    return frozenset(found)


def toggle_dead(cells: Sequence[int], size: int, dead: frozenset[int], point: int) -> frozenset[int]:
    """Marking a living stone adds the stones ``marked_stones`` gives (seed 001's area when it is
    closed); marking a dead stone again brings its chain back to life, and only its chain, so that every
    set of dead chains can be marked exactly (mark a stone, then unmark the chains it took too many)."""
    colour = cells[point]
    if colour == EMPTY:
        return dead
    if point in dead:
        return dead - _flood(size, point, lambda r: cells[r] == colour)
    return dead | marked_stones(cells, size, dead, point)[0]


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
