"""Turn-based go in the chat (seed 001, issue 7): challenges, moves, passes, dead stones and agreement,
board pictures, SGF, reminders and time-outs, and competition pairings played as go games.

The rules are the engine's (``engine/go``); a game is stored as its list of actions and replayed for
every command, so what is stored is exactly what was played. Every refusal raises ``UserError`` before
anything is written. ``run_due(commands, now)`` is for the scheduler: reminders and losses on time.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING

from engine.go import BLACK, WHITE, Action, GoError, GoGame, GoSettings, default_komi, other, point_name
from engine.go import parse_point, replay, standard_handicap, territory
from engine.go.sgf import write_sgf
from engine.go.timing import GameClock, due, next_due

from bot import competition
from bot.go_pictures import board_png, board_text
from bot.replies import Button, Reply
from bot.store_go import GoClubSettings, GoGameRow, GoStore

from bot.commands import Actor, Context, UserError

if TYPE_CHECKING:
    from bot.commands import Commands

SIZES = ("19", "13", "9")
_COORD = re.compile(r"^[A-Za-z][0-9]{1,2}$")
_ID = re.compile(r"^#(\d{1,9})$")
_DURATION = re.compile(r"^(\d{1,5})(m|min|u|h|d|w)?$")
_UNIT_MINUTES = {"m": 1, "min": 1, "u": 60, "h": 60, "d": 1440, "w": 10080, None: 60}
_OFF = {"uit", "off", "geen", "none", "0"}
_SUB = {
    "uitdagen": "challenge", "challenge": "challenge",
    "accepteren": "accept", "accept": "accept", "aannemen": "accept",
    "weigeren": "decline", "decline": "decline", "intrekken": "decline", "withdraw": "decline",
    "lijst": "list", "list": "list", "partijen": "list", "games": "list",
    "sgf": "sgf",
    "bedenktijd": "think", "thinkingtime": "think",
    "herinnering": "remind", "reminder": "remind",
    "voorgiftkomi": "hkomi", "handicapkomi": "hkomi",
    "instellingen": "settings", "settings": "settings",
}  # fmt: skip
_DIRECTOR_SUBS = ("think", "remind", "hkomi")


def register(commands: Commands) -> None:
    commands.add("go", cmd_go, False, None)
    commands.add("zet", cmd_zet, False, "move")
    commands.add("pas", cmd_pas, False, "pass")
    commands.add("opgeven", cmd_opgeven, False, "resign")
    commands.add("dood", cmd_dood, False, "dead")
    commands.add("akkoord", cmd_akkoord, False, "agree")
    commands.add("afwijzen", cmd_afwijzen, False, "reject")
    commands.add("bord", cmd_bord, False, "board")


# ------------------------------------------------------------------ helpers
def _colour_name(ctx: Context, colour: int) -> str:
    return ctx.t("go_black" if colour == BLACK else "go_white")


def _settings(row: GoGameRow) -> GoSettings:
    return GoSettings(row.size, row.komi, row.handicap)


def _load(row: GoGameRow) -> GoGame:
    return replay(_settings(row), (Action.parse(line, row.size) for line in row.record))


def _colour_of(row: GoGameRow, member_id: int) -> int:
    return BLACK if member_id == row.black_id else WHITE


def _member_of(row: GoGameRow, colour: int) -> int:
    return row.black_id if colour == BLACK else row.white_id


def _fmt(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


async def _names(commands: Commands, row: GoGameRow) -> dict[int, str]:
    names: dict[int, str] = {}
    for member_id in (row.black_id, row.white_id):
        member = await commands.store.member(member_id)
        names[member_id] = member.name if member else str(member_id)
    return names


def _split(args: list[str]) -> tuple[list[str], int | None, str]:
    """Coordinates, a ``#id`` and the rest (an opponent's name, ``@`` stripped)."""
    coords: list[str] = []
    game_id: int | None = None
    rest: list[str] = []
    for arg in args:
        match = _ID.match(arg)
        if match:
            game_id = int(match.group(1))
        elif _COORD.match(arg):
            coords.append(arg)
        else:
            rest.append(arg)
    return coords, game_id, " ".join(" ".join(rest).lstrip("@").split())


