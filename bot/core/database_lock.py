"""The lock that tells ``clubbot restore`` a bot has the database open.

Every process that opens a database file (``Store.open``) holds a shared ``flock`` on ``PATH.lock``
until it closes the store; the kernel drops it when the process dies, so a killed bot holds nothing.
``clubbot restore`` takes the same lock exclusively, without waiting: while any bot has the database
open it refuses (its acknowledged changes would be lost), and while a restore runs a bot does not start.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class DatabaseInUse(Exception):
    """The lock is held the other way: a bot has the database open, or a restore is replacing it."""


def lock_path(database: Path) -> Path:
    return database.with_name(f"{database.name}.lock")


class DatabaseLock:
    """``DatabaseLock(path, exclusive)``: taken at once or ``DatabaseInUse``; ``release()`` lets go."""

    def __init__(self, database: Path, exclusive: bool) -> None:
        path = lock_path(database)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            if exclusive:
                raise DatabaseInUse(f"a bot has {database} open (stop it first)") from None
            raise DatabaseInUse(f"{database} is being restored (wait for clubbot restore to finish)") from None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> "DatabaseLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
