"""Backups: ``/backup`` (a club's own data, taken while the bot runs) and ``clubbot restore``."""

from bot.core.commands.registry import Registry


def register(registry: Registry) -> None:
    from bot.backup.commands import register as register_commands

    register_commands(registry)