async def _pick(
    commands: Commands, ctx: Context, game_id: int | None, name: str, statuses: tuple[str, ...] = ("playing",),
    need_turn: bool = True,
) -> tuple[GoGameRow, GoGame]:  # fmt: skip
    """The member's game the command is about: by ``#id``, by the opponent's name, or the only one
    (or the only one where it is their turn)."""
    member = commands._require_member(ctx)
    gs = GoStore(commands.store)
    games = await gs.games_of(ctx.club.id, member.id, statuses)
    games = await _narrow(commands, ctx, member.id, games, game_id, name)
    if not games:
        raise UserError("go_error_no_game")
    if len(games) > 1 and need_turn:
        mine = [g for g in games if _load(g).to_act == _colour_of(g, member.id)]
        games = mine or games
    if len(games) > 1:
        names = []
        for g in games:
            opponent_member = await commands.store.member(g.opponent_of(member.id))
            names.append(f"#{g.id} {opponent_member.name if opponent_member else '?'}")
        raise UserError("go_error_which_game", games=", ".join(names))
    return games[0], _load(games[0])


def _engine_error(ctx: Context, err: GoError, game: GoGame, names: dict[int, str], row: GoGameRow) -> UserError:
    reason = err.reason
    if reason == "not_your_turn":
        who = game.to_act
        name = names[_member_of(row, who)] if who is not None else ""
        return UserError("go_error_not_your_turn", name=name)
    if reason == "wrong_phase":
        return UserError(f"go_error_phase_{game.phase}")
    if reason == "place_handicap":
        return UserError("go_error_place_handicap", stones=row.handicap)
    values = {k: v for k, v in err.details.items() if k in ("point", "text", "size", "last")}
    return UserError(f"go_error_{reason}", **values)


def _picture(ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str], counting: bool = False) -> tuple[bytes, str]:
    last = game.last.points[0] if game.last is not None and game.last.kind == "play" else None
    areas = territory(game.board.cells, row.size, game.dead) if counting else None
    caption = [
        ctx.t("go_caption_players", black=names[row.black_id], white=names[row.white_id], size=row.size,
              komi=_fmt(row.komi), handicap=row.handicap),
        ctx.t("go_caption_captured", black=game.captured[BLACK], white=game.captured[WHITE], moves=game.moves),
    ]  # fmt: skip
    png = board_png(row.size, game.board.cells, last, game.dead, areas, caption)
    return png, board_text(row.size, game.board.cells, last, game.dead)


def _score_lines(ctx: Context, game: GoGame) -> list[str]:
    s = game.score()
    return [
        ctx.t("go_score_black", score=_fmt(s.black), territory=s.black_territory, captured=s.black_captured,
              dead=s.black_dead, komi=_fmt(s.komi)),
        ctx.t("go_score_white", score=_fmt(s.white), territory=s.white_territory, captured=s.white_captured,
              dead=s.white_dead),
    ]  # fmt: skip


def _status_lines(ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str]) -> tuple[list[str], list[Button]]:
    """Who must do what now, with the buttons for it."""
    lines: list[str] = []
    buttons: list[Button] = []
    who = game.to_act
    name = names[_member_of(row, who)] if who is not None else ""
    if game.phase == "handicap":
        lines.append(ctx.t("go_place_handicap", name=name, stones=row.handicap))
        buttons.append(Button(ctx.t("go_button_standard"), f"/zet standaard #{row.id}"))
    elif game.phase == "play":
        lines.append(ctx.t("go_to_move", name=name, colour=_colour_name(ctx, who) if who else ""))
    elif game.phase == "marking":
        lines.append(ctx.t("go_marking", name=name))
        lines.extend(_score_lines(ctx, game))
        buttons.append(Button(ctx.t("go_button_done"), f"/dood klaar #{row.id}"))
    elif game.phase == "review":
        marker = names[_member_of(row, other(who))] if who is not None else ""
        lines.append(ctx.t("go_review", marker=marker, name=name))
        lines.extend(_score_lines(ctx, game))
        buttons.append(Button(ctx.t("go_button_agree"), f"/akkoord #{row.id}"))
        buttons.append(Button(ctx.t("go_button_reject"), f"/afwijzen #{row.id}"))
    return lines, buttons


