"""Season rules around the Keizer competition: cycles, no-shows, attendance, prizes, groups.

Pure: no I/O, no clock. The scores and rankings themselves come from ``engine.keizer``;
this module takes rankings (lists of ``Standing``) as input where it needs them, so every
rule here can be tested without the score engine.

Rules (seed ``004_0a1c2f73436dc9f3.txt``, "INTERNE REGELS DSC" and "GEHANTEERDE REGELS
GROEPEN INDELING"):

- b: a season is ``cycles`` cycles of ``cycle_length`` rounds (4 x 7 = 28).
- j: two no-shows in a row without signing off sign a player off for all coming rounds,
  until they sign on again.
- d, e, f: prizes; only players who played at least 2/3 of the season's rounds (19 of 28)
  compete, a team-match absence counts as played.
- groups A-D: group winners go up, the last of each group goes down, newcomers are placed
  by rating, the director may move more.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.keizer import Absence, KeizerSettings, Player, PlayerId, Result, Round, Standing

GROUPS: tuple[str, ...] = ("A", "B", "C", "D")

# --------------------------------------------------------------------------- cycles


def season_length(settings: KeizerSettings = KeizerSettings()) -> int:
    """Number of rounds in a season: ``cycles * cycle_length`` (seed 004 rule b: 4 x 7 = 28).

    With ``cycle_length == 0`` (no cycles: repeats always allowed) the season has no fixed
    length and this returns 0.
    """
    if settings.cycle_length <= 0:
        return 0
    return settings.cycles * settings.cycle_length


def cycle_of(round_number: int, settings: KeizerSettings = KeizerSettings()) -> int:
    """The 1-based cycle a round belongs to: rounds 1-7 are cycle 1, 8-14 cycle 2, ...

    Rounds after the last planned cycle continue the count (round 29 is cycle 5), so extra
    rounds never share a cycle with the season's own. With ``cycle_length == 0`` every
    round is in cycle 1.
    """
    if round_number < 1:
        raise ValueError(f"round numbers start at 1, got {round_number}")
    if settings.cycle_length <= 0:
        return 1
    return (round_number - 1) // settings.cycle_length + 1


def rounds_of_cycle(cycle: int, settings: KeizerSettings = KeizerSettings()) -> range:
    """The round numbers of a cycle (``range(1, 8)`` for cycle 1 with the defaults)."""
    if cycle < 1:
        raise ValueError(f"cycles start at 1, got {cycle}")
    if settings.cycle_length <= 0:
        raise ValueError("cycle_length is 0: the season has no cycles")
    first = (cycle - 1) * settings.cycle_length + 1
    return range(first, first + settings.cycle_length)


# --------------------------------------------------------------------------- no-shows

_LOST_BY_FORFEIT_AS_WHITE = (Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT)
_LOST_BY_FORFEIT_AS_BLACK = (Result.WHITE_WINS_FORFEIT, Result.DOUBLE_FORFEIT)


def is_no_show(player_id: PlayerId, rnd: Round) -> bool:
    """Did the player fail to show up in this round without signing off?

    A no-show is an ``Absence.UNEXCUSED``, or a game the player lost by forfeit: white in
    a ``0-1F``, black in a ``1-0F``, either player in a ``0-0F`` (neither came). A round
    in which the player does not appear at all is not a no-show.
    """
    if rnd.absent.get(player_id) is Absence.UNEXCUSED:
        return True
    for game in rnd.games:
        if game.white == player_id and game.result in _LOST_BY_FORFEIT_AS_WHITE:
            return True
        if game.black == player_id and game.result in _LOST_BY_FORFEIT_AS_BLACK:
            return True
    return False


def _sorted_rounds(rounds: Iterable[Round]) -> list[Round]:
    return sorted(rounds, key=lambda r: r.number)


def consecutive_no_shows(
    player_id: PlayerId,
    rounds: Iterable[Round],
    *,
    after_round: int | None = None,
    since: int | None = None,
) -> int:
    """Length of the run of no-shows that ends with the last round (seed 004 rule j).

    Only rounds numbered ``<= after_round`` (default: all) and ``> since`` (default: all;
    pass the round after which the player signed on again) are looked at. The run ends at
    the first round, going back, that is not a no-show or that does not directly follow
    the next one (a gap in the round numbers breaks the run).
    """
    count = 0
    later: int | None = None
    for rnd in reversed(_sorted_rounds(rounds)):
        if after_round is not None and rnd.number > after_round:
            continue
        if since is not None and rnd.number <= since:
            break
        if later is not None and rnd.number != later - 1:
            break
        if not is_no_show(player_id, rnd):
            break
        count += 1
        later = rnd.number
    return count


def signed_off_after(
    player_id: PlayerId,
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    signed_on_again_after: int | None = None,
) -> int | None:
    """The round after which the player is signed off by the no-show rule, or ``None``.

    Seed 004 rule j: a player who does not show up ``settings.no_show_limit`` (2) rounds in
    a row without signing off is signed off for all coming rounds, until they sign on again
    (``/aanmelden``). ``signed_on_again_after`` is the number of the last round before the
    player signed on again (they count again from the next round); only no-shows after it
    count. The answer is the round of the no-show that reached the limit. A limit of 0 or
    less switches the rule off.
    """
    limit = settings.no_show_limit
    if limit <= 0:
        return None
    run = 0
    previous: int | None = None
    for rnd in _sorted_rounds(rounds):
        if signed_on_again_after is not None and rnd.number <= signed_on_again_after:
            continue
        if previous is not None and rnd.number != previous + 1:
            run = 0
        previous = rnd.number
        run = run + 1 if is_no_show(player_id, rnd) else 0
        if run >= limit:
            return rnd.number
    return None


def auto_signed_off(
    player_id: PlayerId,
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    signed_on_again_after: int | None = None,
) -> bool:
    """Is the player signed off for the coming rounds by the no-show rule (seed 004 rule j)?

    See ``signed_off_after``; this is ``signed_off_after(...) is not None``.
    """
    return signed_off_after(player_id, rounds, settings, signed_on_again_after) is not None


def present_by_default(
    players: Iterable[Player],
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    next_round: int | None = None,
    signed_on_again_after: Mapping[PlayerId, int] | None = None,
) -> list[PlayerId]:
    """Who is expected for the next round when nobody signed off: every player who has
    joined by then (``joined_round <= next_round``) and is not signed off by the no-show
    rule. Order: as given."""
    rounds = list(rounds)
    if next_round is None:
        next_round = max((r.number for r in rounds), default=0) + 1
    signed_on = signed_on_again_after or {}
    return [
        p.id
        for p in players
        if p.joined_round <= next_round and not auto_signed_off(p.id, rounds, settings, signed_on.get(p.id))
    ]


# --------------------------------------------------------------------------- attendance


def counts_as_played(player_id: PlayerId, rnd: Round) -> bool:
    """Does this round count as played for the attendance rule (seed 004 rules e, f)?

    Counts: a game with a result that the player did not lose by forfeit (over the board,
    or won by forfeit: the player was there and ready to play); a bye (the player had to be
    present that evening, seed 004 internal rule l); an absence for a club team match
    (``Absence.TEAM``, rule f). Does not count: signed off (``notice``), a no-show, a game
    without a result yet, a round the player is not in.
    """
    if player_id in rnd.byes:
        return True
    absence = rnd.absent.get(player_id)
    if absence is not None:
        return absence is Absence.TEAM
    for game in rnd.games:
        if player_id not in (game.white, game.black):
            continue
        if game.result is None:
            return False
        return not is_no_show(player_id, Round(rnd.number, games=(game,)))
    return False


def attendance(player_id: PlayerId, rounds: Iterable[Round], after_round: int | None = None) -> int:
    """Number of rounds that count as played (``counts_as_played``) up to ``after_round``."""
    return sum(
        1
        for rnd in rounds
        if (after_round is None or rnd.number <= after_round) and counts_as_played(player_id, rnd)
    )


def required_attendance(settings: KeizerSettings = KeizerSettings(), season_rounds: int | None = None) -> int:
    """Rounds a player must have played to compete for prizes (seed 004 rule e).

    ``ceil(attendance_for_prizes * season_rounds)``: 2/3 of 28 is 18 2/3, so 19 (as the
    seed says). ``season_rounds`` defaults to the planned season length
    (``season_length``), not to the rounds played so far.
    """
    total = season_length(settings) if season_rounds is None else season_rounds
    return math.ceil(Fraction(settings.attendance_for_prizes) * total)


# --------------------------------------------------------------------------- prizes


@dataclass(frozen=True)
class Prize:
    """One prize: who won it (``None``: nobody qualified) and why, in plain words."""

    kind: str  # "champion", "group", "riser" or "rapid"
    winner: PlayerId | None
    reason: str
    group: str | None = None
    tied_with: tuple[PlayerId, ...] = ()  # riser prize: others with the same number of places gained


@dataclass(frozen=True)
class SeasonPrizes:
    champion: Prize
    group_winners: tuple[Prize, ...]  # one per group, in group order
    riser: Prize
    rapid_champion: Prize | None  # None: no rapid competition given
    required: int  # rounds needed to compete
    attendance: Mapping[PlayerId, int] = field(default_factory=dict)
    eligible: frozenset[PlayerId] = frozenset()


def _by_rank(standings: Iterable[Standing]) -> list[Standing]:
    return sorted(standings, key=lambda s: s.rank)


def _top_eligible(standings: Sequence[Standing], eligible: Collection[PlayerId]) -> Standing | None:
    for s in standings:
        if s.player.id in eligible:
            return s
    return None


def _group_order(groups: Iterable[str]) -> list[str]:
    known = [g for g in GROUPS if g in groups]
    return known + sorted(set(groups) - set(GROUPS))


def riser(
    first: Sequence[Standing], final: Sequence[Standing], eligible: Collection[PlayerId]
) -> Prize:
    """Riser prize (seed 004 rule d, "stijgprijs"): most places gained from the first
    ranking list to the last.

    The first ranking list is the ranking published after round 1 (``first``); places
    gained = rank there - rank on the final list. Only eligible players that are on both
    lists compete. Nobody wins when nobody gained a place. Ties: the player ranked higher
    on the final list wins; the others with the same gain are named in ``tied_with``.
    """
    first_rank = {s.player.id: s.rank for s in first}
    best: list[tuple[int, Standing]] = []
    for s in _by_rank(final):
        pid = s.player.id
        if pid not in eligible or pid not in first_rank:
            continue
        best.append((first_rank[pid] - s.rank, s))
    gains = [g for g, _ in best if g > 0]
    if not gains:
        return Prize("riser", None, "nobody eligible gained a place since the first ranking list")
    top = max(gains)
    tied = [s for g, s in best if g == top]  # already in final-rank order
    winner = tied[0]
    reason = (
        f"gained {top} place{'s' if top != 1 else ''}: "
        f"{first_rank[winner.player.id]} after round 1, {winner.rank} on the final list"
    )
    if len(tied) > 1:
        reason += f"; tie with {', '.join(s.player.id for s in tied[1:])} broken by the final ranking"
    return Prize("riser", winner.player.id, reason, tied_with=tuple(s.player.id for s in tied[1:]))


def season_prizes(
    final: Sequence[Standing],
    first: Sequence[Standing],
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    *,
    season_rounds: int | None = None,
    rapid_final: Sequence[Standing] | None = None,
    rapid_rounds: Iterable[Round] | None = None,
    rapid_settings: KeizerSettings | None = None,
) -> SeasonPrizes:
    """The season's prizes (seed 004 rules d, e, f).

    - Club champion: the highest eligible player on the final ranking (``final``).
    - Group winners: per group (``Player.group``), the highest eligible player of that
      group on the final ranking. The champion can also win their group.
    - Riser prize: see ``riser``; ``first`` is the ranking after round 1.
    - Rapid champion: the highest eligible player on the final ranking of the separate
      rapid competition (``rapid_final``); eligibility there is counted on the rapid
      competition's own rounds and season length (``rapid_rounds``, ``rapid_settings``).

    Eligible: at least ``required_attendance`` rounds counted as played (``attendance``):
    19 of 28 with the defaults; a team-match absence counts as played, and so does a bye.
    """
    rounds = list(rounds)
    required = required_attendance(settings, season_rounds)
    ranked = _by_rank(final)
    att = {s.player.id: attendance(s.player.id, rounds) for s in ranked}
    eligible = frozenset(pid for pid, n in att.items() if n >= required)
    why = f"played {{n}} rounds, {required} needed"

    top = _top_eligible(ranked, eligible)
    if top is None:
        champion = Prize("champion", None, f"nobody played the {required} rounds needed")
    else:
        champion = Prize(
            "champion", top.player.id, f"rank {top.rank} on the final list, " + why.format(n=att[top.player.id])
        )

    groups = _group_order({s.player.group for s in ranked if s.player.group is not None})
    group_prizes = []
    for g in groups:
        members = [s for s in ranked if s.player.group == g]
        best = _top_eligible(members, eligible)
        if best is None:
            group_prizes.append(Prize("group", None, f"nobody in group {g} played the {required} rounds needed", g))
        else:
            group_prizes.append(
                Prize(
                    "group",
                    best.player.id,
                    f"highest of group {g} (rank {best.rank}), " + why.format(n=att[best.player.id]),
                    g,
                )
            )

    rapid: Prize | None = None
    if rapid_final is not None:
        r_settings = rapid_settings or settings
        r_rounds = list(rapid_rounds or ())
        r_required = required_attendance(r_settings)
        r_ranked = _by_rank(rapid_final)
        r_att = {s.player.id: attendance(s.player.id, r_rounds) for s in r_ranked}
        r_top = _top_eligible(r_ranked, {pid for pid, n in r_att.items() if n >= r_required})
        if r_top is None:
            rapid = Prize("rapid", None, f"nobody played the {r_required} rapid rounds needed")
        else:
            rapid = Prize(
                "rapid",
                r_top.player.id,
                f"rank {r_top.rank} on the final rapid list, played {r_att[r_top.player.id]} "
                f"rapid rounds, {r_required} needed",
            )

    return SeasonPrizes(
        champion=champion,
        group_winners=tuple(group_prizes),
        riser=riser(first, ranked, eligible),
        rapid_champion=rapid,
        required=required,
        attendance=att,
        eligible=eligible,
    )


def prizes_from_rounds(
    players: Sequence[Player],
    rounds: Sequence[Round],
    settings: KeizerSettings = KeizerSettings(),
    *,
    season_rounds: int | None = None,
    rapid: tuple[Sequence[Player], Sequence[Round], KeizerSettings] | None = None,
) -> SeasonPrizes:
    """``season_prizes`` with the rankings computed by ``engine.keizer.standings``: the final
    list after the last round, the first list after round 1; ``rapid`` is the rapid
    competition's (players, rounds, settings)."""
    from engine import keizer

    last = max((r.number for r in rounds), default=0)
    final = keizer.standings(players, rounds, settings, after_round=last)
    first = keizer.standings(players, rounds, settings, after_round=1) if last >= 1 else []
    rapid_final: list[Standing] | None = None
    rapid_rounds: Sequence[Round] = ()
    rapid_settings: KeizerSettings | None = None
    if rapid is not None:
        r_players, rapid_rounds, rapid_settings = rapid
        rapid_final = keizer.standings(r_players, rapid_rounds, rapid_settings)
    return season_prizes(
        final,
        first,
        rounds,
        settings,
        season_rounds=season_rounds,
        rapid_final=rapid_final,
        rapid_rounds=rapid_rounds,
        rapid_settings=rapid_settings,
    )


