"""The SQLite store: every SQL statement of clubbot lives in this module.

One aiosqlite connection per process, WAL journal, foreign keys on, a busy timeout, and one writer path:
every change runs inside ``async with store.transaction():`` (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on
any error), serialised by an asyncio lock, so a command either changes everything it meant to or nothing.
BEGIN IMMEDIATE is issued by the sqlite3 module right before the first INSERT, UPDATE or DELETE, in the
same trip to the database thread; a transaction that writes nothing costs no BEGIN, COMMIT or ROLLBACK.
Migrations in ``migrations/NNNN_name.sql`` are applied in order at start-up, each in one transaction
together with ``PRAGMA user_version``: a failing migration leaves the previous schema intact.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
import sqlite3
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

import aiosqlite

from bot.checkpoints import SAFETY_NET_PAGES, Checkpointer

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
# The statements before which the sqlite3 module opens the transaction (isolation_level "IMMEDIATE").
_OPENS_TRANSACTION = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


class MigrationError(RuntimeError):
    pass


def iso(moment: datetime) -> str:
    """UTC ISO 8601 text: every stored moment has this one form, so text order is time order."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime given to the store")
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


@dataclass(frozen=True)
class Club:
    id: int
    platform: str
    external_id: str
    name: str
    language: str
    timezone: str
    channel_id: str | None


@dataclass(frozen=True)
class Member:
    id: int
    club_id: int
    name: str
    rating: int
    is_director: bool


@dataclass(frozen=True)
class Season:
    id: int
    club_id: int
    name: str
    kind: str
    rounds_count: int
    deadline_time: str
    publish_time: str
    timezone: str
    settings_json: str
    status: str


@dataclass(frozen=True)
class SeasonPlayer:
    member_id: int
    name: str
    rating: int
    group_name: str | None
    joined_round: int
    start_points: str | None
    auto_signed_off: bool


@dataclass(frozen=True)
class RoundRow:
    id: int
    season_id: int
    number: int
    play_date: str
    deadline_at: datetime
    publish_at: datetime
    status: str


@dataclass(frozen=True)
class GameRow:
    id: int
    round_id: int
    board: int
    white_id: int
    black_id: int
    result: str | None
    reported_result: str | None
    reported_by: int | None


@dataclass(frozen=True)
class Signoff:
    round_id: int
    member_id: int
    kind: str