def _board_reply(
    ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str], head: list[str],
    extra_buttons: tuple[Button, ...] = (),
) -> Reply:  # fmt: skip
    counting = game.phase in ("marking", "review")
    png, text = _picture(ctx, row, game, names, counting)
    lines, buttons = _status_lines(ctx, row, game, names)
    return Reply(
        lines=(*head, *lines), image=png, buttons=(*buttons, *extra_buttons), extra={"board_text": text}
    )


def _sgf(row: GoGameRow, game: GoGame, names: dict[int, str], result: str) -> tuple[str, bytes]:
    text = write_sgf(
        _settings(row), game.actions, black=names[row.black_id], white=names[row.white_id],
        date=row.created_at.date().isoformat(), result=result,
    )  # fmt: skip
    filename = re.sub(r"[^A-Za-z0-9._-]+", "_", f"go-{row.id}-{names[row.black_id]}-{names[row.white_id]}") + ".sgf"
    return filename, text.encode("utf-8")


async def _finish(commands: Commands, ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str]) -> list[str]:
    """Record the end of a game; a competition pairing gets its result (and the round its standings)."""
    outcome = game.outcome
    assert outcome is not None
    winner_id = _member_of(row, outcome.winner) if outcome.winner is not None else None
    gs = GoStore(commands.store)
    await gs.finish(row.id, outcome.sgf(), winner_id, ctx.now)
    if winner_id is None:
        lines = [ctx.t("go_over_tie", result=outcome.sgf())]
    else:
        how = {"score": "go_how_score", "resign": "go_how_resign", "timeout": "go_how_timeout"}[outcome.how]
        lines = [ctx.t("go_over", name=names[winner_id], colour=_colour_name(ctx, outcome.winner or BLACK),
                       result=outcome.sgf(), how=ctx.t(how))]  # fmt: skip
    if outcome.score is not None:
        lines.extend(_score_lines(ctx, game))
    if row.keizer_game_id is not None:
        kg = await commands.store.game(row.keizer_game_id)
        round_row = await commands.store.round(kg.round_id) if kg else None
        season = await commands.store.season(round_row.season_id) if round_row else None
        if kg is not None and round_row is not None and season is not None:
            if kg.result is None:
                result = "1/2-1/2" if winner_id is None else ("1-0" if winner_id == kg.white_id else "0-1")
                await commands.store.set_result(kg.id, result, ctx.now)
                lines.append(ctx.t("go_result_entered", result=result, round=round_row.number, board=kg.board))
                await commands._after_result(ctx, season, round_row)
            else:
                lines.append(ctx.t("go_result_already", result=kg.result, round=round_row.number))
    return lines


async def _apply(commands: Commands, ctx: Context, row: GoGameRow, game: GoGame, actions: list[Action]) -> list[str]:
    """Check ``actions`` on the replayed game (refused: nothing written), then store them. Returns the
    lines about the end of the game, if it ended."""
    names = await _names(commands, row)
    before = game.to_act
    for action in actions:
        try:
            game.apply(action)
        except GoError as err:
            raise _engine_error(ctx, err, game, names, row)
    turn = ctx.now if game.to_act != before else None
    await GoStore(commands.store).append(row.id, [a.text(row.size) for a in actions], turn)
    if game.phase == "over":
        return await _finish(commands, ctx, row, game, names)
    return []


async def _after_action(commands: Commands, ctx: Context, row: GoGameRow, game: GoGame, head: list[str], end: list[str]) -> Reply:
    names = await _names(commands, row)
    if game.phase == "over":
        outcome = game.outcome
        assert outcome is not None
        png, text = _picture(ctx, row, game, names, counting=outcome.how == "score")
        attachment = _sgf(row, game, names, outcome.sgf())
        return Reply(lines=(*head, *end, ctx.t("go_sgf_attached")), image=png, attachment=attachment,
                     extra={"board_text": text})  # fmt: skip
    return _board_reply(ctx, row, game, names, head)


