"""How a go game shows in the chat: names and colours, the board picture, the score, whose turn it is and
the buttons for the next step, the SGF file; and picking a member's game by ``#id`` or opponent."""

from __future__ import annotations

import re
from datetime import datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

from engine.go import BLACK, WHITE, Action, GoError, GoGame, GoSettings, other
from engine.go import replay, territory
from engine.go.sgf import sgf_dates, write_sgf

from bot.core.output.calendar import parse_zone
from bot.core.commands.competitions import CompetitionSource
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Button, Reply
from bot.core.storage.store import Club
from bot.go.pictures import board_png, board_text
from bot.go.store import GoGameRow, GoStore

_ID = re.compile(r"^#([0-9]{1,9})$")
COORD = re.compile(r"^[A-Za-z][0-9]{1,2}$")


def colour_name(ctx: Context, colour: int) -> str:
    return ctx.t("go_black" if colour == BLACK else "go_white")


def settings_of(row: GoGameRow) -> GoSettings:
    return GoSettings(row.size, row.komi, row.handicap)


def load_game(row: GoGameRow) -> GoGame:
    return replay(settings_of(row), (Action.parse(line, row.size) for line in row.record))


def colour_of(row: GoGameRow, member_id: int) -> int:
    return BLACK if member_id == row.black_id else WHITE


def member_of(row: GoGameRow, colour: int) -> int:
    return row.black_id if colour == BLACK else row.white_id


def fmt_komi(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


async def names_of(core: Core, row: GoGameRow) -> dict[int, str]:
    names: dict[int, str] = {}
    for member_id in (row.black_id, row.white_id):
        member = await core.store.member(member_id)
        names[member_id] = member.name if member else str(member_id)
    return names


def split_args(args: list[str]) -> tuple[list[str], int | None, str]:
    """Coordinates, a ``#id`` and the rest (an opponent's name, ``@`` stripped)."""
    coords: list[str] = []
    game_id: int | None = None
    rest: list[str] = []
    for arg in args:
        match = _ID.match(arg)
        if match:
            game_id = int(match.group(1))
        elif COORD.match(arg):
            coords.append(arg)
        else:
            rest.append(arg)
    return coords, game_id, " ".join(" ".join(rest).lstrip("@").split())


async def pick_game(
    core: Core, ctx: Context, game_id: int | None, name: str, statuses: tuple[str, ...] = ("playing",),
    need_turn: bool = True,
) -> tuple[GoGameRow, GoGame]:  # fmt: skip
    """The member's game the command is about: by ``#id``, by the opponent's name, or the only one
    (or the only one where it is their turn)."""
    member = ctx.require_member()
    gs = GoStore(core.store)
    games = await gs.games_of(ctx.club.id, member.id, statuses)
    games = await narrow(core, ctx, member.id, games, game_id, name)
    if not games:
        raise UserError("go_error_no_game")
    if len(games) > 1 and need_turn:
        mine = [g for g in games if load_game(g).to_act == colour_of(g, member.id)]
        games = mine or games
    await only_one(core, member.id, games)
    return games[0], load_game(games[0])


async def only_one(core: Core, member_id: int, games: list[GoGameRow]) -> None:
    """Refuse when more than one game fits, naming them (``#12 Bert, #15 Carla``) so the member can pick."""
    if len(games) > 1:
        listed = []
        for g in games:
            opponent = await core.store.member(g.opponent_of(member_id))
            listed.append(f"#{g.id} {opponent.name if opponent else '?'}")
        raise UserError("go_error_which_game", games=", ".join(listed))


def engine_error(ctx: Context, err: GoError, game: GoGame, names: dict[int, str], row: GoGameRow) -> UserError:
    reason = err.reason
    if reason == "not_your_turn":
        who = game.to_act
        name = names[member_of(row, who)] if who is not None else ""
        return UserError("go_error_not_your_turn", name=name)
    if reason == "wrong_phase":
        return UserError(f"go_error_phase_{game.phase}")
    if reason == "place_handicap":
        return UserError("go_error_place_handicap", stones=row.handicap)
    values = {k: v for k, v in err.details.items() if k in ("point", "text", "size", "last")}
    return UserError(f"go_error_{reason}", **values)


def last_stone(game: GoGame) -> int | None:
    """The point of the last stone played (ringed in a picture), None after a pass or before any move."""
    return game.last.points[0] if game.last is not None and game.last.kind == "play" else None


def picture(ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str], counting: bool = False) -> tuple[bytes, str]:
    last = last_stone(game)
    areas = territory(game.board.cells, row.size, game.dead) if counting else None
    png = board_png(row.size, game.board.cells, last, game.dead, areas, picture_caption(ctx, row, game, names))
    return png, board_text(row.size, game.board.cells, last, game.dead)


