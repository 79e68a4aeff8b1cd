"""Keizer pairing: who plays whom in a round, with which colours, and who has the bye.

Public API: ``Pairing`` and ``pair_round(players, rounds, present, settings, round_number)``.
Pure: plain data in, plain data out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.keizer.model import Game, KeizerSettings, Player, PlayerId, Result, Round
from engine.keizer.scores import value_ranking

_FORFEITS = (Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT)


@dataclass(frozen=True)
class Pairing:
    """The pairing of one round: games top board first (``result`` None), and the bye if any.

    ``repeats`` counts games between players who already met in this cycle (or a forbidden pair); it is 0 unless no
    legal round existed (see ``pair_round``).
    """

    round: int
    games: tuple[Game, ...]
    bye: PlayerId | None
    repeats: int = 0


def cycle_rounds(round_number: int, cycle_length: int) -> range:
    """The earlier rounds of ``round_number``'s cycle (cycles: rounds 1..L, L+1..2L, ...)."""
    if cycle_length <= 0:
        return range(0)
    start = (round_number - 1) // cycle_length * cycle_length + 1
    return range(start, round_number)


def pair_round(
    players: Sequence[Player],
    rounds: Sequence[Round],
    present: Collection[PlayerId],
    settings: KeizerSettings = KeizerSettings(),
    round_number: int | None = None,
    forbidden: Collection[tuple[PlayerId, PlayerId]] = (),
) -> Pairing:
    """Pair round ``round_number`` (default: one after the highest round in ``rounds``).

    Order (seed 003, "Rules for the pairings"; seed 004, Keizer rule g): the present players
    sorted by the ranking that values this round (``engine.keizer.value_ranking``: the standings
    after the previous round, late joiners inserted), paired 1-2, 3-4, ...

    Repeats (seed 004, Keizer rule h): two players meet at most once per cycle of
    ``cycle_length`` rounds (rounds 1-7, 8-14, ...; 0 = repeats allowed).  Every game of an earlier
    round of the cycle counts as a meeting, also forfeits and games without a result.  The round
    as a whole must be legal, and it is the *lexicographically first* legal round: the highest
    ranked unpaired player gets the nearest-ranked unpaired player below them whom they have not
    met and with whom the rest of the round can still be completed legally; then the next highest
    unpaired player, and so on.  When the greedy 1-2, 3-4 happens to complete, it is that round.
    If no round without repeats exists, the round has the fewest possible repeats (the number of
    players minus twice a maximum matching of the "not met" graph, halved), and the same rule
    applies with the order of preference for each player: the players not met, nearest first,
    then the players met, nearest first - so unavoidable repeats sink to the bottom.

    Forbidden pairings (``forbidden``: pairs the director set apart, a parent and child) count as a
    repeat in every round, before anything else: such a pair meets only when no round without repeats
    and forbidden pairs exists, and then only as one of the fewest.

    Bye (seed 003; seed 004, Keizer rule j): with an odd number present, the bye goes to the
    present player with the fewest byes this season, the lowest-ranked among those (so the
    lowest-ranked who has not had one; if all had one, the lowest-ranked with the fewest).  A
    candidate whose bye would force a repeat is passed over for the next one up; if every
    candidate forces repeats, the one with the fewest.

    Colours (seed 004 rule g: "zoveel mogelijk even vaak met wit als met zwart"; seed 003): the
    player with the lower whites-minus-blacks this season gets white; equal, the one who had white
    less often (seed 003); equal again, the lower-ranked player.  Three of one colour in a row is
    allowed (seed 003); a fourth is avoided where possible: two players who both had three of one colour
    in a row (one of them would get a fourth) are not paired together when a round without repeats keeps
    all such pairs apart (with those whose balance needs the same colour, if that is possible too), and
    where the other player can take the colour without a fourth of their own, the colours of that game
    are swapped.  Counted are all games of earlier
    rounds of the season except forfeits (1-0F, 0-1F, 0-0F: nobody played a colour).  A member who
    misses rounds or joins late is therefore not given white again and again: their balance is what
    counts, not their number of whites.
    """
    number = max((r.number for r in rounds), default=0) + 1 if round_number is None else round_number
    ranked = [s.player.id for s in value_ranking(players, rounds, number, settings)]
    known = {p.id for p in players}
    in_ranking = set(ranked)
    for pid in present:
        if pid not in known:
            raise ValueError(f"unknown player {pid!r} is present")
        if pid not in in_ranking:
            raise ValueError(f"player {pid!r} is present but only joins after round {number}")
    present_set = set(present)
    order = [pid for pid in ranked if pid in present_set]
    pos = {pid: i for i, pid in enumerate(order)}

    earlier = [r for r in rounds if r.number < number]
    in_cycle = set(cycle_rounds(number, settings.cycle_length))
    bad: list[set[int]] = [set() for _ in order]
    byes: Counter[PlayerId] = Counter()
    colours = colour_history(rounds, number)
    for one, other in forbidden:
        if one in pos and other in pos and one != other:
            bad[pos[one]].add(pos[other])
            bad[pos[other]].add(pos[one])
    for rnd in earlier:
        byes.update(rnd.byes)
        for g in rnd.games:
            if rnd.number in in_cycle and g.white in pos and g.black in pos:
                w, b = pos[g.white], pos[g.black]
                bad[w].add(b)
                bad[b].add(w)

    matcher = _Matcher(bad)
    everyone = list(range(len(order)))
    bye: int | None = None
    if len(order) % 2:
        candidates = sorted(everyone, key=lambda i: (byes[order[i]], -i))
        best: tuple[int, int] | None = None
        for c in candidates:
            reps = matcher.min_repeats([i for i in everyone if i != c])
            if best is None or reps < best[0]:
                best = (reps, c)
            if reps == 0:
                break
        assert best is not None
        bye = best[1]
    rest = [i for i in everyone if i != bye]
    # Colours as far as the pairing allows (seed 004 g): two players who both need the same colour are not
    # paired together when a round without repeats avoids all such pairs: both had three of one colour in
    # a row (one would get a fourth), or both need it to stay within 2 of even (one would end beyond).
    # Both kinds kept apart if possible, else the runs, else the balance.
    needs_white = {i for i in rest if colours.balance(order[i]) <= -MAX_BALANCE}
    needs_black = {i for i in rest if colours.balance(order[i]) >= MAX_BALANCE}
    run_black = {i for i in rest if colours.would_exceed(order[i], "b")}  # three blacks in a row: wants white
    run_white = {i for i in rest if colours.would_exceed(order[i], "w")}
    levels = ((needs_white | run_black, needs_black | run_white), (run_black, run_white), (needs_white, needs_black))
    for groups in levels:
        if any(len(group) > 1 for group in groups):
            careful = _Matcher(_kept_apart(bad, groups))
            if careful.min_repeats(rest) == 0:
                pairs = careful.lexicographic(rest, 0)
                break
    else:
        pairs = matcher.lexicographic(rest, matcher.min_repeats(rest))

    games = []
    for u, v in sorted(pairs):  # u ranked above v
        white, black = colours.choose(order[u], order[v])
        games.append(Game(white=white, black=black))
    return Pairing(
        round=number,
        games=tuple(games),
        bye=None if bye is None else order[bye],
        repeats=sum(1 for u, v in pairs if v in bad[u]),
    )