# ------------------------------------------------------------------ /go
async def cmd_go(commands: Commands, ctx: Context) -> Reply:
    """``/go uitdagen|accepteren|weigeren|lijst|sgf`` and, for the director, ``/go bedenktijd|herinnering|
    voorgiftkomi|instellingen``."""
    if not ctx.args or ctx.args[0].lower() not in _SUB:
        raise UserError("error_usage", usage=ctx.t("usage_go"))
    sub = _SUB[ctx.args[0].lower()]
    args = ctx.args[1:]
    if sub in _DIRECTOR_SUBS and not ctx.is_director:
        raise UserError("error_director_only", command=f"go {ctx.args[0].lower()[:20]}")
    if sub == "challenge":
        return await _challenge(commands, ctx, args)
    if sub in ("accept", "decline"):
        return await _answer(commands, ctx, args, sub == "accept")
    if sub == "list":
        return await _list(commands, ctx)
    if sub == "sgf":
        return await _sgf_command(commands, ctx, args)
    return await _setting(commands, ctx, sub, args)


async def _challenge(commands: Commands, ctx: Context, args: list[str]) -> Reply:
    """``/go uitdagen @speler [19|13|9] [voorgift N] [zwart|wit] [vrij]``."""
    member = commands._require_member(ctx)
    size, handicap, colour, friendly = 19, 0, None, False
    rest: list[str] = []
    i = 0
    while i < len(args):
        word = args[i].lower()
        if word in SIZES or word in ("19x19", "13x13", "9x9"):
            size = int(word.split("x")[0])
        elif word in ("voorgift", "handicap"):
            value = args[i + 1] if i + 1 < len(args) else ""
            if not value.isdigit() or not 0 <= int(value) <= 9:
                raise UserError("go_error_bad_handicap", value=value[:10])
            handicap = int(value)
            i += 1
        elif word in ("zwart", "black", "wit", "white"):
            colour = BLACK if word in ("zwart", "black") else WHITE
        elif word in ("vrij", "friendly", "vriendschappelijk"):
            friendly = True
        else:
            rest.append(args[i])
        i += 1
    name = " ".join(" ".join(rest).lstrip("@").split())
    if not name:
        raise UserError("error_usage", usage=ctx.t("usage_go"))
    opponent = await commands._find_member(ctx, name)
    if opponent.id == member.id:
        raise UserError("go_error_self")
    gs = GoStore(commands.store)
    for g in await gs.games_of(ctx.club.id, member.id, ("challenged",)):
        if g.opponent_of(member.id) == opponent.id:
            raise UserError("go_error_open_challenge", name=opponent.name, id=g.id)
    keizer = None if friendly else await _pairing_between(commands, ctx, member.id, opponent.id)
    if keizer is not None:
        if colour is not None:
            raise UserError("go_error_colour_fixed")
        black_id, white_id = keizer.black_id, keizer.white_id
        if handicap and (await _rating(commands, black_id)) > (await _rating(commands, white_id)):
            black_id, white_id = white_id, black_id  # the handicap goes to the weaker player, who is black
    else:
        challenger_black = colour != WHITE
        if colour is None and handicap:
            challenger_black = member.rating <= opponent.rating
        black_id, white_id = (member.id, opponent.id) if challenger_black else (opponent.id, member.id)
    settings = await gs.settings(ctx.club.id)
    komi = default_komi(size, handicap, settings.handicap_komi)
    game_id = await gs.create(
        ctx.club.id, black_id, white_id, member.id, size, handicap, komi, keizer.id if keizer else None, ctx.now
    )
    names = {member.id: member.name, opponent.id: opponent.name}
    lines = [ctx.t("go_challenged", challenger=member.name, name=opponent.name, size=size, handicap=handicap,
                   komi=_fmt(komi), black=names[black_id], white=names[white_id], id=game_id)]  # fmt: skip
    if keizer is not None:
        round_row = await commands.store.round(keizer.round_id)
        lines.append(ctx.t("go_for_round", round=round_row.number if round_row else "?", board=keizer.board))
    return Reply(
        lines=tuple(lines),
        buttons=(
            Button(ctx.t("go_button_accept", name=opponent.name), f"/go accepteren #{game_id}"),
            Button(ctx.t("go_button_decline"), f"/go weigeren #{game_id}"),
        ),
    )


