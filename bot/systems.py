"""The competition systems this bot runs, and the registry they fill. The core imports none of them: the
start-up (``bot/app.py``), the CLI and the tests build the bot through here.

A new system is one more package with a ``register(registry)`` function, named in ``INSTALLED``.
"""

from __future__ import annotations

import importlib

from bot.config import Config
from bot.core.commands import club_commands
from bot.core.storage import tables
from bot.core.running.clock import Clock
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Registry
from bot.core.online.challenges import OnlineChallenges
from bot.core.online.follow import OnlineFollower
from bot.core.storage.store import Store

INSTALLED = ("bot.keizer", "bot.nk", "bot.grades", "bot.go", "bot.ratings", "bot.backup")


def build_registry(systems: tuple[str, ...] = INSTALLED) -> Registry:
    """The core's tables, then each system's commands and tables in the order given (the first system's
    come first in menus and the help), then the club's own commands (/help, /taal, /kanaal)."""
    registry = Registry()
    tables.register(registry)
    for name in systems:
        registry.current = name.rsplit(".", 1)[-1]  # "keizer": its commands' system in /help
        importlib.import_module(name).register(registry)
        registry.systems.append(name)
    registry.current = ""
    club_commands.register(registry)
    registry.timed.append(OnlineChallenges())  # after the systems': a round published in a pass is made in it
    registry.timed.append(OnlineFollower())  # the results of the games made online, read back from lichess
    return registry


def make_core(store: Store, config: Config, clock: Clock, systems: tuple[str, ...] = INSTALLED) -> Core:
    return Core(store, config, clock, build_registry(systems))
