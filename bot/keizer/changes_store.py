"""When what a Keizer page shows last changed (issue 45 §1, the website's "last updated"): the latest
publication (``rounds.paired_at``) or result (``games.confirmed_at``, also a director's correction) of
the rounds a page shows."""

from __future__ import annotations

from datetime import datetime

from bot.core.storage.store import Store


class ChangesStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def last_change(self, season_id: int, first: int, last: int) -> datetime | None:
        """The latest publication or result of the season's rounds ``first`` to ``last`` (UTC), or None."""
        row = await self.db.fetch_one(
            "SELECT MAX(r.paired_at) AS paired, MAX(g.confirmed_at) AS result FROM rounds r"
            " LEFT JOIN games g ON g.round_id = r.id"
            " WHERE r.season_id = ? AND r.number BETWEEN ? AND ? AND r.status = 'paired'",
            (season_id, first, last),
        )
        moments = [datetime.fromisoformat(str(v)) for v in ((row["paired"], row["result"]) if row else ()) if v]
        return max(moments) if moments else None