async def _rating(commands: Commands, member_id: int) -> int:
    m = await commands.store.member(member_id)
    return m.rating if m else 0


async def _pairing_between(commands: Commands, ctx: Context, a: int, b: int):  # type: ignore[no-untyped-def]
    """The unplayed game of the current competition round between ``a`` and ``b``, if any (and not
    already being played as a go game)."""
    season = await commands.store.active_season(ctx.club.id)
    if season is None:
        return None
    data = await competition.load(commands.store, season)
    row = competition.current_round(data)
    if row is None:
        return None
    for game in await commands.store.games_of_round(row.id):
        if {game.white_id, game.black_id} == {a, b} and game.result is None:
            if await GoStore(commands.store).game_for_keizer(game.id) is not None:
                return None
            return game
    return None


async def _narrow(
    commands: Commands, ctx: Context, member_id: int, games: list[GoGameRow], game_id: int | None, name: str
) -> list[GoGameRow]:
    """The games named by ``#id`` and/or by the opponent's name (all of them when neither is given)."""
    if game_id is not None:
        games = [g for g in games if g.id == game_id]
    if name:
        opponent = await commands._find_member(ctx, name)
        games = [g for g in games if g.opponent_of(member_id) == opponent.id]
    return games


async def _answer(commands: Commands, ctx: Context, args: list[str], accept: bool) -> Reply:
    member = commands._require_member(ctx)
    _, game_id, name = _split(args)
    gs = GoStore(commands.store)
    games = await gs.games_of(ctx.club.id, member.id, ("challenged",))
    if accept:  # only the one challenged accepts; either may call it off
        games = [g for g in games if g.challenged_id == member.id]
    games = await _narrow(commands, ctx, member.id, games, game_id, name)
    if not games:
        raise UserError("go_error_no_challenge")
    if len(games) > 1:
        listed = []
        for g in games:
            m = await commands.store.member(g.opponent_of(member.id))
            listed.append(f"#{g.id} {m.name if m else '?'}")
        raise UserError("go_error_which_game", games=", ".join(listed))
    row = games[0]
    names = await _names(commands, row)
    if not accept:
        await gs.decline(row.id, ctx.now)
        return Reply(lines=(ctx.t("go_declined", name=member.name, id=row.id),))
    await gs.start(row.id, ctx.now)
    started = await gs.game(row.id)
    assert started is not None
    game = _load(started)
    head = [ctx.t("go_started", black=names[row.black_id], white=names[row.white_id], size=row.size,
                  komi=_fmt(row.komi), handicap=row.handicap, id=row.id)]  # fmt: skip
    return _board_reply(ctx, started, game, names, head)


async def _list(commands: Commands, ctx: Context) -> Reply:
    member = commands._require_member(ctx)
    gs = GoStore(commands.store)
    games = await gs.games_of(ctx.club.id, member.id, ("challenged", "playing"))
    if not games:
        return Reply(lines=(ctx.t("go_list_empty"),), private=True)
    lines = [ctx.t("go_list_title")]
    for g in games:
        opponent = await commands.store.member(g.opponent_of(member.id))
        if g.status == "challenged":
            state = ctx.t("go_list_challenged")
        else:
            to_act = _load(g).to_act
            state = ctx.t("go_list_your_turn") if to_act == _colour_of(g, member.id) else ctx.t("go_list_waiting")
        lines.append(ctx.t("go_list_line", id=g.id, name=opponent.name if opponent else "?", size=g.size,
                           colour=_colour_name(ctx, _colour_of(g, member.id)), state=state))  # fmt: skip
    return Reply(lines=tuple(lines), private=True)


