"""Random legal games (hypothesis): no chain without liberties stays on the board, the stones on the
board always equal the stones played minus those captured, and every move's result equals a naive
re-implementation of the rules (captures by scanning every chain, ko by comparing whole positions)."""

from __future__ import annotations

import functools
import random

from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.go import BLACK, EMPTY, WHITE, Action, GoError, GoGame, GoSettings, default_komi
from engine.go.board import neighbours
from engine.go.scoring import marking_region, toggle_dead


@functools.cache
def naive_neighbours(size: int) -> list[tuple[int, ...]]:
    """Each point's neighbours on the board, from its (x, y) pair (made once a size: the flood fill below
    asks for them at every step of every move of every game)."""
    out = []
    for q in range(size * size):
        y, x = divmod(q, size)
        pairs = ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1))
        out.append(tuple(ny * size + nx for ny, nx in pairs if 0 <= ny < size and 0 <= nx < size))
    return out


def naive_chains(cells: list[int], size: int) -> list[tuple[int, set[int], set[int]]]:
    """(colour, stones, liberties) of every chain, by flood fill over (x, y) pairs."""
    seen: set[int] = set()
    chains = []
    around = naive_neighbours(size)
    for start in range(size * size):
        if cells[start] == EMPTY or start in seen:
            continue
        colour = cells[start]
        stones, libs, todo = {start}, set(), [start]
        while todo:
            q = todo.pop()
            for r in around[q]:
                if cells[r] == EMPTY:
                    libs.add(r)
                elif cells[r] == colour and r not in stones:
                    stones.add(r)
                    todo.append(r)
        seen |= stones
        chains.append((colour, stones, libs))
    return chains


def naive_play(cells: list[int], size: int, colour: int, point: int, before_own_turn: list[int]) -> tuple[list[int], int] | str:
    """The position after the move and the stones it captured, or the reason it is illegal."""
    if cells[point] != EMPTY:
        return "occupied"
    after = list(cells)
    after[point] = colour
    taken = 0
    for c, stones, libs in naive_chains(after, size):
        if c != colour and not libs:
            for q in stones:
                after[q] = EMPTY
            taken += len(stones)
    if any(c == colour and not libs for c, _, libs in naive_chains(after, size)):
        return "suicide"
    if after == before_own_turn:
        return "ko"
    return after, taken


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([9, 9, 13, 19]), seed=st.integers(0, 2**32), length=st.integers(1, 320))
def test_random_legal_games_keep_the_rules(size: int, seed: int, length: int) -> None:
    rng = random.Random(seed)
    game = GoGame(GoSettings(size, default_komi(size)))
    played = {BLACK: 0, WHITE: 0}
    history = [list(game.board.cells)]  # the position after each turn
    stats = {"captures": 0, "ko": 0, "suicide": 0}
    for _ in range(length):
        if game.phase != "play":
            break
        colour = game.to_move
        cells = list(game.board.cells)
        before_own = history[-2] if len(history) >= 2 else []
        if rng.random() < 0.02:
            game.apply(Action("pass", colour))
            history.append(cells)
            continue
        # candidates: first the point just captured (a ko recapture), then points next to stones, then any
        n = size * size
        near = [q for q in range(n) if cells[q] == EMPTY and any(cells[r] != EMPTY for r in neighbours(size)[q])]
        candidates = rng.sample(near, min(len(near), 6)) + rng.sample(range(n), n)
        last = game.last
        if last is not None and last.kind == "play" and game.last_captures == 1:
            y = [q for q in range(n) if history[-2][q] == colour and cells[q] == EMPTY]
            candidates = y + candidates
        for point in candidates:
            expected = naive_play(cells, size, colour, point, before_own)
            try:
                game.apply(Action("play", colour, (point,)))
            except GoError as err:
                assert err.reason == expected, (point, err.reason, expected)
                assert list(game.board.cells) == cells  # a refused move changes nothing
                if err.reason in stats:
                    stats[err.reason] += 1
                continue
            assert not isinstance(expected, str), (point, expected)
            after, taken = expected
            assert list(game.board.cells) == after
            assert game.last_captures == taken
            stats["captures"] += taken
            played[colour] += 1
            break
        else:
            game.apply(Action("pass", colour))
        history.append(list(game.board.cells))
        board = list(game.board.cells)
        assert all(libs for _, _, libs in naive_chains(board, size))
        for c in (BLACK, WHITE):
            assert board.count(c) == played[c] - game.captured[c]
    event(f"captures: {'yes' if stats['captures'] else 'no'}, ko: {'yes' if stats['ko'] else 'no'}")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.sampled_from([5, 9]), fill=st.floats(0.2, 0.9))
def test_every_set_of_dead_chains_can_be_marked_exactly(seed: int, size: int, fill: float) -> None:
    """Whatever the position (random stones, open points anywhere), every set of chains can be entered as
    the dead stones: mark a stone of each chain of the set (which may take more of its colour with it),
    then mark again each chain taken too many (which brings back that chain only). A mark never reaches
    beyond seed 001's area (the points reachable without crossing the opponent's stones)."""
    rng = random.Random(seed)
    n = size * size
    cells = [rng.choice((BLACK, WHITE)) if rng.random() < fill else EMPTY for _ in range(n)]
    chains = [frozenset(stones) for _, stones, _ in naive_chains(cells, size)]
    target = frozenset().union(*[c for c in chains if rng.random() < 0.4]) if chains else frozenset()
    dead: frozenset[int] = frozenset()
    for chain in chains:
        if chain <= target and not chain <= dead:
            point = min(chain)
            before = dead
            dead = toggle_dead(cells, size, dead, point)
            added = dead - before
            assert chain <= dead
            assert all(cells[q] == cells[point] for q in added)
            assert added <= marking_region(cells, size, point)
    for chain in chains:
        if chain <= dead and not chain <= target:
            before = dead
            dead = toggle_dead(cells, size, dead, min(chain))
            assert before - dead == chain
    assert dead == target
