"""Shared set-up for the bot tests: a real SQLite file in a temporary folder, the real commands layer."""

from __future__ import annotations

import asyncio
import atexit
import itertools
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from bot.config import Config, load_config
from bot.core.storage.store import Store, open_store
from tests.bot.adapters.refusals import platform_refusals, pytest_configure  # noqa: F401 - every bot test's
from tests.postgres_server import PostgresServer, PostgresUnavailable

# Tuesday 1 December 2026, noon in Amsterdam: the first round is on Thursday 3 December.
START = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)


@pytest.fixture
def config(tmp_path: Path) -> Config:
    base = load_config(Path(__file__).resolve().parents[2] / "config.example.toml", env={})
    return Config(**{**base.__dict__, "db_path": tmp_path / "club.sqlite3"})


_made_once: dict[str, Path] = {}


def made_once(key: str, make: Callable[[Path], Awaitable[object]], path: Path) -> Path:
    """``path``: a copy of the SQLite database that ``make(file)`` built (and closed) the first time this
    test process asked for ``key``. For a database every test or example builds the same way (migrated
    from zero, a club set up by the same commands): built once per process, then copied (a copy takes a
    millisecond, the migrations alone some 30). ``make`` runs in a thread with its own event loop, so a
    test's running loop is no matter."""
    if key not in _made_once:
        folder = Path(tempfile.mkdtemp(prefix="clubbot-made-once-"))
        atexit.register(shutil.rmtree, folder, True)
        file = folder / f"{key}.sqlite3"
        failed: list[BaseException] = []
        thread = threading.Thread(target=lambda: _run_catching(make(file), failed))
        thread.start()
        thread.join()
        if failed:
            raise failed[0]
        _made_once[key] = file
    shutil.copyfile(_made_once[key], path)
    return path


def _run_catching(coroutine: Awaitable[object], failed: list[BaseException]) -> None:
    try:
        asyncio.run(coroutine)  # type: ignore[arg-type]
    except BaseException as exc:  # handed to the thread that asked
        failed.append(exc)


async def _migrated_sqlite(file: Path) -> None:
    await (await Store.open(file)).close()


def migrated_sqlite(path: Path) -> Path:
    """A fresh SQLite database at ``path`` as ``Store.open`` leaves a new file: every migration applied
    (test_store.py opens new files and checks that)."""
    return made_once("migrated", _migrated_sqlite, path)


@pytest.fixture
async def store(config: Config):
    s = await Store.open(migrated_sqlite(config.db_path))
    yield s
    await s.close()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server for the session, with a migrated template each test's database copies."""
    try:
        server = PostgresServer().start()
    except PostgresUnavailable as exc:
        pytest.fail(f"PostgreSQL is needed for this test and is not available: {exc}")
    try:
        server.create_database("clubbot_template")
        asyncio.run(_migrated(server.url("clubbot_template")))
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def stoppable_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test module's own, which its tests stop and start (the session's is
    shared by every test of the worker)."""
    try:
        server = PostgresServer().start()
    except PostgresUnavailable as exc:
        pytest.fail(f"PostgreSQL is needed for this test and is not available: {exc}")
    try:
        yield server
    finally:
        server.stop()


async def restart(server: PostgresServer) -> None:
    """Stopped and started again while the bot's loop runs on, as in a deployment."""
    await asyncio.to_thread(server.halt)
    await asyncio.to_thread(server.resume)


def running_again(server: PostgresServer) -> None:
    """The server started again if a test left it stopped."""
    try:
        server.psql("SELECT 1")
    except PostgresUnavailable:
        server.resume()


async def _migrated(url: str) -> None:
    store = await open_store(url)
    await store.close()


_databases = itertools.count(1)


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database of the test's own, dropped after the test."""
    name = f"test_{next(_databases)}"
    yield postgres_server.create_database(name, template="clubbot_template")
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path: Path) -> str:
    """Where a store test's database is: a SQLite file, then a PostgreSQL database (every store test
    runs on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def any_store(database: str):
    s = await open_store(database)
    yield s
    await s.close()


@pytest.fixture
def clock() -> ShiftedClock:
    return ShiftedClock(START)


class StillClock(ShiftedClock):
    """A clock that moves only when the test moves it (``advance``, ``set``), never with the wall clock:
    two runs stamp the same moments, and two readings with no move between them are the same moment."""

    def __init__(self, start: datetime) -> None:
        super().__init__(start)
        self._moment = start

    def now(self) -> datetime:
        return self._moment

    def advance(self, delta: timedelta) -> None:
        super().advance(delta)
        self._moment += delta


@pytest.fixture
def commands(store: Store, config: Config, clock: ShiftedClock) -> Core:
    return make_core(store, config, clock)


def actor(name: str, director: bool = False, club: str = "club-1") -> Actor:
    return Actor("console", club, "Test club", "user:" + name.lower(), name, is_director=director)


DIRECTOR = actor("Leider", director=True)


def dump(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read through a second connection: what a change would have to alter."""
    conn = sqlite3.connect(path)
    try:
        return dump_rows(conn)
    finally:
        conn.close()


def dump_rows(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    """``dump`` through a connection the caller keeps (autocommit: each read sees the latest commit), for a
    test that dumps one file many times: opening a connection reads the whole schema again."""
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {name: sorted(conn.execute(f"SELECT * FROM {name}").fetchall(), key=repr) for name in tables}


async def ok(commands: Core, who: Actor, text: str, attachment: bytes | None = None) -> str:
    """Run a command that must be accepted; its reply text."""
    reply = await commands.handle(who, text, attachment)
    assert reply.ok, f"{text!r} was refused: {reply.text}"
    return reply.text


async def refused(commands: Core, who: Actor, text: str, config: Config, attachment: bytes | None = None) -> str:
    """Run a command that must be refused and change nothing; its reply text."""
    before = dump(config.db_path)
    reply = await commands.handle(who, text, attachment)
    assert not reply.ok, f"{text!r} was accepted: {reply.text}"
    assert dump(config.db_path) == before, f"{text!r} was refused but changed the database"
    return reply.text


def rows(config: Config, sql: str, *params: object) -> list[tuple]:
    """Rows of a query, through a second connection."""
    conn = sqlite3.connect(config.db_path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


async def link(commands: Core, *people: Actor) -> None:
    """The director links each chat account to the member of its name (``/koppel Anna <@id>``): what a
    club does for the players it added with ``/speler`` before they sign on."""
    for who in people:
        director = Actor(who.platform, who.club_external_id, who.club_name, "user:leider", "Leider", is_director=True)
        reply = await commands.handle(director, f'/koppel "{who.display_name}" <@{who.user_id}>')
        assert reply.ok, f"linking {who.display_name}: {reply.text}"


def season_names_at(url: str) -> list[str]:
    """The seasons' names in the database at ``url``, read by a store of its own (what a bot that ran
    there left)."""

    async def read() -> list[str]:
        store = await open_store(url)
        try:
            return [r[0] for r in await store.fetch_all("SELECT name FROM seasons")]
        finally:
            await store.close()

    return asyncio.run(read())
