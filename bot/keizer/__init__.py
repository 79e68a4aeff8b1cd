"""The Keizer competition (seeds 003, 004): the club's weekly competition, its rapid twin, prizes and
groups. ``register(registry)`` adds its commands, its timed work, its competition source and its website
pages."""

from bot.core.registry import Registry


def register(registry: Registry) -> None:
    from bot.keizer import web
    from bot.keizer.commands import register as register_commands

    register_commands(registry)
    web.register(registry)
