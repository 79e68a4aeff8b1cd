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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

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

    @property
    def strength(self) -> int:
        return self.rating if self.strength_override is None else self.strength_override


@dataclass(frozen=True)
class Game:
    """An even game (no handicap, no nigiri): ``black`` moves first. ``winner`` None: no result yet.
    A ``forfeit`` counts like a win for the winner and a loss for the other, but was not played."""

    black: PlayerId
    white: PlayerId
    winner: PlayerId | None = None
    forfeit: bool = False
    board: int = 0


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Game, ...] = ()
    bye: PlayerId | None = None


@dataclass(frozen=True)
class Settings:
    rounds: int = 7
    group_size: int = 16
    repeats_allowed_from: int = 5  # contenders may meet again from this round on (seed 000, after round 5)


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
    score: int
    wins: int
    losses: int
    sos: int
    sosos: int
    group: int  # current group: start group + losses (0 top group, 1 group 1, ...)
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


def earned_right(last_year_points: int | None) -> str | None:
    """Seed 000, "Verdiende Rechten": 4 points after 7 rounds qualifies for next year's top group,
    3 points for at least group 1 (points counted from the 0, -1, -2 start scores). More than 4
    points is read as 4 ("at least"): such a player started in the top group and won more."""
    if last_year_points is None:
        return None
    if last_year_points >= 4:
        return EARNED_TOP
    if last_year_points == 3:
        return EARNED_GROUP1
    return None


def egf_grade(rating: int) -> str:
    """The EGF grade of a rating: 2100 is 1 dan (2050-2149), 2000 is 1 kyu, 100 points a grade;
    clamped to 30k..9d."""
    level = (rating + 50) // 100 - 20
    if level >= 1:
        return f"{min(level, 9)}d"
    return f"{min(1 - level, 30)}k"


def field_of(players: Sequence[Player]) -> list[Player]:
    """The players who take part: the eligible ones, strongest first (ties: id)."""
    return sorted((p for p in players if p.eligible), key=lambda p: (-p.strength, p.id))


def start_groups(players: Sequence[Player], settings: Settings = Settings()) -> dict[PlayerId, int]:
    """Seed 000, "Deelnemers" and "Verdiende Rechten": groups of ``group_size`` (16) by strength
    (the strongest 16 the top group, the next 16 group 1, ...), except that earned rights override
    strength: every player with a top-group right is in the top group (which grows past 16 if more
    than 16 have one), and the rest of the top group are the strongest others; every player with a
    group-1 right who is not in the top group is in group 1, filled up to 16 with the strongest others.
    The rest follow in groups of 16 by strength; the last group holds what remains (fewer than 16)."""
    ordered = field_of(players)
    size = max(1, settings.group_size)
    group: dict[PlayerId, int] = {}
    rest = list(ordered)
    for index, right in ((0, EARNED_TOP), (1, EARNED_GROUP1)):
        entitled = [p for p in rest if p.earned == right or (index == 1 and p.earned == EARNED_TOP)]
        others = [p for p in rest if p not in entitled]
        members = entitled + others[: max(0, size - len(entitled))]
        for p in members:
            group[p.id] = index
        rest = [p for p in rest if p.id not in group]
    for i, p in enumerate(rest):
        group[p.id] = 2 + i // size
    return group


# --------------------------------------------------------------------------- scores


@dataclass
class _State:
    start: dict[PlayerId, int]
    score: dict[PlayerId, int]
    wins: Counter[PlayerId]
    losses: Counter[PlayerId]
    opponents: dict[PlayerId, list[PlayerId | None]]
    met: dict[PlayerId, set[PlayerId]]
    blacks: Counter[PlayerId]
    byes: Counter[PlayerId]


def _state(t: Tournament, after: int | None = None) -> _State:
    groups = start_groups(t.players, t.settings)
    st = _State(
        start={pid: -g for pid, g in groups.items()},
        score={pid: -g for pid, g in groups.items()},
        wins=Counter(), losses=Counter(),
        opponents={pid: [] for pid in groups}, met={pid: set() for pid in groups},
        blacks=Counter(), byes=Counter(),
    )  # fmt: skip
    for rnd in t.rounds:
        if after is not None and rnd.number > after:
            continue
        for g in rnd.games:
            if g.black not in groups or g.white not in groups:
                continue
            st.opponents[g.black].append(g.white)
            st.opponents[g.white].append(g.black)
            st.met[g.black].add(g.white)
            st.met[g.white].add(g.black)
            st.blacks[g.black] += 1
            if g.winner is not None:
                loser = g.white if g.winner == g.black else g.black
                st.score[g.winner] += 1
                st.wins[g.winner] += 1
                st.losses[loser] += 1
        if rnd.bye is not None and rnd.bye in groups:
            st.score[rnd.bye] += 1
            st.wins[rnd.bye] += 1
            st.byes[rnd.bye] += 1
            st.opponents[rnd.bye].append(None)
    return st


def _sos(st: _State) -> tuple[dict[PlayerId, int], dict[PlayerId, int]]:
    """SOS (weerstandspunten): the sum of the current McMahon scores of the player's opponents, start
    scores included (so an opponent from a lower group brings a lower score); a bye counts as an
    opponent with the player's own start score. SOSOS: the sum of the opponents' SOS (a bye: the
    player's own SOS)."""
    sos = {pid: sum(st.score[o] if o is not None else st.start[pid] for o in opps) for pid, opps in st.opponents.items()}
    sosos = {pid: sum(sos[o] if o is not None else sos[pid] for o in opps) for pid, opps in st.opponents.items()}
    return sos, sosos


