"""Playing a go game: ``/zet``, ``/pas``, ``/opgeven``, ``/dood``, ``/akkoord``, ``/afwijzen`` and ``/bord``;
every action is checked on the replayed game before it is stored, and a finished game's result flows into
the competition when the game was a pairing of a round."""

from __future__ import annotations


from engine.go import BLACK, EMPTY, Action, GoError, GoGame, other, point_name, toggle_dead
from engine.go.scoring import marked_stones
from engine.go import parse_point, standard_handicap

from bot.core.commands.competitions import CompetitionGame
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.go.store import GoGameRow, GoStore

from bot.go.view import COORD, board_reply, chat_source, colour_name, colour_of, engine_error, load_game, member_of, names_of, pick_game, picture, score_lines, sgf_file, split_args


async def finish(core: Core, ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str]) -> list[str]:
    """Record the end of a game; a competition pairing gets its result (and the round its standings)."""
    outcome = game.outcome
    assert outcome is not None
    winner_id = member_of(row, outcome.winner) if outcome.winner is not None else None
    gs = GoStore(core.store)
    await gs.finish(row.id, outcome.sgf(), winner_id, ctx.now)
    if winner_id is None:
        lines = [ctx.t("go_over_tie", result=outcome.sgf())]
    else:
        how = {"score": "go_how_score", "resign": "go_how_resign", "timeout": "go_how_timeout"}[outcome.how]
        lines = [ctx.t("go_over", name=names[winner_id], colour=colour_name(ctx, outcome.winner or BLACK),
                       result=outcome.sgf(), how=ctx.t(how))]  # fmt: skip
    if outcome.score is not None:
        lines.extend(score_lines(ctx, game))
    source = chat_source(core) if row.keizer_game_id is not None else None
    pairing = await source.game(core, row.keizer_game_id) if source and row.keizer_game_id is not None else None
    if source is not None and pairing is not None:
        result = "1/2-1/2" if winner_id is None else ("1-0" if winner_id == pairing.white_id else "0-1")
        earlier = pairing.result or pairing.reported
        if pairing.result is None:
            await source.record_result(core, ctx, pairing.game_id, result)
            lines.append(ctx.t("go_result_entered", result=result, round=pairing.round_number, board=pairing.board))
        else:
            lines.append(ctx.t("go_result_already", result=pairing.result, round=pairing.round_number))
        if earlier is not None and earlier != result:
            told = await _tell_directors(core, ctx, row, pairing, names, outcome.sgf(), result)
            lines.append(ctx.t("go_directors_told" if told else "go_directors_ask", earlier=earlier, result=result))
    return lines


async def _tell_directors(
    core: Core, ctx: Context, row: GoGameRow, pairing: CompetitionGame, names: dict[int, str], sgf: str, result: str
) -> bool:
    """A go game's result that differs from the result its pairing already has (kept) or from a player's
    report (replaced): each director gets a private notice. False when no director has a chat account."""
    key = "go_notice_result_differs" if pairing.result is not None else "go_notice_report_differs"
    body = ctx.t(
        key, id=row.id, black=names[row.black_id], white=names[row.white_id], go_result=sgf, result=result,
        round=pairing.round_number, board=pairing.board, entered=pairing.result or "", reported=pairing.reported or "",
        name=names[pairing.white_id],
    )  # fmt: skip
    accounts = await core.store.director_accounts(ctx.club.id)
    for account in accounts:
        await core.store.queue_announcement(ctx.club.id, None, f"go_result_differs:{row.id}:{account}", body, ctx.now,
                                            recipient=account)  # fmt: skip
    return bool(accounts)


async def apply_actions(core: Core, ctx: Context, row: GoGameRow, game: GoGame, actions: list[Action]) -> list[str]:
    """Check ``actions`` on the replayed game (refused: nothing written), then store them. Returns the
    lines about the end of the game, if it ended."""
    names = await names_of(core, row)
    before = game.to_act
    for action in actions:
        try:
            game.apply(action)
        except GoError as err:
            raise engine_error(ctx, err, game, names, row)
    turn = ctx.now if game.to_act != before else None
    await GoStore(core.store).append(row.id, [a.text(row.size) for a in actions], turn, ctx.now)
    if game.phase == "over":
        return await finish(core, ctx, row, game, names)
    return []


