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
MAX_TIME_CONTROL = 40
_SPAN = re.compile(r"^([0-9]{1,2}:[0-9]{2})-([0-9]{1,2}:[0-9]{2})$")
_KEYS = {"locatie": "location", "location": "location", "tijd": "time", "time": "time",
         "speeltempo": "time_control", "timecontrol": "time_control"}  # fmt: skip


async def cmd_speelavond(core: Core, ctx: Context) -> Reply:
    """``/speelavond [locatie=...] [tijd=HH:MM-HH:MM] [speeltempo=...]``: the club's playing evening and
    its time control, as the club writes it (the director; the website's Keizer pages show it)."""
    store = VenueStore(core.store)
    venue = await store.venue(ctx.club.id)
    given = keyed_values(ctx.args, _KEYS, frozenset({"location", "time_control"}))  # an address typed as it is, unquoted
    if given is None:
        raise UserError("error_usage", usage=ctx.t("usage_speelavond"))
    location, starts, ends, time_control = venue.location, venue.starts, venue.ends, venue.time_control
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
    if "time_control" in given:
        time_control = " ".join(given["time_control"].split())
        time_control = "" if time_control == "-" else time_control  # speeltempo=-: none
        if len(time_control) > MAX_TIME_CONTROL:
            raise UserError("error_venue_time_control_long", most=MAX_TIME_CONTROL)
    if given:
        venue = Venue(location, starts, ends, time_control)
        async with core.store.transaction():
            await store.set_venue(ctx.club.id, venue)
    where = venue.location or ctx.t("venue_no_location")
    said = ctx.t("venue_set" if given else "venue_now", location=where, start=venue.starts.strftime("%H:%M"),
                 end=venue.ends.strftime("%H:%M"))  # fmt: skip
    tempo = ctx.t("venue_time_control", time_control=venue.time_control or ctx.t("venue_no_time_control"))
    return Reply(lines=(said, tempo))
