"""A real PostgreSQL server for the tests and benchmarks: Debian's ``postgresql`` package (``./test.sh``
installs it when missing), started in a temporary directory on a free port of 127.0.0.1.

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


class PostgresServer:
    """``PostgresServer().start()``; ``url(database)``; ``stop()``. ``durable=False`` (the tests) turns
    fsync off: a crash of the test machine loses nothing anyone needs."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.bin = _binaries()
        self.dir = Path(tempfile.mkdtemp(prefix="clubbot-pg-"))
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
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
        self.psql(sql)
        return self.url(name)

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
