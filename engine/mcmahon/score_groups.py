"""Pairing the NK's score groups with the fewest repeats, then the smallest total score difference, then
the seed's fold order (issue 20: OpenGotha's order of costs, avoid repeats >> minimise the score
difference >> the fold order by SOS and strength).

Every pairing of the field can be read group by group from the top: a pool is the players floating in
from above (on top) and the group itself; some players of the pool float down, the rest are paired by
the seed's fold (``fold_match``). So the choice that matters is who floats where, and ``pair_score_groups``
searches it best first: the cost of a float is the score gap it crosses, and since at least one game
must cross every boundary with an odd number of players above it, the sum of those forced crossings
is a lower bound that lets the fold's natural choice through without detour. The search starts from
the bottom groups (where pairings get stuck) and widens upward, within a budget of pools tried, keeping
the best pairing found. A pairing without repeats at that bound is proven best; any other is checked
against the exact optimum, a minimum-cost perfect matching (``_Exact``, issue 31): the search's pairing
when it is as cheap, else the optimum's floats with every pool paired by the fold.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from engine.mcmahon.matching import min_cost_perfect_matching, violations
from engine.mcmahon.model import PlayerId, Points

Pair = tuple[PlayerId, PlayerId]
Carry = tuple[tuple[int, PlayerId], ...]  # floaters on their way: (the level they go to, the player)
Cost = tuple[int, Points, int]  # repeats, score difference, fold-order penalty

_FOLD_STEPS = 20000  # backtracking steps of one fold
_POOLS = 1500  # pools the search may try in all, before it keeps the best pairing found
_STEPS = 300_000  # backtracking steps of all folds of one pairing (about half a second at worst)


def fold_match(
    order: Sequence[PlayerId], met: dict[PlayerId, set[PlayerId]], repeats: bool, limit: int = _FOLD_STEPS,
    spent: list[int] | None = None,
) -> list[Pair] | None:
    """Fold pairing (1-n, 2-(n-1), ...) of an even list without repeats: the highest unpaired player
    takes the lowest unpaired player they have not met, as long as the rest can still be paired
    (depth-first search within ``limit`` steps, added to ``spent[0]``). ``repeats``: when the list
    cannot pair without them, the pairing with the fewest repeats found (the fold's own order among
    equals); its first pairing takes n/2 steps, so a limit of n always gives one."""
    return _fold(order, met, repeats, limit, spent)[0]


Folds = dict[tuple[tuple[PlayerId, ...], bool], tuple[tuple[Pair, ...] | None, int, int]]


def _fold(
    order: Sequence[PlayerId], met: dict[PlayerId, set[PlayerId]], repeats: bool, limit: int = _FOLD_STEPS,
    spent: list[int] | None = None, known: Folds | None = None,
) -> tuple[list[Pair] | None, int]:
    """``fold_match`` and the number of repeats of its pairing. ``known``: the searches of one ``met`` that
    ended by themselves, (order, repeats) -> (pairing, repeats, steps): any limit of as many steps or more
    gives the same again, its steps counted again."""
    n = len(order)
    if n % 2:
        return None, 0
    if limit >= n // 2:
        # The search's first descent: when every highest unpaired player has someone not met left to take, it
        # ends there with no repeat and n/2 steps, and this is that pairing without the search's bookkeeping
        rest = list(order)
        plain: list[Pair] = []
        while rest:
            a = rest.pop(0)
            seen = met[a]
            for j in range(len(rest) - 1, -1, -1):
                if rest[j] not in seen:
                    plain.append((a, rest.pop(j)))
                    break
            else:
                break
        else:
            if spent is not None:
                spent[0] += n // 2
            return plain, 0
    key = (tuple(order), repeats)
    if known is not None and key in known:
        pairing, count, used = known[key]
        if used <= limit:
            if spent is not None:
                spent[0] += used
            return (None if pairing is None else list(pairing)), count
    steps = 0
    pairs: list[Pair] = []
    free = [True] * n
    count = 0
    best: list[Pair] | None = None
    best_count = n + 1  # more than any pairing can have
    # No pairing has fewer repeats than half the players who met everyone else in the list: one found
    # with that many ends the search (a floater who met the whole group below, say).
    cornered = sum(1 for a in order if all(b in met[a] for b in order if b != a)) if repeats else 0
    enough = (cornered + 1) // 2

    def search() -> bool:
        """True: stop (a pairing without repeats found, or the budget spent)."""
        nonlocal steps, count, best, best_count
        try:
            i = free.index(True)
        except ValueError:
            if count < best_count:
                best, best_count = list(pairs), count
            return count <= enough
        steps += 1
        if steps > limit:
            return True
        free[i] = False
        a = order[i]
        candidates = [j for j in range(n - 1, i, -1) if free[j]]
        fresh = [j for j in candidates if order[j] not in met[a]]
        tries = fresh + ([j for j in candidates if order[j] in met[a]] if repeats else [])
        for j in tries:
            repeat = order[j] in met[a]
            if count + repeat >= best_count:
                continue
            free[j] = False
            pairs.append((a, order[j]))
            count += repeat
            stop = search()
            count -= repeat
            pairs.pop()
            free[j] = True
            if stop:
                free[i] = True
                return True
        free[i] = True
        return False

    search()
    if spent is not None:
        spent[0] += steps
    if known is not None and steps <= limit:  # ended by itself, not by the limit
        known[key] = (None if best is None else tuple(best), best_count, steps)
    return best, best_count


@dataclass(frozen=True)
class Level:
    """One score group: its players in fold order, its score, whether it is a group of contenders (it
    floats only what parity needs and pairs with repeats rather than sending more away), and the level
    its floaters go to (the next, or the one after for seed 000's lone top-group player)."""

    players: tuple[PlayerId, ...]
    score: Points
    contenders: bool
    target: int


class _Node(NamedTuple):
    """Levels ``0 .. level - 1`` paired: the floaters carried on, the cost so far and the pairs."""

    level: int
    carry: Carry
    cost: Cost
    above: _Node | None  # the node before this level (None: the start)
    own: tuple[Pair, ...]  # this node's last level's pairs

    @property
    def pairs(self) -> list[Pair]:
        """The pairs of levels ``0 .. level - 1``, top first."""
        parts = []
        node: _Node | None = self
        while node is not None:
            parts.append(node.own)
            node = node.above
        return [pair for part in reversed(parts) for pair in part]


def _options(n: int, parity_only: bool, last: bool) -> Iterator[tuple[int, ...]]:
    """Who of a pool of ``n`` floats down, cheapest first: as few as parity needs (the lowest in the fold
    order first), then two more, ... A contenders' pool floats only what parity needs; the last pool
    floats nobody."""
    need = n % 2
    if last:
        if need == 0:
            yield ()
        return
    for size in [need] if parity_only else range(need, n + 1, 2):
        yield from combinations(range(n - 1, -1, -1), size)


class _Search:
    def __init__(self, levels: Sequence[Level], met: dict[PlayerId, set[PlayerId]]) -> None:
        self.levels = levels
        self.met = met
        count = len(levels)
        self.gaps = [levels[i].score - levels[i + 1].score for i in range(count - 1)] + [0]
        # bound[i]: the score difference the boundaries from level i down must carry at least
        self.bound: list[Points] = [0] * (count + 1)
        above = 0
        parity = []
        for level in levels:
            above += len(level.players)
            parity.append(above % 2)
        for i in range(count - 1, -1, -1):
            self.bound[i] = self.bound[i + 1] + parity[i] * self.gaps[i]
        self.tried = 0
        self.spent = [0]  # fold steps so far
        self.folds: Folds = {}  # the folds that needed the search, kept: the searches from each level up meet them again

    @property
    def exhausted(self) -> bool:
        return self.tried >= _POOLS or self.spent[0] >= _STEPS

    def pool(self, node: _Node) -> list[PlayerId]:
        """The players to pair at ``node.level``: the floaters arriving there on top, then the group."""
        if not node.carry:
            return list(self.levels[node.level].players)
        return [p for t, p in node.carry if t == node.level] + list(self.levels[node.level].players)

    def options(self, node: _Node) -> Iterator[tuple[int, ...]]:
        """Who of the pool at ``node.level`` may float down, cheapest first (``_options``)."""
        return _options(len(self.pool(node)), self.levels[node.level].contenders, node.level == len(self.levels) - 1)

    def step(self, node: _Node, chosen: tuple[int, ...], rank: int, repeats: bool) -> _Node | None:
        """Pair level ``node.level`` with ``chosen`` floating down (None: it cannot be paired); ``chosen`` as
        ``options`` gives it: indices into the pool, the highest first."""
        i, carry = node.level, node.carry
        self.tried += 1
        pool = self.pool(node)
        passing = tuple(x for x in carry if x[0] > i) if carry else ()
        if chosen:
            target = self.levels[i].target
            carry = passing + tuple([(target, pool[k]) for k in reversed(chosen)])
            for k in chosen:
                del pool[k]  # the highest first: the lower ones keep their places
        else:
            carry = passing
        limit = min(_FOLD_STEPS, max(len(pool), _STEPS - self.spent[0]))
        pairs, count = _fold(pool, self.met, repeats, limit, self.spent, self.folds)
        if pairs is None:
            return None
        cost = node.cost
        cost = (cost[0] + count, cost[1] + len(carry) * self.gaps[i], cost[2] + rank)
        return _Node(i + 1, carry, cost, node, tuple(pairs))

    def greedy(self) -> list[_Node]:
        """Level by level, the first floaters that leave a repeat-free pool (among the first 60 choices),
        else the fewest floaters with repeats. Returns the node before each level and the end."""
        nodes = [_Node(0, (), (0, 0, 0), None, ())]
        while nodes[-1].level < len(self.levels):
            node = nodes[-1]
            found = None
            for rank, chosen in enumerate(self.options(node)):
                if rank == 60 or self.spent[0] >= _STEPS:
                    break
                found = self.step(node, chosen, rank, repeats=False)
                if found is not None:
                    break
            if found is None:
                found = self.step(node, next(self.options(node)), 0, repeats=True)
            assert found is not None  # an even pool always pairs when repeats are allowed
            nodes.append(found)
        return nodes

    def best_first(self, start: _Node, incumbent: _Node) -> _Node:
        """The cheapest completion of ``start``, or ``incumbent`` if none is cheaper (or the budget ran out
        before one was found)."""
        count = len(self.levels)
        heap: list[tuple[int, Points, int, int, int, int, _Node, tuple[int, ...] | None, Iterator[tuple[int, ...]] | None]] = []
        seen: set[tuple[int, Carry]] = set()
        order = 0
        best = incumbent

        def push(node: _Node, chosen: tuple[int, ...] | None, rest: Iterator[tuple[int, ...]] | None, rank: int) -> None:
            nonlocal order
            order += 1
            repeats, difference, fold = node.cost[0], node.cost[1] + self.bound[node.level], node.cost[2] + rank
            if (repeats, difference, fold) < best.cost:
                heapq.heappush(heap, (repeats, difference, -node.level, fold, order, rank, node, chosen, rest))

        push(start, None, None, 0)
        while heap:
            *_, rank, node, chosen, rest = heapq.heappop(heap)
            if chosen is None:  # a node reached: opened when it is the cheapest way to it
                if node.level == count:
                    return node
                if (node.level, node.carry) in seen:
                    continue
                seen.add((node.level, node.carry))
                options = self.options(node)
                first = next(options, None)
                if first is not None:
                    push(node, first, options, 0)
                continue
            if rest is not None:
                following = next(rest, None)
                if following is not None:
                    push(node, following, rest, rank + 1)
            if self.exhausted:
                return best
            child = self.step(node, chosen, rank, repeats=False) or self.step(node, chosen, rank, repeats=True)
            if child is not None:
                if child.level == count and child.cost < best.cost:
                    best = child
                push(child, None, None, 0)
        return best


def pair_score_groups(levels: Sequence[Level], met: dict[PlayerId, set[PlayerId]]) -> list[Pair]:
    """Pair every level (score group, top first); see the module's docstring. The greedy pairing first,
    then the best-first search from each level up with the greedy choices above it fixed, widening
    until the search over all levels completes or the budget (``_POOLS`` pools, ``_STEPS`` steps) is spent.
    Unless that pairing has no repeat and only the forced score difference (the parity bound), the exact
    optimum (``_Exact``) decides: the search's pairing when it has the optimum's repeats and score
    difference, else the optimum's floats, each pool paired by the fold."""
    search = _Search(levels, met)
    path = search.greedy()
    best = path[-1]
    for start in range(len(levels) - 1, -1, -1):
        if search.exhausted or best.cost[1] == search.bound[0] and best.cost[0] == 0:
            break
        best = search.best_first(path[start], best)
    if best.cost[0] == 0 and best.cost[1] == search.bound[0]:
        return best.pairs  # proven: nothing has fewer repeats or a smaller difference
    exact = _Exact(levels, met)
    pairs = best.pairs
    optimum = exact.solve(pairs)
    if exact.cost(pairs) <= exact.cost(optimum):
        return pairs
    return exact.refold(optimum)


class _Exact:
    """The best pairing there is under the order of costs, as a minimum-cost perfect matching of the
    players (``engine.mcmahon.matching``). A game between levels i < j is the player of level i floating
    down to level j; it costs, in this order (each weight more than all the smaller ones together can
    add up to): a contender meeting a non-contender (the contenders play it out among themselves, seed
    000: "Effectief zullen deze vier spelers dus nog twee ronden knock-out spelen voor de titel"; the
    fewest such games possible are what the number of contenders' parity needs; a game between two
    contenders of different levels, half a point apart after a jigo, is a game among them and costs
    nothing here), a repeat (in group 1 "herhaalde tegenstanders toegestaan (maar er wordt geprobeerd
    dit te vermijden)": so two contenders who met meet again only when every pairing of the contenders
    among themselves needs it; issue 45 §3, before, the half-point boundary counted as a crossing and
    outweighed the repeat), and the score difference. A game is impossible between a level and one its floaters skip
    (``target``). Edges: the games inside a level and to the next two levels, and the search's pairing;
    the dual of the optimum over them is then checked against every other game (all slacks >= 0: optimal
    over every pairing), and a game that breaks it is added, until none does."""

    def __init__(self, levels: Sequence[Level], met: dict[PlayerId, set[PlayerId]]) -> None:
        self.levels = levels
        self.met = met
        self.players = [p for level in levels for p in level.players]
        self.index = {p: k for k, p in enumerate(self.players)}
        self.level = [i for i, level in enumerate(levels) for _ in level.players]
        self.twice = [int(2 * level.score) for level in levels]  # scores in half points: integers
        # crossing[i][j]: 1 for a game of a contender with a non-contender (the contender levels are on top),
        # 0 for a game between two contenders, whatever their levels (half a point apart after a jigo)
        self.crossing = [[int(levels[i].contenders != levels[j].contenders) for j in range(len(levels))]
                         for i in range(len(levels))]  # fmt: skip
        spread = self.twice[0] - self.twice[-1] if levels else 0
        n = len(self.players)
        self.repeat = spread * (n // 2) + 1  # more than any total score difference
        self.contender = self.repeat * (n // 2 + 1)  # more than any total of repeats and differences

    def allowed(self, i: int, j: int) -> bool:
        """Can a player of level i meet one of level j (i <= j)?"""
        return i == j or j >= self.levels[i].target

    def weight(self, u: int, v: int) -> int:
        i, j = sorted((self.level[u], self.level[v]))
        a, b = self.players[u], self.players[v]
        return (self.contender * self.crossing[i][j] + self.repeat * (b in self.met[a])
                + self.twice[i] - self.twice[j])  # fmt: skip

    def solve(self, guess: Sequence[Pair]) -> list[Pair]:
        n = len(self.players)
        by_level: list[list[int]] = [[] for _ in self.levels]
        for k, i in enumerate(self.level):
            by_level[i].append(k)
        edges: set[tuple[int, int]] = set()
        for i, members in enumerate(by_level):
            for j in range(i, min(i + 3, len(self.levels))):
                if not self.allowed(i, j):
                    continue
                for u in members:
                    for v in by_level[j]:
                        if u < v:
                            edges.add((u, v))
        start = [(min(self.index[a], self.index[b]), max(self.index[a], self.index[b])) for a, b in guess]
        edges.update(start)
        while True:
            result = min_cost_perfect_matching(n, ((u, v, self.weight(u, v)) for u, v in edges), start)
            broken = violations(result, self.unchecked(by_level, edges, result.eff), self.weight)
            if not broken:
                return [(self.players[u], self.players[v]) for u, v in result.pairs()]
            edges.update(broken)
            start = result.pairs()

    def unchecked(self, by_level: list[list[int]], edges: set[tuple[int, int]], eff: Sequence[float]) -> Iterator[tuple[int, int]]:
        """The games outside ``edges`` whose slack may be negative: a game between levels i and j weighs at
        least its contender crossings and score difference, and the blossoms' part of a slack is never
        negative, so a pair of levels (or a player) whose largest duals stay below that needs no check."""
        count = len(self.levels)
        top = [max((eff[u] for u in members), default=0) for members in by_level]
        for i in range(count):
            for j in range(i, count):
                if not self.allowed(i, j):
                    continue
                least = self.contender * self.crossing[i][j] + self.twice[i] - self.twice[j]
                if least >= top[i] + top[j]:
                    continue
                for u in by_level[i]:
                    if least >= eff[u] + top[j]:
                        continue
                    for v in by_level[j]:
                        pair = (min(u, v), max(u, v))
                        if u != v and pair not in edges and (i != j or u < v):
                            yield pair

    def cost(self, pairs: Sequence[Pair]) -> int:
        """The games of a contender with a non-contender, repeats and score difference of a pairing, as one
        weight."""
        return sum(self.weight(self.index[a], self.index[b]) for a, b in pairs)

    def refold(self, pairs: Sequence[Pair]) -> list[Pair]:
        """The optimum's floats (the higher player of a game between two levels floats to the lower's
        level, on top of its pool), each pool paired by the fold with the fewest repeats; a pool the fold
        cannot pair as well within its budget keeps the optimum's games."""
        index, level = self.index, self.level
        lower = {}
        for a, b in pairs:
            lower[a] = lower[b] = max(level[index[a]], level[index[b]])
        out: list[Pair] = []
        for j, members in enumerate(self.levels):
            pool = sorted((p for p in self.players if lower[p] == j and level[index[p]] < j), key=lambda p: index[p])
            pool += [p for p in members.players if lower[p] == j]
            own = [(a, b) for a, b in pairs if lower[a] == j]
            folded = fold_match(pool, self.met, repeats=True)
            if folded is not None and self.cost(folded) <= self.cost(own):
                out.extend(folded)
            else:
                out.extend(own)
        return out
