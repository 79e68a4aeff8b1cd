"""A season's calendar: one round a week, with each round's sign-off deadline and publication moment.

Local times (the club's timezone, Europe/Amsterdam by default) are turned into UTC moments here, once,
when the season is created (``bot/core/output/calendar.py``: a local time that does not exist is moved forward
by the gap, one that exists twice takes the first).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.core.output.calendar import local_to_utc


def season_rounds(
    first_day: date, count: int, deadline: time, publish: time, zone: ZoneInfo
) -> list[tuple[int, str, datetime, datetime]]:
    """One round a week from ``first_day``: (number, local date, deadline UTC, publication UTC)."""
    rounds = []
    for i in range(count):
        day = first_day + timedelta(weeks=i)
        rounds.append((i + 1, day.isoformat(), local_to_utc(day, deadline, zone), local_to_utc(day, publish, zone)))
    return rounds
