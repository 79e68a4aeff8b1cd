"""Pairing the next NK round (seed 000): slide pairing inside each start group in round 1, fold pairing by
SOS then strength afterwards, repeats avoided, odd groups float a player down, and the endgame of the
contenders (the title game after round 7).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.mcmahon.model import Game, Pairing, PlayerId, Points, Round, Tournament
from engine.mcmahon.score_groups import Level, fold_match, pair_score_groups
from engine.mcmahon.tournament import (
    State, contenders_of, field_of, is_complete, sos_tables, start_groups, state_after, status_and_state,
    withdrawn_by,
)  # fmt: skip


def _choose_bye(ids: Sequence[PlayerId], st: State, sos: dict[PlayerId, Points], strength: dict[PlayerId, int],
                alive: set[PlayerId]) -> PlayerId:  # fmt: skip
    """Odd field: the bye (a free win, EGF ``0+``) goes to a non-contender whenever one is present (a
    contender with a free win would skip a round of the elimination), then the fewest byes, the lowest score, the lowest SOS, the lowest strength, the
    highest id."""
    def key(p: PlayerId) -> tuple[bool, int, Points, Points, int]:
        return (p in alive, st.byes[p], st.score[p], sos[p], strength[p])

    lowest = min(key(p) for p in ids)
    return max(p for p in ids if key(p) == lowest)  # the highest id among the lowest


def _colours(a: PlayerId, b: PlayerId, st: State, strength: dict[PlayerId, int]) -> tuple[PlayerId, PlayerId]:
    """Colours (even games, no nigiri), by balance: the player with fewer blacks than whites (blacks
    minus whites the lower) gets black; equal, fewer blacks; equal, the weaker player (lower strength);
    equal, the higher id. Returns (black, white). Over 7 rounds nobody ends more than 1 off even where
    the opponents allow it (a bye or a forfeit of the other leaves a player one game short)."""
    ka = (st.blacks[a] - st.whites[a], st.blacks[a], strength[a])
    kb = (st.blacks[b] - st.whites[b], st.blacks[b], strength[b])
    if ka == kb:
        return (a, b) if a > b else (b, a)  # the higher id gets black
    return (a, b) if ka < kb else (b, a)


def pair_next(t: Tournament, forbidden: Collection[tuple[PlayerId, PlayerId]] = ()) -> Pairing:
    """Pair the next round. Every game of the earlier rounds needs its result (``ValueError`` else).

    Round 1 (seed 000, "Indeling"): slide pairing inside every start group by strength
    (1-9, 2-10, ..., 8-16 in a group of 16; 1-(n/2+1), ... in a group of n); a forbidden pair swaps
    opponents with the nearest pair (``_slide``).

    Rounds 2-7: fold pairing inside every score group (the players with one score), ordered by SOS,
    then strength, then id (1-16, 2-15, ..., 8-9), top group first, each without repeat opponents.
    Floaters go down only, to the top of a lower group; who floats where is chosen by minimal cost:
    the fewest repeats, then the smallest total score difference, then the fold order (the lowest
    floats first), see ``score_groups``. In round 1 an odd start group floats its weakest player to
    the top of the next group.

    Contender groups (the top group and group 1): after round 5 (from ``endgame_from``, round 6, on, in
    every field size; before, a contender pairs like anyone) they may repeat opponents rather than float
    more than one contender (seed 000 scenario 1: four players in group 1 play it out; repeats are
    allowed but avoided). Seed 000 scenario 2, also from round 6: a lone top-group player with an even
    group 1 (two or more) plays a group-2 player not met yet whenever one is present (the lowest whose game
    lets the others pair best: the fewest repeats, then the smallest score difference), while group 1 pairs
    among itself, regardless of earlier meetings; when the top player met every group-2 player, they float
    on past group 2 by the costs above (a non-contender not met further down: seed 000 lets only group 1
    meet again; a repeat only when every pairing needs one). A top group that is odd when group 1 is odd floats its
    player into group 1, which is how seed 000's round 7 pairs the top-group player with the last
    group-1 player.

    After the regular rounds, while two or more contenders are left (``status``), a title round pairs
    only them (fold, repeats allowed; with an odd number, the first in the order waits).

    Forbidden pairings (``forbidden``: pairs the director keeps apart, a parent and child; ``/indeling
    verbied``) count as a repeat, before anything else, in every rule above: such a pair meets only when
    every pairing with the fewest repeats needs it (the title game included), and ``repeats`` counts it.

    Bye (odd field): see ``_choose_bye``; boards are numbered from the top score group down."""
    for rnd in t.rounds:
        if not is_complete(rnd):
            raise ValueError(f"round {rnd.number} still has games without a result")
    number = len(t.rounds) + 1
    stat, st = status_and_state(t)
    if stat.next_round is None:
        raise ValueError("the tournament is over: the champion is known and every round is played")
    sos, _ = sos_tables(st)
    met = _with_forbidden(st.met, forbidden)
    gone = withdrawn_by(t, number)
    players = [p for p in field_of(t.players) if p.id not in gone]  # a withdrawn player: no game, never the bye
    if len(players) < 2:
        raise ValueError(f"no players to pair in round {number}: {len(players)} not withdrawn")
    strength = {p.id: p.strength for p in players}
    ids = [p.id for p in players]
    alive = contenders_of(st, gone)
    kept = set() if stat.champion is not None else set(stat.contenders) - gone - alive

    def order_key(p: PlayerId) -> tuple[Points, Points, int, PlayerId]:
        return (-st.score[p], -sos[p], -strength[p], p)

    if number > t.settings.rounds:
        title = sorted(stat.contenders, key=order_key)
        if len(title) % 2:
            title = title[1:]
        pairs = fold_match(title, met, repeats=True) or []
        return _finish(number, pairs, None, st, met, strength, title_round=True, last=t.rounds[-1] if t.rounds else None)

    bye: PlayerId | None = None
    if len(ids) % 2:
        bye = _choose_bye(ids, st, sos, strength, alive | kept)
        ids = [p for p in ids if p != bye]
    first: list[tuple[PlayerId, PlayerId]] = []
    if kept and number > 1:
        # Nobody is left in the top group or group 1: the contenders kept (``status``) play each other
        together = sorted((p for p in stat.contenders if p in ids), key=order_key)
        together = together[: len(together) - len(together) % 2]
        first = fold_match(together, met, repeats=True) or []
        ids = [p for p in ids if p not in together]
        alive = alive | set(together)

    if number == 1:
        groups = start_groups(t.players, t.settings)
        by_group: dict[int, list[PlayerId]] = {}
        for p in ids:  # ids are strongest first
            by_group.setdefault(groups[p], []).append(p)
        pairs = []
        carry: list[PlayerId] = []
        for g in sorted(by_group):
            pool = carry + by_group[g]
            carry = [pool.pop()] if len(pool) % 2 else []
            pairs.extend(_slide(pool, met))
        return _finish(number, pairs, bye, st, met, strength)

    played = number - 1
    scores = sorted({st.score[p] for p in ids}, reverse=True)
    groups_by_score = {s: sorted((p for p in ids if st.score[p] == s), key=order_key) for s in scores}
    pools: list[list[PlayerId]] = [groups_by_score[s] for s in scores]
    top_odd_skip = (
        number >= t.settings.endgame_from
        and len(scores) >= 3
        and scores[0] == played
        and scores[1] == played - 1
        and len(pools[0]) % 2 == 1
        and len(pools[1]) >= 2
        and len(pools[1]) % 2 == 0
    )

    def levels_of(rest: Sequence[PlayerId], skip: bool) -> list[Level]:
        # The contenders' rules come first after round 5, in every field size: a group of contenders floats
        # only what parity needs and pairs among itself, with repeats rather than sending more contenders away
        # (seed 000 scenario 1); floaters only go down, so the groups below never pull contenders into their
        # pairing. ``skip``: the top group's floater goes past group 1.
        by_score = sorted({st.score[p] for p in rest}, reverse=True)
        groups = [tuple(sorted((p for p in rest if st.score[p] == score), key=order_key)) for score in by_score]
        return [
            Level(
                group, score,
                all(p in alive for p in group) and number >= t.settings.endgame_from,
                2 if index == 0 and skip else index + 1,
            )  # fmt: skip
            for index, (score, group) in enumerate(zip(by_score, groups))
        ]

    lone = pools[0][0] if top_odd_skip and len(pools[0]) == 1 else None
    fresh = [p for p in groups_by_score.get(played - 2, []) if lone is not None and p not in met[lone]]
    if lone is None or not fresh:
        # When the lone top player met every group-2 player nothing is fixed here: they float past group 1
        # (``target``) and the search pairs them by its costs, the fewest repeats first (a group-3 player not
        # met rather than a repeat)
        return _finish(number, first + pair_score_groups(levels_of(ids, top_odd_skip), met), bye, st, met, strength)
    # Scenario 2 (see the docstring): the lowest group-2 player not met yet whose game lets the others pair
    # best (the fewest repeats outside the contenders' own games, then the smallest score difference)
    best: tuple[tuple[int, Points], list[tuple[PlayerId, PlayerId]]] | None = None
    for opponent in reversed(fresh):
        levels = levels_of([p for p in ids if p not in (lone, opponent)], False)
        pairs = [(lone, opponent)] + pair_score_groups(levels, met)
        cost = (
            sum(b in met[a] for a, b in pairs if not (a in alive and b in alive)),
            sum(abs(st.score[a] - st.score[b]) for a, b in pairs),
        )
        if best is None or cost < best[0]:
            best = (cost, pairs)
        if cost == (0, st.score[lone] - st.score[opponent] + _parity_bound(levels)):
            break  # nothing pairs the others better
    assert best is not None
    return _finish(number, first + best[1], bye, st, met, strength)


def _parity_bound(levels: Sequence[Level]) -> Points:
    """The least total score difference a pairing of ``levels`` can have: a game crosses every boundary with an
    odd number of players above it."""
    above = 0
    total: Points = 0
    for upper, lower in zip(levels, levels[1:]):
        above += len(upper.players)
        total += (above % 2) * (upper.score - lower.score)
    return total


def _finish(
    number: int,
    pairs: Sequence[tuple[PlayerId, PlayerId]],
    bye: PlayerId | None,
    st: State,
    met: dict[PlayerId, set[PlayerId]],
    strength: dict[PlayerId, int],
    title_round: bool = False,
    last: Round | None = None,
) -> Pairing:
    """The games with colours and boards. A title game replayed after a game without a winner (jigo,
    double forfeit) in ``last`` is played with the colours reversed. ``repeats`` counts the pairs in ``met``
    (the opponents met and the forbidden pairs)."""
    games = []
    repeats = 0
    replayed = {(g.black, g.white) for g in last.games if g.winner is None} if last is not None else set()
    for board, (a, b) in enumerate(pairs, start=1):
        black, white = _colours(a, b, st, strength)
        if (black, white) in replayed:
            black, white = white, black
        repeats += b in met[a]
        games.append(Game(black, white, board=board))
    return Pairing(number, tuple(games), bye, repeats, title_round)


def _slide(pool: Sequence[PlayerId], met: dict[PlayerId, set[PlayerId]]) -> list[tuple[PlayerId, PlayerId]]:
    """Slide pairing of an even start group (1-(n/2+1), 2-(n/2+2), ...). A pair in ``met`` (a forbidden
    pair: nobody has met yet in round 1) swaps its lower player with the nearest other pair's (the next
    pair first) when that leaves both games allowed; when no swap does, it stays (a repeat)."""
    half = len(pool) // 2
    upper, lower = list(pool[:half]), list(pool[half:])
    for i in range(half):
        if lower[i] not in met[upper[i]]:
            continue
        for j in sorted((j for j in range(half) if j != i), key=lambda j: (abs(j - i), j < i)):
            if lower[j] not in met[upper[i]] and lower[i] not in met[upper[j]]:
                lower[i], lower[j] = lower[j], lower[i]
                break
    return list(zip(upper, lower))


def _with_forbidden(
    met: dict[PlayerId, set[PlayerId]], forbidden: Collection[tuple[PlayerId, PlayerId]]
) -> dict[PlayerId, set[PlayerId]]:
    """The opponents met, with every forbidden pair of two players of the field counted as met."""
    if not forbidden:
        return met
    out = {p: set(opponents) for p, opponents in met.items()}
    for one, other in forbidden:
        if one in out and other in out and one != other:
            out[one].add(other)
            out[other].add(one)
    return out


def pairing_order(t: Tournament) -> list[list[PlayerId]]:
    """The score groups for the next round's pairing, highest score first, each ordered by SOS, then
    strength, then id (the order fold pairing folds)."""
    st = state_after(t)
    sos, _ = sos_tables(st)
    strength = {p.id: p.strength for p in field_of(t.players)}
    scores = sorted({st.score[p] for p in strength}, reverse=True)
    return [
        sorted((p for p in strength if st.score[p] == s), key=lambda p: (-sos[p], -strength[p], p)) for s in scores
    ]
