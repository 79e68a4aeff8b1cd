"""A minimum-cost perfect matching of a general graph: Edmonds' blossom algorithm, primal-dual, written from
the published algorithm (J. Edmonds, "Paths, trees, and flowers" and "Maximum matching and a polyhedron
with 0,1-vertices", 1965; the dual as W. Cook and A. Rohe state it in "Computing minimum-weight perfect
matchings", 1999). Used by the NK pairing (``score_groups``) to know the best pairing there is.

The linear programme: minimise the weight of the chosen edges such that every vertex has one edge and
every odd set ``B`` of vertices (a blossom) has at least one edge leaving it. Its dual: a value ``y`` per
vertex and ``z >= 0`` per blossom with, for every edge, ``y[u] + y[v] + z`` of the blossoms the edge
leaves ``<= w(u, v)``. A perfect matching whose edges are tight (equality) and whose blossoms with
``z > 0`` have exactly one matched edge leaving them is optimal (the dual proves it). The algorithm keeps
the dual feasible and the matching tight, grows alternating trees from the unmatched vertices over
tight edges, shrinks odd cycles into blossoms, and changes the dual where no tight edge is left to grow.

Only ``eff[v] = y[v] + z`` of the blossoms containing ``v`` is kept per vertex: an edge between two
different outermost blossoms has slack ``w - eff[u] - eff[v]``. ``min_cost_perfect_matching`` runs on
the edges given; ``violations`` checks its dual against more edges (the caller may have left edges out
that the optimum does not need: if every edge left out has a slack >= 0 the matching is optimal over all).
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

Weight = int | float


@dataclass
class Matching:
    """The result: ``mate[v]`` (every vertex matched), the dual per vertex (``eff``), the blossoms left
    (``parent`` of a vertex or blossom, ``z`` of a blossom)."""

    mate: list[int]
    eff: list[Weight]
    parent: list[int]
    z: dict[int, Weight] = field(default_factory=dict)

    def pairs(self) -> list[tuple[int, int]]:
        return [(v, u) for v, u in enumerate(self.mate) if v < u]

    def slack(self, u: int, v: int, w: Weight) -> Weight:
        """The reduced cost of the edge (u, v) of weight ``w`` under the final dual."""
        common: Weight = 0
        if self.parent[u] != -1 and self.parent[v] != -1:
            above = set()
            b = self.parent[u]
            while b != -1:
                above.add(b)
                b = self.parent[b]
            b = self.parent[v]
            while b != -1:
                if b in above:
                    common += self.z.get(b, 0)
                b = self.parent[b]
        return w - self.eff[u] - self.eff[v] + 2 * common


class _Blossoms:
    """The state of the algorithm over vertices ``0 .. n - 1`` and blossoms ``n, n + 1, ...``."""

    def __init__(self, n: int, adjacency: Sequence[dict[int, Weight]]) -> None:
        self.n = n
        self.adj = adjacency
        self.mate = [-1] * n
        self.eff: list[Weight] = [_exact(min(a.values()) / 2) if a else 0 for a in adjacency]
        self.parent = [-1] * n  # the blossom directly containing a vertex or blossom (-1: outermost)
        self.top = list(range(n))  # the outermost blossom of every vertex
        self.childs: dict[int, list[int]] = {}
        self.edges: dict[int, list[tuple[int, int]]] = {}  # edges[b][i] joins childs[i] to childs[i+1]
        self.base: dict[int, int] = {}
        self.z: dict[int, Weight] = {}
        self.label: dict[int, int] = {}  # outermost blossom -> 1 (outer, S) or 2 (inner, T)
        self.labelend: dict[int, tuple[int, int] | None] = {}  # (vertex outside, vertex inside) it was reached by
        self.free_ids: list[int] = []
        self.next_id = n

    # ------------------------------------------------------------------ blossom helpers
    def base_of(self, b: int) -> int:
        return b if b < self.n else self.base[b]

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            x = stack.pop()
            if x < self.n:
                out.append(x)
            else:
                stack.extend(self.childs[x])
        return out

    def child_of(self, b: int, v: int) -> int:
        """The child of blossom ``b`` that holds vertex ``v``."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        return t

    def set_top(self, b: int) -> None:
        for v in self.leaves(b):
            self.top[v] = b

    # ------------------------------------------------------------------ the tree
    def slack(self, u: int, v: int) -> Weight:
        return self.adj[u][v] - self.eff[u] - self.eff[v]

    def assign(self, b: int, kind: int, end: tuple[int, int] | None, queue: list[int]) -> None:
        """Label outermost blossom ``b`` outer (1) or inner (2), reached by ``end``; an inner blossom's mate
        becomes outer."""
        self.label[b] = kind
        self.labelend[b] = end
        if kind == 1:
            queue.extend(self.leaves(b))
        else:
            base = self.base_of(b)
            mate = self.mate[base]
            self.assign(self.top[mate], 1, (base, mate), queue)

    def up(self, b: int) -> int | None:
        """From an outer blossom to the outer blossom above it in its tree (None: a root)."""
        end = self.labelend[b]
        if end is None:
            return None
        inner = self.top[end[0]]
        end = self.labelend[inner]
        assert end is not None
        return self.top[end[0]]

    def common_base(self, v: int, w: int) -> int | None:
        """The outermost blossom where the tree paths of ``v`` and ``w`` meet (None: different trees)."""
        seen: set[int] = set()
        a: int | None = self.top[v]
        b: int | None = self.top[w]
        while a is not None or b is not None:
            if a is not None:
                if a in seen:
                    return a
                seen.add(a)
                a = self.up(a)
            a, b = b, a
        return None

    def shrink(self, root: int, v: int, w: int, queue: list[int]) -> None:
        """The tight edge (v, w) between two outer blossoms of one tree closes an odd cycle through
        ``root`` (their meeting blossom): it becomes one outer blossom."""
        if self.free_ids:
            b = self.free_ids.pop()
        else:
            b = self.next_id
            self.next_id += 1
        self.parent.extend([-1] * (b + 1 - len(self.parent)))
        self.parent[b] = -1
        root_end = self.labelend[root]
        down: list[int] = []  # from v's blossom up to the root, exclusive
        links: list[tuple[int, int]] = []  # the edges between them, (vertex above, vertex below)
        x = self.top[v]
        while x != root:
            end = self.labelend[x]
            assert end is not None
            down.append(x)
            links.append(end)
            x = self.top[end[0]]
        other: list[int] = []
        other_links: list[tuple[int, int]] = []
        x = self.top[w]
        while x != root:
            end = self.labelend[x]
            assert end is not None
            other.append(x)
            other_links.append(end)
            x = self.top[end[0]]
        childs = [root] + down[::-1] + other
        edges = [(a, c) for a, c in links[::-1]] + [(v, w)] + [(c, a) for a, c in other_links]
        self.childs[b] = childs
        self.edges[b] = edges
        self.base[b] = self.base_of(root)
        self.z[b] = 0
        for c in childs:
            self.parent[c] = b
            if self.label.get(c) == 2:
                queue.extend(self.leaves(c))  # the inner ones become outer
            self.label.pop(c, None)
            self.labelend.pop(c, None)
        self.label[b] = 1
        self.labelend[b] = root_end
        self.set_top(b)

    def rotate(self, b: int, v: int) -> None:
        """Make vertex ``v`` the base of blossom ``b`` (``v``'s new mate is set by the caller), rematching
        inside: the even path from v's child to the old base flips."""
        t = self.child_of(b, v)
        if t >= self.n:
            self.rotate(t, v)
        childs, edges = self.childs[b], self.edges[b]
        k, size = childs.index(t), len(childs)
        if k % 2:  # forward: match edges k+1, k+3, ..., size-1
            for j in range(k + 1, size, 2):
                self.match_edge(b, j, edges[j])
        else:  # backward: match edges k-2, k-4, ..., 0
            for j in range(k - 2, -1, -2):
                self.match_edge(b, j, edges[j])
        self.childs[b] = childs[k:] + childs[:k]
        self.edges[b] = edges[k:] + edges[:k]
        self.base[b] = v

    def match_edge(self, b: int, j: int, edge: tuple[int, int]) -> None:
        p, q = edge
        for child, vertex in ((self.childs[b][j], p), (self.childs[b][(j + 1) % len(self.childs[b])], q)):
            if child >= self.n:
                self.rotate(child, vertex)
        self.mate[p], self.mate[q] = q, p

    def augment(self, v: int, w: int) -> None:
        """The tight edge (v, w) joins two trees: flip both paths to their roots."""
        for s, j in ((v, w), (w, v)):
            while True:
                bs = self.top[s]
                if bs >= self.n:
                    self.rotate(bs, s)
                self.mate[s] = j
                end = self.labelend[bs]
                if end is None:
                    break
                bt = self.top[end[0]]
                inner_end = self.labelend[bt]
                assert inner_end is not None
                y, zv = inner_end
                if bt >= self.n:
                    self.rotate(bt, zv)
                self.mate[zv] = y
                s, j = y, zv

    def expand(self, b: int, queue: list[int] | None) -> None:
        """Dissolve outermost blossom ``b`` (its z is 0). An inner one (``queue`` given) passes its label
        on: the children on the even path from where it was entered to its base alternate inner, outer."""
        childs, edges = self.childs.pop(b), self.edges.pop(b)
        for c in childs:
            self.parent[c] = -1
            self.set_top(c)
        if queue is not None and self.label.get(b) == 2:
            end = self.labelend[b]
            assert end is not None
            entry = self.top[end[1]]
            k, size = childs.index(entry), len(childs)
            if k % 2:
                path = [childs[j % size] for j in range(k, size + 1)]
                links = [edges[j] for j in range(k, size)]
            else:
                path = [childs[j] for j in range(k, -1, -1)]
                links = [(edges[j - 1][1], edges[j - 1][0]) for j in range(k, 0, -1)]
            self.label[path[0]] = 2
            self.labelend[path[0]] = end
            for i in range(1, len(path)):
                self.label[path[i]] = 1 if i % 2 else 2
                self.labelend[path[i]] = links[i - 1]
                if i % 2:
                    queue.extend(self.leaves(path[i]))
        self.label.pop(b, None)
        self.labelend.pop(b, None)
        del self.base[b]
        del self.z[b]
        self.free_ids.append(b)

    # ------------------------------------------------------------------ the algorithm
    def run(self, start: Iterable[tuple[int, int]]) -> None:
        for u, v in start:  # a tight start (the caller's guess where its edges are tight)
            if self.mate[u] == -1 and self.mate[v] == -1 and u != v and self.slack(u, v) == 0:
                self.mate[u], self.mate[v] = v, u
        for v in range(self.n):
            if self.mate[v] == -1:
                for u, _ in sorted(self.adj[v].items(), key=lambda item: item[1]):
                    if self.mate[u] == -1 and self.slack(v, u) == 0:
                        self.mate[u], self.mate[v] = v, u
                        break
        while True:
            roots = [v for v in range(self.n) if self.mate[v] == -1]  # only a blossom's base can be unmatched
            if not roots:
                return
            self.stage(roots)
            for b in [b for b in list(self.childs) if self.parent[b] == -1 and self.z[b] == 0]:
                self.expand(b, None)

    def stage(self, roots: list[int]) -> None:
        self.label.clear()
        self.labelend.clear()
        queue: list[int] = []
        for v in roots:
            self.assign(self.top[v], 1, None, queue)
        top, label, eff, adj = self.top, self.label, self.eff, self.adj  # the same objects throughout
        while True:
            while queue:
                v = queue.pop()
                bv = top[v]
                if label.get(bv) != 1:
                    continue
                for u, w in adj[v].items():
                    bu = top[u]
                    if bu == bv or w - eff[v] - eff[u] != 0:  # the slack of (v, u)
                        continue
                    kind = label.get(bu)
                    if kind is None:
                        self.assign(bu, 2, (v, u), queue)
                    elif kind == 1:
                        root = self.common_base(v, u)
                        if root is None:
                            self.augment(v, u)
                            return
                        self.shrink(root, v, u, queue)
                        bv = top[v]
            # no tight edge left to grow on: change the dual
            delta: Weight | None = None
            expand: int | None = None
            outer = [v for v in range(self.n) if label.get(top[v]) == 1]
            for v in outer:
                bv = top[v]
                for u, w in adj[v].items():
                    bu = top[u]
                    if bu == bv:
                        continue
                    kind = label.get(bu)
                    if kind is None:
                        d = w - eff[v] - eff[u]
                    elif kind == 1:
                        d = (w - eff[v] - eff[u]) / 2
                    else:
                        continue
                    if delta is None or d < delta:
                        delta, expand = d, None
            for b, kind in self.label.items():
                if kind == 2 and b >= self.n and (delta is None or self.z[b] < delta):
                    delta, expand = self.z[b], b
            if delta is None:
                raise ValueError("no perfect matching on these edges")
            delta = _exact(delta)
            for b, kind in self.label.items():
                sign = 1 if kind == 1 else -1
                for v in self.leaves(b):
                    self.eff[v] += sign * delta
                if b >= self.n:
                    self.z[b] += sign * delta
            if expand is not None:
                self.expand(expand, queue)
            queue.extend(v for v in range(self.n) if self.label.get(self.top[v]) == 1)


