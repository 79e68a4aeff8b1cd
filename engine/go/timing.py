"""Games that run for days: who is reminded to move, and who has lost on time. Time is passed in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable


@dataclass(frozen=True)
class GameClock:
    """A running game's clock: the current turn began at ``turn_started_at``; ``reminded_at`` is when
    the player to act was last reminded (None: not yet)."""

    game_id: int
    turn_started_at: datetime
    reminded_at: datetime | None
    remind_after: timedelta | None  # the club's setting; None: no reminders
    max_think: timedelta | None  # the club's maximum thinking time per move; None: no limit


@dataclass(frozen=True)
class Due:
    reminders: tuple[int, ...]  # games whose player to act gets a reminder now
    timeouts: tuple[int, ...]  # games the player to act has lost on time


def due(now: datetime, clocks: Iterable[GameClock]) -> Due:
    """A turn that lasted ``max_think`` or longer is lost on time (a director's setting; the seed is
    silent); otherwise a turn that lasted ``remind_after`` gets one reminder (once per turn)."""
    reminders: list[int] = []
    timeouts: list[int] = []
    for c in clocks:
        waited = now - c.turn_started_at
        if c.max_think is not None and waited >= c.max_think:
            timeouts.append(c.game_id)
        elif (
            c.remind_after is not None
            and waited >= c.remind_after
            and (c.reminded_at is None or c.reminded_at < c.turn_started_at)
        ):
            reminders.append(c.game_id)
    return Due(tuple(reminders), tuple(timeouts))


def next_due(clocks: Iterable[GameClock]) -> datetime | None:
    """The earliest moment something will be due (for the scheduler's alarm)."""
    moments: list[datetime] = []
    for c in clocks:
        if c.max_think is not None:
            moments.append(c.turn_started_at + c.max_think)
        if c.remind_after is not None and (c.reminded_at is None or c.reminded_at < c.turn_started_at):
            moments.append(c.turn_started_at + c.remind_after)
    return min(moments, default=None)
