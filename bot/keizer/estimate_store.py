"""The SQL of an unrated player's estimated rating (``season_players.estimate``, migration 0084;
``bot/keizer/estimates.py``)."""

from __future__ import annotations

from bot.core.storage.store import Store


class EstimateStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def set_estimate(self, season_id: int, member_id: int, estimate: int | None) -> None:
        await self.db.write(
            "UPDATE season_players SET estimate = ? WHERE season_id = ? AND member_id = ?", (estimate, season_id, member_id)
        )
