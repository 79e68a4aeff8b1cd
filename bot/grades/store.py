"""The SQL of grades (migrations/0004_grades.sql), on top of a ``Store``.

Writes join the caller's ``store.transaction()`` (or get their own). The competitions' games come from
their systems through the core (``bot/grades/competition_games.py``), never from their tables.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from bot.core.storage.store import Store, iso


@dataclass(frozen=True)
class GradeEvent:
    id: int
    member_id: int
    grade: int
    kind: str  # 'set' | 'promotion'
    anchor_date: str
    anchor_key: str
    points: int | None
    games_json: str | None
    created_at: str


@dataclass(frozen=True)
class Flags:
    unreliable: bool = False
    estimated: bool = False


@dataclass(frozen=True)
class ManualGame:
    id: int
    member_id: int
    played_on: str
    opponent_name: str
    opponent_id: int | None
    opponent_grade: int | None
    estimated: bool
    unreliable: bool
    result: str
    handicap: int
    minutes: int | None
    byoyomi: int | None
    official: bool
    event: str
    source: str


@dataclass(frozen=True)
class TimeControl:
    kind: str  # 'season' | 'nk'
    ref_id: int
    name: str
    minutes: int
    byoyomi: int
    official: bool


@dataclass(frozen=True)
class TimedGame:
    """A confirmed game of one of the club's competitions (a Keizer season, an NK), with its time control."""

    key: str
    day: str  # Keizer: the local playing date; NK: the UTC moment the round was paired
    white_id: int
    black_id: int
    winner_id: int | None  # None: a draw
    minutes: int
    byoyomi: int
    official: bool
    event: str


MANUAL_FIELDS = (
    "played_on", "opponent_name", "opponent_id", "opponent_grade", "estimated", "unreliable", "result", "handicap",
    "minutes", "byoyomi", "official", "event",
)  # fmt: skip


def _event(row: sqlite3.Row) -> GradeEvent:
    return GradeEvent(
        row["id"], row["member_id"], row["grade"], row["kind"], row["anchor_date"], row["anchor_key"], row["points"],
        row["games_json"], row["created_at"],
    )  # fmt: skip


def _manual(row: sqlite3.Row) -> ManualGame:
    return ManualGame(
        row["id"], row["member_id"], row["played_on"], row["opponent_name"], row["opponent_id"], row["opponent_grade"],
        bool(row["estimated"]), bool(row["unreliable"]), row["result"], row["handicap"], row["minutes"],
        row["byoyomi"], bool(row["official"]), row["event"], row["source"],
    )  # fmt: skip


class GradeStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ grade history
    async def has_grades(self, club_id: int) -> bool:
        row = await self.store.fetch_one(
            "SELECT 1 FROM grade_events e JOIN members m ON m.id = e.member_id WHERE m.club_id = ? LIMIT 1", (club_id,)
        )
        return row is not None

    async def events_of_club(self, club_id: int) -> dict[int, list[GradeEvent]]:
        """Every member's grade history, oldest first."""
        rows = await self.store.fetch_all(
            "SELECT e.* FROM grade_events e JOIN members m ON m.id = e.member_id WHERE m.club_id = ? ORDER BY e.id",
            (club_id,),
        )
        result: dict[int, list[GradeEvent]] = {}
        for row in rows:
            result.setdefault(row["member_id"], []).append(_event(row))
        return result

    async def add_event(
        self, member_id: int, grade: int, kind: str, anchor_date: str, anchor_key: str, now: datetime,
        by: int | None = None, points: int | None = None, games: list[dict[str, object]] | None = None,
    ) -> int:  # fmt: skip
        return await self.store.write(
            "INSERT INTO grade_events (member_id, grade, kind, anchor_date, anchor_key, points, games_json,"
            " created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                member_id, grade, kind, anchor_date, anchor_key, points,
                None if games is None else json.dumps(games, ensure_ascii=False), iso(now), by,
            ),
        )  # fmt: skip

    async def promotion_recorded(self, member_id: int, anchor_date: str, anchor_key: str) -> bool:
        row = await self.store.fetch_one(
            "SELECT 1 FROM grade_events WHERE kind = 'promotion' AND member_id = ? AND anchor_date = ? AND anchor_key = ?",
            (member_id, anchor_date, anchor_key),
        )
        return row is not None

    # ------------------------------------------------------------------ flags
    async def flags_of_club(self, club_id: int) -> dict[int, Flags]:
        rows = await self.store.fetch_all(
            "SELECT f.* FROM grade_flags f JOIN members m ON m.id = f.member_id WHERE m.club_id = ?", (club_id,)
        )
        return {r["member_id"]: Flags(bool(r["unreliable"]), bool(r["estimated"])) for r in rows}

    async def set_flags(self, member_id: int, flags: Flags) -> None:
        await self.store.write(
            "INSERT INTO grade_flags (member_id, unreliable, estimated) VALUES (?, ?, ?) ON CONFLICT (member_id)"
            " DO UPDATE SET unreliable = excluded.unreliable, estimated = excluded.estimated",
            (member_id, int(flags.unreliable), int(flags.estimated)),
        )

    # ------------------------------------------------------------------ entered and imported games
    async def add_game(self, club_id: int, member_id: int, source: str, now: datetime, by: int | None, **values: object) -> int:
        columns = [name for name in MANUAL_FIELDS if name in values]
        return await self.store.write(
            f"INSERT INTO grade_games (club_id, member_id, source, created_at, created_by, {', '.join(columns)})"
            f" VALUES (?, ?, ?, ?, ?, {', '.join('?' for _ in columns)})",
            (club_id, member_id, source, iso(now), by, *(values[c] for c in columns)),
        )

    async def update_game(self, game_id: int, **values: object) -> None:
        columns = [name for name in MANUAL_FIELDS if name in values]
        if columns:
            await self.store.write(
                f"UPDATE grade_games SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                (*(values[c] for c in columns), game_id),
            )

    async def delete_game(self, game_id: int) -> None:
        await self.store.write("DELETE FROM grade_games WHERE id = ?", (game_id,))

    async def game(self, club_id: int, game_id: int) -> ManualGame | None:
        row = await self.store.fetch_one("SELECT * FROM grade_games WHERE club_id = ? AND id = ?", (club_id, game_id))
        return _manual(row) if row else None

    async def games_of_club(self, club_id: int) -> list[ManualGame]:
        rows = await self.store.fetch_all("SELECT * FROM grade_games WHERE club_id = ? ORDER BY id", (club_id,))
        return [_manual(r) for r in rows]

    # ------------------------------------------------------------------ competition games
    async def set_time_control(self, club_id: int, kind: str, ref_id: int, minutes: int, byoyomi: int, official: bool) -> None:
        await self.store.write(
            "INSERT INTO grade_time_controls (kind, ref_id, club_id, minutes, byoyomi, official) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, ref_id) DO UPDATE SET minutes = excluded.minutes, byoyomi = excluded.byoyomi,"
            " official = excluded.official",
            (kind, ref_id, club_id, minutes, byoyomi, int(official)),
        )

    async def time_controls(self, club_id: int) -> list[TimeControl]:
        """The time controls set, with an empty name (the competition's system knows it)."""
        rows = await self.store.fetch_all(
            "SELECT * FROM grade_time_controls WHERE club_id = ? ORDER BY kind, ref_id", (club_id,)
        )
        return [TimeControl(r["kind"], r["ref_id"], "", r["minutes"], r["byoyomi"], bool(r["official"])) for r in rows]

    async def keeps_grades(self, club_id: int) -> bool:
        """Whether the club keeps grades (a member has one): one club's rows, not every club's."""
        row = await self.store.fetch_one(
            "SELECT 1 FROM grade_events e JOIN members m ON m.id = e.member_id WHERE m.club_id = ? LIMIT 1", (club_id,)
        )
        return row is not None

    async def clubs_with_grades(self) -> list[int]:
        rows = await self.store.fetch_all(
            "SELECT DISTINCT m.club_id FROM grade_events e JOIN members m ON m.id = e.member_id ORDER BY m.club_id"
        )
        return [r["club_id"] for r in rows]
