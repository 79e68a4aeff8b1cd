"""What can stop ``clubbot run`` before it serves anyone, said to the operator in one line (issue 46 §1).

Exit status 2 is a mistake in the configuration or the command line (fix it; starting again does the same);
exit status 1 is something outside the bot that is not there or not working at start (PostgreSQL cannot be
reached or refuses the login, the database's disk is full or cannot be written, a chat platform unreachable
past ``[bot] login_timeout``): fix it, or let the service manager start the bot again. Either way the bot
says what is wrong and what to do in one line on standard error, never a traceback; an unexpected error
(a bug) still ends with a traceback and status 1.

A start that fails this way leaves nothing behind: the files it made for a database that did not exist
before (the SQLite file, its -wal and -shm, the lock files) are removed again.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from bot.config import REPO_ROOT, is_postgres

# SQLite's primary result codes (the low byte of an extended one) that say the file cannot be written
SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 3, 8, 10, 13, 14
FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
DENIED_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS}
OWN_DATA_DIR = REPO_ROOT / "data"  # the checkout's own folder, made on the first start (./run.sh)


class CannotStart(Exception):
    """The bot cannot start for a reason outside it; the message is the one line to print (exit 1)."""


def missing_directory(path: Path, named_by: str) -> str | None:
    """The line refusing a SQLite file whose directory does not exist (it was made quietly before, so a
    mistyped path started an empty database); None when it exists or is the checkout's own ``data/``."""
    directory = path.parent
    if directory.is_dir() or directory == OWN_DATA_DIR:
        return None
    what = "is not a directory" if directory.exists() else "does not exist"
    return (f"the database {path} ({named_by}) would be made in {directory}, which {what}: create it "
            f"(mkdir -p {directory}, owned by the bot's user) or correct the path")  # fmt: skip


def database_files(path: Path) -> list[Path]:
    """The SQLite file and what the bot makes beside it."""
    return [path.with_name(path.name + suffix) for suffix in ("", "-wal", "-shm", "-journal", ".lock", ".bot.lock")]


def remove_made(path: Path, existed: set[Path]) -> None:
    """Remove what a failed start made of the database at ``path`` (the files not in ``existed``)."""
    for made in database_files(path):
        if made not in existed:
            made.unlink(missing_ok=True)


async def open_database(target: str | Path) -> Any:
    """``open_store(target)``, with a failure outside the bot turned into ``CannotStart``'s one line."""
    from bot.core.storage.store import open_store  # the store's modules: only once the start's checks passed

    try:
        return await open_store(target)
    except Exception as exc:
        line = why_not_opened(exc, target)
        if line is None:
            raise
        raise CannotStart(line) from exc


def why_not_opened(exc: BaseException, target: str | Path) -> str | None:
    """The line for a database that could not be opened at start, or None for a failure of the bot's own."""
    causes: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(causes) < 10:  # the error itself and what it was raised from
        causes.append(seen)
        seen = seen.__cause__ or seen.__context__
    if is_postgres(target):
        return _postgres_line(causes, str(target))
    return file_line(causes, Path(str(target).removeprefix("sqlite:///")))


def file_line(causes: list[BaseException], path: Path) -> str | None:
    """A SQLite file (or its lock) that cannot be written: the disk is full, or the bot may not write there."""
    for cause in causes:
        detail = _short(cause)
        code = getattr(cause, "sqlite_errorcode", None) if isinstance(cause, sqlite3.Error) else None
        number = cause.errno if isinstance(cause, OSError) else None
        if code is not None and code & 0xFF == SQLITE_FULL or number in FULL_ERRNOS:
            return (f"the database {path} cannot be written, its disk is full ({detail}): free space on it "
                    f"(df -h {path.parent}) and start the bot again")  # fmt: skip
        if code is not None and code & 0xFF == SQLITE_IOERR or number == errno.EIO:
            return (f"the database {path} cannot be written ({detail}): check that its disk has free space "
                    f"(df -h {path.parent}) and reports no errors (dmesg), then start the bot again")  # fmt: skip
        if code is not None and code & 0xFF in (SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN) or number in DENIED_ERRNOS:
            return (f"the database {path} cannot be opened for writing ({detail}): let the bot's user write "
                    f"{path.parent} and the files in it, or correct the path")  # fmt: skip
    return None


def _postgres_line(causes: list[BaseException], url: str) -> str | None:
    import asyncpg

    where = postgres_place(url)
    for cause in causes:
        detail = _short(cause)
        if isinstance(cause, asyncpg.InvalidAuthorizationSpecificationError):  # a wrong password too
            return (f"PostgreSQL at {where} refused the login ({detail}): check the user and password in the "
                    "database URL and the server's pg_hba.conf, then start the bot again")  # fmt: skip
        if isinstance(cause, asyncpg.InvalidCatalogNameError):
            return (f"PostgreSQL at {where} has no such database ({detail}): create it (docs/deploy.md) or "
                    "correct the database URL, then start the bot again")  # fmt: skip
        if isinstance(cause, (asyncpg.CannotConnectNowError, asyncpg.TooManyConnectionsError)):
            return f"PostgreSQL at {where} takes no connection now ({detail}): start the bot again once it does"
        if isinstance(cause, asyncpg.DiskFullError):
            return f"PostgreSQL at {where} cannot write, its disk is full ({detail}): free space on the server's disk"
        if isinstance(cause, (OSError, TimeoutError)):  # refused, no route, an unknown host name, no answer
            return (f"PostgreSQL at {where} cannot be reached ({detail}): start it, or correct the host and port "
                    "in the database URL, then start the bot again")  # fmt: skip
    return None


def postgres_place(url: str) -> str:
    """Host, port, database and user of a PostgreSQL URL, never its password."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or (query.get("host") or ["the local socket"])[0]
    database = parts.path.lstrip("/") or (query.get("dbname") or [""])[0]
    user = parts.username or (query.get("user") or [""])[0]
    named = [f"database {database}"] * bool(database) + [f"user {user}"] * bool(user)
    return f"{host}:{port or 5432}" + (f" ({', '.join(named)})" if named else "")


def _short(exc: BaseException) -> str:
    """An error in a few words on one line (the class name when it says nothing else)."""
    text = " ".join(str(exc).split())[:160]
    return text or exc.__class__.__name__