async def _sgf_command(commands: Commands, ctx: Context, args: list[str]) -> Reply:
    """``/go sgf [#id]``: the record of a game of this club (the member's last one without an id)."""
    _, game_id, name = _split(args)
    gs = GoStore(commands.store)
    row: GoGameRow | None = None
    if game_id is not None:
        row = await gs.game(game_id)
        if row is not None and (row.club_id != ctx.club.id or row.status not in ("playing", "finished")):
            row = None
    else:
        member = commands._require_member(ctx)
        games = await gs.games_of(ctx.club.id, member.id, ("playing", "finished"))
        if name:
            opponent = await commands._find_member(ctx, name)
            games = [g for g in games if g.opponent_of(member.id) == opponent.id]
        row = games[-1] if games else None
    if row is None:
        raise UserError("go_error_no_game")
    game = _load(row)
    names = await _names(commands, row)
    return Reply(lines=(ctx.t("go_sgf_attached"),), attachment=_sgf(row, game, names, row.result or ""), private=True)


def _parse_duration(text: str) -> timedelta | None:
    match = _DURATION.match(text.lower())
    if not match:
        raise UserError("go_error_bad_duration", value=text[:20])
    minutes = int(match.group(1)) * _UNIT_MINUTES[match.group(2)]
    if not 1 <= minutes <= 60 * 24 * 365:
        raise UserError("go_error_bad_duration", value=text[:20])
    return timedelta(minutes=minutes)


