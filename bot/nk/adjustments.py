"""The director's change of an NK round's pairing (issue 20, item 5): ``/nk wissel A B``.

Two players of the last paired round change places: each takes the other's board and colour (two
opponents swap colours; a player and the bye swap, the bye moving). Only while neither game has a result
or a report. The round's announcement is rewritten while it is unsent (it goes out as changed); once it
may have been posted, the new pairing is queued after it as a correction (``nk:<id>:round:<n>:change:<k>``).
"""

from __future__ import annotations

from bot.core.context import Context, UserError
from bot.core.dispatch import Core
from bot.core.pictures import picture_spec
from bot.core.replies import Reply, Table
from bot.nk.lookups import running
from bot.nk.store import NkStore


async def swap(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    if len(args) != 2:
        raise UserError("error_usage", usage=ctx.t("nk_usage_wissel"))
    tour = await running(nk, ctx)
    rounds = await nk.rounds(tour.id)
    if not rounds:
        raise UserError("nk_error_no_round")
    round_id, number, bye = rounds[-1]
    a, b = [await ctx.find_member(name) for name in args]
    if a.id == b.id:
        raise UserError("error_usage", usage=ctx.t("nk_usage_wissel"))
    games = [g for g in await nk.games(tour.id) if g.round_id == round_id]
    seats: dict[int, tuple[int, str]] = {}  # member -> (game id or 0 for the bye, "black" | "white" | "bye")
    for g in games:
        seats[g.black_id] = (g.id, "black")
        seats[g.white_id] = (g.id, "white")
    if bye is not None:
        seats[bye] = (0, "bye")
    for who in (a, b):
        if who.id not in seats:
            raise UserError("nk_error_not_in_round", name=who.name, round=number)
    touched = {seats[a.id][0], seats[b.id][0]} - {0}
    if any(g.winner_id is not None or g.reported_winner is not None for g in games if g.id in touched):
        raise UserError("nk_error_change_after_result", round=number)
    moved = {a.id: b.id, b.id: a.id}
    new_games = [(g.id, moved.get(g.black_id, g.black_id), moved.get(g.white_id, g.white_id)) for g in games]
    new_bye = moved.get(bye, bye) if bye is not None else None
    names = {p.member_id: p.name for p in await nk.players(tour.id)}
    lines = [ctx.t("nk_pairing_title", name=tour.name, round=number), ctx.t("nk_pairing_changed")]
    boards = {g.id: g.board for g in games}
    for game_id, black, white in new_games:
        lines.append(ctx.t("nk_pairing_line", board=boards[game_id], black=names[black], white=names[white]))
    if new_bye is not None:
        lines.append(ctx.t("nk_bye_line", name=names[new_bye]))
    table = Table(
        headers=(ctx.t("col_board"), ctx.t("nk_col_black"), ctx.t("nk_col_white")),
        rows=tuple((str(boards[gid]), names[black], names[white]) for gid, black, white in new_games),
    )
    notes = tuple(lines[len(new_games) + 2 :])
    picture = picture_spec(lines[0], table, (lines[1], *notes))
    corrected = await nk.change_round(
        ctx.club.id, tour.id, round_id, number, new_games, new_bye, "\n".join(lines), picture, ctx.now
    )
    key = "nk_pairing_changed_posted" if corrected else "nk_pairing_changed_unposted"
    return Reply(lines=(ctx.t(key, a=a.name, b=b.name, round=number),))
