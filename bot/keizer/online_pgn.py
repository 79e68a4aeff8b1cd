"""``/exporteer pgn [ronde] [rapid]`` (issue 43 §3): a round's games played on lichess as one PGN file, as lichess
exports them (``POST /api/games/export/_ids``, 300 a request), with the club's tags: ``Event`` the club and
season, ``Round`` the round and board (``3.2``, as FIDE's PGN rounds are written), in the order of the boards.
The games are those the follower saw end (``online_games`` ``finished``, held and refused ones too: the file is
what was played); a round without any, or with online play off, is refused saying so."""

from __future__ import annotations

import re

from bot.core.commands.context import Context, UserError, parse_int
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.online.follow import settled_rows
from bot.core.online.lichess_answers import LichessError
from bot.keizer import competition
from bot.keizer.lookups import active_season, competition_of, result_round
from bot.keizer.online_round import SYSTEM

_GAME_ID = re.compile(r'^\[GameId "([^"]+)"\]$', re.MULTILINE)
_SITE_ID = re.compile(r'^\[Site "[^"]*/([A-Za-z0-9]{8})"\]$', re.MULTILINE)


def pgn_value(text: str) -> str:
    """A PGN tag's value: backslashes and quotes escaped (PGN standard 8.1.1), on one line."""
    return " ".join(text.replace("\\", "\\\\").replace('"', '\\"').split())


def split_games(text: str) -> list[str]:
    """The games of a PGN text, each its tags and movetext (a game starts at a tag after a blank line)."""
    games = re.split(r"\n\s*\n(?=\[)", text.strip())
    return [g.strip() + "\n" for g in games if g.strip()]


def with_tags(game: str, event: str, round_tag: str) -> str:
    """``game`` with its ``Event`` and ``Round`` tags set to the club's."""
    for tag, value in (("Event", event), ("Round", round_tag)):
        line = f'[{tag} "{pgn_value(value)}"]'
        pattern = re.compile(rf"^\[{tag} \"(?:[^\"\\]|\\.)*\"\]$", re.MULTILINE)
        game = pattern.sub(lambda _: line, game, count=1) if pattern.search(game) else line + "\n" + game
    return game


def game_id(game: str) -> str | None:
    found = _GAME_ID.search(game) or _SITE_ID.search(game)
    return found.group(1) if found else None


async def cmd_export_pgn(core: Core, ctx: Context) -> Reply:
    kind, ctx = competition_of(ctx)
    numbers = [a for a in ctx.args if parse_int(a) is not None]
    if len(numbers) != len(ctx.args) or len(numbers) > 1:
        raise UserError("error_usage", usage=ctx.t("usage_exporteer"))
    season = await active_season(core, ctx, kind)
    row = await result_round(core, ctx, season, await competition.load(core.store, season), numbers[0] if numbers else None)
    played = settled_rows(await core.store.online_games_of_round(ctx.club.id, SYSTEM, row.id))
    if not played:
        raise UserError("error_pgn_none", round=row.number)
    if not core.online.on:
        raise UserError("error_online_disabled")
    boards = {g.lichess_id: g.board for g in played if g.lichess_id is not None}
    client = core.online.client()
    if client.paused_for() > 0:  # lichess's minute after a 429: not waited out inside a command
        raise UserError("error_pgn_unavailable", round=row.number)
    try:
        text = await client.export_pgn(list(boards))
    except LichessError:
        raise UserError("error_pgn_unavailable", round=row.number)
    event = f"{ctx.club.name} {season.name}"
    games = [(boards.get(game_id(g) or "", 0), g) for g in split_games(text)]
    body = "\n".join(with_tags(g, event, f"{row.number}.{board}") for board, g in sorted(games, key=lambda p: p[0]))
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", season.name).strip("_") or "seizoen"
    name = f"{base}_{'rapid_' if kind == 'rapid' else ''}{row.number}.pgn"
    return Reply(lines=(ctx.t("exported_pgn", round=row.number, count=len(games)),), attachment=(name, body.encode("utf-8")))
