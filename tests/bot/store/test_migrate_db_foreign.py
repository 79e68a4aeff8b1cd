"""``clubbot migrate-db`` refuses what is not a clubbot database before it writes anything (issue 33 §4):
another application's SQLite file as --from or --to, a PostgreSQL database with tables of its own, a
clubbot file of another schema; and a source whose rows the bot cannot read. Each file is left byte for
byte, each database as it was."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path

from bot.cli import main
from bot.config import Config
from tests.bot.conftest import migrated_sqlite
from tests.bot.store.test_migrate_db import _clubs_and_next_member, season

_names = itertools.count(1)


def _foreign_file(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)")
    conn.execute("INSERT INTO accounts (owner) VALUES ('someone else')")
    conn.commit()
    conn.close()
    return path


def test_another_applications_sqlite_file_is_refused_either_way(config: Config, pg_url: str, tmp_path: Path, capsys) -> None:
    foreign = _foreign_file(tmp_path / "other-app.sqlite3")
    before = foreign.read_bytes()
    assert main(["migrate-db", "--from", f"sqlite:///{foreign}", "--to", pg_url]) == 1
    assert "not a clubbot database" in capsys.readouterr().err
    assert foreign.read_bytes() == before  # no clubbot table written into it
    season(config)
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", f"sqlite:///{foreign}"]) == 1
    assert "not a clubbot database" in capsys.readouterr().err
    assert foreign.read_bytes() == before  # and no club copied into it


def test_a_clubbot_file_of_another_schema_is_refused_as_target(config: Config, tmp_path: Path, capsys) -> None:
    season(config)
    target = migrated_sqlite(tmp_path / "target.sqlite3")  # migrated and empty
    conn = sqlite3.connect(target)
    conn.execute("CREATE TRIGGER wipe AFTER INSERT ON signoffs BEGIN DELETE FROM members; END")
    conn.commit()
    conn.close()
    before = target.read_bytes()
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", f"sqlite:///{target}"]) == 1
    assert "extra trigger wipe" in capsys.readouterr().err
    assert target.read_bytes() == before


def test_a_postgresql_database_with_tables_of_its_own_is_refused(config: Config, postgres_server, capsys) -> None:
    name = f"foreign_{next(_names)}"
    url = postgres_server.create_database(name)
    try:
        postgres_server.psql("CREATE TABLE accounts (id SERIAL PRIMARY KEY, owner TEXT)", name)
        season(config)
        assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", url]) == 1
        assert "not a clubbot database" in capsys.readouterr().err
        tables = postgres_server.psql(
            "SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = 'public'", name
        )
        assert tables.strip() == "accounts"
    finally:
        postgres_server.drop_database(name)


def test_a_source_whose_rows_the_bot_cannot_read_is_refused(config: Config, pg_url: str, capsys) -> None:
    season(config)
    conn = sqlite3.connect(config.db_path)
    conn.execute("UPDATE seasons SET settings_json = '{not json'")
    conn.commit()
    conn.close()
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", pg_url]) == 1
    assert "settings_json is not a JSON object" in capsys.readouterr().err
    clubs, highest, _ = asyncio.run(_clubs_and_next_member(pg_url))
    assert clubs == 0 and highest is None


def test_sqlite_with_three_slashes_is_a_relative_path_and_its_directory_is_never_made(
    config: Config, tmp_path: Path, monkeypatch, capsys
) -> None:
    """``sqlite:///srv/clubbot/data/new.sqlite3`` is ``srv/clubbot/...`` under the current directory: the
    copy went into directories made there quietly. Now refused, with the four slashes an absolute path takes."""
    season(config)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["migrate-db", "--from", f"sqlite:///{config.db_path}", "--to", "sqlite:///srv/clubbot/data/new.sqlite3"]) == 1
    said = capsys.readouterr().err
    assert "the directory srv/clubbot/data does not exist" in said and "sqlite:////srv/clubbot/data/new.sqlite3" in said, said
    assert main(["migrate-db", "--from", "sqlite:///srv/clubbot/data/clubbot.sqlite3", "--to", f"sqlite:///{tmp_path / 'x.sqlite3'}"]) == 1
    assert "four: sqlite:////srv/clubbot/data/clubbot.sqlite3" in capsys.readouterr().err
    assert list(work.iterdir()) == [] and not (tmp_path / "x.sqlite3").exists()
