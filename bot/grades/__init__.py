"""Grades with the Dutch points promotion system (seed 002): cards, the committee's list, games."""

from bot.core.commands.registry import Registry


def register(registry: Registry) -> None:
    from bot.grades import web
    from bot.grades.commands import register as register_commands

    registry.table("grade_events", dates=("anchor_date",))
    registry.table("grade_games", dates=("played_on",))
    registry.table("grade_flags")
    registry.table("grade_time_controls")
    register_commands(registry)
    web.register(registry)