def _kept_apart(bad: list[set[int]], groups: tuple[set[int], ...]) -> list[set[int]]:
    """``bad`` with the players of each group also kept from meeting each other."""
    clashes = [set(b) for b in bad]
    for group in groups:
        for i in group:
            clashes[i] |= group - {i}
    return clashes


def colour_history(rounds: Sequence[Round], before: int) -> "ColourHistory":
    """The colours of every game played over the board in the rounds before ``before`` (forfeits: 1-0F,
    0-1F, 0-0F, nobody played a colour)."""
    colours = ColourHistory()
    for rnd in sorted((r for r in rounds if r.number < before), key=lambda r: r.number):
        for g in rnd.games:
            if g.result not in _FORFEITS:
                colours.played(g.white, g.black)
    return colours


def colours_for(
    players: Sequence[Player], rounds: Sequence[Round], a: PlayerId, b: PlayerId, round_number: int,
    settings: KeizerSettings = KeizerSettings(),
) -> tuple[PlayerId, PlayerId]:
    """(white, black) for a game of ``a`` and ``b`` in round ``round_number`` that the director made (the
    standby, a changed pairing): by the rule ``pair_round`` gives its games their colours."""
    ranked = [s.player.id for s in value_ranking(players, rounds, round_number, settings)]
    place = {pid: i for i, pid in enumerate(ranked)}
    higher, lower = sorted((a, b), key=lambda pid: place.get(pid, len(ranked)))
    return colour_history(rounds, round_number).choose(higher, lower)


