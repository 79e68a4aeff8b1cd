"""A season's calendar: one round a week, with each round's sign-off deadline and publication moment; the
club's free evenings (``/seizoen vrij``, ``bot/keizer/free_evenings.py``) are skipped.

Local times (the club's timezone, Europe/Amsterdam by default) are turned into UTC moments here, once,
when the season is created or a round moves (``bot/core/output/calendar.py``: a local time that does not
exist is moved forward by the gap, one that exists twice takes the first).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.core.output.calendar import local_to_utc


def playing_evenings(first_day: date, count: int, free: Collection[date] = ()) -> list[date]:
    """``count`` evenings a week apart from ``first_day`` (its weekday), the free ones skipped."""
    days: list[date] = []
    day = first_day
    while len(days) < count:
        if day not in free:
            days.append(day)
        day += timedelta(weeks=1)
    return days


def round_moments(day: date, deadline: time, publish: time, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The sign-off deadline and the publication of a round played on ``day``, as UTC moments."""
    return local_to_utc(day, deadline, zone), local_to_utc(day, publish, zone)


def season_rounds(
    first_day: date, count: int, deadline: time, publish: time, zone: ZoneInfo, free: Collection[date] = ()
) -> list[tuple[int, str, datetime, datetime]]:
    """One round a week from ``first_day``, free evenings skipped: (number, local date, deadline UTC,
    publication UTC)."""
    return [
        (number, day.isoformat(), *round_moments(day, deadline, publish, zone))
        for number, day in enumerate(playing_evenings(first_day, count, free), start=1)
    ]
