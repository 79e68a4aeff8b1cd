"""The process's open files shared out (issue 46 §3): what the bot keeps for itself out of its open-file
limit (``RLIMIT_NOFILE``, a unit's ``LimitNOFILE=``), and what is left for the website's visitors.

The bot's own files are bounded: standard streams and the log, the SQLite file (with its -wal, -shm and
lock files), fonts, a backup or an export being written (``BASE_FILES``); the database's connections
(PostgreSQL's pool, lanes, claims and listener: ``bot/core/storage/postgres.py``); and each platform's
connections, held to a pool of ``PLATFORM_CONNECTIONS`` (python-telegram-bot would open up to 256,
discord.py as many as it likes). The website's connections, in all and per address, are derived from what
is left (``bot/web/connections.py``), so that no crowd of visitors takes a file the chat needs.
"""

from __future__ import annotations

import resource
from collections.abc import Iterable

from bot.core.storage.postgres import CLAIM_CONNECTIONS, LANES, POOL_SIZE

BASE_FILES = 64  # standard streams, the log, the SQLite file and its companions, fonts, a backup being written
SQLITE_CONNECTIONS = 4  # the writer's and the readers' connections to the file
POSTGRES_CONNECTIONS = POOL_SIZE + LANES + CLAIM_CONNECTIONS + 1  # and the listener
PLATFORM_CONNECTIONS = 16  # each platform's pool of HTTP connections (the adapters set it)
PLATFORM_FILES = PLATFORM_CONNECTIONS + 4  # its pool, the long poll or the gateway, and its resolver's
WEB_MAX = 10_000  # connections in all, however high the limit
PER_ADDRESS_MAX = 32  # connections one address may hold, however high the limit
PER_ADDRESS_SHARE = 24  # one address may hold at most this fraction of the website's connections


def open_file_limit() -> int | None:
    """The process's open-file limit now (its soft limit), or None when there is none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def kept_for_the_bot(postgres: bool, platforms: Iterable[str]) -> int:
    """Open files the bot keeps for itself: its own files, its database's connections, its platforms'."""
    return BASE_FILES + (POSTGRES_CONNECTIONS if postgres else SQLITE_CONNECTIONS) + PLATFORM_FILES * len(set(platforms))


def web_connections(limit: int | None, kept: int) -> tuple[int, int]:
    """(in all, per address): the website's connections out of ``limit`` open files, ``kept`` kept back.
    Below what the bot keeps the website still gets a few (``bot/web/connections.py`` says at start that
    the limit is too low)."""
    total = WEB_MAX if limit is None else max(8, min(WEB_MAX, limit - kept))
    return total, max(2, min(PER_ADDRESS_MAX, total // PER_ADDRESS_SHARE))