def met_in_cycle(rounds: Sequence[Round], a: PlayerId, b: PlayerId, round_number: int, cycle_length: int) -> int | None:
    """The earlier round of ``round_number``'s cycle in which ``a`` and ``b`` met (any game counts, as in
    ``pair_round``), or None."""
    earlier = set(cycle_rounds(round_number, cycle_length))
    for rnd in sorted(rounds, key=lambda r: r.number):
        if rnd.number in earlier and any({g.white, g.black} == {a, b} for g in rnd.games):
            return rnd.number
    return None


MAX_RUN = 3  # of one colour in a row (seed 003 allows three); a fourth is avoided where possible
MAX_BALANCE = 2  # whites minus blacks kept within this where the pairing allows




class ColourHistory:
    """Each player's colours so far (games played over the board, in round order)."""

    def __init__(self) -> None:
        self.whites: Counter[PlayerId] = Counter()
        self.blacks: Counter[PlayerId] = Counter()
        self.runs: dict[PlayerId, tuple[str, int]] = {}  # the colour of the last games and how many in a row

    def played(self, white: PlayerId, black: PlayerId) -> None:
        self.whites[white] += 1
        self.blacks[black] += 1
        for pid, colour in ((white, "w"), (black, "b")):
            last, count = self.runs.get(pid, (colour, 0))
            self.runs[pid] = (colour, count + 1 if last == colour else 1)

    def balance(self, pid: PlayerId) -> int:
        return self.whites[pid] - self.blacks[pid]

    def would_exceed(self, pid: PlayerId, colour: str) -> bool:
        last, count = self.runs.get(pid, (colour, 0))
        return last == colour and count >= MAX_RUN

    def choose(self, higher: PlayerId, lower: PlayerId) -> tuple[PlayerId, PlayerId]:
        """(white, black) for a game of ``higher`` (ranked above) against ``lower``."""
        if (self.balance(higher), self.whites[higher]) < (self.balance(lower), self.whites[lower]):
            white, black = higher, lower
        else:  # equal: the lower-ranked player gets white (seed 003)
            white, black = lower, higher
        fourth = self.would_exceed(white, "w") or self.would_exceed(black, "b")
        swapped_fourth = self.would_exceed(black, "w") or self.would_exceed(white, "b")
        beyond = self.balance(black) + 1 > MAX_BALANCE or self.balance(white) - 1 < -MAX_BALANCE
        if fourth and not swapped_fourth and not beyond:  # the balance comes first
            white, black = black, white
        return white, black