# --------------------------------------------------------------------------- groups


@dataclass(frozen=True)
class GroupMove:
    player: PlayerId
    old: str | None  # None: newcomer
    new: str
    reason: str
    kind: str = ""  # "promoted", "relegated", "newcomer" or "director" (rules 1-4)


@dataclass(frozen=True)
class GroupProposal:
    """Next season's groups: every member in exactly one group, and why players moved."""

    groups: Mapping[PlayerId, str]
    moves: tuple[GroupMove, ...]

    def members(self, group: str) -> list[PlayerId]:
        return [pid for pid, g in self.groups.items() if g == group]


def group_for_rating(
    rating: int, group_ratings: Mapping[str, Collection[int]], groups: Sequence[str] = GROUPS
) -> str:
    """The group whose rating range fits a rating best (seed 004 groups rule 3).

    A group's range is [lowest, highest] rating of its players (ratings <= 0 mean
    "unknown" and are left out). Best fit: the smallest distance from the rating to the
    range (0 when inside it); ties (overlapping ranges, or exactly between two) go to the
    group whose median rating is closest, then to the higher group. An unknown rating
    (<= 0), or no group with known ratings, gives the lowest group.
    """
    candidates: list[tuple[float, float, int, str]] = []
    for index, g in enumerate(groups):
        known = sorted(r for r in group_ratings.get(g, ()) if r > 0)
        if not known or rating <= 0:
            continue
        low, high = known[0], known[-1]
        distance = max(low - rating, rating - high, 0)
        mid = len(known) // 2
        median = known[mid] if len(known) % 2 else (known[mid - 1] + known[mid]) / 2
        candidates.append((distance, abs(rating - median), index, g))
    if not candidates:
        return groups[-1]
    return min(candidates)[3]


