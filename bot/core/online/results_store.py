"""The store's part for the results of the games made online (migration 0079's columns of ``online_games``,
issue 43 §3), used by the core's follower (``bot/core/online/follow.py``).

- ``online_games_to_follow``: the ``created`` rows whose next look is due (``follow_at``, at first the
  moment the challenge was made), the most overdue first.
- ``follow_online_later``: the rows whose game has not ended yet, looked at again later (and how it stands).
- ``settle_online_game``: a game ended (``finished``) or its challenge expired without one (``expired``):
  the row's outcome, in the transaction in which the system enters the result or tells the director. Only a
  row still ``created`` is settled, so a game is settled once however often it is seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.core.online.games_store import CREATED, OnlineGame, _club_clause, _game
from bot.core.storage.database import from_iso, iso
from bot.core.storage.store_part import StorePart

FINISHED, EXPIRED = "finished", "expired"  # a created row's last states: its game ended, or never started


class OnlineResultsStore(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def online_games_to_follow(self, now: datetime, limit: int = 3000) -> list[OnlineGame]:
        rows = await self.fetch_all(
            f"SELECT * FROM online_games WHERE status = '{CREATED}' AND COALESCE(follow_at, made_at) <= ?"
            f" ORDER BY COALESCE(follow_at, made_at), id LIMIT {int(limit)}",
            (iso(now),),
        )
        return [_game(r) for r in rows]

    async def follow_online_later(self, looks: Iterable[tuple[int, datetime, str | None]]) -> None:
        """(row, its next look, lichess's status of its game as seen now; None: none seen, the last one kept)."""
        rows = [(iso(at), status, game_id) for game_id, at, status in looks]
        if rows:
            await self.execute_many(
                f"UPDATE online_games SET follow_at = ?, game_status = COALESCE(?, game_status) WHERE id = ? AND status = '{CREATED}'", rows
            )

    async def settle_online_game(self, game_id: int, status: str, outcome: str, result: str | None, reason: str,
                                 game_status: str | None, now: datetime) -> bool:  # fmt: skip
        """The row's end (``FINISHED`` or ``EXPIRED``) and what was done; False when it was settled already."""
        return await self.execute(
            f"UPDATE online_games SET status = ?, outcome = ?, result = ?, reason = ?, game_status = ?, settled_at = ?,"
            f" follow_at = NULL WHERE id = ? AND status = '{CREATED}'",
            (status, outcome, result, reason[:500], game_status, iso(now), game_id),
        ) == 1

    async def set_online_outcome(self, game_id: int, outcome: str) -> None:
        await self.write("UPDATE online_games SET outcome = ? WHERE id = ?", (outcome, game_id))

    async def next_online_follow(self, club_id: int | None = None) -> datetime | None:
        """When the follower next has a row to look at (None: no game of the club is being followed)."""
        where, values = _club_clause(club_id)
        row = await self.fetch_one(
            f"SELECT MIN(COALESCE(follow_at, made_at)) AS due FROM online_games WHERE status = '{CREATED}'{where}", values
        )
        return from_iso(row["due"]) if row is not None and row["due"] is not None else None

    async def online_outcomes(self, club_id: int, system: str, round_ref: int) -> dict[int, tuple[str | None, str | None, str | None]]:
        """The round's settled rows: row id to (outcome, reason, lichess's status)."""
        rows = await self.fetch_all(
            "SELECT id, outcome, reason, game_status FROM online_games WHERE club_id = ? AND system = ? AND round_ref = ?"
            " AND settled_at IS NOT NULL",
            (club_id, system, round_ref),
        )
        return {int(r["id"]): (r["outcome"], r["reason"], r["game_status"]) for r in rows}
