"""The club's playing evening, for the calendars (issue 34 §2): where the club plays and from when to when,
``/speelavond locatie="Buurthuis De Ster, Dorpsstraat 1, Utrecht" tijd=19:30-23:30`` (``/clubnight
location=... time=...``; the director; ``/speelavond`` alone shows them; the location may be typed without
quotes: the words up to the next ``tijd=`` are its own). A club setting of its own table
(``club_venues``, migration 0067); without one a round is played ``DEFAULT_START``-``DEFAULT_END`` in the
season's time zone and the events have no location."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from bot.core.calendar import local_to_utc, parse_hhmm, parse_zone
from bot.core.command_line import keyed_values
from bot.core.context import Context, UserError
from bot.core.dispatch import Core
from bot.core.replies import Reply
from bot.core.store import Store

DEFAULT_START, DEFAULT_END = time(20, 0), time(23, 30)
MAX_LOCATION = 200
_SPAN = re.compile(r"^([0-9]{1,2}:[0-9]{2})-([0-9]{1,2}:[0-9]{2})$")
_KEYS = {"locatie": "location", "location": "location", "tijd": "time", "time": "time"}


@dataclass(frozen=True)
class Venue:
    location: str = ""
    starts: time = DEFAULT_START
    ends: time = DEFAULT_END

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
        row = await self.db.fetch_one("SELECT location, starts_at, ends_at FROM club_venues WHERE club_id = ?", (club_id,))
        if row is None:
            return Venue()
        return Venue(str(row[0] or ""), parse_hhmm(row[1] or "") or DEFAULT_START, parse_hhmm(row[2] or "") or DEFAULT_END)

    async def set_venue(self, club_id: int, venue: Venue) -> None:
        await self.db.write(
            "INSERT INTO club_venues (club_id, location, starts_at, ends_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (club_id) DO UPDATE SET location = excluded.location, starts_at = excluded.starts_at,"
            " ends_at = excluded.ends_at",
            (club_id, venue.location, venue.starts.strftime("%H:%M"), venue.ends.strftime("%H:%M")),
        )


async def cmd_speelavond(core: Core, ctx: Context) -> Reply:
    """``/speelavond [locatie=...] [tijd=HH:MM-HH:MM]``: the club's playing evening (the director)."""
    store = VenueStore(core.store)
    venue = await store.venue(ctx.club.id)
    given = keyed_values(ctx.args, _KEYS, frozenset({"location"}))  # an address typed as it is, unquoted
    if given is None:
        raise UserError("error_usage", usage=ctx.t("usage_speelavond"))
    location, starts, ends = venue.location, venue.starts, venue.ends
    if "location" in given:
        location = " ".join(given["location"].split())  # one line: a calendar's LOCATION
        location = "" if location == "-" else location  # locatie=-: no location (locatie= alone is the usage)
        if len(location) > MAX_LOCATION:
            raise UserError("error_venue_location_long", most=MAX_LOCATION)
    if "time" in given:
        span = _SPAN.match(given["time"])
        first, last = (parse_hhmm(span.group(1)), parse_hhmm(span.group(2))) if span else (None, None)
        if first is None or last is None or first == last:
            raise UserError("error_venue_time", given=given["time"])
        starts, ends = first, last
    if given:
        venue = Venue(location, starts, ends)
        async with core.store.transaction():
            await store.set_venue(ctx.club.id, venue)
    where = venue.location or ctx.t("venue_no_location")
    said = ctx.t("venue_set" if given else "venue_now", location=where, start=venue.starts.strftime("%H:%M"),
                 end=venue.ends.strftime("%H:%M"))  # fmt: skip
    return Reply(lines=(said,))
