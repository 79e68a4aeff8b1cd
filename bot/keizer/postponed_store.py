"""The SQL of postponed games (inhaalpartijen, issue 44 §1; ``bot/keizer/postponed.py``): which games of a
season's paired rounds are postponed and not played yet, marking and unmarking one, and the postponed
games still not played when they were due, which the directors hear of once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.storage.store import Store, from_iso, iso


@dataclass(frozen=True)
class Postponed:
    """A postponed game without a result yet."""

    game_id: int
    round_id: int
    round_number: int
    board: int
    white_id: int
    black_id: int
    until_date: str | None  # the date it is to be played by (``tot=``), or None
    due_at: datetime  # still not played then: the directors are told


@dataclass(frozen=True)
class Overdue:
    """A postponed game not played by ``due_at``, to be reported to its club's directors."""

    game: Postponed
    club_id: int
    season_kind: str
    white: str
    black: str


# From the season's (or round's) rounds to their games to the mark: a command reads no other club's rows
# (SQLite takes the tables of a CROSS JOIN in the order written).
_PENDING = (
    "SELECT p.game_id, g.round_id, r.number, g.board, g.white_id, g.black_id, p.until_date, p.due_at"
    " FROM rounds r CROSS JOIN games g CROSS JOIN postponed_games p"
    " WHERE {where} AND g.round_id = r.id AND p.game_id = g.id AND g.result IS NULL ORDER BY r.number, g.board"
)


def _postponed(r: Any) -> Postponed:
    return Postponed(r[0], r[1], r[2], r[3], r[4], r[5], r[6], from_iso(r[7]))


class PostponedStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def of_season(self, season_id: int) -> list[Postponed]:
        """The season's postponed games that have no result yet, by round and board."""
        rows = await self.db.fetch_all(_PENDING.format(where="r.season_id = ?"), (season_id,))
        return [_postponed(r) for r in rows]

    async def of_round(self, round_id: int) -> set[int]:
        """The ids of the round's postponed games without a result."""
        rows = await self.db.fetch_all(_PENDING.format(where="r.id = ?"), (round_id,))
        return {int(r[0]) for r in rows}

    async def catch_up_evenings(self, season_id: int) -> dict[int, dict[int, int]]:
        """Every player's catch-up evenings of the season, played or not: member id -> the number of the
        round played on a postponed game's ``tot=`` date -> the number of the game's own round (the member
        was left out of the first to play the second)."""
        rows = await self.db.fetch_all(
            "SELECT m.id, e.number, r.number FROM rounds r JOIN games g ON g.round_id = r.id"
            " JOIN postponed_games p ON p.game_id = g.id JOIN rounds e ON e.season_id = r.season_id"
            " AND e.play_date = p.until_date JOIN members m ON m.id IN (g.white_id, g.black_id)"
            " WHERE r.season_id = ?",
            (season_id,),
        )
        evenings: dict[int, dict[int, int]] = {}
        for member_id, evening, own in rows:
            evenings.setdefault(int(member_id), {})[int(evening)] = int(own)
        return evenings

    async def postpone(self, game_id: int, until_date: str | None, due_at: datetime, now: datetime) -> None:
        """Mark the game postponed (again: its date and due moment anew, to be reported again)."""
        await self.db.write(
            "INSERT INTO postponed_games (game_id, until_date, due_at, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET until_date = excluded.until_date, due_at = excluded.due_at,"
            " created_at = excluded.created_at, reported_at = NULL",
            (game_id, until_date, iso(due_at), iso(now)),
        )

    async def undo(self, game_id: int) -> bool:
        """The game is no longer postponed; False when it was not."""
        return await self.db.execute("DELETE FROM postponed_games WHERE game_id = ?", (game_id,)) > 0

    async def next_due(self, club_id: int | None = None) -> datetime | None:
        """The earliest moment a postponed game not played yet is to be reported (of one club: found
        through its seasons, never by reading every club's)."""
        if club_id is None:
            row = await self.db.fetch_one(
                "SELECT MIN(p.due_at) FROM postponed_games p JOIN games g ON g.id = p.game_id"
                " WHERE p.reported_at IS NULL AND g.result IS NULL"
            )
        else:
            row = await self.db.fetch_one(
                "SELECT MIN(p.due_at) FROM seasons s CROSS JOIN rounds r JOIN games g ON g.round_id = r.id"
                " JOIN postponed_games p ON p.game_id = g.id WHERE s.club_id = ? AND r.season_id = s.id"
                " AND s.status = 'active' AND p.reported_at IS NULL AND g.result IS NULL",
                (club_id,),
            )
        return from_iso(row[0]) if row and row[0] else None

    async def overdue(self, now: datetime) -> list[Overdue]:
        """The postponed games of active seasons not played by their due moment and not reported yet."""
        rows = await self.db.fetch_all(
            "SELECT p.game_id, g.round_id, r.number, g.board, g.white_id, g.black_id, p.until_date, p.due_at,"
            " s.club_id, s.kind, w.name, b.name FROM postponed_games p JOIN games g ON g.id = p.game_id"
            " JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
            " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id"
            " WHERE p.reported_at IS NULL AND p.due_at <= ? AND g.result IS NULL AND s.status = 'active'"
            " ORDER BY p.due_at, p.game_id",
            (iso(now),),
        )
        return [Overdue(_postponed(r), r[8], r[9], r[10], r[11]) for r in rows]

    async def mark_reported(self, game_id: int, now: datetime) -> bool:
        """Recorded as reported; False when it already was (another process)."""
        return await self.db.execute(
            "UPDATE postponed_games SET reported_at = ? WHERE game_id = ? AND reported_at IS NULL", (iso(now), game_id)
        ) > 0
