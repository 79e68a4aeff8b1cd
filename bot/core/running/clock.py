"""The time the bot lives in. The engine never reads a clock; the bot reads this one.

``Clock`` is the wall clock. ``ShiftedClock`` runs at the wall clock's pace from a chosen moment and can be
moved forward (the console's /klok), so a whole week can be tried in seconds; the scheduler asks the clock
how far away a moment is, so its alarms follow the shifted time.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone


class Clock:
    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    def real_delay(self, moment: datetime) -> float:
        """Seconds of real time until ``moment`` on this clock (0 when it has passed)."""
        return max(0.0, (moment - self.now()).total_seconds())


class ShiftedClock(Clock):
    def __init__(self, start: datetime | None = None) -> None:
        real = datetime.now(timezone.utc)
        self._offset = (start - real) if start is not None else timedelta(0)

    def now(self) -> datetime:
        return datetime.now(timezone.utc) + self._offset

    def advance(self, delta: timedelta) -> None:
        if delta < timedelta(0):
            raise ValueError("the clock only moves forward")
        self._offset += delta

    def set(self, moment: datetime) -> None:
        self.advance(moment - self.now())
