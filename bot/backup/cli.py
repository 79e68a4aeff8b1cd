"""`clubbot restore BACKUP.sqlite3 [--db PATH] [--config FILE]`: put a backup in place of the database.

The bot must not be running: every process with the database open holds a shared lock on ``PATH.lock``
(``bot/core/storage/database_lock.py``), and the restore takes it exclusively or refuses. The backup is copied
next to the database and the copy is checked (``bot/backup/checks.py``: integrity, foreign keys, and
exactly the schema our migrations make at its level; a ``-wal`` beside it is folded in); then the current
database is moved aside as ``PATH.before-restore-<UTC time>``
(its WAL checkpointed into it first, so nothing committed is left behind in a ``-wal`` file), and the
checked copy is renamed into place (atomic: the same directory). On its next start the bot
applies any migration the backup is missing. A bad backup prints one message on stderr, exits with 2, and
leaves the database untouched.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bot.backup.checks import BackupError, checked_copy
from bot.core.running.cli_common import EXIT_ERROR
from bot.core.storage.database_lock import DatabaseInUse, DatabaseLock


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "restore", help="replace the database with a backup (/backup); stop the bot first"
    )
    p.add_argument("backup", metavar="BACKUP.sqlite3")
    p.add_argument("--db", default=None, help="the database to replace (default: the path of the config)")
    p.add_argument("--config", default=None, help="path of the config file")
    p.set_defaults(handler=cmd_restore)


def cmd_restore(args: argparse.Namespace, now: datetime | None = None) -> int:
    backup = Path(args.backup)
    if args.db and "://" in args.db:  # not a file: never one named after a URL
        print("clubbot: restore replaces a SQLite file; a PostgreSQL database is restored with pg_restore"
              " (docs/deploy.md)", file=sys.stderr)  # fmt: skip
        return 2
    if args.db:
        target = Path(args.db)
    else:
        from bot.config import ConfigError, load_config

        try:
            target = load_config(args.config).db_path
        except ConfigError as exc:
            print(f"clubbot: {exc}", file=sys.stderr)
            return 2
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        if backup.resolve() == target.resolve():
            raise BackupError("the backup is the database itself")
        with DatabaseLock(target, exclusive=True), tempfile.TemporaryDirectory(
            prefix=".clubbot-restore-", dir=target.parent
        ) as tmp:
            checked = Path(tmp) / "restore.sqlite3"
            clubs, migrations, folded = checked_copy(backup, checked, args.tables)
            if folded:
                print(f"clubbot restore: the -wal file beside {backup} is folded into what is restored")
            moment = (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
            aside = target.with_name(f"{target.name}.before-restore-{moment}")
            if target.exists():
                _checkpoint(target)
                os.replace(target, aside)
                for suffix in ("-wal", "-shm"):
                    leftover = Path(f"{target}{suffix}")
                    if leftover.exists():
                        os.replace(leftover, Path(f"{aside}{suffix}"))
                print(f"clubbot restore: the current database is kept as {aside}")
            with open(checked, "rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(checked, target)  # the same directory: an atomic rename
    except (BackupError, DatabaseInUse) as exc:
        print(f"clubbot restore: {exc}; nothing was changed", file=sys.stderr)
        return EXIT_ERROR
    print(
        f"clubbot restore: {target} is now the backup {backup} ({clubs} club(s), "
        f"{len(migrations)} migration(s)); start the bot again."
    )
    return 0


def _checkpoint(path: Path) -> None:
    """Fold a WAL left by the last run (a crash leaves one) into the database file itself."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.DatabaseError:
        pass  # not a database we can read: moved aside as it is
    finally:
        conn.close()
