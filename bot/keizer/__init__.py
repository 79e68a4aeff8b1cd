"""The Keizer competition (seeds 003, 004): the club's weekly competition, its rapid twin, prizes and
groups. ``register(registry)`` adds its commands, its timed work and its competition source."""

from bot.core.registry import Registry


def register(registry: Registry) -> None:
    from bot.keizer.commands import register as register_commands

    register_commands(registry)
