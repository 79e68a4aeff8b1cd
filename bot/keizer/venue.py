"""The club's playing evening, for the calendars (issue 34 §2): where the club plays and from when to when,
``/speelavond locatie="Buurthuis De Ster, Dorpsstraat 1, Utrecht" tijd=19:30-23:30`` (``/clubnight
location=... time=...``; the director; ``/speelavond`` alone shows them; the location may be typed without
quotes: the words up to the next ``tijd=`` are its own). A club setting of its own table
(``club_venues``, migration 0067; its SQL and ``Venue`` in ``bot/keizer/calendar_store.py``); without one
a round is played ``DEFAULT_START``-``DEFAULT_END`` in the season's time zone and the events have no
location."""

from __future__ import annotations

import re

from bot.core.output.calendar import parse_hhmm
from bot.core.commands.command_line import keyed_values
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.keizer.calendar_store import Venue, VenueStore

MAX_LOCATION = 200
_SPAN = re.compile(r"^([0-9]{1,2}:[0-9]{2})-([0-9]{1,2}:[0-9]{2})$")
_KEYS = {"locatie": "location", "location": "location", "tijd": "time", "time": "time"}


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
