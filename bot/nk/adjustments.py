"""The director's changes: a withdrawal and its undoing (``/nk terugtrekken Naam [ongedaan]``, issue 31),
and the change of an NK round's pairing (issue 20, item 5): ``/nk wissel A B``.

Two players of the last paired round change places: each takes the other's board and colour (two
opponents swap colours; a player and the bye swap, the bye moving). Only while neither game has a result
or a report. The round's announcement is rewritten while it is unsent (it goes out as changed); once it
may have been posted, the new pairing is queued after it as a correction (``nk:<id>:round:<n>:change:<k>``).
"""

from __future__ import annotations

from bot.core.club.names import members_named
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.nk.lookups import running
from bot.core.club.name_key import name_key
from bot.nk.store import NkPlayer, NkStore, NkTournament
from bot.nk.tables import round_announcement

MAX_NAME = 60


async def swap(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    if len(args) < 2:
        raise UserError("error_usage", usage=ctx.t("nk_usage_wissel"))
    tour = await running(nk, ctx)
    rounds = await nk.rounds(tour.id)
    if not rounds:
        raise UserError("nk_error_no_round")
    round_id, number, bye = rounds[-1]
    a, b = await members_named(ctx, args, 2)  # "Anna de Vries Bert Jansen" read by the member list
    if a.id == b.id:
        raise UserError("error_usage", usage=ctx.t("nk_usage_wissel"))
    games = [g for g in await nk.games(tour.id) if g.round_id == round_id]
    seats = {m: g.id for g in games for m in (g.black_id, g.white_id)}  # member -> their game (0: the bye)
    if bye is not None:
        seats[bye] = 0
    for who in (a, b):
        if who.id not in seats:
            raise UserError("nk_error_not_in_round", name=who.name, round=number)
    touched = {seats[a.id], seats[b.id]} - {0}
    if any(g.has_result or g.reported for g in games if g.id in touched):
        raise UserError("nk_error_change_after_result", round=number)
    moved = {a.id: b.id, b.id: a.id}
    new_games = [(g.id, moved.get(g.black_id, g.black_id), moved.get(g.white_id, g.white_id)) for g in games]
    new_bye = moved.get(bye, bye) if bye is not None else None
    names = {p.member_id: p.name for p in await nk.players(tour.id)}
    boards = {g.id: g.board for g in games}
    body, picture = round_announcement(
        ctx.lang, ctx.t("nk_pairing_title", name=tour.name, round=number), (ctx.t("nk_pairing_changed"),),
        [(boards[gid], names[black], names[white]) for gid, black, white in new_games],
        names[new_bye] if new_bye is not None else None,
    )  # fmt: skip
    corrected = await nk.change_round(
        ctx.club.id, tour.id, round_id, number, new_games, new_bye, body, picture, ctx.now
    )
    key = "nk_pairing_changed_posted" if corrected else "nk_pairing_changed_unposted"
    return Reply(lines=(ctx.t(key, a=a.name, b=b.name, round=number),))


UNDO_WORDS = {"ongedaan", "undo"}


async def withdraw(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    """``/nk terugtrekken Naam``: from the next round on not paired and never the bye; the games played
    stand, and for SOS their score counts as it stands (seed 000: the opponents' current scores).
    ``/nk terugtrekken Naam ongedaan`` undoes it while the round it starts from is not paired yet."""
    tour = await running(nk, ctx)
    players = await nk.players(tour.id)
    name = " ".join(args)
    player = next((p for p in players if name_key(p.name) == name_key(name)), None)
    if player is None and len(args) > 1 and args[-1].lower() in UNDO_WORDS:
        return await _undo_withdrawal(core, nk, ctx, tour, players, " ".join(args[:-1]))
    if not args or player is None:
        raise UserError("nk_error_not_registered", name=name[:MAX_NAME])
    if player.withdrawn_from is not None:
        raise UserError("nk_error_already_withdrawn", name=player.name, round=player.withdrawn_from)
    next_round = len(await nk.rounds(tour.id)) + 1
    async with core.store.transaction():
        await nk.withdraw(tour.id, player.member_id, next_round)
    return Reply(lines=(ctx.t("nk_withdrawn", name=player.name, round=next_round),))


async def _undo_withdrawal(core: Core, nk: NkStore, ctx: Context, tour: NkTournament, players: list[NkPlayer],
                           name: str) -> Reply:  # fmt: skip
    """Undo a withdrawal before the round it starts from is paired: the player is paired again as if
    they had never left. Once that round is paired it stays (the engine has no rounds missed between)."""
    player = next((p for p in players if name_key(p.name) == name_key(name)), None)
    if player is None:
        raise UserError("nk_error_not_registered", name=name[:MAX_NAME])
    if player.withdrawn_from is None:
        raise UserError("nk_error_not_withdrawn", name=player.name)
    paired = len(await nk.rounds(tour.id))
    if player.withdrawn_from <= paired:
        raise UserError("nk_error_withdrawal_final", name=player.name, round=player.withdrawn_from)
    async with core.store.transaction():
        await nk.withdraw(tour.id, player.member_id, None)
    return Reply(lines=(ctx.t("nk_withdrawal_undone", name=player.name, round=paired + 1),))