def picture_caption(ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str]) -> list[str]:
    """The players, board, komi and handicap; captures and moves: under the picture, and on the website."""
    return [
        ctx.t("go_caption_players", black=names[row.black_id], white=names[row.white_id], size=row.size,
              komi=fmt_komi(row.komi), handicap=row.handicap),
        ctx.t("go_caption_captured", black=game.captured[BLACK], white=game.captured[WHITE], moves=game.moves),
    ]  # fmt: skip


def score_lines(ctx: Context, game: GoGame) -> list[str]:
    s = game.score()
    return [
        ctx.t("go_score_black", score=fmt_komi(s.black), territory=s.black_territory, captured=s.black_captured,
              dead=s.black_dead, komi=fmt_komi(s.komi)),
        ctx.t("go_score_white", score=fmt_komi(s.white), territory=s.white_territory, captured=s.white_captured,
              dead=s.white_dead),
    ]  # fmt: skip


def status_lines(ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str]) -> tuple[list[str], list[Button]]:
    """Who must do what now, with the buttons for it."""
    lines: list[str] = []
    buttons: list[Button] = []
    who = game.to_act
    name = names[member_of(row, who)] if who is not None else ""
    acting = member_of(row, who) if who is not None else None

    def button(label: str, command: str) -> Button:  # the button of the player whose turn it is
        return Button.for_member(label, command, acting) if acting is not None else Button(label, command)

    if game.phase == "handicap":
        lines.append(ctx.t("go_place_handicap", name=name, stones=row.handicap))
        buttons.append(button(ctx.t("go_button_standard"), f"/zet standaard #{row.id}"))
    elif game.phase == "play":
        lines.append(ctx.t("go_to_move", name=name, colour=colour_name(ctx, who) if who else ""))
    elif game.phase == "marking":
        lines.append(ctx.t("go_marking", name=name))
        lines.extend(score_lines(ctx, game))
        buttons.append(button(ctx.t("go_button_done"), f"/dood klaar #{row.id}"))
    elif game.phase == "review":
        marker = names[member_of(row, other(who))] if who is not None else ""
        lines.append(ctx.t("go_review", marker=marker, name=name))
        lines.extend(score_lines(ctx, game))
        buttons.append(button(ctx.t("go_button_agree"), f"/akkoord #{row.id}"))
        buttons.append(button(ctx.t("go_button_reject"), f"/afwijzen #{row.id}"))
    return lines, buttons


def board_reply(
    ctx: Context, row: GoGameRow, game: GoGame, names: dict[int, str], head: list[str],
    extra_buttons: tuple[Button, ...] = (),
) -> Reply:  # fmt: skip
    counting = game.phase in ("marking", "review")
    png, text = picture(ctx, row, game, names, counting)
    lines, buttons = status_lines(ctx, row, game, names)
    return Reply(
        lines=(*head, *lines), image=png, buttons=(*buttons, *extra_buttons), extra={"board_text": text}
    )


def chat_source(core: Core) -> CompetitionSource | None:
    """The competition whose pairings can be played as go games in the chat (the Keizer competition)."""
    return next((s for s in core.registry.competitions if s.chat_play), None)


async def sgf_file(
    core: Core, club: Club, row: GoGameRow, game: GoGame, names: dict[int, str], result: str,
    now: datetime | None = None,
) -> tuple[str, bytes]:  # fmt: skip
    """The game's record: the days it was played in the club's time zone (the days its record changed,
    ``now`` included: the action just stored; for a game stored before those were kept, the challenge's
    day and the last), for a competition pairing its competition and round, and for a counted game the
    territory and dead stones the players agreed."""
    zone = parse_zone(club.timezone) or ZoneInfo("UTC")
    moments: list[datetime | None] = [*row.moments_played, *([now] if now is not None else [])]
    days = [m.astimezone(zone).date() for m in moments or [row.created_at, row.finished_at] if m is not None]
    source = chat_source(core) if row.keizer_game_id is not None else None
    pairing = await source.game(core, row.keizer_game_id) if source is not None and row.keizer_game_id is not None else None
    counted = game.outcome is not None and game.outcome.how == "score"
    text = write_sgf(
        settings_of(row), game.actions, black=names[row.black_id], white=names[row.white_id],
        date=sgf_dates(days), result=result,
        event=pairing.competition_name if pairing else "", round=str(pairing.round_number) if pairing else "",
        territory=territory(game.board.cells, row.size, game.dead) if counted else None,
    )  # fmt: skip
    filename = re.sub(r"[^A-Za-z0-9._-]+", "_", f"go-{row.id}-{names[row.black_id]}-{names[row.white_id]}") + ".sgf"
    return filename, text.encode("utf-8")

async def narrow(
    core: Core, ctx: Context, member_id: int, games: list[GoGameRow], game_id: int | None, name: str
) -> list[GoGameRow]:
    """The games named by ``#id`` and/or by the opponent's name (all of them when neither is given)."""
    if game_id is not None:
        games = [g for g in games if g.id == game_id]
    if name:
        opponent = await ctx.find_member(name)
        games = [g for g in games if g.opponent_of(member_id) == opponent.id]
    return games
