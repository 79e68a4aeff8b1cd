"""The NK championship (seed 000): a McMahon-like tournament run from the chat, its store and CLI."""

from bot.core.registry import Registry


def register(registry: Registry) -> None:
    from bot.nk import web
    from bot.nk.commands import register as register_commands

    register_commands(registry)
    web.register(registry)
