"""Federation rating lists: ``/ratings importeer`` refreshes the members' ratings from the KNSB's, FIDE's
or the EGD's list by their identities, and proposes identities by name (issue 34 §1)."""

from bot.core.commands.registry import Registry


def register(registry: Registry) -> None:
    from bot.ratings.commands import register as register_commands

    registry.table("rating_proposals")
    register_commands(registry)