async def after_action(core: Core, ctx: Context, row: GoGameRow, game: GoGame, head: list[str], end: list[str]) -> Reply:
    names = await names_of(core, row)
    if game.phase == "over":
        outcome = game.outcome
        assert outcome is not None
        png, text = picture(ctx, row, game, names, counting=outcome.how == "score")
        attachment = await sgf_file(core, ctx.club, row, game, names, outcome.sgf(), ctx.now)
        return Reply(lines=(*head, *end, ctx.t("go_sgf_attached")), image=png, attachment=attachment,
                     extra={"board_text": text})  # fmt: skip
    return board_reply(ctx, row, game, names, head)


async def players_game(
    core: Core, ctx: Context, args: list[str], need_turn: bool = True, check_turn: bool = True
) -> tuple[GoGameRow, GoGame, int, dict[int, str], list[str]]:
    """The acting member's game (see ``_pick``), their colour, the players' names and the coordinates
    given; refused when ``check_turn`` and it is not their turn."""
    coords, game_id, name = split_args(args)
    row, game = await pick_game(core, ctx, game_id, name, need_turn=need_turn)
    assert ctx.member is not None
    colour = colour_of(row, ctx.member.id)
    names = await names_of(core, row)
    if check_turn and game.to_act != colour:
        who = game.to_act
        raise UserError("go_error_not_your_turn", name=names[member_of(row, who)] if who is not None else "")
    return row, game, colour, names, coords


# ------------------------------------------------------------------ moves
async def cmd_zet(core: Core, ctx: Context) -> Reply:
    """``/zet D4`` (``/move``); handicap: ``/zet standaard`` or ``/zet D4 Q16 ...``."""
    standard = any(a.lower() in ("standaard", "standard") for a in ctx.args)
    args = [a for a in ctx.args if a.lower() not in ("standaard", "standard")]
    if not standard and not any(COORD.match(a) for a in args):
        raise UserError("error_usage", usage=ctx.t("usage_zet"))
    row, game, colour, names, coords = await players_game(core, ctx, args)
    assert ctx.member is not None
    try:
        points = tuple(parse_point(c, row.size) for c in coords)
    except GoError as err:
        raise engine_error(ctx, err, game, names, row)
    if game.phase == "handicap":
        if standard and coords:
            raise UserError("go_error_place_handicap", stones=row.handicap)
        action = Action("handicap", colour, standard_handicap(row.size, row.handicap) if standard else points)
        head = [ctx.t("go_handicap_placed", name=names[ctx.member.id], stones=row.handicap)]
    else:
        if game.phase != "play":
            raise UserError(f"go_error_phase_{game.phase}")
        if standard or len(points) != 1:
            raise UserError("error_usage", usage=ctx.t("usage_zet"))
        action = Action("play", colour, points)
        head = []
    end = await apply_actions(core, ctx, row, game, [action])
    if action.kind == "play":
        taken = game.last_captures
        key = "go_moved_captures" if taken else "go_moved"
        head = [ctx.t(key, name=names[ctx.member.id], colour=colour_name(ctx, colour),
                      point=point_name(points[0], row.size), n=taken)]  # fmt: skip
    return await after_action(core, ctx, row, game, head, end)


async def cmd_pas(core: Core, ctx: Context) -> Reply:
    """``/pas`` (``/pass``): two passes in a row end play."""
    row, game, colour, names, coords = await players_game(core, ctx, ctx.args)
    assert ctx.member is not None
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_pas"))
    if game.phase != "play":
        raise UserError(f"go_error_phase_{game.phase}")
    end = await apply_actions(core, ctx, row, game, [Action("pass", colour)])
    head = [ctx.t("go_passed", name=names[ctx.member.id], colour=colour_name(ctx, colour))]
    if game.phase == "marking":
        head.append(ctx.t("go_two_passes"))
    return await after_action(core, ctx, row, game, head, end)


async def cmd_opgeven(core: Core, ctx: Context) -> Reply:
    """``/opgeven`` (``/resign``): the opponent wins."""
    row, game, colour, names, coords = await players_game(core, ctx, ctx.args, need_turn=False, check_turn=False)
    assert ctx.member is not None
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_opgeven"))
    end = await apply_actions(core, ctx, row, game, [Action("resign", colour)])
    head = [ctx.t("go_resigned", name=names[ctx.member.id])]
    return await after_action(core, ctx, row, game, head, end)


