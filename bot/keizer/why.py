"""Answers to "why?": ``/waarom punten [Naam]`` (``/why points``) tells how a member's Keizer score came
about, result by result, at the values of the current list; ``/waarom indeling [Naam]`` (``/why pairing``)
why they got this opponent, colour and board, or the bye, in the current round (``engine.keizer.explain``)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

from engine.keizer import Player, explain

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.keizer import competition
from bot.keizer.formatting import fmt_points, for_competition
from bot.keizer.lookups import active_season, competition_of, names_of, player_named

POINTS_WORDS = {"punten", "points"}
PAIRING_WORDS = {"indeling", "pairing"}
_GAME_KINDS = {explain.WIN, explain.DRAW, explain.LOSS, explain.PENDING, explain.FORFEIT_WIN, explain.FORFEIT_LOSS}


async def cmd_waarom(core: Core, ctx: Context) -> Reply:
    """``/waarom punten|indeling [Naam]``: the asker's own score or pairing, or a named member's, explained."""
    kind, ctx = competition_of(ctx)
    if not ctx.args or ctx.args[0].lower() not in POINTS_WORDS | PAIRING_WORDS:
        raise UserError("error_usage", usage=ctx.t("usage_waarom"))
    words = ctx.args[1:]
    data = await competition.load(core.store, await active_season(core, ctx, kind))
    pairing = ctx.args[0].lower() in PAIRING_WORDS
    player = player_named(ctx, data, words, "error_why_whose_pairing" if pairing else "error_why_whose")
    if pairing:
        return await _why_pairing(ctx, data, player)
    rows = competition.standings(data)
    row = next((s for s in rows if s.player.id == player.id), None)
    if row is None:  # withdrawn, or joining in a later round
        raise UserError("error_why_not_ranked", name=player.name)
    lines = await score_lines(data, player.id)
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


async def score_lines(data: competition.SeasonData, player: str) -> tuple[explain.ScoreLine, ...]:
    """The parts of a player's score at the values of the current list (``/waarom punten``), worked out
    in a thread: a big season's recalculation holds up no other club."""
    return await asyncio.to_thread(explain.score_lines, player, data.players, data.rounds, data.settings)


def values_now(data: competition.SeasonData, player: str) -> dict[int, int]:
    """Each game's round -> the value it counts at now (the opponent's in the current list), as
    ``/waarom punten`` tells it; nothing for a player the standings leave out (withdrawn, joining later).
    The engine's work: run it off the event loop (``/kaart`` runs it with the card, in one thread hop)."""
    if not any(s.player.id == player for s in competition.standings(data)):
        return {}
    lines = explain.score_lines(player, data.players, data.rounds, data.settings)
    return {line.round: line.value for line in lines if line.kind in _GAME_KINDS and line.round is not None}


def _share(share: Fraction) -> str:
    """A share of a value as a factor before it ("1/3 × "); the whole value: nothing."""
    return "" if share == 1 else f"{share} × "


async def _why_pairing(ctx: Context, data: competition.SeasonData, player: Player) -> Reply:
    """The current round's pairing of ``player`` told by the pairing's rules."""
    row = competition.current_round(data)
    paired = next((r for r in data.rounds if row is not None and r.number == row.number), None)
    if row is None or paired is None:
        coming = competition.coming_round(data)
        if coming is None:
            raise UserError("error_season_over", season=data.season.name)
        raise UserError("error_round_not_paired", round=coming.number, publish=ctx.local(coming.publish_at))
    if player.id not in {p for g in paired.games for p in (g.white, g.black)} | set(paired.byes):
        raise UserError("error_why_not_paired", name=player.name, round=paired.number)
    why = await asyncio.to_thread(explain.pairing_reasons, player.id, data.players, data.rounds, paired, data.settings)
    names = names_of(data)
    told = [ctx.t("why_pairing_title", name=player.name, round=why.round, place=why.place, present=why.present)]
    if why.bye:
        told.append(ctx.t("why_pairing_bye", name=player.name, byes=why.byes))
        told.extend(ctx.t(f"why_bye_passed_{p.why}", name=names[p.player], place=p.place) for p in why.passed)
        told[0] = for_competition(ctx.lang, data.season.kind, told[0])
        return Reply(lines=tuple(told))
    opponent = names[why.opponent or ""]
    told.append(ctx.t("why_pairing_game", name=player.name, opponent=opponent, place=why.opponent_place, board=why.board))
    higher = player.name if why.place < (why.opponent_place or 0) else opponent
    for p in why.passed:
        told.append(ctx.t(f"why_passed_{p.why}", name=names[p.player], place=p.place, higher=higher, round=p.met_round))
    white, black = (player.name, opponent) if why.white else (opponent, player.name)
    (ww, wb), (bw, bb) = (why.colours, why.opponent_colours) if why.white else (why.opponent_colours, why.colours)
    told.append(ctx.t(
        f"why_colour_{why.colour_rule or 'director'}", white=white, black=black,
        white_whites=ww, white_blacks=wb, black_whites=bw, black_blacks=bb,
    ))  # fmt: skip
    told[0] = for_competition(ctx.lang, data.season.kind, told[0])
    return Reply(lines=tuple(told))
