"""Answers to "why?": ``/waarom punten [Naam]`` (``/why points``) tells how a member's Keizer score came
about, result by result, at the values of the current list (``engine.keizer.explain``)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

from engine.keizer import explain

from bot.core.context import Context, UserError
from bot.core.dispatch import Core
from bot.core.replies import Reply
from bot.keizer import competition
from bot.keizer.formatting import fmt_points, for_competition
from bot.keizer.lookups import active_season, competition_of, names_of, player_named

POINTS_WORDS = {"punten", "points"}
_GAME_KINDS = {explain.WIN, explain.DRAW, explain.LOSS, explain.PENDING, explain.FORFEIT_WIN, explain.FORFEIT_LOSS}


async def cmd_waarom(core: Core, ctx: Context) -> Reply:
    """``/waarom punten [Naam]``: the asker's own score, or a named member's, explained."""
    kind, ctx = competition_of(ctx)
    if not ctx.args or ctx.args[0].lower() not in POINTS_WORDS:
        raise UserError("error_usage", usage=ctx.t("usage_waarom"))
    words = ctx.args[1:]
    data = await competition.load(core.store, await active_season(core, ctx, kind))
    player = player_named(ctx, data, words, "error_why_whose")
    rows = competition.standings(data)
    row = next((s for s in rows if s.player.id == player.id), None)
    if row is None:  # withdrawn, or joining in a later round
        raise UserError("error_why_not_ranked", name=player.name)
    lines = await asyncio.to_thread(explain.score_lines, player.id, data.players, data.rounds, data.settings)
    after = max((r.number for r in data.rounds), default=0)
    names = names_of(data)
    title = ctx.t("why_points_title", name=player.name, score=fmt_points(row.score), rank=row.rank, round=after)
    told = [for_competition(ctx.lang, data.season.kind, title)]
    for line in lines:
        values = {
            "round": line.round, "value": line.value, "points": fmt_points(line.points), "share": _share(line.share),
        }  # fmt: skip
        if line.kind in _GAME_KINDS:
            values["opponent"] = names.get(line.opponent or "", line.opponent or "")
        told.append(ctx.t(f"why_{line.kind}", **values))
    told.append(ctx.t("why_total", points=fmt_points(row.score)))
    return Reply(lines=tuple(told))


def _share(share: Fraction) -> str:
    """A share of a value as a factor before it ("1/3 × "); the whole value: nothing."""
    return "" if share == 1 else f"{share} × "
