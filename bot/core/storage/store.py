"""The shared tables every system uses: clubs, members, their chat identities, the announcements outbox,
and what two systems share (forbidden pairs, ``bot/core/club/forbidden_pairs.py``). The systems' own tables
have their own stores (``bot/keizer/store.py``, ``bot/nk/store.py``, ...), which run their SQL through
this one connection (``bot/core/storage/database.py``); each table's owner declares it (``bot/core/storage/tables.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from collections.abc import Collection, Iterable, Mapping
from typing import Any, cast

from bot.config import is_postgres as is_postgres  # where it was always imported from, too
from bot.core.storage.database import Database, from_iso, iso
from bot.core.club.director_accounts import DirectorAccounts
from bot.core.club.federation_tables import FederationTables
from bot.core.club.forbidden_pairs import ForbiddenPairs
from bot.core.club.lichess_tables import LichessAccounts
from bot.core.online.games_store import OnlineGames
from bot.core.online.results_store import OnlineResultsStore
from bot.core.club.member_links import MemberLinks
from bot.core.club.member_notices import MemberNotices
from bot.core.club.installation import Installation
from bot.core.storage.migrations import MIGRATIONS_DIR
from bot.core.club.name_key import name_key
from bot.core.storage.postgres import PostgresDatabase
from bot.core.club.style_store import ClubStyles
from bot.core.storage.table_rules import Table

__all__ = ["Announcement", "Club", "Member", "Store", "PostgresStore", "club_key", "open_store", "from_iso", "iso"]


@dataclass(frozen=True)
class Club:
    id: int
    platform: str
    external_id: str
    name: str
    language: str
    timezone: str
    channel_id: str | None
    website: str = "off"  # the club's website: "on" (public), "off", "members" (only with a member's link)
    colour: str | None = None  # the website's colour, #rrggbb (bot/core/club/club_style.py); None: standard
    logo: str | None = None  # the stamp of the website's logo (its image: club_logos); None: no logo
    # The chat accounts with a row in director_accounts (``bot/core/club/director_accounts.py``), read with the
    # club: a command of anyone else need not delete theirs (a round trip saved on PostgreSQL).
    director_users: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Member:
    id: int
    club_id: int
    name: str
    rating: int
    is_director: bool


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
    picture: str | None = None  # what its picture shows (bot/core/output/pictures.py picture_spec), drawn when sent
    recipient: str | None = None  # a member's chat account: a private message, not the club's channel
    link: tuple[str, str] | None = None  # a button under it that opens an address: (label, url)


class SharedTables(
    Installation, DirectorAccounts, MemberLinks, MemberNotices, FederationTables, ClubStyles, ForbiddenPairs,
    LichessAccounts, OnlineGames, OnlineResultsStore,
):
    """The shared tables' queries, on either database (``Store``: SQLite, ``PostgresStore``). Open with
    ``await open_store(path or url)``."""

    # what the caches below hold
    CACHED_TABLES: tuple[str, ...] = ("clubs", "members", "identities", "director_accounts")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        # Clubs by (platform, external id): read by every command, changed rarely. Every change to the
        # clubs table goes through a write, which empties this, and so does a rollback.
        self._clubs: dict[tuple[str, str], Club] = {}
        self._clubs_by_id: dict[int, Club] = {}  # the same, by id (the website's addresses)
        # Members by (club, chat identity), likewise: emptied by any write naming members or identities.
        self._members: dict[tuple[int, str], Member] = {}

    @classmethod
    async def open(cls, *args: Any, **kwargs: Any) -> Any:
        """Open (and migrate) the database, and key the names from before the key."""
        store = await super().open(*args, **kwargs)
        try:
            await store._see_tables()
            await store.fill_name_keys()
        except BaseException:
            await store.close()
            raise
        return store

    def _forget(self, sql: str | None = None) -> None:
        if sql is None or "clubs" in sql or "director_accounts" in sql:  # a club is read with its director accounts
            self._clubs.clear()
            self._clubs_by_id.clear()
            self._forgotten += 1
            self._cache_touched = sql is not None
        if sql is None or "members" in sql or "identities" in sql:
            self._members.clear()
            self._forgotten += 1
            self._cache_touched = sql is not None

    # ------------------------------------------------------------------ clubs
    async def get_or_create_club(
        self, platform: str, external_id: str, name: str, language: str, timezone: str, now: datetime
    ) -> Club:
        club = await self.club_by_external(platform, external_id)
        if club is not None:
            return club
        await self.write(
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
            row = await self.fetch_one(self._club_sql("platform = ? AND external_id = ?"), key)
            club = _club(row) if row else None
            if club is not None and forgotten == self._forgotten:
                self._clubs[key] = club
                self._clubs_by_id[club.id] = club
        return club

    async def clubs_of_identity(self, platform: str, user_id: str) -> list[Club]:
        """The clubs on a platform in which this chat user is a member (for private messages)."""
        rows = await self.fetch_all(
            "SELECT c.* FROM clubs c JOIN identities i ON i.club_id = c.id WHERE c.platform = ? AND i.user_id = ?"
            " ORDER BY c.id",
            (platform, user_id),
        )
        return [_club(r) for r in rows]

    async def club(self, club_id: int) -> Club | None:
        club = self._clubs_by_id.get(club_id)
        if club is None:
            forgotten = self._forgotten
            row = await self.fetch_one(self._club_sql("id = ?"), (club_id,))
            club = _club(row) if row else None
            if club is not None and forgotten == self._forgotten:
                self._clubs_by_id[club_id] = club
        return club

    async def read_clubs(self, club_ids: list[int]) -> None:
        """Read into the cache, in one query, those of these clubs it does not hold (a publication
        minute's share: one round trip instead of one a club on PostgreSQL)."""
        missing = sorted({c for c in club_ids if c not in self._clubs_by_id})
        forgotten = self._forgotten
        rows = await self.fetch_all_in(self._club_sql("id IN ({marks})"), missing) if missing else []
        if forgotten == self._forgotten:
            self._clubs_by_id.update((club.id, club) for club in map(_club, rows))

    async def set_club_language(self, club_id: int, language: str) -> None:
        await self.write("UPDATE clubs SET language = ? WHERE id = ?", (language, club_id))

    async def set_club_website(self, club_id: int, mode: str) -> None:
        await self.write("UPDATE clubs SET website = ? WHERE id = ?", (mode, club_id))

    async def set_club_channel(self, club_id: int, channel_id: str) -> None:
        await self.write("UPDATE clubs SET channel_id = ? WHERE id = ?", (channel_id, club_id))

    # ------------------------------------------------------------------ members
    async def member_by_identity(self, club_id: int, user_id: str) -> Member | None:
        key = (club_id, user_id)
        member = self._members.get(key)
        if member is None:
            forgotten = self._forgotten
            row = await self.fetch_one(
                "SELECT m.* FROM identities i JOIN members m ON m.id = i.member_id"
                " WHERE i.club_id = ? AND i.user_id = ?",
                key,
            )
            member = _member(row) if row else None
            if member is not None and forgotten == self._forgotten:
                self._members[key] = member
        return member

    async def member_by_name(self, club_id: int, name: str) -> Member | None:
        """The member of that name, case and accents aside (``name_key``); of two from before the key
        whose names differ only so, the one written exactly so."""
        row = await self.fetch_one(
            "SELECT * FROM members WHERE club_id = ? AND name_key = ? ORDER BY name = ? DESC, id LIMIT 1",
            (club_id, name_key(name), name),
        )
        return _member(row) if row else None

    async def fill_name_keys(self) -> None:
        """The key of every name from before the key (``migrations/0041_member_name_key.sql``)."""
        if "0041_member_name_key.sql" not in await self.applied_migrations():  # opened at an earlier level
            return
        rows = await self.fetch_all("SELECT id, name FROM members WHERE name_key IS NULL")
        if rows:
            async with self.transaction():
                await self.execute_many(
                    "UPDATE members SET name_key = ? WHERE id = ?", [(name_key(r["name"]), r["id"]) for r in rows]
                )

    async def alike_names(self) -> list[tuple[str, list[str]]]:
        """(club, names) of the members whose names differ only in case or accents (a file from before
        the key may hold them), each group in the order they were added."""
        rows = await self.fetch_all(
            "SELECT c.name AS club, m.name FROM members m JOIN clubs c ON c.id = m.club_id WHERE EXISTS"
            " (SELECT 1 FROM members o WHERE o.club_id = m.club_id AND o.name_key = m.name_key AND o.id <> m.id)"
            " ORDER BY m.club_id, m.name_key, m.id"
        )
        groups: dict[tuple[str, str], list[str]] = {}
        for r in rows:
            groups.setdefault((r["club"], name_key(r["name"])), []).append(r["name"])
        return [(club, names) for (club, _), names in groups.items()]

    def _member_row(self, row: Any) -> Member:
        return _member(row)

    async def member(self, member_id: int) -> Member | None:
        row = await self.fetch_one("SELECT * FROM members WHERE id = ?", (member_id,))
        return _member(row) if row else None

    async def members(self, club_id: int) -> list[Member]:
        rows = await self.fetch_all("SELECT * FROM members WHERE club_id = ? ORDER BY name COLLATE NOCASE", (club_id,))
        return [_member(r) for r in rows]

    async def member_is_linked(self, member_id: int) -> bool:
        return await self.fetch_one("SELECT 1 FROM identities WHERE member_id = ?", (member_id,)) is not None

    async def add_member(self, club_id: int, name: str, rating: int, now: datetime, is_director: bool = False) -> Member:
        member_id = await self.write(
            "INSERT INTO members (club_id, name, name_key, rating, is_director, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (club_id, name, name_key(name), rating, int(is_director), iso(now)),
        )
        member = await self.member(member_id)
        assert member is not None
        return member

    async def update_member_rating(self, member_id: int, rating: int) -> None:
        await self.write("UPDATE members SET rating = ? WHERE id = ?", (rating, member_id))

    async def set_member_director(self, member_id: int, is_director: bool) -> None:
        await self.write("UPDATE members SET is_director = ? WHERE id = ?", (int(is_director), member_id))

    async def link_identity(self, club_id: int, user_id: str, member_id: int) -> None:
        await self.write(
            "INSERT INTO identities (club_id, user_id, member_id) VALUES (?, ?, ?)"
            " ON CONFLICT (club_id, user_id) DO UPDATE SET member_id = excluded.member_id",
            (club_id, user_id, member_id),
        )

    async def identities_of(self, member_id: int) -> list[str]:
        rows = await self.fetch_all("SELECT user_id FROM identities WHERE member_id = ? ORDER BY user_id", (member_id,))
        return [r["user_id"] for r in rows]

    async def move_member_to(self, club_id: int, user_id: str, member_id: int) -> None:
        """Make ``user_id`` the member's one chat account: its earlier accounts stop acting as the member,
        and a code handed out for it is used up."""
        await self.write("DELETE FROM identities WHERE member_id = ?", (member_id,))
        await self.write("DELETE FROM link_codes WHERE member_id = ?", (member_id,))
        await self.link_identity(club_id, user_id, member_id)

    async def rename_member(self, member_id: int, name: str) -> None:
        await self.write("UPDATE members SET name = ?, name_key = ? WHERE id = ?", (name, name_key(name), member_id))

    async def member_references(self) -> list[tuple[str, str, str | None]]:
        """Every column that refers to ``members``, as (table, column, the table its ``round_id`` refers
        to, or None): what a merge moves, a removal asks about, a shared round is looked for in."""
        keys = await self.foreign_keys()
        rounds = {table: target for table, column, target in keys if column == "round_id"}
        return [(table, column, rounds.get(table)) for table, column, target in keys if target == "members"]

    async def merge_member_into(self, source: int, target: int) -> None:
        """Everything of member ``source`` becomes ``target``'s (found by following every foreign key to
        ``members``: games, sign-offs, seasons, grades, chat accounts, ...); where ``target`` already has
        the same row (both signed off for one round, both in one season), ``target``'s stays. Then
        ``source`` is gone."""
        for table, column, _ in await self.member_references():
            await self.move_references(table, column, source, target)
            await self.write(f'DELETE FROM "{table}" WHERE "{column}" = ?', (source,))
        await self.carry_identities(source, target)  # a federation identity only the source had
        await self.write("DELETE FROM members WHERE id = ?", (source,))

    async def has_history(self, member_id: int, removable: Collection[str]) -> bool:
        """Does any row of a table outside ``removable`` refer to the member (every foreign key to members)?
        ``removable``: the tables whose rows go with the member, as their owners declared them
        (``Registry.removed_with_member``: chat accounts, sign-offs, registrations); a row anywhere else
        (a game, a bye, a grade, a go game) keeps the member."""
        for table, column, _ in await self.member_references():
            if table not in removable and await self.fetch_one(
                f'SELECT 1 FROM "{table}" WHERE "{column}" = ? LIMIT 1', (member_id,)
            ):
                return True
        return False

    async def shared_round(self, a: int, b: int, tables: Mapping[str, Table]) -> bool:
        """Were members ``a`` and ``b`` both in one round (a game, a bye; or one of them played it while
        the other was signed off) of any competition? Found by the foreign keys: every table with a
        member column and a ``round_id``, grouped by the round table it points to, read as its owner
        declared it in ``tables`` (``Table.absent_in_round``: a sign-off; ``clashes_in_round``). Two
        sign-offs for one round are no clash: the merge keeps one."""
        played: dict[str, dict[int, set[int]]] = {}
        signed: dict[str, dict[int, set[int]]] = {}
        for table, column, rounds in await self.member_references():
            declared = tables.get(table) or Table(table)
            absent = column in declared.absent_in_round
            if rounds is None or not (absent or declared.clashes_in_round):  # no clash
                continue
            for who in (a, b):
                rows = await self.fetch_all(f'SELECT round_id FROM "{table}" WHERE "{column}" = ?', (who,))
                into = signed if absent else played
                into.setdefault(rounds, {}).setdefault(who, set()).update(r[0] for r in rows)
        for rounds, by in played.items():
            off = signed.get(rounds, {})
            pa, pb = by.get(a, set()), by.get(b, set())
            if pa & pb or pa & off.get(b, set()) or pb & off.get(a, set()):
                return True
        return False

    async def remove_member(self, member_id: int) -> None:
        """Remove a member and what only they have (see ``has_history``, asked first)."""
        await self.write("DELETE FROM members WHERE id = ?", (member_id,))

    # ------------------------------------------------------------------ announcements
    async def queue_announcement(
        self,
        club_id: int,
        round_id: int | None,
        kind: str,
        body: str,
        now: datetime,
        image: bytes | None = None,
        picture: str | None = None,
        recipient: str | None = None, link: tuple[str, str] | None = None,
    ) -> None:
        """Queue an announcement (once per round and kind); ``picture`` is drawn when it is sent;
        ``recipient`` (a chat account) makes it a private message; ``link``: a button (label, url) under it."""
        await self.write_later(
            "INSERT OR IGNORE INTO announcements (club_id, round_id, kind, body, created_at, image, picture, recipient,"
            " link_label, link_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (club_id, round_id, kind, body, iso(now), image, picture, recipient, *(link or (None, None))),
        )

    async def rewrite_or_correct(
        self, club_id: int, round_id: int | None, kind: str, corrections: str, body: str, picture: str | None,
        now: datetime,
    ) -> bool:
        """A changed pairing's announcement: the one of ``kind`` is rewritten while it is unsent (never
        tried); once it may have been posted, the new text is queued after it as a correction of kind
        ``<corrections><n>``. True when a correction was queued."""
        unsent = await self.fetch_one(
            "SELECT id FROM announcements WHERE club_id = ? AND round_id IS ? AND kind = ?"
            " AND sent_at IS NULL AND attempted_at IS NULL",
            (club_id, round_id, kind),
        )
        if unsent is not None:
            await self.write(
                "UPDATE announcements SET body = ?, picture = ?, image = NULL WHERE id = ?", (body, picture, unsent["id"])
            )
            return False
        done = await self.fetch_one(
            "SELECT COUNT(*) FROM announcements WHERE club_id = ? AND round_id IS ? AND kind LIKE ?",
            (club_id, round_id, f"{corrections}%"),
        )
        number = int(done[0]) + 1 if done else 1
        await self.queue_announcement(club_id, round_id, f"{corrections}{number}", body, now, picture=picture)
        return True

    async def pending_announcements(
        self, club_id: int | None = None, clubs: list[int] | None = None, platforms: Iterable[str] | None = None
    ) -> list[Announcement]:
        """What is still to be sent, in the order it was queued: everything (of the clubs on ``platforms``:
        what this process can post), one club's, or ``clubs``'."""
        if club_id is not None:
            rows = await self.fetch_all(
                "SELECT * FROM announcements WHERE sent_at IS NULL AND club_id = ? ORDER BY id", (club_id,)
            )
        elif clubs is not None:
            rows = await self.fetch_all_in("SELECT * FROM announcements WHERE sent_at IS NULL AND club_id IN ({marks})", clubs)
            rows.sort(key=lambda r: r["id"])
        elif platforms is not None:
            wanted = sorted(set(platforms))
            rows = await self.fetch_all(
                "SELECT a.* FROM announcements a JOIN clubs c ON c.id = a.club_id WHERE a.sent_at IS NULL"
                f" AND c.platform IN ({','.join('?' * len(wanted))}) ORDER BY a.id",
                wanted,
            ) if wanted else []  # fmt: skip
        else:
            rows = await self.fetch_all("SELECT * FROM announcements WHERE sent_at IS NULL ORDER BY id")
        return [_announcement(r) for r in rows]

    async def mark_announcement_attempted(self, announcement: Announcement, now: datetime) -> Announcement:
        """Record, committed before the first post, that it is being posted and after which of the club's
        posts: a later attempt then knows to look whether it is already there (exactly once)."""
        return (await self.mark_announcements_attempted([announcement], now))[0]

    async def mark_announcements_attempted(self, announcements: list[Announcement], now: datetime) -> list[Announcement]:
        """``mark_announcement_attempted`` of several clubs' announcements (one each) in one statement."""
        todo = [a.id for a in announcements if not a.attempted]
        rows = await self.returning(  # one trip: each club's latest post, read and written
            "UPDATE announcements SET attempted_at = ?, after_ref = (SELECT p.message_ref FROM announcements p"
            " WHERE p.club_id = announcements.club_id AND p.message_ref IS NOT NULL ORDER BY p.sent_at DESC, p.id DESC LIMIT 1)"
            f" WHERE id IN ({','.join('?' * len(todo))}) AND attempted_at IS NULL RETURNING id, after_ref",
            (iso(now), *todo),
        ) if todo else []  # fmt: skip
        after = {int(r["id"]): r["after_ref"] for r in rows}
        return [a if a.attempted else replace(a, attempted=True, after_ref=after.get(a.id)) for a in announcements]

    async def mark_announcement_sent(self, announcement_id: int, now: datetime, message_ref: str | None = None) -> bool:
        """Record the post, committed alone at once (a kill before it repeats the post); text and ref stay."""
        return await self.mark_announcements_sent([(announcement_id, message_ref)], now) == 1

    async def mark_announcements_sent(self, posts: list[tuple[int, str | None]], now: datetime) -> int:
        """``mark_announcement_sent`` of several posts (announcement, reference) in one statement; how many
        were still to be marked."""
        refs = " ".join("WHEN ? THEN ?" for _ in posts)
        return await self.execute_alone(
            f"UPDATE announcements SET sent_at = ?, message_ref = CASE id {refs} END, image = NULL, picture = NULL"
            f" WHERE id IN ({','.join('?' * len(posts))}) AND sent_at IS NULL",
            (iso(now), *(v for post in posts for v in post), *(i for i, _ in posts)),
        )

    async def announcements(self, club_id: int) -> list[tuple[Announcement, str | None]]:
        rows = await self.fetch_all("SELECT * FROM announcements WHERE club_id = ? ORDER BY id", (club_id,))
        return [(_announcement(r), r["sent_at"]) for r in rows]


def club_key(platform: str, external_id: str) -> str:
    """The key a club's transactions take turns on (``transaction(key=...)``): its chat and its id there."""
    return f"{platform}:{external_id}"


class Store(SharedTables, Database):
    """The shared tables on the SQLite file (the default)."""


class PostgresStore(SharedTables, PostgresDatabase):
    """The shared tables on a PostgreSQL server (several bot processes)."""


def sqlite_path(target: str | Path) -> str | Path:
    """``sqlite:///path`` (relative; ``sqlite:////abs/path`` absolute, as SQLAlchemy writes them) or a
    plain path, as the path."""
    text = str(target)
    return text.removeprefix("sqlite:///") if text.startswith("sqlite:///") else target


async def open_store(target: str | Path, migrations: Path = MIGRATIONS_DIR, **options: Any) -> Store:
    """The store of ``target``: a ``postgresql://`` URL, else a SQLite file (a path or ``sqlite:///path``)."""
    if is_postgres(target):
        # the PostgreSQL store answers every query of Store's (the same parts, on asyncpg); the bot is
        # typed with Store
        return cast(Store, await PostgresStore.open(str(target), migrations, **options))
    opened: Store = await Store.open(sqlite_path(target), migrations, **options)
    return opened


def _announcement(row: Any) -> Announcement:
    return Announcement(
        row["id"], row["club_id"], row["round_id"], row["kind"], row["body"], row["image"],
        attempted=row["attempted_at"] is not None, after_ref=row["after_ref"], picture=row["picture"],
        recipient=row["recipient"], link=(row["link_label"], row["link_url"]) if "link_url" in row.keys() and row["link_url"] else None,
    )  # fmt: skip


def _club(row: Any) -> Club:
    colour, logo = (row["colour"], row["logo"]) if "logo" in row.keys() else (None, None)  # not yet at 0070
    return Club(
        row["id"], row["platform"], row["external_id"], row["name"], row["language"], row["timezone"], row["channel_id"],
        row["website"] if "website" in row.keys() else "off",  # a database not yet migrated to 0029
        colour, logo,
        frozenset((row["director_users"] or "").split("\n")) - {""} if "director_users" in row.keys() else frozenset(),
    )


def _member(row: Any) -> Member:
    return Member(row["id"], row["club_id"], row["name"], row["rating"], bool(row["is_director"]))
