"""``/nk indeling [naam] [ronde] [tabel]`` (``/championship pairings``): the boards of a round of the club's
tournament (the current one, or a past one by its name), with the results as they come in."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError, parse_int
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.nk.lookups import current, named
from bot.nk.store import NkStore, NkTournament
from bot.nk.pairing_table import pairing_table
from bot.nk.tables import _drawn, table_words


async def indeling(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    """The round's table and its picture. The words before a last number are a tournament's name
    (``/nk indeling "NK 2027" 3``); without a name, the current tournament; ``tabel``: the wider table."""
    full, args = table_words(args)
    number_word = args[-1] if args and parse_int(args[-1]) is not None else None
    words = args[:-1] if number_word is not None else args
    tour = await named(nk, ctx, words) if words else await current(nk, ctx)
    reply = await pairing_of(nk, ctx, tour, number_word, full)
    assert reply.table is not None
    return Reply(lines=reply.lines, table=reply.table, image=await _drawn(reply.lines[0], reply.table, reply.lines[1:]))


async def pairing_of(nk: NkStore, ctx: Context, tour: NkTournament, number_word: str | None, full: bool = False) -> Reply:
    """A round's boards (its last paired round without ``number_word``), without a picture: the website's
    pages show the table itself. ``full``: the website's wider table (``bot/nk/pairing_table.py``)."""
    rounds = await nk.rounds(tour.id)
    if not rounds:
        raise UserError("nk_error_no_round")
    number = parse_int(number_word) if number_word is not None else rounds[-1][1]
    if number not in {r[1] for r in rounds}:
        raise UserError("nk_error_unknown_round", round=(number_word or "")[:10], count=len(rounds))
    data = await nk.load(tour)
    names = {p.id: p.name for p in data.players}
    rnd = next(r for r in data.rounds if r.number == number)
    lines = [ctx.t("nk_pairing_title", name=tour.name, round=number)]
    if rnd.bye is not None:
        lines.append(ctx.t("nk_bye_line", name=names[rnd.bye]))
    return Reply(lines=tuple(lines), table=pairing_table(ctx, data, rnd, full))
