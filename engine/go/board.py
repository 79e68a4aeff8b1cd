"""The go board: points, stones, captures, suicide and the position hash used for ko (seed 001).

A point is an index ``y * size + x``: ``x`` the column from the left (0 = A), ``y`` the row from the
top (0 = the row players call ``size``). The board is a mutable ``bytearray`` of cells, kept small and
fast so thousands of games can be replayed (``benchmarks/go_bench.py``); the game layer
(``engine.go.game``) turns it into frozen snapshots.
"""

from __future__ import annotations

import random
from functools import lru_cache

EMPTY = 0
BLACK = 1
WHITE = 2
SIZES = (19, 13, 9)
LETTERS = "ABCDEFGHJKLMNOPQRST"  # the column letters players write: no I


def other(colour: int) -> int:
    return 3 - colour


class GoError(Exception):
    """A refused action: ``reason`` names the rule (``occupied``, ``suicide``, ``ko``, ``off_board``,
    ``bad_coordinate``, ``not_your_turn``, ...); ``details`` are values for the message."""

    def __init__(self, reason: str, **details: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.details = details


@lru_cache(maxsize=None)
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For every point of a ``size`` board the points next to it (up, down, left, right)."""
    result = []
    for p in range(size * size):
        y, x = divmod(p, size)
        near = []
        if y > 0:
            near.append(p - size)
        if y < size - 1:
            near.append(p + size)
        if x > 0:
            near.append(p - 1)
        if x < size - 1:
            near.append(p + 1)
        result.append(tuple(near))
    return tuple(result)


@lru_cache(maxsize=None)
def zobrist(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Random 64-bit keys per (colour, point), fixed per size: the position hash is their XOR."""
    rng = random.Random(f"clubbot-go-{size}")
    n = size * size
    return ((0,) * n, tuple(rng.getrandbits(64) for _ in range(n)), tuple(rng.getrandbits(64) for _ in range(n)))


def parse_point(text: str, size: int) -> int:
    """``D4`` -> a point: column letter A-T without I, row 1 at the bottom (as players write it).

    Raises ``GoError("bad_coordinate")`` for text that is no coordinate (``I5`` included: there is no I)
    and ``GoError("off_board")`` for a coordinate beyond this board's size (``T19`` on 13x13)."""
    word = text.strip().upper()
    if not 2 <= len(word) <= 3 or not all(ch in "0123456789" for ch in word[1:]):
        raise GoError("bad_coordinate", text=text[:10])
    letter, number = word[0], int(word[1:])
    if letter == "I" or not "A" <= letter <= "Z":
        raise GoError("bad_coordinate", text=text[:10])
    column = "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(letter)
    if column >= size or not 1 <= number <= size:
        raise GoError("off_board", text=word, size=size, last=LETTERS[size - 1])
    return (size - number) * size + column


def point_name(point: int, size: int) -> str:
    y, x = divmod(point, size)
    return f"{LETTERS[x]}{size - y}"


class Board:
    """Stones on a square board, with prisoners and an incremental position hash."""

    __slots__ = ("size", "cells", "hash", "_near", "_keys")

    def __init__(self, size: int) -> None:
        if size not in SIZES:
            raise GoError("bad_size", size=size)
        self.size = size
        self.cells = bytearray(size * size)
        self.hash = 0
        self._near = neighbours(size)
        self._keys = zobrist(size)

    def copy(self) -> "Board":
        twin = Board(self.size)
        twin.cells[:] = self.cells
        twin.hash = self.hash
        return twin

    def put(self, colour: int, point: int) -> None:
        """Place a stone without the rules (set-up: handicap stones, test positions)."""
        if self.cells[point] != EMPTY:
            raise GoError("occupied", point=point_name(point, self.size))
        self.cells[point] = colour
        self.hash ^= self._keys[colour][point]

    def _dead_chain(self, start: int, colour: int) -> list[int] | None:
        """The chain at ``start`` if it has no liberty, else None (stops at the first liberty found)."""
        cells = self.cells
        near = self._near
        stack = [start]
        seen = {start}
        while stack:
            q = stack.pop()
            for r in near[q]:
                c = cells[r]
                if c == EMPTY:
                    return None
                if c == colour and r not in seen:
                    seen.add(r)
                    stack.append(r)
        return list(seen)

    def play(self, colour: int, point: int, forbidden_hash: int | None = None, forbidden: bytes | None = None) -> int:
        """Play a stone (seed 001 "Hoe te zetten"): opponent chains left without liberties are captured;
        a move that leaves its own chain without liberties is illegal unless it captures (suicide);
        a move that recreates ``forbidden`` (the position after this player's previous turn: ko) is
        illegal. Returns the number of stones captured. A refused move leaves the board unchanged."""
        cells = self.cells
        if cells[point] != EMPTY:
            raise GoError("occupied", point=point_name(point, self.size))
        enemy = 3 - colour
        cells[point] = colour
        captured: list[int] = []
        for q in self._near[point]:
            if cells[q] == enemy and q not in captured:
                chain = self._dead_chain(q, enemy)
                if chain is not None:
                    captured.extend(chain)
        if not captured and self._dead_chain(point, colour) is not None:
            cells[point] = EMPTY
            raise GoError("suicide", point=point_name(point, self.size))
        own_keys = self._keys[colour]
        enemy_keys = self._keys[enemy]
        new_hash = self.hash ^ own_keys[point]
        for q in captured:
            new_hash ^= enemy_keys[q]
        if forbidden_hash is not None and new_hash == forbidden_hash:
            for q in captured:
                cells[q] = EMPTY
            same = forbidden is None or bytes(cells) == forbidden
            if same:
                cells[point] = EMPTY
                for q in captured:
                    cells[q] = enemy
                raise GoError("ko", point=point_name(point, self.size))
        for q in captured:
            cells[q] = EMPTY
        self.hash = new_hash
        return len(captured)

    def is_legal(self, colour: int, point: int, forbidden_hash: int | None = None) -> bool:
        """Whether ``play`` would accept the move (the board is left as it was)."""
        if self.cells[point] != EMPTY:
            return False
        twin = self.copy()
        try:
            twin.play(colour, point, forbidden_hash)
        except GoError:
            return False
        return True

    def chain(self, point: int) -> set[int]:
        colour = self.cells[point]
        seen = {point}
        stack = [point]
        while stack:
            q = stack.pop()
            for r in self._near[q]:
                if self.cells[r] == colour and r not in seen:
                    seen.add(r)
                    stack.append(r)
        return seen

    def liberties(self, point: int) -> set[int]:
        return {r for q in self.chain(point) for r in self._near[q] if self.cells[r] == EMPTY}


STAR_POINTS: dict[int, tuple[str, ...]] = {
    19: ("D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"),
    13: ("D4", "G4", "K4", "D7", "G7", "K7", "D10", "G10", "K10"),
    9: ("C3", "E3", "G3", "C5", "E5", "G5", "C7", "E7", "G7"),
}


def standard_handicap(size: int, stones: int) -> tuple[int, ...]:
    """The usual handicap points: 2 on two opposite corners' star points, 3 and 4 the other corners,
    5 adds the centre, 6 the side points left and right, 7 adds the centre, 8 all but the centre, 9 all.
    One stone goes on the upper-right star point."""
    s = dict(zip(("ll", "lm", "lr", "ml", "c", "mr", "ul", "um", "ur"), STAR_POINTS[size]))
    layout = {
        1: ["ur"],
        2: ["ur", "ll"],
        3: ["ur", "ll", "lr"],
        4: ["ur", "ll", "lr", "ul"],
        5: ["ur", "ll", "lr", "ul", "c"],
        6: ["ur", "ll", "lr", "ul", "ml", "mr"],
        7: ["ur", "ll", "lr", "ul", "ml", "mr", "c"],
        8: ["ur", "ll", "lr", "ul", "ml", "mr", "um", "lm"],
        9: ["ur", "ll", "lr", "ul", "ml", "mr", "um", "lm", "c"],
    }
    if stones not in layout:
        raise GoError("bad_handicap", stones=stones)
    return tuple(parse_point(s[k], size) for k in layout[stones])
