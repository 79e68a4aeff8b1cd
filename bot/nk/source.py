"""The NK as other systems may see it (``bot/core/commands/competitions.py``): its tournaments and their games won
over the board, for grades. NK games are not played as go games in the chat."""

from __future__ import annotations

from bot.core.commands.competitions import Competition, CompetitionGame
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.nk.store import NkStore


class NkSource:
    kind = "nk"
    key_prefix = "n"
    chat_play = False

    async def competitions(self, core: Core, club_id: int) -> list[Competition]:
        return [Competition(self.kind, t.id, t.name) for t in await NkStore(core.store).tournaments(club_id)]

    async def find(self, core: Core, ctx: Context, name: str | None) -> Competition:
        store = NkStore(core.store)
        found = await store.by_name_any_case(ctx.club.id, name) if name is not None else await store.active(ctx.club.id)
        if found is None:
            raise UserError("error_no_competition", name=(name or "")[:60])
        return Competition(self.kind, found.id, found.name)

    async def played_games(self, core: Core, club_id: int) -> list[CompetitionGame]:
        rows = await NkStore(core.store).played_games(club_id)
        return [
            CompetitionGame(
                self.kind, r["tournament_id"], r["tournament_name"], r["id"], r["number"], r["board"],
                r["paired_at"], r["white_id"], r["black_id"], "1/2-1/2" if r["jigo"] else "1-0" if r["winner_id"] == r["white_id"] else "0-1",
            )  # fmt: skip
            for r in rows
        ]

    async def open_game_between(self, core: Core, club_id: int, a: int, b: int) -> CompetitionGame | None:
        return None

    async def game(self, core: Core, game_id: int) -> CompetitionGame | None:
        return None

    async def record_result(self, core: Core, ctx: Context, game_id: int, result: str) -> None:
        raise UserError("error_internal")