def _exact(x: Weight) -> Weight:
    """A whole number as an int (the dual stays in halves at worst, which floats hold exactly)."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def min_cost_perfect_matching(
    n: int, edges: Iterable[tuple[int, int, Weight]], start: Iterable[tuple[int, int]] = ()
) -> Matching:
    """A perfect matching of vertices ``0 .. n - 1`` of the least total weight over ``edges`` (u, v, w),
    with its dual; ``start``: pairs to try first where they are tight (a good guess saves time).
    ``ValueError`` when the edges have no perfect matching."""
    adjacency: list[dict[int, Weight]] = [{} for _ in range(n)]
    for u, v, w in edges:
        if u != v and (v not in adjacency[u] or w < adjacency[u][v]):
            adjacency[u][v] = w
            adjacency[v][u] = w
    state = _Blossoms(n, adjacency)
    state.run(start)
    parent = state.parent + [-1] * (state.next_id - len(state.parent))
    return Matching(state.mate, state.eff, parent, dict(state.z))


def violations(result: Matching, pairs: Iterable[tuple[int, int]], weight: Callable[[int, int], Weight]) -> list[tuple[int, int]]:
    """The edges among ``pairs`` whose slack under ``result``'s dual is negative: none means ``result`` is
    optimal over them too."""
    return [(u, v) for u, v in pairs if result.slack(u, v, weight(u, v)) < 0]
