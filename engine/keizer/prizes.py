"""Prizes (seed 004 rules d, e, f): club champion, group winners, the riser prize and the rapid champion,
among the players who played at least 2/3 of the season's rounds (a team-match absence counts as played).

Pure: takes rankings (lists of ``Standing``) or the rounds, returns who won what and why.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.keizer.model import KeizerSettings, Player, PlayerId, Round, Standing
from engine.keizer.scores import standings
from engine.keizer.season import GROUPS, attendance, required_attendance

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
    first: Sequence[Standing], final: Sequence[Standing], eligible: Collection[PlayerId], first_name: str = "in the start order"
) -> Prize:
    """Riser prize (seed 004 rule d, "stijgprijs"): most places gained from the first
    ranking list ("ten opzichte van de eerste ranglijst") to the last.

    The first ranking list (``first``) is the start order by default (seed 003's first table: by
    rating, or last season's order), so missing round 1 earns nothing; the setting ``riser_from =
    "round1"`` counts from the ranking after round 1 instead (``first_name`` says which). Places
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
        f"{first_rank[winner.player.id]} {first_name}, {winner.rank} on the final list"
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
    rapid_season_rounds: int | None = None,
) -> SeasonPrizes:
    """The season's prizes (seed 004 rules d, e, f).

    - Club champion: the highest eligible player on the final ranking (``final``).
    - Group winners: per group (``Player.group``), the highest eligible player of that
      group on the final ranking. The champion can also win their group.
    - Riser prize: see ``riser``; ``first`` is the ranking after round 1.
    - Rapid champion: the highest eligible player on the final ranking of the separate
      rapid competition (``rapid_final``); eligibility there is counted on the rapid
      competition's own rounds and planned length (``rapid_season_rounds``: 2/3 of a 3-round rapid
      season is 2 rounds, not 2/3 of the main season's 28).

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
        r_required = required_attendance(r_settings, rapid_season_rounds)
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
        riser=riser(first, ranked, eligible, "after round 1" if settings.riser_from == "round1" else "in the start order"),
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
    rapid_season_rounds: int | None = None,
) -> SeasonPrizes:
    """``season_prizes`` with the rankings computed by ``engine.keizer.standings``: the final
    list after the last round, the first list the start order (or, with ``riser_from = "round1"``,
    the list after round 1); ``rapid`` is the rapid competition's (players, rounds, settings),
    ``rapid_season_rounds`` its planned number of rounds."""
    last = max((r.number for r in rounds), default=0)
    final = standings(players, rounds, settings, after_round=last)
    first_after = 1 if settings.riser_from == "round1" else 0
    first = standings(players, rounds, settings, after_round=first_after) if last >= 1 else []
    rapid_final: list[Standing] | None = None
    rapid_rounds: Sequence[Round] = ()
    rapid_settings: KeizerSettings | None = None
    if rapid is not None:
        r_players, rapid_rounds, rapid_settings = rapid
        rapid_final = standings(r_players, rapid_rounds, rapid_settings)
    return season_prizes(
        final,
        first,
        rounds,
        settings,
        season_rounds=season_rounds,
        rapid_final=rapid_final,
        rapid_rounds=rapid_rounds,
        rapid_settings=rapid_settings,
        rapid_season_rounds=rapid_season_rounds,
    )


