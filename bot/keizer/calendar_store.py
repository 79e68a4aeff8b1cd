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