async def cmd_dood(core: Core, ctx: Context) -> Reply:
    """``/dood D4`` (``/dead``): mark (or unmark) dead stones; ``/dood klaar`` sends the marking and the
    score to the opponent."""
    done = any(a.lower() in ("klaar", "done", "ok") for a in ctx.args)
    args = [a for a in ctx.args if a.lower() not in ("klaar", "done", "ok")]
    if not done and not any(COORD.match(a) for a in args):
        raise UserError("error_usage", usage=ctx.t("usage_dood"))
    row, game, colour, names, coords = await players_game(core, ctx, args, check_turn=False)
    assert ctx.member is not None
    if game.phase != "marking":
        raise UserError("go_error_not_marking")
    if game.to_act != colour:
        raise UserError("go_error_not_your_turn", name=names[member_of(row, other(colour))])
    try:
        actions = [Action("mark", colour, (parse_point(c, row.size),)) for c in coords]
    except GoError as err:
        raise engine_error(ctx, err, game, names, row)
    notes = _open_marks(ctx, game, [a.points[0] for a in actions])
    if done:
        actions.append(Action("done", colour))
    end = await apply_actions(core, ctx, row, game, actions)
    head = [ctx.t("go_marked", name=names[ctx.member.id], dead=len(game.dead)), *notes] if coords else []
    return await after_action(core, ctx, row, game, head, end)


def _open_marks(ctx: Context, game: GoGame, points: list[int]) -> list[str]:
    """A line for each mark that took only the stone's group because the area around it is open
    (``engine.go.scoring.marked_stones``), in the order the marks are made."""
    cells, size, dead = game.board.cells, game.settings.size, game.dead
    lines: list[str] = []
    for point in points:
        if not 0 <= point < len(cells) or cells[point] == EMPTY:
            return lines  # the engine refuses the mark
        if point not in dead:
            stones, closed = marked_stones(cells, size, dead, point)
            if not closed:
                lines.append(ctx.t("go_mark_open", point=point_name(point, size), stones=len(stones)))
        dead = toggle_dead(cells, size, dead, point)
    return lines


async def _review(core: Core, ctx: Context, accept: bool) -> Reply:
    row, game, colour, names, coords = await players_game(core, ctx, ctx.args, check_turn=False)
    assert ctx.member is not None
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_akkoord" if accept else "usage_afwijzen"))
    if game.phase != "review" or game.to_act != colour:
        raise UserError("go_error_nothing_to_review")
    end = await apply_actions(core, ctx, row, game, [Action("accept" if accept else "reject", colour)])
    head = [ctx.t("go_agreed" if accept else "go_rejected", name=names[ctx.member.id])]
    return await after_action(core, ctx, row, game, head, end)


async def cmd_akkoord(core: Core, ctx: Context) -> Reply:
    """``/akkoord`` (``/agree``): accept the opponent's marking; the game is over."""
    return await _review(core, ctx, True)


async def cmd_afwijzen(core: Core, ctx: Context) -> Reply:
    """``/afwijzen`` (``/reject``): reject the marking; play resumes."""
    return await _review(core, ctx, False)


async def cmd_bord(core: Core, ctx: Context) -> Reply:
    """``/bord [#id | naam]`` (``/board``): the board of one's game, or of any running game by number."""
    coords, game_id, name = split_args(ctx.args)
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_bord"))
    if game_id is not None and not name:
        found = await GoStore(core.store).game(game_id)
        if found is None or found.club_id != ctx.club.id or found.status not in ("playing", "finished"):
            raise UserError("go_error_no_game")
        row, game = found, load_game(found)
    else:
        row, game = await pick_game(core, ctx, game_id, name, need_turn=True)
    names = await names_of(core, row)
    head = [ctx.t("go_board_title", id=row.id, black=names[row.black_id], white=names[row.white_id], moves=game.moves)]
    if game.phase == "over":
        png, text = picture(ctx, row, game, names, counting=game.outcome is not None and game.outcome.how == "score")
        return Reply(lines=(*head, ctx.t("go_finished", result=row.result or "")), image=png, extra={"board_text": text})
    return board_reply(ctx, row, game, names, head)


