"""Turn-based go in the chat (seed 001): challenges, moves, pictures, scoring, SGF, clocks."""

from bot.core.commands.registry import Registry


def register(registry: Registry) -> None:
    from bot.go import web
    from bot.go.commands import register as register_commands

    registry.table("go_games")
    registry.table("go_settings")
    register_commands(registry)
    web.register(registry)
