"""An NK tournament's state (seed 000): start groups, scores and groups after each round, SOS and SOSOS,
the contenders, and the standings.

A win (or a bye) is +1, a loss 0: the score after ``r`` rounds is ``-start_group + wins`` and the current
group ``r - score``. Only the top group and group 1 can still become champion: the *contenders*.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.mcmahon.model import (
    EARNED_GROUP1, EARNED_TOP, Player, PlayerId, Points, Round, Settings, Standing, Status, Tournament, decided,
    earned_right,
)  # fmt: skip

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
        entitled_ids = {p.id for p in entitled}
        others = [p for p in rest if p.id not in entitled_ids]
        members = entitled + others[: max(0, size - len(entitled))]
        for p in members:
            group[p.id] = index
        rest = [p for p in rest if p.id not in group]
    for i, p in enumerate(rest):
        group[p.id] = 2 + i // size
    return group


# --------------------------------------------------------------------------- scores


@dataclass
class State:
    start: dict[PlayerId, int]
    score: dict[PlayerId, Points]
    wins: defaultdict[PlayerId, Points]  # a jigo counts half
    losses: defaultdict[PlayerId, Points]
    opponents: dict[PlayerId, list[PlayerId | None]]
    met: dict[PlayerId, set[PlayerId]]
    blacks: Counter[PlayerId]
    byes: Counter[PlayerId]
    whites: Counter[PlayerId] = field(default_factory=Counter)


def state_after(t: Tournament, after: int | None = None) -> State:
    return _state_after(t, start_groups(t.players, t.settings), after)


def _state_after(t: Tournament, groups: dict[PlayerId, int], after: int | None = None) -> State:
    st = _start_state(groups)
    for rnd in t.rounds:
        if after is None or rnd.number <= after:
            _play(st, rnd)
    return st


def _start_state(groups: dict[PlayerId, int]) -> State:
    return State(
        start={pid: -g for pid, g in groups.items()},
        score={pid: -g for pid, g in groups.items()},
        wins=defaultdict(int), losses=defaultdict(int),
        opponents={pid: [] for pid in groups}, met={pid: set() for pid in groups},
        blacks=Counter(), byes=Counter(),
    )  # fmt: skip


def _play(st: State, rnd: Round) -> None:
    """``st`` with round ``rnd`` played: its games, its bye, and a round without an opponent for each
    player of the field it does not seat."""
    groups = st.start
    opponents, met, score, wins, losses = st.opponents, st.met, st.score, st.wins, st.losses
    seated: set[PlayerId] = set()
    for g in rnd.games:
        black, white, winner = g.black, g.white, g.winner
        seated.add(black)
        seated.add(white)
        if black not in groups or white not in groups:
            continue
        opponents[black].append(white)
        opponents[white].append(black)
        met[black].add(white)
        met[white].add(black)
        st.blacks[black] += 1
        st.whites[white] += 1
        if winner is not None:
            loser = white if winner == black else black
            score[winner] += 1
            wins[winner] += 1
            losses[loser] += 1
        elif g.jigo:  # half a point each: half a win and half a loss
            for pid in (black, white):
                score[pid] += 0.5
                wins[pid] += 0.5
                losses[pid] += 0.5
        elif g.forfeit:  # a double forfeit: neither came, both lose
            losses[black] += 1
            losses[white] += 1
    if rnd.bye is not None and rnd.bye in groups:
        score[rnd.bye] += 1
        wins[rnd.bye] += 1
        st.byes[rnd.bye] += 1
    for pid in groups:
        if pid not in seated:  # a bye, a title round without the player, a withdrawn player's round
            opponents[pid].append(None)


def sos_tables(st: State) -> tuple[dict[PlayerId, Points], dict[PlayerId, Points]]:
    """SOS (weerstandspunten): the sum of the current McMahon scores of the player's opponents, start
    scores included (so an opponent from a lower group brings a lower score); a round without an
    opponent (a bye, a title round for all but the finalists, a withdrawn player's rounds) adds the
    player's own start score: the EGF Tournament System Rules, "To a player's SOS ... in a round without
    an opponent or with the opponent Bye, in a McMahon his own start McMahon Score is added" (seed 000
    says only that the fold orders by "weerstandspunten"). So every player's SOS sums as many rounds.
    SOSOS: the sum of the opponents' SOS (a round without an opponent: the player's own SOS)."""
    sos = {pid: sum(st.score[o] if o is not None else st.start[pid] for o in opps) for pid, opps in st.opponents.items()}
    sosos = {pid: sum(sos[o] if o is not None else sos[pid] for o in opps) for pid, opps in st.opponents.items()}
    return sos, sosos


def is_complete(rnd: Round) -> bool:
    return all(decided(g) for g in rnd.games)


def contenders_of(st: State, withdrawn: frozenset[PlayerId] = frozenset()) -> set[PlayerId]:
    """Who can still become champion: the top group and group 1 (start group + losses <= 1), but
    nobody who has withdrawn."""
    return {pid for pid, s in st.start.items() if -s + st.losses[pid] <= 1 and pid not in withdrawn}


def withdrawn_by(t: Tournament, number: int) -> frozenset[PlayerId]:
    """The players withdrawn before round ``number`` (not paired in it)."""
    return frozenset(p.id for p in t.players if p.withdrawn_from is not None and p.withdrawn_from <= number)


def status(t: Tournament) -> Status:
    """Where the title stands (``status_and_state``: the rules)."""
    return status_and_state(t)[0]


def status_and_state(t: Tournament) -> tuple[Status, State]:
    """``status(t)`` and ``state_after(t)``, the rounds played once where they can be.

    Seed 000, "Indeling": a double elimination; only the top group and group 1 can still win, and
    as soon as one player is left in them, that player is champion (also if they lose later).

    The champion is fixed after the first complete round that leaves exactly one contender. A withdrawn
    player is never a contender. Should a round leave none (a jigo or a double forfeit can), the previous
    contenders with the fewest losses stay in the race (``pair_next`` pairs them with each other). After
    the regular ``rounds`` (7), while two or more contenders are left, the next round is a title round in
    which only they play (seed 000: two players left after 7 rounds play at once for the title; the
    top-group player who loses that game meets the same player again). A title round that decides nothing
    (jigo or double forfeit: the same contenders are left) is replayed once with colours reversed; when the
    replay decides nothing either, the champion is the contender with the highest SOS, then SOSOS, then
    strength, then the lowest id (``title_tiebreak``)."""
    regular = t.settings.rounds
    groups = start_groups(t.players, t.settings)
    withdrawals = any(p.withdrawn_from is not None for p in t.players)  # else nobody is withdrawn_by any round
    previous: set[PlayerId] = set(groups) - withdrawn_by(t, 1)
    champion: PlayerId | None = None
    champion_after: int | None = None
    complete = 0
    undecided = 0  # title rounds that decided nothing
    st = _start_state(groups)  # the state after each complete round in turn, as state_after(t, number) gives it
    every = True  # every round complete, so st is state_after(t) when the rounds come in their order
    for rnd in sorted(t.rounds, key=lambda r: r.number):
        if not is_complete(rnd):
            every = False
            break
        complete = rnd.number
        _play(st, rnd)
        gone = withdrawn_by(t, rnd.number + 1) if withdrawals else frozenset()
        alive = contenders_of(st, gone)
        kept = previous - gone
        if not alive and kept:
            fewest = min(st.losses[p] - st.start[p] for p in kept)
            alive = {p for p in kept if st.losses[p] - st.start[p] == fewest}
        if champion is None and rnd.number > regular and len(alive) >= 2 and alive == kept:
            undecided += 1
            if undecided >= 2:
                alive = {title_tiebreak(t, st, alive)}
        previous = alive
        if champion is None and len(alive) == 1:
            champion = next(iter(alive))
            champion_after = rnd.number
    if not every or any(a.number > b.number for a, b in zip(t.rounds, t.rounds[1:])):
        st = _state_after(t, groups)
    if champion is not None:
        contenders: tuple[PlayerId, ...] = (champion,)
    else:
        gone = withdrawn_by(t, len(t.rounds) + 1)
        now = contenders_of(st, gone) & previous or previous - gone
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
    ), st


def title_tiebreak(t: Tournament, st: State, tied: set[PlayerId]) -> PlayerId:
    """The champion when a replayed title game decided nothing either: the highest SOS, then SOSOS, then
    strength, then the lowest id."""
    sos, sosos = sos_tables(st)
    strength = {p.id: p.strength for p in t.players}
    return min(tied, key=lambda p: (-sos[p], -sosos[p], -strength[p], p))


def standings(t: Tournament, after: int | None = None) -> list[Standing]:
    """The table: the champion (once known) first, then by score, SOS, SOSOS, strength, id."""
    cut = t if after is None else Tournament(t.players, tuple(r for r in t.rounds if r.number <= after), t.settings, t.name)
    stat, st = status_and_state(cut)  # st: state_after(t, after)
    sos, sosos = sos_tables(st)
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


def next_year_rights(t: Tournament) -> dict[PlayerId, str]:
    """Seed 000, "Verdiende Rechten", once the regular rounds are complete: who earned a place in next
    year's top group (4 points after 7 rounds) or at least group 1 (3 points); empty before then."""
    regular = t.settings.rounds
    done = [r for r in t.rounds if r.number <= regular]
    if len(done) < regular or not all(is_complete(r) for r in done):
        return {}
    st = state_after(t, after=regular)
    rights = {pid: earned_right(score) for pid, score in st.score.items()}
    return {pid: right for pid, right in rights.items() if right is not None}
