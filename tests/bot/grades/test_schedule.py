"""Grades' look at every club in the scheduler's passes: a safety net for a promotion a command left
unrecorded, at most once an hour (issue 42 §1: a bot with many clubs does not read every club's grades
at each wake)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.grades.club_grades import LOOK_EVERY, GradesSchedule
from tests.bot.conftest import rows
from tests.bot.grades.test_commands import anna_at_1_dan, enter


def forget_the_promotion(config) -> None:
    """What a command that failed after its game was stored would leave: the promotion not recorded."""
    conn = sqlite3.connect(config.db_path)
    try:
        conn.execute("DELETE FROM grade_events WHERE kind = 'promotion'")
        conn.execute("DELETE FROM announcements")
        conn.commit()
    finally:
        conn.close()


def promotions(config) -> int:
    return rows(config, "SELECT COUNT(*) FROM grade_events WHERE kind = 'promotion'")[0][0]


async def test_the_pass_records_a_forgotten_promotion_at_most_once_an_hour(commands: Core, clock: ShiftedClock, config) -> None:
    await anna_at_1_dan(commands, clock)
    day = datetime(2027, 1, 4)
    for i, kind in enumerate(["W25", "L10"] * 5 + ["W25", "W25"]):  # 125 points from 12 games: 2 dan
        await enter(commands, (day + timedelta(weeks=i)).date().isoformat(), kind)
    assert promotions(config) == 1  # recorded by the command that earned it
    forget_the_promotion(config)
    schedule = GradesSchedule()
    now = clock.now()
    await schedule.run_due(commands, now)  # the first pass looks
    assert promotions(config) == 1
    assert len(rows(config, "SELECT body FROM announcements WHERE kind LIKE 'promotion:%'")) == 1
    forget_the_promotion(config)
    await schedule.run_due(commands, now + LOOK_EVERY - timedelta(minutes=1))  # within the hour: no look
    assert promotions(config) == 0
    await schedule.run_due(commands, now + LOOK_EVERY)  # an hour on: it looks again
    assert promotions(config) == 1
    assert await schedule.next_due_moment(commands) is None  # no alarm of its own
