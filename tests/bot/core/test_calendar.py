"""The season calendar: local deadlines and publications in the club's timezone, across daylight saving."""

from __future__ import annotations

from datetime import date, datetime, time, timezone
from zoneinfo import ZoneInfo

from bot.core.output.calendar import local_to_utc, parse_hhmm, parse_zone
from bot.keizer.calendar import season_rounds

AMS = ZoneInfo("Europe/Amsterdam")


def test_weekly_rounds_keep_local_time_across_both_dst_changes() -> None:
    # Thursdays from 19 March 2026: summer time starts 29 March, ends 25 October.
    rounds = season_rounds(date(2026, 3, 19), 3, time(17, 0), time(18, 0), AMS)
    assert [r[1] for r in rounds] == ["2026-03-19", "2026-03-26", "2026-04-02"]
    assert rounds[0][2] == datetime(2026, 3, 19, 16, 0, tzinfo=timezone.utc)  # CET = UTC+1
    assert rounds[2][2] == datetime(2026, 4, 2, 15, 0, tzinfo=timezone.utc)  # CEST = UTC+2
    autumn = season_rounds(date(2026, 10, 22), 2, time(17, 0), time(18, 0), AMS)
    assert autumn[0][3] == datetime(2026, 10, 22, 16, 0, tzinfo=timezone.utc)
    assert autumn[1][3] == datetime(2026, 10, 29, 17, 0, tzinfo=timezone.utc)


def test_a_time_in_the_spring_gap_moves_forward_and_is_not_lost() -> None:
    # 29 March 2026 02:30 does not exist in Amsterdam: it becomes 03:30 CEST = 01:30 UTC.
    assert local_to_utc(date(2026, 3, 29), time(2, 30), AMS) == datetime(2026, 3, 29, 1, 30, tzinfo=timezone.utc)
    # 25 October 2026 02:30 exists twice: the first (summer time) is taken.
    assert local_to_utc(date(2026, 10, 25), time(2, 30), AMS) == datetime(2026, 10, 25, 0, 30, tzinfo=timezone.utc)


def test_parsers() -> None:
    assert parse_hhmm("17:00") == time(17, 0)
    assert parse_hhmm("7:05") == time(7, 5)
    assert parse_hhmm("24:00") is None and parse_hhmm("17h") is None
    assert parse_zone("Europe/Amsterdam") is not None
    assert parse_zone("Mars/Olympus") is None
    assert parse_zone("../etc/passwd") is None
