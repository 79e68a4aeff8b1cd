"""Local times and the club's timezone: ``HH:MM`` and zone names as typed, a local time as a UTC moment,
and a moment as the club reads it. Daylight saving is handled by zoneinfo (a local time that does not exist
is moved forward by the gap, one that exists twice takes the first).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from bot.core.i18n import t

_HHMM = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])$")
_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
# The dates the bot accepts anywhere (a season's start, a game's day, the console's clock): a typo like
# 9999-12-20 is refused with this range instead of overflowing a calendar computed from it.
FIRST_YEAR, LAST_YEAR = 1900, 2200
MAX_ZONE_NAME = 64


def parse_day(text: str) -> date | None:
    """``2026-12-03`` between 1900 and 2200, or None."""
    text = text.strip()
    if not _DAY.match(text):
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if FIRST_YEAR <= day.year <= LAST_YEAR else None


def in_range(moment: datetime) -> bool:
    return FIRST_YEAR <= moment.year <= LAST_YEAR


@lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def parse_hhmm(text: str) -> time | None:
    match = _HHMM.match(text.strip())
    return time(int(match.group(1)), int(match.group(2))) if match else None


def parse_zone(name: str) -> ZoneInfo | None:
    """A zone of the IANA database by its name (``Europe/Amsterdam``); None for anything else: a folder
    of the database (``Europe``), a path, an overlong name."""
    if len(name) > MAX_ZONE_NAME or name not in _zone_names():
        return None
    try:
        return ZoneInfo(name)
    except (ValueError, OSError):
        return None


def local_to_utc(day: date, at: time, zone: ZoneInfo) -> datetime:
    # fold=0 takes the offset in force before a change: a time in the spring-forward gap comes out moved
    # forward by the gap (02:30 becomes 03:30), a time that exists twice in autumn is the first one.
    return datetime.combine(day, at).replace(tzinfo=zone, fold=0).astimezone(timezone.utc)



def local_text(moment: datetime, zone_name: str) -> str:
    zone = parse_zone(zone_name) or ZoneInfo("UTC")
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")


def day_text(lang: str, day: date) -> str:
    """A day as every page of the website writes it, the club language's long date: "do 3 december 2026",
    "Thu 3 December 2026" (issue 45 §1: one date format across the pages)."""
    return t(lang, "date_long", weekday=t(lang, f"day_short_{day.weekday()}"), day=day.day,
             month=t(lang, f"month_{day.month}"), year=day.year)  # fmt: skip


def dates_text(lang: str, first: date, last: date) -> str:
    """A competition's dates under a page's title: "Speeldata: do 3 december 2026 t/m do 31 december 2026", or its
    one day when it has one ("Speeldatum: za 6 maart 2027"), never a range from a day to itself."""
    if first == last:
        return t(lang, "web_detail_date", day=day_text(lang, first))  # the long date: its year too
    return t(lang, "web_detail_dates", first=day_text(lang, first), last=day_text(lang, last))


def moment_text(lang: str, moment: datetime, zone_name: str) -> str:
    """A moment as the club reads it on a page: "do 3 december 2026 17:00"."""
    return " ".join(moment_parts(lang, moment, zone_name))


def moment_parts(lang: str, moment: datetime, zone_name: str) -> tuple[str, str]:
    """A moment's day and time in the club's zone, for a sentence that says them apart: ("do 3 december
    2026", "17:00")."""
    local = moment.astimezone(parse_zone(zone_name) or ZoneInfo("UTC"))
    return day_text(lang, local.date()), local.strftime("%H:%M")
