"""``clubbot migrate-db``: a club's whole season copied from its SQLite file to PostgreSQL and back, row
for row; refused into a database that holds clubs, from a file a bot has open; a copy that fails leaves
the target empty."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from bot.cli import main
from bot.config import Config
from bot.core.storage.database_lock import DatabaseLock
from bot.core.storage.store import open_store
from tests.bot.conftest import dump, made_once
from tests.bot.store.test_same_on_both import _run

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def season(config: Config) -> Path:
    """``config``'s database holding the season of ``test_same_on_both.py`` (its script, by the commands):
    run once per test process and copied (``made_once``), as every test here starts from the same one."""

    async def run_script(file: Path) -> None:
        await _run(str(file), Config(**{**config.__dict__, "db_path": file}))

    return made_once("same-on-both-season", run_script, config.db_path)


def _everything(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table but the migrations' record (when each was applied differs)."""
    return {table: rows for table, rows in dump(path).items() if table != "schema_migrations"}


async def _clubs_and_next_member(url: str) -> tuple[int, int, int]:
    store = await open_store(url)
    try:
        clubs = (await store.fetch_one("SELECT COUNT(*) FROM clubs"))[0]
        highest = (await store.fetch_one("SELECT MAX(id) FROM members"))[0]
        club = await store.get_or_create_club("console", "new", "New club", "nl", "Europe/Amsterdam", NOW)
        member = await store.add_member(club.id, "Nieuw", 1500, NOW)
        return clubs, highest, member.id
    finally:
        await store.close()


def test_a_season_goes_to_postgresql_and_back_row_for_row(config: Config, pg_url: str, tmp_path: Path, capsys) -> None:
    source = season(config)
    before = _everything(source)
    assert main(["migrate-db", "--from", f"sqlite:///{source}", "--to", pg_url]) == 0
    assert "counts, contents and integrity checked" in capsys.readouterr().out
    back = tmp_path / "back.sqlite3"
    assert main(["migrate-db", "--from", pg_url, "--to", f"sqlite:///{back}"]) == 0
    assert _everything(back) == before  # every row, ids and all
    assert sum(len(rows) for rows in before.values()) > 60
    clubs, highest, new_id = asyncio.run(_clubs_and_next_member(pg_url))
    assert clubs == 1 and new_id == highest + 1  # PostgreSQL's ids go on after the copied ones


def test_a_copy_into_a_database_with_clubs_is_refused_and_changes_nothing(config: Config, pg_url: str, capsys) -> None:
    season(config)
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 0
    capsys.readouterr()
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 1
    assert "already holds clubs" in capsys.readouterr().err
    clubs, _, _ = asyncio.run(_clubs_and_next_member(pg_url))
    assert clubs == 1


def test_a_file_a_bot_has_open_is_refused(config: Config, pg_url: str, capsys) -> None:
    season(config)
    with DatabaseLock(config.db_path, exclusive=False):  # what a running bot holds
        assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 1
    assert "stop it first" in capsys.readouterr().err


def test_a_row_the_target_refuses_leaves_the_target_empty(config: Config, pg_url: str, capsys) -> None:
    season(config)
    conn = sqlite3.connect(config.db_path)
    conn.execute("UPDATE members SET rating = 'veel' WHERE name = 'Eva'")  # SQLite keeps what it is given
    conn.commit()
    conn.close()
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 1
    assert "target is unchanged" in capsys.readouterr().err
    clubs, highest, _ = asyncio.run(_clubs_and_next_member(pg_url))
    assert clubs == 0 and highest is None


def test_a_missing_source_is_said_plainly(tmp_path: Path, pg_url: str, capsys) -> None:
    assert main(["migrate-db", "--from", f"sqlite:///{tmp_path / 'nope.sqlite3'}", "--to", pg_url]) == 1
    assert "there is no database" in capsys.readouterr().err