class _Matcher:
    """Matchings on players 0..n-1 (in rank order) where ``bad[i]`` holds whom i may not meet."""

    def __init__(self, bad: list[set[int]]):
        self.bad = bad

    def greedy(self, verts: Sequence[int]) -> tuple[list[tuple[int, int]], bool]:
        """1-2, 3-4 with a met pair replaced by the next candidate, no look-ahead.

        Returns the pairs made and whether every player got one (False: stuck at the bottom).
        """
        bad = self.bad
        left = list(verts)
        pairs: list[tuple[int, int]] = []
        while left:
            u = left.pop(0)
            bu = bad[u]
            for j, v in enumerate(left):
                if v not in bu:
                    del left[j]
                    pairs.append((u, v))
                    break
            else:
                return pairs, False
        return pairs, True

    def min_repeats(self, verts: Sequence[int]) -> int:
        """The fewest repeat games in any pairing of ``verts`` (an even number of players)."""
        m = len(verts)
        if m == 0:
            return 0
        vs = set(verts)
        half = m / 2
        bad = self.bad
        # Dirac: if every player may meet at least half of the others, a legal round exists.
        if all(m - 1 - len(bad[v] & vs) >= half for v in verts):
            return 0
        if self.greedy(verts)[1]:
            return 0
        return m // 2 - _max_matching(verts, bad)

    def lexicographic(self, verts: Sequence[int], target: int) -> list[tuple[int, int]]:
        """The lexicographically first pairing of ``verts`` with ``target`` repeats (the minimum)."""
        bad = self.bad
        remaining = list(verts)
        pairs: list[tuple[int, int]] = []
        reps = 0
        while remaining:
            made, complete = self.greedy(remaining)
            if complete and reps == target:
                return pairs + made
            # The greedy choices are the lexicographic ones as long as the rest stays completable;
            # completability only gets lost further down, so binary-search the longest good prefix.
            lo, hi = 0, len(made)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if reps + self.min_repeats(_without(remaining, made[:mid])) <= target:
                    lo = mid
                else:
                    hi = mid - 1
            pairs += made[:lo]
            remaining = _without(remaining, made[:lo])
            # One careful step for the top player: nearest not-met partner that keeps the round
            # completable, else the nearest met one.
            u, others = remaining[0], remaining[1:]
            prefs = [v for v in others if v not in bad[u]] + [v for v in others if v in bad[u]]
            for v in prefs:
                rep = 1 if v in bad[u] else 0
                rest = [w for w in others if w != v]
                if reps + rep + self.min_repeats(rest) <= target:
                    pairs.append((u, v))
                    reps += rep
                    remaining = rest
                    break
            else:  # pragma: no cover - target is the minimum, so some partner always fits
                raise AssertionError("no completion found")
        return pairs


def _without(verts: Sequence[int], pairs: Sequence[tuple[int, int]]) -> list[int]:
    gone = {x for p in pairs for x in p}
    return [v for v in verts if v not in gone]


def _max_matching(verts: Sequence[int], bad: list[set[int]]) -> int:
    """Size of a maximum matching of the "not met" graph on ``verts`` (Edmonds' blossom algorithm)."""
    k = len(verts)
    adj = [[j for j in range(k) if j != i and verts[j] not in bad[verts[i]]] for i in range(k)]
    match = [-1] * k
    for v in range(k):  # greedy start
        if match[v] == -1:
            for u in adj[v]:
                if match[u] == -1:
                    match[u], match[v] = v, u
                    break

    def lca(a: int, b: int, base: list[int], parent: list[int]) -> int:
        seen = [False] * k
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, b: int, child: int, base: list[int], parent: list[int], blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    def find_path(root: int) -> bool:
        """Search an augmenting path from the exposed ``root``; augment and say whether it did."""
        used = [False] * k
        parent = [-1] * k
        base = list(range(k))
        used[root] = True
        queue = [root]
        qi = 0
        while qi < len(queue):
            v = queue[qi]
            qi += 1
            for to in adj[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    cur = lca(v, to, base, parent)
                    blossom = [False] * k
                    mark_path(v, cur, to, base, parent, blossom)
                    mark_path(to, cur, v, base, parent, blossom)
                    for i in range(k):
                        if blossom[base[i]]:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        while to != -1:  # augment along the path
                            pv = parent[to]
                            nxt = match[pv]
                            match[to], match[pv] = pv, to
                            to = nxt
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False

    for root in range(k):
        if match[root] == -1:
            find_path(root)
    return sum(1 for v in range(k) if match[v] != -1) // 2
