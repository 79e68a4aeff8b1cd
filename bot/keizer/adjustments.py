"""The director's hands on the pairing of the latest round, before or after its announcement:

- ``/indeling wissel A B``: A and B change places (boards, colours, or the bye); in one game: colours;
- ``/indeling kleur A`` (or a board number): the colours of that game are swapped;
- ``/indeling koppel A B``: A plays B (B takes the place of A's opponent, who takes B's);
- ``/indeling vrij A``: A gets the bye (the player who had it takes A's place).

A game that was not in the round before gets its colours by the pairing's rule, and a game that
repeats one of the same cycle is asked about first (the same command with ``toch`` does it).
Only players already in the round move, so nobody plays twice and nobody absent is paired. A game
whose result is in or reported cannot change. The pairing announcement is rewritten while unsent; once
it may have been posted, the new pairing goes out as a correction. Add ``rapid`` for the rapid
competition.
"""

from __future__ import annotations

from bot.core.commands.context import Context, UserError, parse_int
from bot.core.commands.dispatch import Core
from bot.core.club.name_key import name_key
from bot.core.club.names import members_named
from bot.core.commands.replies import Reply
from bot.keizer import competition, director_games
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, competition_of, keizer_store
from bot.keizer.online_round import announcement_held, sync_round
from bot.keizer.publication import pairing_announcement
from bot.keizer.source import KeizerSource
from bot.keizer.views import pairing_reply

SWAP_WORDS = ("wissel", "swap")
COLOUR_WORDS = ("kleur", "colour", "color")
PAIR_WORDS = ("koppel", "pair")
BYE_WORDS = ("vrij", "bye")
BYE = 0  # the bye's place in the layout below


async def cmd_swap(core: Core, ctx: Context) -> Reply:
    return await _change(core, ctx, "swap")


async def cmd_colour(core: Core, ctx: Context) -> Reply:
    return await _change(core, ctx, "colour")


async def cmd_pair(core: Core, ctx: Context) -> Reply:
    return await _change(core, ctx, "pair")


async def cmd_bye(core: Core, ctx: Context) -> Reply:
    return await _change(core, ctx, "bye")


async def _change(core: Core, ctx: Context, what: str) -> Reply:
    if not ctx.is_director:
        raise UserError("error_director_only", command="indeling")
    kind, ctx = competition_of(ctx)
    repeat_ok, ctx = director_games.anyway(ctx)
    wanted = {"swap": 2, "colour": 1, "pair": 2, "bye": 1}[what]
    if len(ctx.args) < wanted:
        raise UserError("error_usage", usage=ctx.t("usage_indeling"))
    # two names without quotes (``wissel Anna de Vries Bert Jansen``): read by the club's member list
    named = [(m.id, m.name) for m in await members_named(ctx, ctx.args, 2)] if wanted == 2 else []
    season = await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    row = competition.current_round(data)
    if row is None:
        raise UserError("error_nothing_to_change")
    store = keizer_store(core)
    games = await store.games_of_round(row.id)
    bye = await store.bye_of_round(row.id)
    # the round's layout: board -> [white, black]; the bye at board 0
    layout: dict[int, list[int]] = {g.board: [g.white_id, g.black_id] for g in games}
    if bye is not None:
        layout[BYE] = [bye]
    ids = {name_key(p.name): int(p.id) for p in data.players}
    names = {int(p.id): p.name for p in data.players}

    def place(word: str | tuple[int, str]) -> tuple[int, int]:
        """(board, side) of a player (named ``word``, or that member's (id, name)) in this round."""
        member = word[0] if isinstance(word, tuple) else ids.get(name_key(word))
        if member is None or member not in names:
            raise UserError("error_unknown_player", name=(word[1] if isinstance(word, tuple) else word)[:60])
        for board, seats in layout.items():
            if member in seats:
                return board, seats.index(member)
        raise UserError("error_not_in_round", name=names[member], round=row.number)

    def exchange(a: tuple[int, int], b: tuple[int, int]) -> None:
        layout[a[0]][a[1]], layout[b[0]][b[1]] = layout[b[0]][b[1]], layout[a[0]][a[1]]

    one = " ".join(ctx.args)
    if what == "colour":
        board = parse_int(one)
        if board is None:
            board = place(one)[0]
        if board not in layout or board == BYE:
            raise UserError("error_no_such_board", board=one[:10], round=row.number)
        layout[board].reverse()
    elif what == "bye":
        if bye is None:
            raise UserError("error_no_bye", round=row.number)
        exchange(place(one), (BYE, 0))
    else:
        a, b = place(named[0]), place(named[1])
        if a == b:
            raise UserError("error_usage", usage=ctx.t("usage_indeling"))
        if what == "swap":
            if a[0] == b[0]:
                layout[a[0]].reverse()
            else:
                exchange(a, b)
        else:  # pair: b takes the place of a's opponent
            if a[0] == BYE:
                raise UserError("error_pair_the_bye", name=names[layout[BYE][0]])
            if a[0] == b[0]:
                raise UserError("error_already_paired", a=names[layout[a[0]][0]], b=names[layout[a[0]][1]])
            exchange((a[0], 1 - a[1]), b)
    made = [g for g in games if {g.white_id, g.black_id} != set(layout[g.board])]  # new games, not new colours
    if made and not repeat_ok:
        word = {"swap": SWAP_WORDS, "pair": PAIR_WORDS, "bye": BYE_WORDS, "colour": COLOUR_WORDS}[what][0]
        command = director_games.command_line("indeling", [word, *ctx.args], kind == "rapid")
        new_games = [(layout[g.board][0], layout[g.board][1]) for g in made]
        question = director_games.ask_before_repeat(ctx, data, row, new_games, command)
        if question is not None:
            return question
    for g in made:  # a new game gets its colours as the pairing would give them
        layout[g.board] = list(director_games.colours(data, row, layout[g.board][0], layout[g.board][1]))
    changed = [g for g in games if [g.white_id, g.black_id] != layout[g.board]]
    if not changed and (bye is None or layout[BYE] == [bye]):
        raise UserError("error_nothing_changed")
    if any(g.result is not None or g.reported_result is not None for g in changed):
        raise UserError("error_change_results_in", round=row.number)
    in_chat: set[tuple[str, int]] = set()
    for played_in_chat in core.registry.chat_played:
        in_chat |= await played_in_chat(core, ctx.club.id)
    if any((KeizerSource.kind, g.id) in in_chat for g in changed):
        raise UserError("error_undo_chat_game", round=row.number)
    boards = sorted(b for b in layout if b != BYE)
    new_bye = layout[BYE][0] if BYE in layout else None
    body, picture = pairing_announcement(
        ctx.lang, row, [(names[layout[b][0]], names[layout[b][1]]) for b in boards],
        names[new_bye] if new_bye is not None else None, data.season.kind,
    )  # fmt: skip
    held = await announcement_held(core, ctx.club, row)  # online: announced once its challenges are made
    posted = await store.change_pairing(
        row.id, [(b, layout[b][0], layout[b][1]) for b in boards], new_bye, ctx.club.id, None if held else (body, picture), ctx.now
    )
    await sync_round(core, ctx.club, data.season, row, ctx.now)  # stale challenges cancelled, new ones made
    shown = await pairing_reply(core, ctx, data, row)
    note = for_competition(ctx.lang, data.season.kind, ctx.t("pairing_changed_posted" if posted else "pairing_changed", round=row.number))
    return Reply(lines=(note, *shown.lines), table=shown.table)
