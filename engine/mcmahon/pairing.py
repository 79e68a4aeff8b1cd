"""Pairing the next NK round (seed 000): slide pairing inside each start group in round 1, fold pairing by
SOS then strength afterwards, repeats avoided, odd groups float a player down, and the endgame of the
contenders (the title game after round 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.mcmahon.model import Game, Pairing, PlayerId, Tournament
from engine.mcmahon.tournament import (
    State, contenders_of, field_of, is_complete, sos_tables, start_groups, state_after, status, withdrawn_by,
)  # fmt: skip

_BUDGET = 20000  # backtracking steps per matching attempt


def _fold_match(order: Sequence[PlayerId], met: dict[PlayerId, set[PlayerId]], repeats: bool) -> list[tuple[PlayerId, PlayerId]] | None:
    """Fold pairing (1-n, 2-(n-1), ...) of an even list without repeats: the highest unpaired player
    takes the lowest unpaired player they have not met, as long as the rest can still be paired
    (depth-first search with a step budget). ``repeats``: players met are allowed, after all others."""
    n = len(order)
    if n % 2:
        return None
    steps = 0
    pairs: list[tuple[PlayerId, PlayerId]] = []
    free = [True] * n

    def search() -> bool:
        nonlocal steps
        try:
            i = free.index(True)
        except ValueError:
            return True
        steps += 1
        if steps > _BUDGET:
            return False
        free[i] = False
        a = order[i]
        candidates = [j for j in range(n - 1, i, -1) if free[j]]
        fresh = [j for j in candidates if order[j] not in met[a]]
        tries = fresh + ([j for j in candidates if order[j] in met[a]] if repeats else [])
        for j in tries:
            free[j] = False
            pairs.append((a, order[j]))
            if search():
                return True
            pairs.pop()
            free[j] = True
            if steps > _BUDGET:
                break
        free[i] = True
        return False

    return pairs if search() else None


def _pair_pool(
    pool: Sequence[PlayerId], met: dict[PlayerId, set[PlayerId]], *, last: bool, contenders: bool
) -> tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]] | None:
    """Pair one score group (floaters from above first). Returns the pairs and the players who float
    down. An odd group floats one player: the lowest in the order whose leaving lets the rest pair
    without repeats. If the group cannot be paired without repeats at all, two (then more) players
    float, the lowest such set among the bottom six. The last group floats nobody: ``None`` when it
    cannot be paired. A group of contenders (``contenders``) never floats more than parity needs: it
    pairs with repeats rather than sending a contender away."""
    n = len(pool)
    need = n % 2
    if last and need:
        return None
    floats = [need] if last or contenders else list(range(need, n + 1, 2))
    for f in floats:
        if f == 0:
            options: list[tuple[int, ...]] = [()]
        elif f == 1:
            options = [(k,) for k in range(n - 1, -1, -1)]
        else:
            window = list(range(max(0, n - max(6, f)), n))
            options = sorted(combinations(window, f), key=lambda c: sorted((-k for k in c)))
        for chosen in options:
            rest = [p for k, p in enumerate(pool) if k not in chosen]
            pairs = _fold_match(rest, met, repeats=False)
            if pairs is not None:
                return pairs, [pool[k] for k in chosen]
    if contenders:
        rest = list(pool[:-1]) if need else list(pool)
        pairs = _fold_match(rest, met, repeats=True)
        if pairs is not None:
            return pairs, ([pool[-1]] if need else [])
    return None


def _another_floater(
    done: list[tuple[list[PlayerId], list[tuple[PlayerId, PlayerId]]]], pool: list[PlayerId], met: dict[PlayerId, set[PlayerId]]
) -> tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]] | None:
    """The last group cannot pair with the contender sent down to it: send another contender of that
    group instead (the lowest that works), keeping the contenders' own pairing free of new repeats as
    far as it was; ``done[-1]`` is rewritten. None when no choice works (the last group then repeats)."""
    above, above_pairs = done[-1]
    paired = {x for pair in above_pairs for x in pair}
    sent = [p for p in above if p not in paired]
    if len(sent) != 1:
        return None
    below = [p for p in pool if p != sent[0]]
    repeats_above = any(b in met[a] for a, b in above_pairs)
    for k in range(len(above) - 1, -1, -1):
        candidate = above[k]
        rest = [p for p in above if p != candidate]
        pairs_above = _fold_match(rest, met, repeats=False) or (_fold_match(rest, met, repeats=True) if repeats_above else None)
        if pairs_above is None:
            continue
        result = _pair_pool([candidate, *below], met, last=True, contenders=False)
        if result is not None:
            done[-1] = (above, pairs_above)
            return result
    return None


def _choose_bye(ids: Sequence[PlayerId], st: State, sos: dict[PlayerId, int], strength: dict[PlayerId, int],
                alive: set[PlayerId]) -> PlayerId:  # fmt: skip
    """Odd field: the bye (a free win, EGF ``0+``) goes to the player with the fewest byes, a
    non-contender before a contender, the lowest score, the lowest SOS, the lowest strength, the
    highest id."""
    return min(ids, key=lambda p: (st.byes[p], p in alive, st.score[p], sos[p], strength[p], _rev(p)))


def _rev(pid: PlayerId) -> tuple[int, ...]:
    return tuple(-ord(c) for c in pid) + (1,)


def _colours(a: PlayerId, b: PlayerId, st: State, strength: dict[PlayerId, int]) -> tuple[PlayerId, PlayerId]:
    """Colours (even games, no nigiri), by balance: the player with fewer blacks than whites (blacks
    minus whites the lower) gets black; equal, fewer blacks; equal, the weaker player (lower strength);
    equal, the higher id. Returns (black, white). Over 7 rounds nobody ends more than 1 off even where
    the opponents allow it (a bye or a forfeit of the other leaves a player one game short)."""
    ka = (st.blacks[a] - st.whites[a], st.blacks[a], strength[a], _rev(a))
    kb = (st.blacks[b] - st.whites[b], st.blacks[b], strength[b], _rev(b))
    return (a, b) if ka < kb else (b, a)


def pair_next(t: Tournament) -> Pairing:
    """Pair the next round. Every game of the earlier rounds needs its result (``ValueError`` else).

    Round 1 (seed 000, "Indeling"): slide pairing inside every start group by strength
    (1-9, 2-10, ..., 8-16 in a group of 16; 1-(n/2+1), ... in a group of n).

    Rounds 2-7: fold pairing inside every score group (the players with one score), ordered by SOS,
    then strength, then id (1-16, 2-15, ..., 8-9), top group first, each without repeat opponents.
    An odd group floats one player down (its lowest that leaves a pairable rest); floaters are placed
    at the top of the group below. The last group cannot float: when it cannot be paired without
    repeats, it is merged with the group above and paired again (then the next above, ...); only if
    the whole field cannot be paired without repeats are repeats allowed, at the bottom of the order.
    In round 1 an odd start group floats its weakest player to the top of the next group.

    Contender groups (the top group and group 1): from round 5 (``repeats_allowed_from``) on, they
    may repeat opponents rather than float more than one contender (seed 000 scenario 1: four players
    in group 1 play it out; repeats are allowed but avoided). Seed 000 scenario 2: a lone top-group
    player with an even group 1 (two or more) plays the top of group 2 instead, while group 1 pairs
    among itself, regardless of earlier meetings. A top group that is odd when group 1 is odd floats its
    player into group 1, which is how seed 000's round 7 pairs the top-group player with the last
    group-1 player.

    After the regular rounds, while two or more contenders are left (``status``), a title round pairs
    only them (fold, repeats allowed; with an odd number, the first in the order waits).

    Bye (odd field): see ``_choose_bye``; boards are numbered from the top score group down."""
    for rnd in t.rounds:
        if not is_complete(rnd):
            raise ValueError(f"round {rnd.number} still has games without a result")
    number = len(t.rounds) + 1
    stat = status(t)
    if stat.next_round is None:
        raise ValueError("the tournament is over: the champion is known and every round is played")
    st = state_after(t)
    sos, _ = sos_tables(st)
    gone = withdrawn_by(t, number)
    players = [p for p in field_of(t.players) if p.id not in gone]  # a withdrawn player: no game, never the bye
    strength = {p.id: p.strength for p in players}
    ids = [p.id for p in players]
    alive = contenders_of(st, gone)

    def order_key(p: PlayerId) -> tuple[int, int, int, PlayerId]:
        return (-st.score[p], -sos[p], -strength[p], p)

    if number > t.settings.rounds:
        title = sorted(stat.contenders, key=order_key)
        if len(title) % 2:
            title = title[1:]
        pairs = _fold_match(title, st.met, repeats=True) or []
        return _finish(number, pairs, None, st, strength, title_round=True)

    bye: PlayerId | None = None
    if len(ids) % 2:
        bye = _choose_bye(ids, st, sos, strength, alive)
        ids = [p for p in ids if p != bye]

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
            half = len(pool) // 2
            pairs.extend((pool[i], pool[i + half]) for i in range(half))
        return _finish(number, pairs, bye, st, strength)

    played = number - 1
    scores = sorted({st.score[p] for p in ids}, reverse=True)
    groups_by_score = {s: sorted((p for p in ids if st.score[p] == s), key=order_key) for s in scores}
    pools: list[list[PlayerId]] = [groups_by_score[s] for s in scores]
    top_odd_skip = (
        len(scores) >= 3
        and scores[0] == played
        and scores[1] == played - 1
        and len(pools[0]) % 2 == 1
        and len(pools[1]) >= 2
        and len(pools[1]) % 2 == 0
    )
    incoming: dict[int, list[PlayerId]] = {}
    done: list[tuple[list[PlayerId], list[tuple[PlayerId, PlayerId]]]] = []
    index = 0
    while index < len(pools):
        pool = incoming.pop(index, []) + pools[index]
        last = index == len(pools) - 1
        # The contenders' rules come first, in every field size: a group of contenders pairs among itself
        # (with repeats rather than sending more than one contender away: seed 000 scenario 1, and in a
        # small field whenever it must), and the groups below never pull contenders into their merge.
        contenders = all(p in alive for p in pools[index]) and (
            number >= t.settings.repeats_allowed_from or len(pools[index]) < t.settings.group_size
        )
        result = _pair_pool(pool, st.met, last=last, contenders=contenders)
        if result is None and last and done and any(p in alive for p in done[-1][0]):
            result = _another_floater(done, pool, st.met)
        while result is None and last and done and not any(p in alive for p in done[-1][0]):
            above, _ = done.pop()
            seen = set(above)
            pool = above + [p for p in pool if p not in seen]
            result = _pair_pool(pool, st.met, last=True, contenders=False)
        if result is None:
            pairs_any = _fold_match(pool, st.met, repeats=True)
            assert pairs_any is not None
            result = (pairs_any, [])
        pairs, floaters = result
        done.append((pool, pairs))
        if floaters:
            target = index + 2 if index == 0 and top_odd_skip else index + 1
            incoming.setdefault(target, []).extend(floaters)
        index += 1
    all_pairs = [pair for _, ps in done for pair in ps]
    return _finish(number, all_pairs, bye, st, strength)


def _finish(
    number: int,
    pairs: Sequence[tuple[PlayerId, PlayerId]],
    bye: PlayerId | None,
    st: State,
    strength: dict[PlayerId, int],
    title_round: bool = False,
) -> Pairing:
    games = []
    repeats = 0
    for board, (a, b) in enumerate(pairs, start=1):
        black, white = _colours(a, b, st, strength)
        repeats += b in st.met[a]
        games.append(Game(black, white, board=board))
    return Pairing(number, tuple(games), bye, repeats, title_round)


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