def _duration_text(ctx: Context, value: timedelta | None) -> str:
    if value is None:
        return ctx.t("go_off")
    minutes = int(value.total_seconds() // 60)
    if minutes % 1440 == 0:
        return ctx.t("go_days", n=minutes // 1440)
    if minutes % 60 == 0:
        return ctx.t("go_hours", n=minutes // 60)
    return ctx.t("go_minutes", n=minutes)


async def _setting(commands: Commands, ctx: Context, sub: str, args: list[str]) -> Reply:
    gs = GoStore(commands.store)
    current = await gs.settings(ctx.club.id)
    if sub != "settings":
        if len(args) != 1:
            raise UserError("error_usage", usage=ctx.t("usage_go"))
        value = args[0]
        if sub == "hkomi":
            try:
                komi = Fraction(value.replace(",", "."))
            except (ValueError, ZeroDivisionError):
                raise UserError("go_error_bad_komi", value=value[:20])
            if komi.denominator not in (1, 2) or not -20 <= komi <= 20:
                raise UserError("go_error_bad_komi", value=value[:20])
            current = GoClubSettings(current.remind_after, current.max_think, komi)
        else:
            duration = None if value.lower() in _OFF else _parse_duration(value)
            if sub == "think":
                current = GoClubSettings(current.remind_after, duration, current.handicap_komi)
            else:
                current = GoClubSettings(duration, current.max_think, current.handicap_komi)
        await gs.save_settings(ctx.club.id, current)
    return Reply(lines=(ctx.t("go_settings", remind=_duration_text(ctx, current.remind_after),
                              think=_duration_text(ctx, current.max_think),
                              komi=_fmt(current.handicap_komi)),))  # fmt: skip


async def _players_game(
    commands: Commands, ctx: Context, args: list[str], need_turn: bool = True, check_turn: bool = True
) -> tuple[GoGameRow, GoGame, int, dict[int, str], list[str]]:
    """The acting member's game (see ``_pick``), their colour, the players' names and the coordinates
    given; refused when ``check_turn`` and it is not their turn."""
    coords, game_id, name = _split(args)
    row, game = await _pick(commands, ctx, game_id, name, need_turn=need_turn)
    assert ctx.member is not None
    colour = _colour_of(row, ctx.member.id)
    names = await _names(commands, row)
    if check_turn and game.to_act != colour:
        who = game.to_act
        raise UserError("go_error_not_your_turn", name=names[_member_of(row, who)] if who is not None else "")
    return row, game, colour, names, coords


# ------------------------------------------------------------------ moves
async def cmd_zet(commands: Commands, ctx: Context) -> Reply:
    """``/zet D4`` (``/move``); handicap: ``/zet standaard`` or ``/zet D4 Q16 ...``."""
    standard = any(a.lower() in ("standaard", "standard") for a in ctx.args)
    args = [a for a in ctx.args if a.lower() not in ("standaard", "standard")]
    if not standard and not any(_COORD.match(a) for a in args):
        raise UserError("error_usage", usage=ctx.t("usage_zet"))
    row, game, colour, names, coords = await _players_game(commands, ctx, args)
    assert ctx.member is not None
    try:
        points = tuple(parse_point(c, row.size) for c in coords)
    except GoError as err:
        raise _engine_error(ctx, err, game, names, row)
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
    end = await _apply(commands, ctx, row, game, [action])
    if action.kind == "play":
        taken = game.last_captures
        key = "go_moved_captures" if taken else "go_moved"
        head = [ctx.t(key, name=names[ctx.member.id], colour=_colour_name(ctx, colour),
                      point=point_name(points[0], row.size), n=taken)]  # fmt: skip
    return await _after_action(commands, ctx, row, game, head, end)


async def cmd_pas(commands: Commands, ctx: Context) -> Reply:
    """``/pas`` (``/pass``): two passes in a row end play."""
    row, game, colour, names, coords = await _players_game(commands, ctx, ctx.args)
    assert ctx.member is not None
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_pas"))
    if game.phase != "play":
        raise UserError(f"go_error_phase_{game.phase}")
    end = await _apply(commands, ctx, row, game, [Action("pass", colour)])
    head = [ctx.t("go_passed", name=names[ctx.member.id], colour=_colour_name(ctx, colour))]
    if game.phase == "marking":
        head.append(ctx.t("go_two_passes"))
    return await _after_action(commands, ctx, row, game, head, end)


async def cmd_opgeven(commands: Commands, ctx: Context) -> Reply:
    """``/opgeven`` (``/resign``): the opponent wins."""
    row, game, colour, names, coords = await _players_game(commands, ctx, ctx.args, need_turn=False, check_turn=False)
    assert ctx.member is not None
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_opgeven"))
    end = await _apply(commands, ctx, row, game, [Action("resign", colour)])
    head = [ctx.t("go_resigned", name=names[ctx.member.id])]
    return await _after_action(commands, ctx, row, game, head, end)


async def cmd_dood(commands: Commands, ctx: Context) -> Reply:
    """``/dood D4`` (``/dead``): mark (or unmark) dead stones; ``/dood klaar`` sends the marking and the
    score to the opponent."""
    done = any(a.lower() in ("klaar", "done", "ok") for a in ctx.args)
    args = [a for a in ctx.args if a.lower() not in ("klaar", "done", "ok")]
    if not done and not any(_COORD.match(a) for a in args):
        raise UserError("error_usage", usage=ctx.t("usage_dood"))
    row, game, colour, names, coords = await _players_game(commands, ctx, args, check_turn=False)
    assert ctx.member is not None
    if game.phase != "marking":
        raise UserError("go_error_not_marking")
    if game.to_act != colour:
        raise UserError("go_error_not_your_turn", name=names[_member_of(row, other(colour))])
    try:
        actions = [Action("mark", colour, (parse_point(c, row.size),)) for c in coords]
    except GoError as err:
        raise _engine_error(ctx, err, game, names, row)
    if done:
        actions.append(Action("done", colour))
    end = await _apply(commands, ctx, row, game, actions)
    head = [ctx.t("go_marked", name=names[ctx.member.id], dead=len(game.dead))] if coords else []
    return await _after_action(commands, ctx, row, game, head, end)


async def _review(commands: Commands, ctx: Context, accept: bool) -> Reply:
    row, game, colour, names, coords = await _players_game(commands, ctx, ctx.args, check_turn=False)
    assert ctx.member is not None
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_akkoord" if accept else "usage_afwijzen"))
    if game.phase != "review" or game.to_act != colour:
        raise UserError("go_error_nothing_to_review")
    end = await _apply(commands, ctx, row, game, [Action("accept" if accept else "reject", colour)])
    head = [ctx.t("go_agreed" if accept else "go_rejected", name=names[ctx.member.id])]
    return await _after_action(commands, ctx, row, game, head, end)


async def cmd_akkoord(commands: Commands, ctx: Context) -> Reply:
    """``/akkoord`` (``/agree``): accept the opponent's marking; the game is over."""
    return await _review(commands, ctx, True)


async def cmd_afwijzen(commands: Commands, ctx: Context) -> Reply:
    """``/afwijzen`` (``/reject``): reject the marking; play resumes."""
    return await _review(commands, ctx, False)


async def cmd_bord(commands: Commands, ctx: Context) -> Reply:
    """``/bord [#id | naam]`` (``/board``): the board of one's game, or of any running game by number."""
    coords, game_id, name = _split(ctx.args)
    if coords:
        raise UserError("error_usage", usage=ctx.t("usage_bord"))
    if game_id is not None and not name:
        found = await GoStore(commands.store).game(game_id)
        if found is None or found.club_id != ctx.club.id or found.status not in ("playing", "finished"):
            raise UserError("go_error_no_game")
        row, game = found, _load(found)
    else:
        row, game = await _pick(commands, ctx, game_id, name, need_turn=True)
    names = await _names(commands, row)
    head = [ctx.t("go_board_title", id=row.id, black=names[row.black_id], white=names[row.white_id], moves=game.moves)]
    if game.phase == "over":
        png, text = _picture(ctx, row, game, names, counting=game.outcome is not None and game.outcome.how == "score")
        return Reply(lines=(*head, ctx.t("go_finished", result=row.result or "")), image=png, extra={"board_text": text})
    return _board_reply(ctx, row, game, names, head)


# ------------------------------------------------------------------ the clock: reminders and time-outs
async def _clocks(commands: Commands) -> list[tuple[GoGameRow, GameClock]]:
    gs = GoStore(commands.store)
    cache: dict[int, GoClubSettings] = {}
    result = []
    for row in await gs.running():
        if row.club_id not in cache:
            cache[row.club_id] = await gs.settings(row.club_id)
        s = cache[row.club_id]
        started = row.turn_started_at or row.created_at
        result.append((row, GameClock(row.id, started, row.reminded_at, s.remind_after, s.max_think)))
    return result


async def next_due_moment(commands: Commands) -> datetime | None:
    """When the next reminder or loss on time falls due (for the scheduler's alarm)."""
    return next_due(c for _, c in await _clocks(commands))


async def run_due(commands: Commands, now: datetime) -> None:
    """Send the reminders that are due and record the games lost on time (the club's channel hears of
    both); a competition pairing lost on time gets its result. One transaction."""
    async with commands.store.transaction():
        clocks = await _clocks(commands)
        rows = {row.id: row for row, _ in clocks}
        todo = due(now, [c for _, c in clocks])
        gs = GoStore(commands.store)
        for game_id in (*todo.timeouts, *todo.reminders):
            row = rows[game_id]
            club = await commands.store.club(row.club_id)
            if club is None:
                continue
            actor = Actor(club.platform, club.external_id, club.name, "clubbot", "clubbot", is_director=True)
            ctx = Context(actor, club, None, now, [])
            game = _load(row)
            who = game.to_act
            if who is None:
                continue
            names = await _names(commands, row)
            name = names[_member_of(row, who)]
            if game_id in todo.timeouts:
                end = await _apply(commands, ctx, row, game, [Action("timeout", who)])
                body = [ctx.t("go_timeout", name=name, id=row.id), *end]
                await commands.store.queue_announcement(club.id, None, f"go_timeout_{row.id}", "\n".join(body), now)
            else:
                started = row.turn_started_at or row.created_at
                settings = await gs.settings(club.id)
                left = ""
                if settings.max_think is not None:
                    left = ctx.t("go_reminder_deadline", moment=commands._local(ctx, started + settings.max_think))
                opponent = names[row.opponent_of(_member_of(row, who))]
                body = ctx.t("go_reminder", name=name, opponent=opponent, id=row.id, deadline=left)
                await commands.store.queue_announcement(club.id, None, f"go_reminder_{row.id}", body, now)
                await gs.mark_reminded(row.id, now)