def _complete(rnd: Round) -> bool:
    return all(g.winner is not None for g in rnd.games)


def _contenders(st: _State) -> set[PlayerId]:
    return {pid for pid, s in st.start.items() if -s + st.losses[pid] <= 1}


def status(t: Tournament) -> Status:
    """Seed 000, "Indeling": a double elimination; only the top group and group 1 can still win, and
    as soon as one player is left in them, that player is champion (also if they lose later).

    The champion is fixed after the first complete round that leaves exactly one contender. Should a
    round ever leave none (the pairing prevents it), the previous contenders with the fewest losses
    stay in the race. After the regular ``rounds`` (7), while two or more contenders are left, the
    next round is a title round in which only they play (seed 000: two players left after 7 rounds
    play at once for the title; the top-group player who loses that game meets the same player again)."""
    regular = t.settings.rounds
    previous: set[PlayerId] = set(start_groups(t.players, t.settings))
    champion: PlayerId | None = None
    champion_after: int | None = None
    complete = 0
    for rnd in sorted(t.rounds, key=lambda r: r.number):
        if not _complete(rnd):
            break
        complete = rnd.number
        st = _state(t, after=rnd.number)
        alive = _contenders(st)
        if not alive and previous:
            fewest = min(st.losses[p] - st.start[p] for p in previous)
            alive = {p for p in previous if st.losses[p] - st.start[p] == fewest}
        previous = alive
        if champion is None and len(alive) == 1:
            champion = next(iter(alive))
            champion_after = rnd.number
    st = _state(t)
    if champion is not None:
        contenders: tuple[PlayerId, ...] = (champion,)
    else:
        now = _contenders(st) & previous or previous
        contenders = tuple(sorted(now, key=lambda p: (st.losses[p] - st.start[p], p)))
    played = len(t.rounds)
    finished = complete == played and played >= regular and (champion is not None or len(contenders) < 2)
    next_round = None if finished else played + 1
    return Status(
        rounds_complete=complete,
        contenders=contenders,
        champion=champion,
        champion_after=champion_after,
        next_round=next_round,
        title_round_next=next_round is not None and next_round > regular,
    )


def standings(t: Tournament, after: int | None = None) -> list[Standing]:
    """The table: the champion (once known) first, then by score, SOS, SOSOS, strength, id."""
    st = _state(t, after)
    sos, sosos = _sos(st)
    stat = status(t if after is None else Tournament(t.players, tuple(r for r in t.rounds if r.number <= after), t.settings, t.name))
    alive = set(stat.contenders)
    players = {p.id: p for p in field_of(t.players)}
    order = sorted(
        players,
        key=lambda p: (p != stat.champion, -st.score[p], -sos[p], -sosos[p], -players[p].strength, p),
    )
    return [
        Standing(
            rank=i + 1, player=players[pid], start_group=-st.start[pid], score=st.score[pid], wins=st.wins[pid],
            losses=st.losses[pid], sos=sos[pid], sosos=sosos[pid], group=-st.start[pid] + st.losses[pid],
            contender=pid in alive, champion=pid == stat.champion,
        )  # fmt: skip
        for i, pid in enumerate(order)
    ]


# --------------------------------------------------------------------------- pairing

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


def _choose_bye(ids: Sequence[PlayerId], st: _State, sos: dict[PlayerId, int], strength: dict[PlayerId, int],
                alive: set[PlayerId]) -> PlayerId:  # fmt: skip
    """Odd field: the bye (a free win, EGF ``0+``) goes to the player with the fewest byes, a
    non-contender before a contender, the lowest score, the lowest SOS, the lowest strength, the
    highest id."""
    return min(ids, key=lambda p: (st.byes[p], p in alive, st.score[p], sos[p], strength[p], _rev(p)))


def _rev(pid: PlayerId) -> tuple[int, ...]:
    return tuple(-ord(c) for c in pid) + (1,)


def _colours(a: PlayerId, b: PlayerId, st: _State, strength: dict[PlayerId, int]) -> tuple[PlayerId, PlayerId]:
    """Colours (even games, no nigiri): the player who had black fewer times gets black; equal, the
    weaker player (lower strength) gets black; equal, the higher id. Returns (black, white)."""
    ka = (st.blacks[a], strength[a], _rev(a))
    kb = (st.blacks[b], strength[b], _rev(b))
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
        if not _complete(rnd):
            raise ValueError(f"round {rnd.number} still has games without a result")
    number = len(t.rounds) + 1
    stat = status(t)
    if stat.next_round is None:
        raise ValueError("the tournament is over: the champion is known and every round is played")
    st = _state(t)
    sos, _ = _sos(st)
    players = field_of(t.players)
    strength = {p.id: p.strength for p in players}
    ids = [p.id for p in players]
    alive = _contenders(st)

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
        contenders = number >= t.settings.repeats_allowed_from and all(p in alive for p in pools[index])
        result = _pair_pool(pool, st.met, last=last, contenders=contenders)
        while result is None and last and done:
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
    st: _State,
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
    st = _state(t)
    sos, _ = _sos(st)
    strength = {p.id: p.strength for p in field_of(t.players)}
    scores = sorted({st.score[p] for p in strength}, reverse=True)
    return [
        sorted((p for p in strength if st.score[p] == s), key=lambda p: (-sos[p], -strength[p], p)) for s in scores
    ]
