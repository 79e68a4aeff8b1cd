"""The NK championship (seed 000): a McMahon-like tournament run from the chat, its store and CLI."""

from bot.core.commands.registry import Registry


def register(registry: Registry) -> None:
    from bot.nk import web
    from bot.nk.commands import register as register_commands

    for name in ("nk_tournaments", "nk_rounds", "nk_games"):
        registry.table(name)
    registry.table("nk_players", goes_with_member=True)  # a registration: no history of its own
    register_commands(registry)
    web.register(registry)
