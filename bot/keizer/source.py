"""The Keizer competition as other systems may see it (``bot/core/commands/competitions.py``): its seasons and
their played games for grades, the unplayed game between two members for go in the chat, and a result
handed back when that go game ends."""

from __future__ import annotations

from bot.core.commands.competitions import Competition, CompetitionGame
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.keizer import competition
from bot.keizer.lookups import active_season, keizer_store
from bot.keizer.results import SOURCE_KIND, after_result
from bot.keizer.store import GameRow, RoundRow, Season

_PLAYED = ("1-0", "0-1", "1/2-1/2")


def _game(season: Season, row: RoundRow, game: GameRow) -> CompetitionGame:
    return CompetitionGame(
        "season", season.id, season.name, game.id, row.number, game.board, row.play_date, game.white_id,
        game.black_id, game.result, game.reported_result,
    )  # fmt: skip


class KeizerSource:
    kind = SOURCE_KIND
    key_prefix = "k"
    chat_play = True

    async def competitions(self, core: Core, club_id: int) -> list[Competition]:
        return [Competition(self.kind, s.id, s.name) for s in await keizer_store(core).seasons(club_id)]

    async def find(self, core: Core, ctx: Context, name: str | None) -> Competition:
        if name is None:
            season = await active_season(core, ctx)
        else:
            found = await keizer_store(core).season_by_name(ctx.club.id, name)
            if found is None:
                raise UserError("error_no_competition", name=name[:60])
            season = found
        return Competition(self.kind, season.id, season.name)

    async def played_games(self, core: Core, club_id: int) -> list[CompetitionGame]:
        rows = await keizer_store(core).played_games(club_id, _PLAYED)
        return [
            CompetitionGame("season", r["season_id"], r["season_name"], r["id"], r["number"], r["board"], r["play_date"],
                            r["white_id"], r["black_id"], r["result"])
            for r in rows
        ]  # fmt: skip

    async def open_game_between(self, core: Core, club_id: int, a: int, b: int) -> CompetitionGame | None:
        store = keizer_store(core)
        season = await store.active_season(club_id)
        if season is None:
            return None
        row = competition.current_round(await competition.load(core.store, season))
        if row is None:
            return None
        for game in await store.games_of_round(row.id):
            if {game.white_id, game.black_id} == {a, b} and game.result is None:
                return _game(season, row, game)
        return None

    async def game(self, core: Core, game_id: int) -> CompetitionGame | None:
        store = keizer_store(core)
        game = await store.game(game_id)
        row = await store.round(game.round_id) if game else None
        season = await store.season(row.season_id) if row else None
        if game is None or row is None or season is None:
            return None
        return _game(season, row, game)

    async def record_result(self, core: Core, ctx: Context, game_id: int, result: str) -> None:
        store = keizer_store(core)
        game = await store.game(game_id)
        row = await store.round(game.round_id) if game else None
        season = await store.season(row.season_id) if row else None
        if game is None or row is None or season is None:
            return
        await store.set_result(game.id, result, ctx.now)
        await after_result(core, ctx, season, row)
