"""What a player who joins a season already under way is told (issue 44 §2): the round they play from, their
group and their start points (seed 004 Keizer rule b: placed by their rating among the standings as they
are now, ``engine.keizer.scores.value_ranking``; the director may still set them). Said by ``/aanmelden``,
the director's ``/speler`` and the member list's group column."""

from __future__ import annotations

from engine.keizer import value_ranking

from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.keizer import competition
from bot.keizer.formatting import fmt_points, for_competition
from bot.keizer.lookups import keizer_store
from bot.keizer.store import Season


async def late_joiner_line(core: Core, ctx: Context, season: Season, member_id: int) -> str | None:
    """The line for a player of ``season`` whose first round comes after round 1 (None for anyone else, and
    for a player whose first round is past the season's last): group, start points, place, first round."""
    place = await keizer_store(core).season_player(season.id, member_id)
    if place is None or place.joined_round <= 1 or place.joined_round > season.rounds_count:
        return None
    data = await competition.load(core.store, season)
    ranking = value_ranking(data.players, data.rounds, place.joined_round, data.settings)
    mine = next((s for s in ranking if s.player.id == competition.player_id(member_id)), None)
    if mine is None:  # withdrawn before their first round: out of every list
        return None
    group = ctx.t("late_joiner_group", group=place.group_name) if place.group_name else ctx.t("late_joiner_no_group")
    said = ctx.t("late_joiner", name=place.name, round=place.joined_round, group=group, points=fmt_points(mine.score),
                 place=mine.rank, count=len(ranking))  # fmt: skip
    return for_competition(ctx.lang, season.kind, said)
