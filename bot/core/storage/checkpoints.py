"""WAL checkpoints on a thread of their own, so that no command's COMMIT waits for one.

SQLite copies the write-ahead log back into the database file at a checkpoint, by default inside the
COMMIT that makes the log pass 1,000 pages (about every 400 sign-offs), and a checkpoint ends with an
fsync of the database file (``PRAGMA synchronous = NORMAL`` in WAL mode syncs there and nowhere else).
On a shared disk that fsync took 4 to 140 ms, and every command queued behind the writer waited for it.
Here a second connection checkpoints PASSIVE (it never waits for, nor blocks, the writer) every
``every`` seconds; the writer's own automatic checkpoint stays as a safety net at a much larger log.
Durability is unchanged: the same syncs happen, on this thread instead of in a COMMIT.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

SAFETY_NET_PAGES = 20_000  # the writer checkpoints itself only if this thread falls this far behind


class Checkpointer:
    def __init__(self, path: Path, every: float) -> None:
        self._path = path
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"wal-checkpoints {path.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=True)
        try:
            while not self._stop.wait(self._every):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:  # e.g. the file is being replaced; the writer's safety net remains
                    pass
        finally:
            conn.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
