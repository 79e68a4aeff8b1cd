"""Keizer scores and ranking: ranking values, the recalculation of seed 003, late joiners' start points.

- ``standings(players, rounds, settings, after_round=None) -> list[Standing]``
- ``value_ranking(players, rounds, round_number, settings) -> list[Standing]``: the ranking that
  values and pairs a round (the standings before it, with that round's late joiners inserted).
- ``scoring(...)``: the values and start points behind a standings list (``explain`` tells them).
- ``ranking_values`` and ``late_joiner_start_points`` live in ``engine.keizer.values``.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from engine.keizer.model import KeizerSettings, Player, PlayerId, Result, Round, Standing
from engine.keizer.values import Worth, late_joiner_start_points, ranking_values, scaled_worth, settings_scale

# ---------------------------------------------------------------------------
# The season, prepared once for the recalculation
# ---------------------------------------------------------------------------

_DRAW = Fraction(1, 2)
_FORFEITS = (Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT)


def _lcm(a: int, b: int) -> int:
    return a * b // math.gcd(a, b)


class _Season:
    """Players and rounds indexed for fast recalculation (internal, mutable while computing).

    Scores are kept as integers scaled by ``scale`` (the least common multiple of every fraction's
    denominator), so a pass is integer arithmetic only; results are exact ``Fraction`` s.
    """

    update = "auto"  # how set_values re-values: "auto" (cheaper), "delta" or "full" (for tests)

    def __init__(self, players: Sequence[Player], rounds: Sequence[Round], settings: KeizerSettings):
        self.settings = settings
        self.players = list(players)
        self.index: dict[PlayerId, int] = {}
        for i, p in enumerate(self.players):
            if p.id in self.index:
                raise ValueError(f"player {p.id!r} appears twice in the player list")
            self.index[p.id] = i
        n = len(self.players)
        # Deterministic tie-break position, which is also the start order (seed 004 Keizer rule a: "op basis
        # van rating of op basis van de eindstand van het vorige seizoen"): rating (high first), then
        # the order of the players as given (the order they joined; never the player id, which is only
        # a name: as text "10" sorts before "2"); or, with start_order "list", the order of the players
        # as given (last season's final ranking, newcomers placed by the director).
        if settings.start_order == "list":
            order = list(range(n))
        elif settings.start_order == "rating":
            # stable: ties keep the given order; an unrated player by their estimate, if the director gave one
            order = sorted(range(n), key=lambda i: -self.players[i].start_rating)
        else:
            raise ValueError(f"start_order must be 'rating' or 'list', not {settings.start_order!r}")
        self.start_rank = [0] * n  # place in the start order (the first ranking list, before round 1)
        for pos, i in enumerate(order):
            self.start_rank[i] = pos
        # Equal scores after a round: rating first (seed 003: "the rating is an additional criterion"),
        # then the start order. With start_order "rating" the two orders are the same (but for an unrated
        # player's estimate, which only places them in the start order).
        by_tiebreak = sorted(range(n), key=lambda i: (-self.players[i].rating, self.start_rank[i]))
        self.tiebreak = [0] * n
        self.by_tiebreak = by_tiebreak
        for pos, i in enumerate(by_tiebreak):
            self.tiebreak[i] = pos
        self.by_start = order
        self.withdrawn = {i: p.withdrawn_from for i, p in enumerate(self.players) if p.withdrawn_from is not None}
        self.frozen: dict[int, int] = {}  # a withdrawn player's value in the last ranking they were in
        self.join = [max(p.joined_round, 1) for p in self.players]
        self.by_number: dict[int, Round] = {}
        for rnd in rounds:
            if rnd.number < 1:
                raise ValueError(f"round number {rnd.number} is not positive")
            if rnd.number in self.by_number:
                raise ValueError(f"round {rnd.number} appears twice")
            self.by_number[rnd.number] = rnd
        scale = settings_scale(settings)
        for p in self.players:
            if p.start_points is not None:
                scale = _lcm(scale, Fraction(p.start_points).denominator)
        self.scale = scale
        # Per player: opponents (indices, one entry per result) and the scaled coefficient of the
        # opponent's value for that result;
        # own_coef: scaled coefficient of the own value; start: scaled start points.
        self.opps: list[list[int]] = [[] for _ in range(n)]
        self.coefs: list[list[int]] = [[] for _ in range(n)]
        self.own_coef = [scale if settings.start_bonus else 0 for _ in range(n)]
        self.start = [0] * n
        self.played = [0] * n
        for i, p in enumerate(self.players):
            if p.start_points is not None:
                self.start[i] = int(Fraction(p.start_points) * scale)
        # The same entries by opponent (who gains how much from o's value), for updates when
        # only some values change; ``total`` is every player's scaled score at ``current``.
        self.rev_players: list[list[int]] = [[] for _ in range(n)]
        self.rev_coefs: list[list[int]] = [[] for _ in range(n)]
        self.entries = 0
        self.current = [0] * n
        self.total = list(self.start)
        self.worth_scale = 0  # the scale ``worth`` was made for (none yet)
        self.worth: Worth = ({}, {}, 0)

    def add_round(self, number: int) -> None:
        """Add the games, byes and absences of round ``number`` to the aggregated coefficients."""
        rnd = self.by_number.get(number)
        if rnd is None:
            return
        own, opps, coefs = self.own_coef, self.opps, self.coefs
        index, join, played = self.index, self.join, self.played
        if self.worth_scale != self.scale:  # made once for each scale the season has (see ``scaled_worth``)
            self.worth, self.worth_scale = scaled_worth(self.settings, self.scale), self.scale
        table, for_absence, bye = self.worth
        seen: list[int] = []
        rev_players, rev_coefs, total, current = self.rev_players, self.rev_coefs, self.total, self.current
        try:
            for g in rnd.games:  # written out for white and black: this loop is the hot path
                w = index[g.white]
                b = index[g.black]
                seen.append(w)
                seen.append(b)
                row = table.get(id(g.result))
                if row is None:
                    raise ValueError(f"round {number}: {g.white}-{g.black} has no valid result: {g.result!r}")
                cw, cb, ow, ob, pl = row
                if cw:  # white gains cw times black's value
                    opps[w].append(b)
                    coefs[w].append(cw)
                    rev_players[b].append(w)
                    rev_coefs[b].append(cw)
                    total[w] += cw * current[b]
                if cb:  # black gains cb times white's value
                    opps[b].append(w)
                    coefs[b].append(cb)
                    rev_players[w].append(b)
                    rev_coefs[w].append(cb)
                    total[b] += cb * current[w]
                if ow:  # white gains ow times their own value
                    own[w] += ow
                    total[w] += ow * current[w]
                if ob:
                    own[b] += ob
                    total[b] += ob * current[b]
                if pl:
                    played[w] += 1
                    played[b] += 1
            for pid in rnd.byes:
                i = index[pid]
                seen.append(i)
                own[i] += bye
                total[i] += bye * current[i]
            for pid, why in rnd.absent.items():
                i = index[pid]
                seen.append(i)
                x = for_absence.get(id(why), -1)
                if x < 0:
                    raise ValueError(f"round {number}: {pid} absent for an unknown reason {why!r}")
                own[i] += x
                total[i] += x * current[i]
            self.entries = sum(map(len, opps))
        except KeyError as e:
            raise ValueError(f"round {number}: unknown player {e.args[0]!r}") from None
        if seen and max(map(join.__getitem__, seen)) > number:
            i = next(i for i in seen if join[i] > number)
            raise ValueError(f"round {number}: player {self.players[i].id!r} only joins in round {join[i]}")
        if len(set(seen)) != len(seen):
            dup = next(i for i in seen if seen.count(i) > 1)
            raise ValueError(f"round {number}: player {self.players[dup].id!r} appears more than once")

    def rescale(self, factor: int) -> None:
        self.scale *= factor
        for cs in self.coefs:
            cs[:] = [c * factor for c in cs]
        for cs in self.rev_coefs:
            cs[:] = [c * factor for c in cs]
        self.own_coef = [c * factor for c in self.own_coef]
        self.start = [c * factor for c in self.start]
        self.total = [c * factor for c in self.total]

    def scores(self, active: Sequence[int], values: list[int]) -> dict[int, int]:
        """Scaled scores of the ``active`` players with every result valued at ``values``."""
        self.set_values(values)
        total = self.total
        return {p: total[p] for p in active}

    def set_values(self, values: list[int]) -> None:
        """Re-value every result at ``values``: only the changed values' entries when that is
        cheaper, else everything afresh (both exact; the choice only affects speed)."""
        current = self.current
        changed = [o for o, (a, b) in enumerate(zip(values, current)) if a != b]
        if not changed:
            return
        rev_players, rev_coefs, own, total = self.rev_players, self.rev_coefs, self.own_coef, self.total
        if self.update == "auto":
            touched = sum(len(rev_players[o]) for o in changed)
            delta = 4 * touched < self.entries + 16 * len(values)
        else:
            delta = self.update == "delta"
        if delta:
            for o in changed:
                d = values[o] - current[o]
                total[o] += own[o] * d
                for p, c in zip(rev_players[o], rev_coefs[o]):
                    total[p] += c * d
        else:
            start, opps, coefs = self.start, self.opps, self.coefs
            get, mul = values.__getitem__, operator.mul
            self.total = [
                sum(map(mul, coefs[p], map(get, opps[p])), start[p] + own[p] * values[p])
                for p in range(len(values))
            ]
        self.current = list(values)

    def rank(self, scores: Mapping[int, int]) -> list[int]:
        """Order by score (high first), then rating (high first), then the start order."""
        n = len(self.players)
        tb, by_tb = self.tiebreak, self.by_tiebreak
        # tb[p] is unique in 0..n-1, so the key alone identifies the player: key % n == tb[p].
        keys = sorted([tb[p] - s * n for p, s in scores.items()])
        return [by_tb[k % n] for k in keys]

    def start_ranking(self, active: Sequence[int]) -> list[int]:
        """The first ranking list: the start order (start points, if any, first)."""
        chosen = set(active)
        start = self.start
        return sorted((p for p in self.by_start if p in chosen), key=lambda p: -start[p])

    def values_of(self, ranking: Sequence[int]) -> list[int]:
        values = [0] * len(self.players)
        for p, v in zip(ranking, ranking_values(len(ranking), self.settings)):
            values[p] = v
        for p, v in self.frozen.items():
            values[p] = v
        return values

    def withdraw(
        self, leaving: Sequence[int], value_ranking: list[int], active: list[int], last_ranking: Sequence[int]
    ) -> tuple[list[int], list[int]]:
        """Take ``leaving`` out of the ranking and the active players; their value stays the value they had
        in the last ranking they were in (``last_ranking``: the standings after the round before they left,
        as published, never the list that values the next round with its late joiners already inserted; a
        player who joins and leaves in the same round was only in that list)."""
        shown = self.values_of(list(last_ranking))
        values = self.values_of(value_ranking)
        in_last = set(last_ranking)
        for p in leaving:
            self.frozen[p] = shown[p] if p in in_last else values[p]
        gone = set(leaving)
        return [p for p in value_ranking if p not in gone], [p for p in active if p not in gone]


@dataclass
class _State:
    """Where the recalculation stands after a round: scores of the players in it, their order."""

    number: int
    scores: dict[int, int]
    ranking: list[int]
    values: list[int]  # the values every result of rounds 1..number is scored at (by player index)


def _recalculate(season: _Season, upto: int) -> tuple[_State, list[int]]:
    """Run seed 003's procedure up to round ``upto``.

    Returns the state after round ``upto`` (the standings) and the value ranking for round
    ``upto + 1`` (the standings plus the players joining in round ``upto + 1`` at their start
    points): the ranking that values round ``upto + 1`` and pairs it.
    """
    st = season.settings
    n = len(season.players)
    joiners: dict[int, list[int]] = {}
    for p in range(n):
        joiners.setdefault(season.join[p], []).append(p)
    leavers: dict[int, list[int]] = {}
    returners: dict[int, list[int]] = {}
    for p, first_out in season.withdrawn.items():
        leavers.setdefault(max(first_out, 1), []).append(p)
        back = season.players[p].returned_from
        if back is not None and back > max(first_out, 1):
            returners.setdefault(back, []).append(p)
    active = list(joiners.get(1, []))
    scores = season.scores(active, [0] * n)  # before round 1: start points only
    state = _State(0, scores, season.start_ranking(active), [0] * n)
    value_ranking = state.ranking
    if leavers.get(1):
        value_ranking, active = season.withdraw(leavers[1], value_ranking, active, state.ranking)
        state = _State(0, {p: scores[p] for p in active}, value_ranking, [0] * n)
    for k in range(1, upto + 1):
        season.add_round(k)
        if k > 1:
            active = active + joiners.get(k, []) + returners.get(k, [])
            if leavers.get(k):
                value_ranking, active = season.withdraw(leavers[k], value_ranking, active, state.ranking)
        values = season.values_of(value_ranking)
        scores = season.scores(active, values)
        ranking = season.rank(scores)
        if st.extra_passes > 0:
            scores, ranking, values = _extra_passes(season, active, values, scores, ranking)
        state = _State(k, scores, ranking, values)
        value_ranking = _with_joiners(season, state, joiners.get(k + 1, []), returners.get(k + 1, []))
    return state, value_ranking


def _extra_passes(
    season: _Season, active: Sequence[int], values: list[int], scores: dict[int, int], ranking: list[int]
) -> tuple[dict[int, int], list[int], list[int]]:
    """Further passes re-valuing rounds 1..k with the newest ranking (option ``extra_passes``).

    Stops when the values stop changing (a fixed point), after ``extra_passes`` passes, or when the
    values return to ones seen before in this round's passes (an oscillation).  An oscillation is
    resolved deterministically: the scores valued with the values that recur (the first ranking of
    the cycle) are kept; when that is the base pass's ranking, the plain seed-003 result stands.
    """
    history: list[tuple[list[int], dict[int, int], list[int]]] = [(values, scores, ranking)]
    for _ in range(season.settings.extra_passes):
        new_values = season.values_of(ranking)
        for old, old_scores, old_ranking in history:
            if old == new_values:
                # The newest values: a fixed point.  Older ones: an oscillation, resolved by taking
                # the scores valued with the values that recur (the first ranking of the cycle).
                return old_scores, old_ranking, old
        scores = season.scores(active, new_values)
        ranking = season.rank(scores)
        history.append((new_values, scores, ranking))
        values = new_values
    return scores, ranking, values


def _with_joiners(season: _Season, state: _State, new: Sequence[int], back: Sequence[int] = ()) -> list[int]:
    """The ranking that values the next round: ``state``'s, with the players joining in it at their start
    points and those coming back after a withdrawal at the score of their games so far (their value no
    longer frozen)."""
    for p in back:
        season.frozen.pop(p, None)
    if not new and not back:
        return state.ranking
    existing = [
        (season.players[p].start_rating, Fraction(s, season.scale)) for p, s in state.scores.items()
    ]
    scores = {**state.scores, **{p: season.total[p] for p in back}}
    for p in new:
        if season.players[p].start_points is None:
            sp = late_joiner_start_points(season.players[p].start_rating, existing)
            if season.scale % sp.denominator:
                factor = _lcm(season.scale, sp.denominator) // season.scale
                season.rescale(factor)
                scores = {q: s * factor for q, s in scores.items()}
                state.scores = {q: s * factor for q, s in state.scores.items()}
            season.start[p] = int(sp * season.scale)
            season.total[p] += season.start[p]
        scores[p] = season.start[p]
    return season.rank(scores)


def _to_standings(season: _Season, ranking: Sequence[int], scores: Mapping[int, int]) -> list[Standing]:
    values = ranking_values(len(ranking), season.settings)
    return [
        Standing(
            rank=pos + 1,
            player=season.players[p],
            score=Fraction(scores[p], season.scale),
            value=values[pos],
            played=season.played[p],
        )
        for pos, p in enumerate(ranking)
    ]


def _last_round(rounds: Sequence[Round]) -> int:
    return max((r.number for r in rounds), default=0)


def standings(
    players: Sequence[Player],
    rounds: Sequence[Round],
    settings: KeizerSettings = KeizerSettings(),
    after_round: int | None = None,
) -> list[Standing]:
    """The Keizer standings after round ``after_round`` (default: the highest round number given).

    Recalculation (seed 003, "Calculation of the Keizer evaluation points"; seed 004, Keizer rule i
    and its note): the first ranking comes from the start points (``Player.start_points``, else 0),
    then rating, then the order of ``players`` as given (the order they joined); round 1 is scored with its values, which gives a new ranking; its
    values re-score rounds 1-2, and so on.  The standings after round r value *every* result of
    rounds 1..r at the values of the ranking after round r-1, so a score can drop after a round.

    Points per round, with ``v`` the ranking values used:

    - win: v(opponent) (seed 004 rule c); draw: v(opponent)/2; loss: 0;
    - win by forfeit (1-0F / 0-1F): ``forfeit_win_fraction`` * v(opponent) (default 1, the seeds
      do not lower it); the forfeiting player is scored as an unexcused absence; 0-0F: both are;
    - absent with notice: ``notice_fraction`` * own value (seed 004 rule d);
    - absent for a team match: ``team_fraction`` * own value (seed 004 rule e);
    - absent without notice: ``unexcused_fraction`` * own value, 0 by default (seed 004 rule f);
    - bye: ``bye_fraction`` * own value (seed 004 rule j);
    - a result of None (not played yet) and a player not mentioned in a round: nothing;
    - ``start_bonus``: the own value once more; ``Player.start_points`` are added to the score.

    Ranking: score (high first), then rating (high first), then the start order (with start_order
    "rating": the order of ``players`` as given, never the player id read as text); every rank
    is distinct.  Players who join in round j (``joined_round``) appear from the standings after
    round j on; they enter the ranking that values round j with ``late_joiner_start_points``.
    ``value`` is the ranking value of the player's rank in this list (what a win against them is
    worth in the next round), ``played`` the number of games played over the board (forfeits and
    games without a result are not counted).
    """
    upto = _last_round(rounds) if after_round is None else after_round
    if upto < 0:
        raise ValueError("after_round must be >= 0")
    season = _Season(players, rounds, settings)
    state, value_ranking = _recalculate(season, upto)
    return _to_standings(season, state.ranking if upto > 0 else value_ranking, state.scores)


def value_ranking(
    players: Sequence[Player],
    rounds: Sequence[Round],
    round_number: int,
    settings: KeizerSettings = KeizerSettings(),
) -> list[Standing]:
    """The ranking that values (and pairs) round ``round_number``.

    This is the standings after round ``round_number - 1`` with the players joining in round
    ``round_number`` inserted at their start points (``late_joiner_start_points``).  Rounds numbered
    ``round_number`` or higher are ignored.
    """
    if round_number < 1:
        raise ValueError("round_number must be >= 1")
    season = _Season(players, [r for r in rounds if r.number < round_number], settings)
    state, ranking = _recalculate(season, round_number - 1)
    scores = dict(state.scores)
    for p in ranking:
        if p not in scores:  # a joiner at their start points, one coming back at their games' points
            scores[p] = season.total[p] if season.players[p].returned_from == round_number else season.start[p]
    return _to_standings(season, ranking, scores)



@dataclass(frozen=True)
class Scoring:
    """What the standings after a round are computed from: ``values`` of every player (withdrawn ones at
    the value of the last ranking they were in) that every result is scored at, and ``start`` points (a late joiner's as
    ``late_joiner_start_points`` gave them)."""

    values: Mapping[PlayerId, int]
    start: Mapping[PlayerId, Fraction]


def scoring(
    players: Sequence[Player],
    rounds: Sequence[Round],
    settings: KeizerSettings = KeizerSettings(),
    after_round: int | None = None,
) -> Scoring:
    """The values and start points behind ``standings(players, rounds, settings, after_round)``."""
    upto = _last_round(rounds) if after_round is None else after_round
    if upto < 0:
        raise ValueError("after_round must be >= 0")
    season = _Season(players, rounds, settings)
    state, _ = _recalculate(season, upto)
    return Scoring(
        values={p.id: state.values[i] for i, p in enumerate(season.players)},
        start={p.id: Fraction(season.start[i], season.scale) for i, p in enumerate(season.players)},
    )
