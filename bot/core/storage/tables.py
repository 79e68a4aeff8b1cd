"""The shared tables (the core's own: what every system may read and write through the core's store) as
the core declares them to the registry, as each system declares its own (``Registry.table``,
``bot/core/storage/table_rules.py``). A table the migrations make belongs to exactly one owner
(``tests/test_architecture.py``), and only its owner's SQL names a system's table."""

from __future__ import annotations

from bot.core.commands.registry import Registry


def register(registry: Registry) -> None:
    """The core's tables; ``bot/systems.py`` declares them before any system's."""
    table = registry.table
    for name in ("clubs", "members", "announcements", "installation", "director_accounts", "club_federation", "club_logos"):
        table(name)
    # A member's chat accounts, a link code, a web link: a member who has only these may be removed.
    # A lichess account and a lichess login under way (/koppel lichess) likewise (bot/core/club/lichess_accounts.py).
    for name in ("identities", "link_codes", "web_links", "lichess_accounts", "lichess_logins"):
        table(name, goes_with_member=True)
    table("forbidden_pairings")  # pairs kept apart in every pairing of the club (Keizer's and the NK's)
    # the games of a round made online on lichess (bot/core/online/games_store.py); a system's round and game by reference
    table("online_games")
    table("telegram_directors")  # the Telegram adapter's directors (bot/adapters/telegram/store.py)
