"""The locks that keep two programs from working on one SQLite file at cross purposes.

Every process that opens a database file (``Store.open``) holds a shared ``flock`` on ``PATH.lock``
until it closes the store; the kernel drops it when the process dies, so a killed bot holds nothing.
``clubbot restore`` takes the same lock exclusively, without waiting: while any bot has the database
open it refuses (its acknowledged changes would be lost), and while a restore runs a bot does not start.

A running bot (``clubbot run``) also holds ``PATH.bot.lock`` exclusively (``RunningBotLock``): a second
bot on the same file would pair and announce every round a second time, so it stops at once with a
message naming the first one's process id. Tools that only read or copy (``clubbot keizer``, a backup)
do not take it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class DatabaseInUse(Exception):
    """The lock is held the other way: a bot has the database open, or a restore is replacing it."""


def lock_path(database: Path) -> Path:
    return database.with_name(f"{database.name}.lock")


def _flock(path: Path, mode: int) -> int | None:
    """A descriptor of ``path`` holding ``mode`` (LOCK_SH or LOCK_EX), or None when it is held the other way."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


class DatabaseLock:
    """``DatabaseLock(path, exclusive)``: taken at once or ``DatabaseInUse``; ``release()`` lets go."""

    def __init__(self, database: Path, exclusive: bool) -> None:
        self._fd = _flock(lock_path(database), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        if self._fd is None:
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


class BotRunning(Exception):
    """Another bot runs on this database file."""


class RunningBotLock:
    """Held by a running bot for its whole life: a second ``clubbot run`` on the same file is refused
    (``BotRunning``, naming the first one's process id, which the lock file holds)."""

    def __init__(self, database: Path) -> None:
        path = database.with_name(f"{database.name}.bot.lock")
        self._fd = _flock(path, fcntl.LOCK_EX)
        if self._fd is None:
            try:
                pid = path.read_text(encoding="ascii", errors="replace").strip()[:12]
            except OSError:
                pid = ""
            raise BotRunning(
                f"another clubbot is running on {database}{f' (process {pid})' if pid else ''}: "
                "two bots on one SQLite file would announce every round twice; stop it first"
            )
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"{os.getpid()}\n".encode("ascii"))

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
