"""Names compare the same way on SQLite and PostgreSQL: case and accents aside (``Émile`` is ``emile``),
by a key stored beside each name; a SQLite file from before, with two members whose names differ only
so, is refused by ``migrate-db`` with both names and how to merge them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.cli import main
from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.storage.store import Store, open_store
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, START


async def _replies(database: str, config: Config, lines: list[str]) -> tuple[list[str], list[tuple[str, int]]]:
    store = await open_store(database)
    try:
        core = make_core(store, config, ShiftedClock(START))
        said = [(await core.handle(DIRECTOR, line)).text for line in lines]
        members = await store.fetch_all("SELECT name, rating FROM members WHERE is_director = 0 ORDER BY id")
        return said, [(r["name"], r["rating"]) for r in members]
    finally:
        await store.close()


async def test_case_and_accents_aside_on_both_databases(database: str, config: Config) -> None:
    said, members = await _replies(database, config, [
        "/speler Émile 1300", "/speler émile 1400", "/speler EMILE 1450", "/speler Ørjan Çelik 1500",
        "/speler orjan celik 1550", "/speler  Émile   Zola 1600", "/speler Straße 1700", "/speler STRASSE 1750",
    ])  # fmt: skip
    assert members == [("Émile", 1450), ("Ørjan Çelik", 1550), ("Émile Zola", 1600), ("Straße", 1750)], said
    said, _ = await _replies(database, config, ["/speler emile hernoem Ørjan ÇELIK"])
    assert said == ["Er is al een lid dat Ørjan Çelik heet; voeg ze samen met /speler ... samenvoegen ...."], said


def _two_emiles(path: Path) -> None:
    """A file from before the key: two members who differ only in case (SQLite compared ASCII only)."""
    async def make() -> None:
        store = await Store.open(path)
        club = await store.get_or_create_club("console", "club-1", "Test club", "nl", "Europe/Amsterdam", START)
        await store.add_member(club.id, "Émile", 1300, START)
        await store.close()
    asyncio.run(make())
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO members (club_id, name, rating, is_director, created_at) SELECT club_id, 'émile', 1400, 0,"
                 " created_at FROM members")  # fmt: skip
    conn.commit()
    conn.close()


def test_migrate_db_names_members_that_differ_only_in_case_or_accents(config: Config, pg_url: str, capsys) -> None:
    _two_emiles(config.db_path)
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 1
    error = capsys.readouterr().err
    assert "Test club" in error and '"Émile"' in error and '"émile"' in error, error
    assert "/speler émile samenvoegen Émile" in error, error

    async def merge() -> list[str]:
        store = await open_store(config.db_path)
        try:
            core = make_core(store, config, ShiftedClock(START))
            said = (await core.handle(DIRECTOR, '/speler "émile" samenvoegen "Émile"')).text
            assert "samengevoegd" in said, said
            return [r["name"] for r in await store.fetch_all("SELECT name FROM members WHERE is_director = 0")]
        finally:
            await store.close()

    assert asyncio.run(merge()) == ["Émile"]
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 0