def propose_groups(
    last_groups: Mapping[PlayerId, str],
    final_ranking: Sequence[PlayerId],
    *,
    members: Iterable[PlayerId] | None = None,
    ratings: Mapping[PlayerId, int] | None = None,
    eligible: Collection[PlayerId] | None = None,
    overrides: Mapping[PlayerId, str] | None = None,
    groups: Sequence[str] = GROUPS,
) -> GroupProposal:
    """Next season's groups from last season's (seed 004 "GEHANTEERDE REGELS GROEPEN INDELING").

    1. The winner of each group (its highest player on ``final_ranking``; if ``eligible`` is
       given, its highest eligible player, as for the group prize) goes up one group; the
       winner of the top group stays.
    2. The last of each group (its lowest player on ``final_ranking``) goes down one group;
       the last of the bottom group stays. A group with one ranked player: that player is
       its winner, not its last.
    3. Newcomers (in ``members`` but not in ``last_groups``) go to ``group_for_rating`` of
       their rating (``ratings``), measured against the groups after steps 1-2.
    4. ``overrides`` (the director, rule 4): player -> group, applied last, wins over all.

    ``members`` is next season's membership (default: everyone in ``last_groups`` or
    ``overrides``); players who left are dropped. Players of a group who are not on the
    final ranking stay where they were.
    """
    ratings = ratings or {}
    overrides = overrides or {}
    for pid, g in list(last_groups.items()) + list(overrides.items()):
        if g not in groups:
            raise ValueError(f"player {pid!r}: unknown group {g!r} (groups: {', '.join(groups)})")
    member_list = list(dict.fromkeys(members if members is not None else [*last_groups, *overrides]))
    position = {pid: i for i, pid in enumerate(final_ranking)}

    new: dict[PlayerId, str] = {}
    reasons: dict[PlayerId, str] = {}
    kinds: dict[PlayerId, str] = {}
    for index, g in enumerate(groups):
        ranked = sorted((pid for pid, pg in last_groups.items() if pg == g and pid in position), key=position.__getitem__)
        if not ranked:
            continue
        winners = [pid for pid in ranked if eligible is None or pid in eligible]
        winner = winners[0] if winners else None
        last = ranked[-1]
        if winner is not None and index > 0:
            new[winner] = groups[index - 1]
            reasons[winner], kinds[winner] = f"promoted: winner of group {g}", "promoted"
        if last != winner and index < len(groups) - 1:
            new[last] = groups[index + 1]
            reasons[last], kinds[last] = f"relegated: last of group {g}", "relegated"

    result: dict[PlayerId, str] = {}
    for pid in member_list:
        if pid in last_groups:
            result[pid] = new.get(pid, last_groups[pid])
    by_group: dict[str, list[int]] = {g: [] for g in groups}
    for pid, g in result.items():
        if pid in ratings:
            by_group[g].append(ratings[pid])
    for pid in member_list:
        if pid not in last_groups:
            rating = ratings.get(pid, 0)
            result[pid] = group_for_rating(rating, by_group, groups)
            reasons[pid] = (
                f"newcomer: rating {rating} fits group {result[pid]}" if rating > 0 else "newcomer without rating"
            )
            kinds[pid] = "newcomer"
    for pid, g in overrides.items():
        if pid in result and result[pid] != g:  # members who left stay out
            reasons[pid], kinds[pid] = "moved by the director", "director"
            result[pid] = g

    moves = tuple(
        GroupMove(pid, last_groups.get(pid), g, reasons[pid], kinds[pid])
        for pid, g in result.items()
        if last_groups.get(pid) != g
    )
    return GroupProposal(groups=result, moves=moves)
