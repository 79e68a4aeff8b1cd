"""Groups A-D for the next season (seed 004, "GEHANTEERDE REGELS GROEPEN INDELING"): group winners go
up, the last of each group goes down, newcomers are placed by rating, the director may move more.

Pure: takes the final ranking and last season's groups, returns the proposal with a reason per move.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.keizer.model import PlayerId
from engine.keizer.season import GROUPS

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
