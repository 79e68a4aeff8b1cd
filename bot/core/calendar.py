"""Local times and the club's timezone: ``HH:MM`` and zone names as typed, a local time as a UTC moment,
and a moment as the club reads it. Daylight saving is handled by zoneinfo (a local time that does not exist
is moved forward by the gap, one that exists twice takes the first).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_HHMM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def parse_hhmm(text: str) -> time | None:
    match = _HHMM.match(text.strip())
    return time(int(match.group(1)), int(match.group(2))) if match else None


def parse_zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def local_to_utc(day: date, at: time, zone: ZoneInfo) -> datetime:
    # fold=0 takes the offset in force before a change: a time in the spring-forward gap comes out moved
    # forward by the gap (02:30 becomes 03:30), a time that exists twice in autumn is the first one.
    return datetime.combine(day, at).replace(tzinfo=zone, fold=0).astimezone(timezone.utc)



def local_text(moment: datetime, zone_name: str) -> str:
    zone = parse_zone(zone_name) or ZoneInfo("UTC")
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")
