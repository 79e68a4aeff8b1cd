"""Grades with the Dutch points promotion system (seed 002): cards, the committee's list, games."""

from bot.core.registry import Registry


def register(registry: Registry) -> None:
    from bot.grades import web
    from bot.grades.commands import register as register_commands

    register_commands(registry)
    web.register(registry)