@dataclass(frozen=True)
class Announcement:
    id: int
    club_id: int
    round_id: int | None
    kind: str
    body: str
    image: bytes | None = None  # a PNG of what the body says (pairing, standings)
    attempted: bool = False  # a post was tried before: it may already be in the channel (a crash after posting)
    after_ref: str | None = None  # the platform's reference of the club's latest post before that try


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """The migration files in order. Numbers must be unique; a gap is allowed (work on two migrations
    can land in either order), since what has been applied is recorded by name."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file name not understood: {path.name}")
        found.append((int(match.group(1)), path))
    numbers = [n for n, _ in found]
    if len(set(numbers)) != len(numbers):
        raise MigrationError(f"two migrations share a number: {numbers}")
    return found


class Store:
    """Async access to the club database. Open with ``await Store.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._write_lock = asyncio.Lock()
        # Clubs by (platform, external id): read by every command, changed rarely. Every change to the
        # clubs table goes through _write, which empties this, and so does a rollback.
        self._clubs: dict[tuple[str, str], Club] = {}
        # Members by (club, chat identity), likewise: emptied by any write naming members or identities.
        self._members: dict[tuple[int, str], Member] = {}
        # Counts the emptyings. A row read for a cache is kept only when the count has not moved while
        # the read was on its way: a read queued before a write (or before a rollback) returns the row as
        # it was, after the write has emptied the cache, and must not put the old row back.
        self._forgotten = 0
        self._checkpointer: Checkpointer | None = None
        # Which task holds the open transaction: a per-task flag, so another task never joins it by accident.
        self._in_transaction: contextvars.ContextVar[bool] = contextvars.ContextVar(f"store_tx_{id(self)}", default=False)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls, path: str | Path, migrations: Path = MIGRATIONS_DIR, checkpoint_every: float = 1.0
    ) -> "Store":
        """Open (and migrate) the database; a file gets WAL checkpoints every ``checkpoint_every``
        seconds on a thread of its own (``bot/checkpoints.py``), not in a command's COMMIT."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        await conn.execute("PRAGMA synchronous = NORMAL")
        store = cls(conn)
        try:
            await store.migrate(migrations)
        except BaseException:
            await conn.close()
            raise
        # From here on the sqlite3 module itself issues BEGIN IMMEDIATE right before the first INSERT,
        # UPDATE or DELETE when no transaction is open, in the same trip (see transaction()).
        conn.isolation_level = "IMMEDIATE"
        if str(path) != ":memory:":
            await conn.execute(f"PRAGMA wal_autocheckpoint = {SAFETY_NET_PAGES}")
            store._checkpointer = Checkpointer(Path(path), checkpoint_every)
        return store

    async def close(self) -> None:
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        await self._conn.close()

    async def schema_version(self) -> int:
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def applied_migrations(self) -> list[str]:
        async with self._conn.execute("SELECT name FROM schema_migrations ORDER BY name") as cur:
            return [str(row[0]) for row in await cur.fetchall()]

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> int:
        """Apply every migration not yet recorded in ``schema_migrations``, in file order, each in its own
        transaction together with its record and ``PRAGMA user_version`` (the number applied)."""
        await self._conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        files = migration_files(directory)
        applied = set(await self.applied_migrations())
        version = await self.schema_version()
        if not applied and version > 0:  # a database from before migrations were recorded by name
            for _, path in files[:version]:
                await self._conn.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, 'before-record')", (path.name,)
                )
            applied = {path.name for _, path in files[:version]}
        for _, path in files:
            if path.name in applied:
                continue
            sql = path.read_text(encoding="utf-8")
            version = len(applied) + 1
            record = path.name.replace("'", "''")
            script = (
                f"BEGIN IMMEDIATE;\n{sql}\n"
                f"INSERT INTO schema_migrations (name, applied_at) VALUES ('{record}', datetime('now'));\n"
                f"PRAGMA user_version = {version};\nCOMMIT;"
            )
            try:
                await self._conn.executescript(script)
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                raise MigrationError(f"migration {path.name} failed: {exc}") from exc
            applied.add(path.name)
        return len(applied)

    async def integrity_check(self) -> str:
        async with self._conn.execute("PRAGMA integrity_check") as cur:
            row = await cur.fetchone()
        return str(row[0])

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One write transaction; nested use joins the outer one.

        The asyncio lock makes this task the only writer of the process until the end. BEGIN IMMEDIATE
        is not a trip of its own: the sqlite3 module issues it with the first INSERT, UPDATE or DELETE
        (``isolation_level`` "IMMEDIATE", set in ``open``). Reads before that first write see the committed
        database, which nobody can change meanwhile: this task holds the lock, and the bot is the only
        process that writes the file (``clubbot restore`` runs while the bot is stopped; a backup only
        reads). A transaction that wrote nothing (a refusal, /stand) has nothing to commit or roll back."""
        if self._in_transaction.get():
            yield
            return
        async with self._write_lock:
            token = self._in_transaction.set(True)
            try:
                yield
            except BaseException as exc:
                await self._roll_back(cancelled=not isinstance(exc, Exception))
                raise
            finally:
                self._in_transaction.reset(token)
            if self._conn.in_transaction:
                await self._conn.execute("COMMIT")

    async def _roll_back(self, cancelled: bool) -> None:
        """Undo the open transaction, if any, and forget what the caches hold. A cancelled task may have
        left a write on its way to the database thread, which opens the transaction when it runs: then
        ROLLBACK is sent all the same (the thread runs it after that write) and "no transaction" is fine."""
        self._forget()
        if self._conn.in_transaction or cancelled:
            try:
                await self._conn.execute("ROLLBACK")
            except sqlite3.OperationalError:
                if self._conn.in_transaction:
                    raise
        self._forget()

    def _forget(self) -> None:
        self._clubs.clear()
        self._members.clear()
        self._forgotten += 1

    # ------------------------------------------------------------------ helpers
    async def _one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self._conn.execute_fetchall(sql, tuple(params))  # one trip to the database thread
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))

    async def _write(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change; outside a transaction it gets a transaction of its own. Returns lastrowid."""
        if not _OPENS_TRANSACTION.match(sql):  # anything else would run outside the transaction
            raise ValueError(f"a store write must start with INSERT, UPDATE or DELETE: {sql[:40]!r}")
        async with self.transaction():
            if "clubs" in sql:
                self._clubs.clear()
                self._forgotten += 1
            if "members" in sql or "identities" in sql:
                self._members.clear()
                self._forgotten += 1
            row = await self._conn.execute_insert(sql, tuple(params))  # one trip to the database thread
            return int(row[0]) if row and row[0] else 0

    # ------------------------------------------------------------------ clubs
    async def get_or_create_club(
        self, platform: str, external_id: str, name: str, language: str, timezone: str, now: datetime
    ) -> Club:
        club = await self.club_by_external(platform, external_id)
        if club is not None:
            return club
        await self._write(
            "INSERT OR IGNORE INTO clubs (platform, external_id, name, language, timezone, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (platform, external_id, name, language, timezone, iso(now)),
        )
        club = await self.club_by_external(platform, external_id)
        assert club is not None
        return club

    async def club_by_external(self, platform: str, external_id: str) -> Club | None:
        key = (platform, external_id)
        club = self._clubs.get(key)
        if club is None:
            forgotten = self._forgotten
            row = await self._one("SELECT * FROM clubs WHERE platform = ? AND external_id = ?", key)
            club = _club(row) if row else None
            if club is not None and forgotten == self._forgotten:
                self._clubs[key] = club
        return club

    async def clubs_of_identity(self, platform: str, user_id: str) -> list[Club]:
        """The clubs on a platform in which this chat user is a member (for private messages)."""
        rows = await self._all(
            "SELECT c.* FROM clubs c JOIN identities i ON i.club_id = c.id WHERE c.platform = ? AND i.user_id = ?"
            " ORDER BY c.id",
            (platform, user_id),
        )
        return [_club(r) for r in rows]

    async def club(self, club_id: int) -> Club | None:
        row = await self._one("SELECT * FROM clubs WHERE id = ?", (club_id,))
        return _club(row) if row else None

    async def set_club_language(self, club_id: int, language: str) -> None:
        await self._write("UPDATE clubs SET language = ? WHERE id = ?", (language, club_id))

    async def set_club_channel(self, club_id: int, channel_id: str) -> None:
        await self._write("UPDATE clubs SET channel_id = ? WHERE id = ?", (channel_id, club_id))

    # ------------------------------------------------------------------ members
    async def member_by_identity(self, club_id: int, user_id: str) -> Member | None:
        key = (club_id, user_id)
        member = self._members.get(key)
        if member is None:
            forgotten = self._forgotten
            row = await self._one(
                "SELECT m.* FROM identities i JOIN members m ON m.id = i.member_id"
                " WHERE i.club_id = ? AND i.user_id = ?",
                key,
            )
            member = _member(row) if row else None
            if member is not None and forgotten == self._forgotten:
                self._members[key] = member
        return member

    async def member_by_name(self, club_id: int, name: str) -> Member | None:
        row = await self._one("SELECT * FROM members WHERE club_id = ? AND name = ? COLLATE NOCASE", (club_id, name))
        return _member(row) if row else None

    async def member(self, member_id: int) -> Member | None:
        row = await self._one("SELECT * FROM members WHERE id = ?", (member_id,))
        return _member(row) if row else None

    async def members(self, club_id: int) -> list[Member]:
        rows = await self._all("SELECT * FROM members WHERE club_id = ? ORDER BY name COLLATE NOCASE", (club_id,))
        return [_member(r) for r in rows]

    async def member_is_linked(self, member_id: int) -> bool:
        return await self._one("SELECT 1 FROM identities WHERE member_id = ?", (member_id,)) is not None

    async def add_member(self, club_id: int, name: str, rating: int, now: datetime, is_director: bool = False) -> Member:
        member_id = await self._write(
            "INSERT INTO members (club_id, name, rating, is_director, created_at) VALUES (?, ?, ?, ?, ?)",
            (club_id, name, rating, int(is_director), iso(now)),
        )
        member = await self.member(member_id)
        assert member is not None
        return member

    async def update_member_rating(self, member_id: int, rating: int) -> None:
        await self._write("UPDATE members SET rating = ? WHERE id = ?", (rating, member_id))

    async def set_member_director(self, member_id: int, is_director: bool) -> None:
        await self._write("UPDATE members SET is_director = ? WHERE id = ?", (int(is_director), member_id))

    async def link_identity(self, club_id: int, user_id: str, member_id: int) -> None:
        await self._write(
            "INSERT INTO identities (club_id, user_id, member_id) VALUES (?, ?, ?)"
            " ON CONFLICT (club_id, user_id) DO UPDATE SET member_id = excluded.member_id",
            (club_id, user_id, member_id),
        )

    # ------------------------------------------------------------------ seasons
    async def create_season(
        self,
        club_id: int,
        name: str,
        kind: str,
        rounds: list[tuple[int, str, datetime, datetime]],
        deadline_time: str,
        publish_time: str,
        timezone: str,
        settings_json: str,
        now: datetime,
    ) -> Season:
        """A season with all its rounds: (number, local play date, deadline UTC, publish UTC)."""
        async with self.transaction():
            await self._conn.execute(
                "UPDATE seasons SET status = 'finished' WHERE club_id = ? AND kind = ? AND status = 'active'",
                (club_id, kind),
            )
            season_id = await self._write(
                "INSERT INTO seasons (club_id, name, kind, rounds_count, deadline_time, publish_time, timezone,"
                " settings_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (club_id, name, kind, len(rounds), deadline_time, publish_time, timezone, settings_json, iso(now)),
            )
            await self._conn.executemany(
                "INSERT INTO rounds (season_id, number, play_date, deadline_at, publish_at) VALUES (?, ?, ?, ?, ?)",
                [(season_id, n, d, iso(dl), iso(pub)) for n, d, dl, pub in rounds],
            )
        season = await self.season(season_id)
        assert season is not None
        return season

    async def season(self, season_id: int) -> Season | None:
        row = await self._one("SELECT * FROM seasons WHERE id = ?", (season_id,))
        return _season(row) if row else None

    async def season_by_name(self, club_id: int, name: str) -> Season | None:
        row = await self._one("SELECT * FROM seasons WHERE club_id = ? AND name = ?", (club_id, name))
        return _season(row) if row else None

    async def active_season(self, club_id: int, kind: str = "main") -> Season | None:
        row = await self._one(
            "SELECT * FROM seasons WHERE club_id = ? AND kind = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
            (club_id, kind),
        )
        return _season(row) if row else None

    async def season_at_hand(
        self, club_id: int, member_id: int | None, kind: str = "main"
    ) -> tuple[Season, RoundRow | None, SeasonPlayer | None] | None:
        """What a sign-off or sign-on needs, in one trip: the active season (as ``active_season``), its
        coming round (as ``coming_round``, None when every round is paired) and the member's place in it
        (as ``season_player``, None when the member is not in the season or not given)."""
        row = await self._one(
            "SELECT s.*,"
            " r.id AS r_id, r.season_id AS r_season_id, r.number AS r_number, r.play_date AS r_play_date,"
            " r.deadline_at AS r_deadline_at, r.publish_at AS r_publish_at, r.status AS r_status,"
            " sp.member_id AS sp_member_id, m.name AS sp_name, sp.rating AS sp_rating,"
            " sp.group_name AS sp_group_name, sp.joined_round AS sp_joined_round,"
            " sp.start_points AS sp_start_points, sp.auto_signed_off AS sp_auto_signed_off"
            " FROM seasons s"
            " LEFT JOIN rounds r ON r.id ="
            "  (SELECT id FROM rounds WHERE season_id = s.id AND status != 'paired' ORDER BY number LIMIT 1)"
            " LEFT JOIN season_players sp ON sp.season_id = s.id AND sp.member_id = ?"
            " LEFT JOIN members m ON m.id = sp.member_id"
            " WHERE s.club_id = ? AND s.kind = ? AND s.status = 'active' ORDER BY s.id DESC LIMIT 1",
            (member_id, club_id, kind),
        )
        if row is None:
            return None
        coming = _round(row, "r_") if row["r_id"] is not None else None
        player = _season_player(row, "sp_") if row["sp_member_id"] is not None else None
        return _season(row), coming, player

    async def season_players(self, season_id: int) -> list[SeasonPlayer]:
        rows = await self._all(
            "SELECT sp.*, m.name FROM season_players sp JOIN members m ON m.id = sp.member_id"
            " WHERE sp.season_id = ? ORDER BY sp.position IS NULL, sp.position, sp.rating DESC, m.name COLLATE NOCASE",
            (season_id,),
        )
        return [_season_player(r) for r in rows]

    async def season_player(self, season_id: int, member_id: int) -> SeasonPlayer | None:
        row = await self._one(
            "SELECT sp.*, m.name FROM season_players sp JOIN members m ON m.id = sp.member_id"
            " WHERE sp.season_id = ? AND sp.member_id = ?",
            (season_id, member_id),
        )
        return _season_player(row) if row else None

    async def upsert_season_player(
        self,
        season_id: int,
        member_id: int,
        rating: int,
        joined_round: int,
        group_name: str | None = None,
        position: int | None = None,
    ) -> None:
        """Add a player to a season, or update their rating (and group, and start position, when given).

        Players are listed in start order: by ``position`` where the season has one (last season's
        final ranking), then by rating."""
        await self._write(
            "INSERT INTO season_players (season_id, member_id, rating, joined_round, group_name, position)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, member_id) DO UPDATE SET rating = excluded.rating,"
            " group_name = COALESCE(excluded.group_name, season_players.group_name),"
            " position = COALESCE(excluded.position, season_players.position)",
            (season_id, member_id, rating, joined_round, group_name, position),
        )

    async def set_start_points(self, season_id: int, member_id: int, points: str | None) -> None:
        await self._write(
            "UPDATE season_players SET start_points = ? WHERE season_id = ? AND member_id = ?",
            (points, season_id, member_id),
        )

    async def set_auto_signed_off(self, season_id: int, member_id: int, value: bool) -> None:
        await self._write(
            "UPDATE season_players SET auto_signed_off = ? WHERE season_id = ? AND member_id = ?",
            (int(value), season_id, member_id),
        )

    # ------------------------------------------------------------------ rounds
    async def rounds(self, season_id: int) -> list[RoundRow]:
        rows = await self._all("SELECT * FROM rounds WHERE season_id = ? ORDER BY number", (season_id,))
        return [_round(r) for r in rows]

    async def round(self, round_id: int) -> RoundRow | None:
        row = await self._one("SELECT * FROM rounds WHERE id = ?", (round_id,))
        return _round(row) if row else None

    async def coming_round(self, season_id: int) -> RoundRow | None:
        """The first round of the season that is not paired yet."""
        row = await self._one(
            "SELECT * FROM rounds WHERE season_id = ? AND status != 'paired' ORDER BY number LIMIT 1", (season_id,)
        )
        return _round(row) if row else None

    async def round_by_number(self, season_id: int, number: int) -> RoundRow | None:
        row = await self._one("SELECT * FROM rounds WHERE season_id = ? AND number = ?", (season_id, number))
        return _round(row) if row else None

    async def next_due_moment(self) -> datetime | None:
        """The earliest deadline or publication that has not been handled yet, over all clubs."""
        row = await self._one(
            "SELECT MIN(t) FROM ("
            " SELECT MIN(r.deadline_at) AS t FROM rounds r JOIN seasons s ON s.id = r.season_id"
            "  WHERE r.status = 'open' AND s.status = 'active'"
            " UNION ALL"
            " SELECT MIN(r.publish_at) FROM rounds r JOIN seasons s ON s.id = r.season_id"
            "  WHERE r.status IN ('open', 'closed') AND s.status = 'active')"
        )
        return from_iso(row[0]) if row and row[0] else None

    async def next_reminder_deadline(self) -> datetime | None:
        """The earliest deadline of an open round whose reminder has not been queued yet."""
        row = await self._one(
            "SELECT MIN(r.deadline_at) FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status = 'open' AND s.status = 'active' AND NOT EXISTS"
            " (SELECT 1 FROM announcements a WHERE a.round_id = r.id AND a.kind = 'reminder')"
        )
        return from_iso(row[0]) if row and row[0] else None

    async def rounds_to_remind(self, now: datetime, before: timedelta) -> list[RoundRow]:
        """Open rounds whose deadline is still ahead but within ``before``, not yet reminded of."""
        rows = await self._all(
            "SELECT r.* FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status = 'open' AND s.status = 'active' AND r.deadline_at > ? AND r.deadline_at <= ?"
            " AND NOT EXISTS (SELECT 1 FROM announcements a WHERE a.round_id = r.id AND a.kind = 'reminder')"
            " ORDER BY r.deadline_at",
            (iso(now), iso(now + before)),
        )
        return [_round(r) for r in rows]

    async def rounds_to_close(self, now: datetime) -> list[RoundRow]:
        rows = await self._all(
            "SELECT r.* FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status = 'open' AND s.status = 'active' AND r.deadline_at <= ? ORDER BY r.deadline_at",
            (iso(now),),
        )
        return [_round(r) for r in rows]

    async def rounds_to_pair(self, now: datetime) -> list[RoundRow]:
        rows = await self._all(
            "SELECT r.* FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status IN ('open', 'closed') AND s.status = 'active' AND r.publish_at <= ?"
            " ORDER BY r.publish_at, r.number",
            (iso(now),),
        )
        return [_round(r) for r in rows]

    async def set_round_status(self, round_id: int, status: str, expected: tuple[str, ...]) -> bool:
        """Move a round on; False when it was not in one of the expected states (someone else did it)."""
        async with self.transaction():
            marks = ",".join("?" * len(expected))
            async with self._conn.execute(
                f"UPDATE rounds SET status = ? WHERE id = ? AND status IN ({marks})", (status, round_id, *expected)
            ) as cur:
                return cur.rowcount == 1

    async def save_pairing(
        self,
        round_id: int,
        games: list[tuple[int, int, int]],
        bye: int | None,
        now: datetime,
        announcement: tuple[int, str, str, bytes | None] | None,
    ) -> bool:
        """Store a round's games (board, white, black) and bye, mark it paired, queue its announcement.

        All in one transaction; returns False (and changes nothing) when the round was already paired.
        """
        async with self.transaction():
            async with self._conn.execute(
                "UPDATE rounds SET status = 'paired', paired_at = ? WHERE id = ? AND status IN ('open', 'closed')",
                (iso(now), round_id),
            ) as cur:
                if cur.rowcount != 1:
                    return False
            await self._conn.executemany(
                "INSERT INTO games (round_id, board, white_id, black_id) VALUES (?, ?, ?, ?)",
                [(round_id, board, white, black) for board, white, black in games],
            )
            if bye is not None:
                await self._conn.execute("INSERT INTO byes (round_id, member_id) VALUES (?, ?)", (round_id, bye))
            if announcement is not None:
                club_id, kind, body, image = announcement
                await self.queue_announcement(club_id, round_id, kind, body, now, image)
        return True

    async def store_played_round(
        self,
        round_id: int,
        games: list[tuple[int, int, int, str | None]],
        byes: list[int],
        absent: dict[int, str],
        now: datetime,
    ) -> None:
        """An imported round: games (board, white, black, result), byes and absences; marked paired."""
        async with self.transaction():
            await self._conn.execute(
                "UPDATE rounds SET status = 'paired', paired_at = ? WHERE id = ?", (iso(now), round_id)
            )
            await self._conn.executemany(
                "INSERT INTO games (round_id, board, white_id, black_id, result, confirmed_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(round_id, b, w, k, r, iso(now) if r else None) for b, w, k, r in games],
            )
            await self._conn.executemany(
                "INSERT INTO byes (round_id, member_id) VALUES (?, ?)", [(round_id, m) for m in byes]
            )
            await self._conn.executemany(
                "INSERT INTO signoffs (round_id, member_id, kind, created_at) VALUES (?, ?, ?, ?)",
                [(round_id, m, kind, iso(now)) for m, kind in absent.items()],
            )

    # ------------------------------------------------------------------ sign-offs
    async def signoffs(self, round_id: int) -> list[Signoff]:
        rows = await self._all("SELECT * FROM signoffs WHERE round_id = ?", (round_id,))
        return [Signoff(r["round_id"], r["member_id"], r["kind"]) for r in rows]

    async def signoffs_of_season(self, season_id: int) -> list[tuple[int, Signoff]]:
        rows = await self._all(
            "SELECT r.number, so.* FROM signoffs so JOIN rounds r ON r.id = so.round_id WHERE r.season_id = ?",
            (season_id,),
        )
        return [(r["number"], Signoff(r["round_id"], r["member_id"], r["kind"])) for r in rows]

    async def signoff(self, round_id: int, member_id: int) -> Signoff | None:
        row = await self._one("SELECT * FROM signoffs WHERE round_id = ? AND member_id = ?", (round_id, member_id))
        return Signoff(row["round_id"], row["member_id"], row["kind"]) if row else None

    async def set_signoff(self, round_id: int, member_id: int, kind: str, by: int | None, now: datetime) -> None:
        await self._write(
            "INSERT INTO signoffs (round_id, member_id, kind, created_at, created_by) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (round_id, member_id) DO UPDATE SET kind = excluded.kind,"
            " created_at = excluded.created_at, created_by = excluded.created_by",
            (round_id, member_id, kind, iso(now), by),
        )

    async def delete_signoff(self, round_id: int, member_id: int) -> bool:
        async with self.transaction():
            deleted = await self._conn.execute_fetchall(  # one trip, where a cursor's rowcount takes two
                "DELETE FROM signoffs WHERE round_id = ? AND member_id = ? RETURNING member_id", (round_id, member_id)
            )
            return len(list(deleted)) == 1

    # ------------------------------------------------------------------ games
    async def games_of_round(self, round_id: int) -> list[GameRow]:
        rows = await self._all("SELECT * FROM games WHERE round_id = ? ORDER BY board", (round_id,))
        return [_game(r) for r in rows]

    async def games_of_season(self, season_id: int) -> list[tuple[int, GameRow]]:
        rows = await self._all(
            "SELECT r.number, g.* FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.season_id = ?"
            " ORDER BY r.number, g.board",
            (season_id,),
        )
        return [(r["number"], _game(r)) for r in rows]

    async def byes_of_season(self, season_id: int) -> list[tuple[int, int]]:
        rows = await self._all(
            "SELECT r.number, b.member_id FROM byes b JOIN rounds r ON r.id = b.round_id WHERE r.season_id = ?",
            (season_id,),
        )
        return [(r["number"], r["member_id"]) for r in rows]

    async def bye_of_round(self, round_id: int) -> int | None:
        row = await self._one("SELECT member_id FROM byes WHERE round_id = ?", (round_id,))
        return int(row[0]) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def report_result(self, game_id: int, result: str, by: int) -> None:
        await self._write(
            "UPDATE games SET reported_result = ?, reported_by = ? WHERE id = ? AND result IS NULL",
            (result, by, game_id),
        )

    async def set_result(self, game_id: int, result: str | None, now: datetime) -> None:
        await self._write(
            "UPDATE games SET result = ?, confirmed_at = ?, reported_result = NULL, reported_by = NULL WHERE id = ?",
            (result, iso(now) if result else None, game_id),
        )

    async def replace_with_standby(
        self, game_id: int, absent_id: int, standby_id: int, round_id: int, now: datetime
    ) -> None:
        """Seed 004 rule l: the player with the bye takes the place of a paired player who did not come."""
        async with self.transaction():
            game = await self.game(game_id)
            assert game is not None
            column = "white_id" if game.white_id == absent_id else "black_id"
            await self._conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (standby_id, game_id))
            await self._conn.execute("DELETE FROM byes WHERE round_id = ? AND member_id = ?", (round_id, standby_id))
            await self.set_signoff(round_id, absent_id, "unexcused", None, now)

    # ------------------------------------------------------------------ announcements
    async def queue_announcement(
        self, club_id: int, round_id: int | None, kind: str, body: str, now: datetime, image: bytes | None = None
    ) -> None:
        await self._write(
            "INSERT OR IGNORE INTO announcements (club_id, round_id, kind, body, created_at, image)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (club_id, round_id, kind, body, iso(now), image),
        )

    async def pending_announcements(self) -> list[Announcement]:
        rows = await self._all("SELECT * FROM announcements WHERE sent_at IS NULL ORDER BY id")
        return [_announcement(r) for r in rows]

    async def mark_announcement_attempted(self, announcement: Announcement, now: datetime) -> Announcement:
        """Record, committed before the first post, that it is being posted and after which of the club's
        posts: a later attempt then knows to look whether it is already there (exactly once)."""
        if announcement.attempted:
            return announcement
        async with self.transaction():
            rows = await self._conn.execute_fetchall(  # one trip: the club's latest post, read and written
                "UPDATE announcements SET attempted_at = ?, after_ref = (SELECT message_ref FROM announcements"
                " WHERE club_id = ? AND message_ref IS NOT NULL ORDER BY sent_at DESC, id DESC LIMIT 1)"
                " WHERE id = ? AND attempted_at IS NULL RETURNING after_ref",
                (iso(now), announcement.club_id, announcement.id),
            )
            after_ref = next(iter(rows))["after_ref"] if rows else None
        return replace(announcement, attempted=True, after_ref=after_ref)

    async def mark_announcement_sent(self, announcement_id: int, now: datetime, message_ref: str | None = None) -> bool:
        async with self.transaction():
            async with self._conn.execute(
                "UPDATE announcements SET sent_at = ?, message_ref = ? WHERE id = ? AND sent_at IS NULL",
                (iso(now), message_ref, announcement_id),
            ) as cur:
                return cur.rowcount == 1

    async def announcements(self, club_id: int) -> list[tuple[Announcement, str | None]]:
        rows = await self._all("SELECT * FROM announcements WHERE club_id = ? ORDER BY id", (club_id,))
        return [(_announcement(r), r["sent_at"]) for r in rows]


def _season_player(r: sqlite3.Row, prefix: str = "") -> SeasonPlayer:
    return SeasonPlayer(
        member_id=r[prefix + "member_id"],
        name=r[prefix + "name"],
        rating=r[prefix + "rating"],
        group_name=r[prefix + "group_name"],
        joined_round=r[prefix + "joined_round"],
        start_points=r[prefix + "start_points"],
        auto_signed_off=bool(r[prefix + "auto_signed_off"]),
    )


def _announcement(row: sqlite3.Row) -> Announcement:
    return Announcement(
        row["id"], row["club_id"], row["round_id"], row["kind"], row["body"], row["image"],
        attempted=row["attempted_at"] is not None, after_ref=row["after_ref"],
    )  # fmt: skip


def _club(row: sqlite3.Row) -> Club:
    return Club(
        row["id"], row["platform"], row["external_id"], row["name"], row["language"], row["timezone"], row["channel_id"]
    )


def _member(row: sqlite3.Row) -> Member:
    return Member(row["id"], row["club_id"], row["name"], row["rating"], bool(row["is_director"]))


def _season(row: sqlite3.Row) -> Season:
    return Season(
        row["id"],
        row["club_id"],
        row["name"],
        row["kind"],
        row["rounds_count"],
        row["deadline_time"],
        row["publish_time"],
        row["timezone"],
        row["settings_json"],
        row["status"],
    )


def _round(row: sqlite3.Row, prefix: str = "") -> RoundRow:
    return RoundRow(
        row[prefix + "id"],
        row[prefix + "season_id"],
        row[prefix + "number"],
        row[prefix + "play_date"],
        from_iso(row[prefix + "deadline_at"]),
        from_iso(row[prefix + "publish_at"]),
        row[prefix + "status"],
    )


def _game(row: sqlite3.Row) -> GameRow:
    return GameRow(
        row["id"],
        row["round_id"],
        row["board"],
        row["white_id"],
        row["black_id"],
        row["result"],
        row["reported_result"],
        row["reported_by"],
    )
