"""The SQL of results still open: the games of paired rounds without a result (reported and waiting for
the opponent, disputed, or not reported at all), the dispute of a game, and a season's club settings
that are not Keizer rules (``ontbrekend``: what the publication does while results are open)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.storage.store import Store


@dataclass(frozen=True)
class OpenGame:
    round_number: int
    board: int
    white: str
    black: str
    reported_result: str | None  # one side's report, waiting for the other
    reported_by: str | None
    disputed_result: str | None  # the other side's report, which disagrees
    disputed_by: str | None
    online: str | None = None  # played on lichess and not entered by itself: why (``online_games.reason``)
    postponed: bool = False  # postponed (issue 44 §1): played later; no pairing waits for it
    postponed_until: str | None = None  # the date it is to be played by, when the director gave one


_OPEN_GAMES = (
    "SELECT r.season_id, r.number, g.board, w.name AS white, b.name AS black, g.reported_result, rb.name AS reported_by,"
    " g.disputed_result, db.name AS disputed_by, o.reason AS online, pp.id AS postponed, pp.until_date"
    " FROM games g JOIN rounds r ON r.id = g.round_id"
    " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id"
    " LEFT JOIN members rb ON rb.id = g.reported_by LEFT JOIN members db ON db.id = g.disputed_by"
    " LEFT JOIN postponed_games pp ON pp.game_id = g.id"
    " LEFT JOIN online_games o ON o.system = 'keizer' AND o.game_ref = g.id AND o.outcome IN ('held', 'refused', 'noshow')"
    " WHERE {seasons} AND r.status = 'paired' AND g.result IS NULL ORDER BY r.season_id, r.number, g.board"
)


def _open_game(r: Any) -> OpenGame:
    # a dispute lasts while the two reports disagree (a side may change its report)
    disputed = r["reported_result"] is not None and r["disputed_result"] not in (None, r["reported_result"])
    return OpenGame(r["number"], r["board"], r["white"], r["black"], r["reported_result"], r["reported_by"],
                    r["disputed_result"] if disputed else None, r["disputed_by"] if disputed else None, r["online"],
                    r["postponed"] is not None, r["until_date"])  # fmt: skip


class OpenResultsStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def mark_disputed(self, game_id: int, result: str, by: int) -> None:
        """The opponent reported ``result``, which disagrees with the report already in."""
        await self.db.write(
            "UPDATE games SET disputed_result = ?, disputed_by = ? WHERE id = ? AND result IS NULL", (result, by, game_id)
        )

    async def open_games(self, season_id: int, before: int | None = None) -> list[OpenGame]:
        """The games of the season's paired rounds (those before round ``before``, if given) without a
        result, by round and board."""
        rows = await self.db.fetch_all(_OPEN_GAMES.format(seasons="r.season_id = ? AND r.number < ?"),
                                       (season_id, before if before is not None else 1_000_000))  # fmt: skip
        return [_open_game(r) for r in rows]

    async def open_games_of(self, season_ids: list[int]) -> dict[int, list[OpenGame]]:
        """``open_games`` of several seasons in one query (a deadline minute's), by season."""
        found: dict[int, list[OpenGame]] = {}
        for r in await self.db.fetch_all_in(_OPEN_GAMES.format(seasons="r.season_id IN ({marks})"), season_ids):
            found.setdefault(int(r["season_id"]), []).append(_open_game(r))
        return found

    async def set_settings_json(self, season_id: int, settings_json: str) -> None:
        await self.db.write("UPDATE seasons SET settings_json = ? WHERE id = ?", (settings_json, season_id))

    async def bump_version(self, season_id: int) -> None:
        """The season's pictures and cached replies are out of date (its publication is held)."""
        await self.db.write("UPDATE seasons SET version = version + 1 WHERE id = ?", (season_id,))
