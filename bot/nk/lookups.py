"""Which NK tournament a command is about: the club's running one, or its latest; or a past one by name."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError
from bot.core.club.name_key import name_key
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


async def named(nk: NkStore, ctx: Context, words: list[str]) -> NkTournament:
    """The club's tournament, running or past, that the words name (``/nk stand "NK 2027"``): compared as
    names are (``name_key``); an unknown name is refused with the names there are."""
    name = " ".join(words)
    tournaments = await nk.tournaments(ctx.club.id)
    found = next((tour for tour in tournaments if name_key(tour.name) == name_key(name)), None)
    if found is None:
        raise UserError("nk_error_unknown_tournament", name=name[:60], names=", ".join(tour.name for tour in tournaments) or "-")
    return found
