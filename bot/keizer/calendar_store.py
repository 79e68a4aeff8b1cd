"""The SQL of the club's calendars (migration 0067, issue 34 §2): the club's playing evening
(``club_venues``: ``/speelavond``, ``bot/keizer/venue.py``) and the members' personal calendar feeds
(``calendar_feeds``: ``/mijn kalender``, ``bot/keizer/feeds.py``).

A feed's address ``/c/<club>/kalender/<token>.ics`` holds a random token, which the website serves to a
calendar app without a cookie (members-only clubs too): the website asks the registry whose feed it is
(``Registry.feed_members``), the Keizer system answers with ``member_of_feed``. The token is stored as it
is, so ``/mijn kalender`` gives the same address again; ``/mijn kalender nieuw`` replaces it and the old
one stops working."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING

from bot.core.output.calendar import local_to_utc, parse_hhmm, parse_zone
from bot.core.storage.database import iso
from bot.core.storage.store import Member, Store

if TYPE_CHECKING:
    from bot.core.commands.dispatch import Core

DEFAULT_START, DEFAULT_END = time(20, 0), time(23, 30)
FEED_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


@dataclass(frozen=True)
class Venue:
    location: str = ""
    starts: time = DEFAULT_START
    ends: time = DEFAULT_END
    time_control: str = ""  # as the club writes it (90+30, "1u30 + 30s"); shown on the website's pages

    def evening(self, day: date, zone_name: str) -> tuple[datetime, datetime]:
        """The playing evening of ``day`` as UTC moments; an end before the start is after midnight."""
        zone = parse_zone(zone_name) or parse_zone("UTC")
        assert zone is not None
        start = local_to_utc(day, self.starts, zone)
        end = local_to_utc(day + timedelta(days=1) if self.ends <= self.starts else day, self.ends, zone)
        return start, end


class VenueStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def venue(self, club_id: int) -> Venue:
        row = await self.db.fetch_one(
            "SELECT location, starts_at, ends_at, time_control FROM club_venues WHERE club_id = ?", (club_id,))
        if row is None:
            return Venue()
        return Venue(str(row[0] or ""), parse_hhmm(row[1] or "") or DEFAULT_START, parse_hhmm(row[2] or "") or DEFAULT_END,
                     str(row[3] or ""))  # fmt: skip

    async def set_venue(self, club_id: int, venue: Venue) -> None:
        await self.db.write(
            "INSERT INTO club_venues (club_id, location, starts_at, ends_at, time_control) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (club_id) DO UPDATE SET location = excluded.location, starts_at = excluded.starts_at,"
            " ends_at = excluded.ends_at, time_control = excluded.time_control",
            (club_id, venue.location, venue.starts.strftime("%H:%M"), venue.ends.strftime("%H:%M"), venue.time_control),
        )


def new_feed_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


class FeedStore:
    """The members' calendar feed tokens."""

    def __init__(self, store: Store) -> None:
        self.db = store

    async def calendar_feed(self, member_id: int) -> str | None:
        row = await self.db.fetch_one("SELECT token FROM calendar_feeds WHERE member_id = ?", (member_id,))
        return str(row[0]) if row else None

    async def set_calendar_feed(self, club_id: int, member_id: int, token: str, now: datetime) -> None:
        """The member's feed token, replacing the one they had."""
        await self.db.write(
            "INSERT INTO calendar_feeds (member_id, club_id, token, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (member_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at",
            (member_id, club_id, token, iso(now)),
        )

    async def member_of_calendar_feed(self, club_id: int, token: str) -> Member | None:
        """The club's member whose feed this is, or None."""
        if not FEED_TOKEN.match(token):
            return None
        row = await self.db.fetch_one(
            "SELECT m.id, m.club_id, m.name, m.rating, m.is_director FROM calendar_feeds f"
            " JOIN members m ON m.id = f.member_id WHERE f.club_id = ? AND f.token = ?",
            (club_id, token),
        )
        return Member(row["id"], row["club_id"], row["name"], row["rating"], bool(row["is_director"])) if row else None


async def member_of_feed(core: "Core", club_id: int, token: str) -> Member | None:
    """The website's question (``Registry.feed_members``): whose calendar feed has this token?"""
    return await FeedStore(core.store).member_of_calendar_feed(club_id, token)


class FreeEveningStore:
    """A season's free evenings (migration 0080, ``/seizoen vrij``) and its rounds moved to other evenings."""

    def __init__(self, store: Store) -> None:
        self.db = store

    async def free_evenings(self, season_id: int) -> list[date]:
        rows = await self.db.fetch_all("SELECT day FROM free_evenings WHERE season_id = ? ORDER BY day", (season_id,))
        return [date.fromisoformat(str(r[0])) for r in rows]

    async def add_free_evenings(self, season_id: int, days: list[date]) -> None:
        await self.db.execute_many(
            "INSERT INTO free_evenings (season_id, day) VALUES (?, ?) ON CONFLICT (season_id, day) DO NOTHING",
            [(season_id, day.isoformat()) for day in days],
        )

    async def remove_free_evening(self, season_id: int, day: date) -> None:
        await self.db.execute("DELETE FROM free_evenings WHERE season_id = ? AND day = ?", (season_id, day.isoformat()))

    async def moves(self, season_id: int) -> dict[int, int]:
        """Round number -> how many times it moved: its calendar event's SEQUENCE."""
        rows = await self.db.fetch_all("SELECT number, moved FROM rounds WHERE season_id = ? AND moved > 0", (season_id,))
        return {int(r[0]): int(r[1]) for r in rows}

    async def move_round(self, round_id: int, day: date, deadline_at: datetime, publish_at: datetime) -> bool:
        """The round (not yet paired) on another evening, with that evening's deadline and publication: open
        for sign-offs again until its new deadline. False when it was paired meanwhile."""
        changed = await self.db.execute(
            "UPDATE rounds SET play_date = ?, deadline_at = ?, publish_at = ?, status = 'open', moved = moved + 1"
            " WHERE id = ? AND status != 'paired'",
            (day.isoformat(), iso(deadline_at), iso(publish_at), round_id),
        )
        # its reminders (the channel's, the private ones) name the old evening: one not out yet goes; one
        # sent keeps its row under another kind, so the new evening gets its own reminders
        await self.db.execute(
            f"DELETE FROM announcements WHERE round_id = ? AND {_REMINDERS} AND sent_at IS NULL AND attempted_at IS NULL",
            (round_id,),
        )
        await self.db.execute(f"UPDATE announcements SET kind = 'moved-' || id || '-' || kind WHERE round_id = ? AND {_REMINDERS}", (round_id,))
        return changed == 1


_REMINDERS = "(kind = 'reminder' OR kind LIKE 'remind:%')"  # bot/keizer/publication.py, bot/keizer/reminders.py
