"""SQL of the go games (``migrations/0005_go.sql``): a ``GoStore`` wraps the club ``Store``."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

from bot.core.storage.store import Store, from_iso, iso

DEFAULT_REMIND = timedelta(hours=24)
DEFAULT_THINK = timedelta(days=7)


@dataclass(frozen=True)
class GoGameRow:
    id: int
    club_id: int
    black_id: int
    white_id: int
    challenger_id: int
    size: int
    handicap: int
    komi: Fraction
    status: str
    record: tuple[str, ...]
    keizer_game_id: int | None
    result: str | None
    winner_id: int | None
    created_at: datetime
    turn_started_at: datetime | None
    reminded_at: datetime | None
    finished_at: datetime | None
    moments_played: tuple[datetime, ...] = ()  # when the record changed: a move, a pass, a mark, the end

    def opponent_of(self, member_id: int) -> int:
        return self.white_id if member_id == self.black_id else self.black_id

    @property
    def challenged_id(self) -> int:
        return self.opponent_of(self.challenger_id)


@dataclass(frozen=True)
class GoClubSettings:
    remind_after: timedelta | None
    max_think: timedelta | None
    handicap_komi: Fraction


def _minutes(value: int | None) -> timedelta | None:
    return timedelta(minutes=value) if value is not None else None


def _row(r: sqlite3.Row) -> GoGameRow:
    def moment(key: str) -> datetime | None:
        return from_iso(r[key]) if r[key] else None

    return GoGameRow(
        r["id"], r["club_id"], r["black_id"], r["white_id"], r["challenger_id"], r["size"], r["handicap"],
        Fraction(r["komi"]), r["status"], tuple(line for line in r["record"].split("\n") if line),
        r["keizer_game_id"], r["result"], r["winner_id"], from_iso(r["created_at"]), moment("turn_started_at"),
        moment("reminded_at"), moment("finished_at"), tuple(from_iso(m) for m in r["moments_played"].split("\n") if m),
    )  # fmt: skip


class GoStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def settings(self, club_id: int) -> GoClubSettings:
        return (await self.settings_of([club_id]))[club_id]

    async def settings_of(self, club_ids: list[int]) -> dict[int, GoClubSettings]:
        """Each of these clubs' settings (the defaults where a club set none), read in one query (the
        scheduler's look at every club's running games)."""
        found = {club_id: GoClubSettings(DEFAULT_REMIND, DEFAULT_THINK, Fraction(1, 2)) for club_id in club_ids}
        for row in await self.store.fetch_all_in("SELECT * FROM go_settings WHERE club_id IN ({marks})", club_ids):
            found[row["club_id"]] = GoClubSettings(
                _minutes(row["remind_minutes"]), _minutes(row["think_minutes"]), Fraction(row["handicap_komi"])
            )
        return found

    async def save_settings(self, club_id: int, settings: GoClubSettings) -> None:
        def minutes(value: timedelta | None) -> int | None:
            return int(value.total_seconds() // 60) if value is not None else None

        await self.store.write(
            "INSERT INTO go_settings (club_id, remind_minutes, think_minutes, handicap_komi) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (club_id) DO UPDATE SET remind_minutes = excluded.remind_minutes,"
            " think_minutes = excluded.think_minutes, handicap_komi = excluded.handicap_komi",
            (club_id, minutes(settings.remind_after), minutes(settings.max_think), str(settings.handicap_komi)),
        )

    async def create(
        self, club_id: int, black_id: int, white_id: int, challenger_id: int, size: int, handicap: int,
        komi: Fraction, keizer_game_id: int | None, now: datetime,
    ) -> int:  # fmt: skip
        return await self.store.write(
            "INSERT INTO go_games (club_id, black_id, white_id, challenger_id, size, handicap, komi, status,"
            " keizer_game_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'challenged', ?, ?)",
            (club_id, black_id, white_id, challenger_id, size, handicap, str(komi), keizer_game_id, iso(now)),
        )

    async def game(self, game_id: int) -> GoGameRow | None:
        row = await self.store.fetch_one("SELECT * FROM go_games WHERE id = ?", (game_id,))
        return _row(row) if row else None

    async def games_of(self, club_id: int, member_id: int, statuses: tuple[str, ...]) -> list[GoGameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.store.fetch_all(
            f"SELECT * FROM go_games WHERE club_id = ? AND (black_id = ? OR white_id = ?) AND status IN ({marks})"
            " ORDER BY id",
            (club_id, member_id, member_id, *statuses),
        )
        return [_row(r) for r in rows]

    async def has_games(self, club_id: int, statuses: tuple[str, ...]) -> bool:
        marks = ", ".join("?" for _ in statuses)
        row = await self.store.fetch_one(
            f"SELECT 1 FROM go_games WHERE club_id = ? AND status IN ({marks}) LIMIT 1", (club_id, *statuses)
        )
        return row is not None

    async def games_of_club(self, club_id: int, statuses: tuple[str, ...]) -> list[GoGameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.store.fetch_all(
            f"SELECT * FROM go_games WHERE club_id = ? AND status IN ({marks}) ORDER BY id", (club_id, *statuses)
        )
        return [_row(r) for r in rows]

    async def running_clocks(self, club_id: int | None = None) -> list[tuple[int, int, datetime, datetime | None]]:
        """(game, club, when the turn began, when its player was last reminded) of the games being played:
        every club's, or one club's."""
        sql = "SELECT id, club_id, turn_started_at, created_at, reminded_at FROM go_games WHERE status = 'playing'"
        rows = await self.store.fetch_all(sql + " ORDER BY id" if club_id is None else sql + " AND club_id = ? ORDER BY id",
                                          () if club_id is None else (club_id,))  # fmt: skip
        return [
            (r["id"], r["club_id"], from_iso(r["turn_started_at"] or r["created_at"]),
             from_iso(r["reminded_at"]) if r["reminded_at"] else None)
            for r in rows
        ]  # fmt: skip

    async def competition_game_ids(self, club_id: int) -> list[int]:
        """The competition games (``keizer_game_id``) the club's go games play."""
        rows = await self.store.fetch_all(
            "SELECT keizer_game_id FROM go_games WHERE club_id = ? AND keizer_game_id IS NOT NULL", (club_id,)
        )
        return [int(r[0]) for r in rows]

    async def playing_for_keizer(self, keizer_game_id: int) -> int | None:
        """The number of the go game being played now for the competition game ``keizer_game_id``."""
        row = await self.store.fetch_one(
            "SELECT id FROM go_games WHERE keizer_game_id = ? AND status = 'playing' ORDER BY id", (keizer_game_id,)
        )
        return int(row[0]) if row else None

    async def game_for_keizer(self, keizer_game_id: int) -> GoGameRow | None:
        row = await self.store.fetch_one(
            "SELECT * FROM go_games WHERE keizer_game_id = ? AND status IN ('challenged', 'playing') ORDER BY id",
            (keizer_game_id,),
        )
        return _row(row) if row else None

    async def start(self, game_id: int, now: datetime) -> None:
        await self.store.write(
            "UPDATE go_games SET status = 'playing', started_at = ?, turn_started_at = ? WHERE id = ?",
            (iso(now), iso(now), game_id),
        )

    async def decline(self, game_id: int, now: datetime) -> None:
        await self.store.write(
            "UPDATE go_games SET status = 'declined', finished_at = ? WHERE id = ?", (iso(now), game_id)
        )

    async def append(self, game_id: int, lines: list[str], new_turn: datetime | None, now: datetime) -> None:
        """Add actions to the record, made at ``now`` (kept for the SGF's days played); ``new_turn``: the
        turn passed to the other player at that moment."""
        row = await self.store.fetch_one("SELECT record, moments_played FROM go_games WHERE id = ?", (game_id,))
        assert row is not None
        record = row["record"] + "".join(line + "\n" for line in lines)
        played = row["moments_played"] + iso(now) + "\n"
        if new_turn is None:
            await self.store.write("UPDATE go_games SET record = ?, moments_played = ? WHERE id = ?", (record, played, game_id))
        else:
            await self.store.write(
                "UPDATE go_games SET record = ?, moments_played = ?, turn_started_at = ?, reminded_at = NULL WHERE id = ?",
                (record, played, iso(new_turn), game_id),
            )

    async def finish(self, game_id: int, result: str, winner_id: int | None, now: datetime) -> None:
        await self.store.write(
            "UPDATE go_games SET status = 'finished', result = ?, winner_id = ?, finished_at = ? WHERE id = ?",
            (result, winner_id, iso(now), game_id),
        )

    async def mark_reminded(self, game_id: int, now: datetime) -> None:
        await self.store.write("UPDATE go_games SET reminded_at = ? WHERE id = ?", (iso(now), game_id))
