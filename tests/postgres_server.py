"""A real PostgreSQL server for the tests and benchmarks: Debian's ``postgresql`` package (``./test.sh``
installs it when missing), started in a temporary directory on a free port of 127.0.0.1. The tests' server
(``durable=False``) keeps its data in memory (``/dev/shm`` where it is writable, else the temporary folder):
each pytest-xdist worker starts its own, in a directory and on a port of its own.

PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` user (``runuser``), in a
directory that user owns. Without the package the tests that need it fail and say why (nothing passes
without a server).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    pass


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).resolve().parent
    raise PostgresUnavailable(
        "no PostgreSQL server here (pg_ctl not found): ./test.sh installs Debian's postgresql package;"
        " run it, or apt-get install postgresql"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _memory_folder() -> str | None:
    """``/dev/shm`` (a tmpfs) when it is there and writable, else None (the ordinary temporary folder)."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


class PostgresServer:
    """``PostgresServer().start()``; ``url(database)``; ``drop_database(name)``; ``stop()``. ``durable=False``
    (the tests) turns fsync off and keeps the data in memory: a crash of the test machine loses nothing
    anyone needs. The benchmarks' ``durable=True`` server writes to disk as a deployment does."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.bin = _binaries()
        self.dir = Path(tempfile.mkdtemp(prefix="clubbot-pg-", dir=None if durable else _memory_folder()))
        self.port = _free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = list(args)
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise PostgresUnavailable(f"{' '.join(args[:2])} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> "PostgresServer":
        data = self.dir / "data"
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8")  # fmt: skip
        for attempt in range(5):  # the free port may be taken meanwhile (another worker, another run): another
            try:
                self._pg_ctl_start()
                return self
            except PostgresUnavailable:
                log = self.dir / "log"
                if attempt == 4 or "could not bind" not in (log.read_text(errors="replace") if log.exists() else ""):
                    raise
                self.port = _free_port()
        return self

    def _pg_ctl_start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-o", options, "-l", str(self.dir / "log"), "-w", "start")

    def halt(self) -> None:
        """The server stopped as an operator's ``systemctl stop postgresql`` does (its clients' connections
        closed by the server), its data kept: ``resume()`` starts it again on the same port."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        self._pg_ctl_start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """A database of ``name``, a copy of ``template`` if given. The copy is made file by file
        (``STRATEGY = FILE_COPY``) rather than through the WAL, PostgreSQL 15's default: for a small
        template on a server without fsync a quarter of the server's CPU (0.03 s against 0.11 s a copy)."""
        sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}" STRATEGY = FILE_COPY' if template else "")
        self.psql(sql)
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Gone, with whatever connection a test left open to it (its files would slow the server's stop)."""
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def psql(self, sql: str, database: str = "postgres") -> str:
        done = subprocess.run(
            [str(self.bin.parent / "bin" / "psql") if (self.bin / "psql").exists() else "psql",
             "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", self.url(database), "-c", sql],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise PostgresUnavailable(f"psql: {done.stderr.strip()}")
        return done.stdout

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        except PostgresUnavailable:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
