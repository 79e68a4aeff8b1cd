"""Which NK tournament a command is about: the club's running one, or its latest."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError
from bot.nk.store import NkStore, NkTournament


async def current(nk: NkStore, ctx: Context) -> NkTournament:
    tour = await nk.active(ctx.club.id) or await nk.latest(ctx.club.id)
    if tour is None:
        raise UserError("nk_error_none")
    return tour


async def running(nk: NkStore, ctx: Context) -> NkTournament:
    tour = await nk.active(ctx.club.id)
    if tour is None:
        raise UserError("nk_error_none")
    return tour
