"""The SQL of new players waiting for the director's approval (``join_requests``, migration 0083;
``bot/keizer/join_approval.py``)."""

from __future__ import annotations

from datetime import datetime

from bot.core.storage.store import Store, iso


class JoinStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def request(self, season_id: int, member_id: int, now: datetime) -> bool:
        """Hold ``member_id``'s sign-on for the season; False when it was held already."""
        if await self.waiting(season_id, member_id):
            return False
        await self.db.write("INSERT INTO join_requests (season_id, member_id, requested_at) VALUES (?, ?, ?)",
                            (season_id, member_id, iso(now)))  # fmt: skip
        return True

    async def waiting(self, season_id: int, member_id: int) -> bool:
        row = await self.db.fetch_one(
            "SELECT 1 AS found FROM join_requests WHERE season_id = ? AND member_id = ?", (season_id, member_id)
        )
        return row is not None

    async def settle(self, season_id: int, member_id: int) -> bool:
        """The request answered (the director signed the player on); False when there was none."""
        if not await self.waiting(season_id, member_id):
            return False
        await self.db.write("DELETE FROM join_requests WHERE season_id = ? AND member_id = ?", (season_id, member_id))
        return True
