"""The configuration is checked at start (issue 33 §2): a typo'd section or key, a value of the wrong type
or out of range is refused with the file, the line and the key, in one line and exit status 2, never a
traceback and never a quiet start with a default in the mistake's place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from tests.bot.conftest import season_names_at
from tests.paths import REPO

EXE = Path(sys.executable).parent / "clubbot"
ENV = {**os.environ, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": ""}
EXAMPLE = (REPO / "config.example.toml").read_text(encoding="utf-8")


def test_the_example_file_is_valid_and_gives_the_defaults() -> None:
    config = load_config(REPO / "config.example.toml", env={})
    assert (config.default_language, config.season_rounds, config.season_deadline) == ("nl", 28, "17:00")


# (what replaces what in the example, the key named, its line in the file)
MISTAKES = [
    ('default_language = "nl"', 'default_language = "de"', "[bot] default_language", "must be one of 'nl', 'en'"),
    ('default_language = "nl"', 'default_langauge = "en"', "[bot] default_langauge", "is not a setting of [bot]"),
    ("[season]", "[seasons]", "[seasons]", "is not a section clubbot knows"),
    ("rounds = 28", 'rounds = "28"', "[season] rounds", "whole number"),
    ("rounds = 28", "rounds = 0", "[season] rounds", "from 1 to 200"),
    ('deadline = "17:00"', 'deadline = "5pm"', "[season] deadline", "time of day"),
    ("reminder_hours = 5 ", "reminder_hours = -1 ", "[season] reminder_hours", "from 0 to 168"),
    ('default_timezone = "Europe/Amsterdam"', 'default_timezone = "Amsterdam"', "[bot] default_timezone", "IANA"),
    ('token_env = "CLUBBOT_DISCORD_TOKEN"', 'token_env = "abc123:secret-token-itself"', "[discord] token_env", "environment variable"),
    ('log_level = "INFO"', 'log_level = "verbose"', "[bot] log_level", "must be one of"),
    ('# address = "127.0.0.1:8080"', 'address = "localhost"', "[web] address", "HOST:PORT"),
    ('# trusted_proxies = ["127.0.0.1"]', 'trusted_proxies = "nginx"', "[web] trusted_proxies", "IP addresses"),
    ('# url = "postgresql://clubbot@127.0.0.1:5432/clubbot"', 'url = "mysql://clubbot@db/clubbot"', "[database] url", "postgresql://"),
    ('director_name = "Wedstrijdleider"', "director_name = 3", "[console] director_name", "text in quotes"),
    ('deadline = "17:00"', 'deadline = "18:30"', "[season] deadline", "is not before publish 18:00"),
    ('# url_env = "CLUBBOT_DATABASE_URL"', 'url_env = "CLUBBOT_DATABASE_URL"', "[database] url_env", "which is not set"),
    ('url = "https://lichess.org"', 'url = "lichess.org"', "[lichess] url", "must be a http:// or https:// address"),
    ('token_env = "CLUBBOT_LICHESS_TOKEN"', 'token_env = "lip_abc-def"', "[lichess] token_env", "environment variable"),
]


@pytest.mark.parametrize(("before", "after", "key", "why"), MISTAKES, ids=[m[1][:30] for m in MISTAKES])
def test_each_mistake_is_refused_with_file_line_and_key(tmp_path: Path, before: str, after: str, key: str, why: str) -> None:
    assert before in EXAMPLE
    text = EXAMPLE.replace(before, after, 1)
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if after in row)
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path, env={})
    message = str(refused.value)
    assert message.startswith(f"{path}:{line}: {key} "), message
    assert why in message


def test_a_broken_toml_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[bot]\ndefault_language = "nl\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml: is not valid TOML: .*line 2"):
        load_config(path, env={})


def run(*args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    extra = ["--config", str(config)] if config else []
    return subprocess.run([str(EXE), "run", *extra, *args], input="/stop\n", capture_output=True, text=True,
                          timeout=60, env=ENV, cwd=REPO)  # fmt: skip


@pytest.mark.parametrize("address", ["foo", "127.0.0.1:99999", "127.0.0.1:", "no host:80"])
def test_a_bad_web_address_is_one_line_and_exit_2(tmp_path: Path, address: str) -> None:
    done = run("--db", str(tmp_path / "c.sqlite3"), "--web", address)
    assert done.returncode == 2
    assert done.stderr.startswith("clubbot: --web must be HOST:PORT") and done.stderr.count("\n") == 1, done.stderr


def test_a_web_address_that_cannot_be_listened_on_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run("--db", str(tmp_path / "c.sqlite3"), "--web", "192.0.2.1:8080")  # not this machine's address
    assert done.returncode == 2
    assert done.stderr.startswith("clubbot: the website cannot listen on 192.0.2.1:8080") and "Traceback" not in done.stderr


def test_a_bad_lichess_url_stops_the_bot_in_one_line_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(EXAMPLE.replace('url = "https://lichess.org"', 'url = "lichess.org"'), encoding="utf-8")
    done = run("--db", str(tmp_path / "c.sqlite3"), config=path)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"clubbot: {path}:") and "[lichess] url must be a http:// or https:// address" in done.stderr
    assert list(tmp_path.iterdir()) == [path]


def test_a_bad_config_file_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(EXAMPLE.replace('# url = "postgresql://clubbot@127.0.0.1:5432/clubbot"', 'url = "mysql://x/y"'), encoding="utf-8")
    done = run("--db", str(tmp_path / "c.sqlite3"), config=path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"clubbot: {path}:") and "[database] url" in done.stderr and done.stderr.count("\n") == 1


def test_db_takes_a_postgresql_url_and_never_makes_a_file_of_it(tmp_path: Path, pg_url: str) -> None:
    """``clubbot run --db postgresql://...`` runs on that database (it made a SQLite file named after the
    URL before: the operator thought the bot was on PostgreSQL, and it was not)."""
    done = subprocess.run([str(EXE), "run", "--db", pg_url, "--clock", "2026-12-01T12:00"], capture_output=True, text=True,
                          input="/seizoen naam=Op-Postgres start=2026-12-03 rondes=2\n/stop\n", timeout=60, env=ENV, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Op-Postgres" in done.stdout and list(tmp_path.iterdir()) == []

    assert season_names_at(pg_url) == ["Op-Postgres"]


@pytest.mark.parametrize("command", [["run", "--db", "mysql://clubbot@db/clubbot"], ["restore", "backup.sqlite3", "--db", "postgresql://x@127.0.0.1/y"]])
def test_db_refuses_an_address_it_cannot_use_in_one_line(tmp_path: Path, command: list[str]) -> None:
    done = subprocess.run([str(EXE), *command], input="/stop\n", capture_output=True, text=True, timeout=60, env=ENV, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert ("SQLite file or a postgresql:// URL" in done.stderr) if command[0] == "run" else ("pg_restore" in done.stderr)
    assert list(tmp_path.iterdir()) == []


def test_systemds_credentials_give_what_the_environment_does_not(tmp_path: Path) -> None:
    """``LoadCredential=NAME:...`` (docs/deploy.md): the file ``$CREDENTIALS_DIRECTORY/NAME`` is read as the
    variable NAME; a variable set in the environment comes first; an empty credential is no value."""
    folder = tmp_path / "credentials"
    folder.mkdir()
    (folder / "CLUBBOT_DISCORD_TOKEN").write_text("discord-from-credential\n", encoding="utf-8")
    (folder / "CLUBBOT_TELEGRAM_TOKEN").write_text("telegram-from-credential", encoding="utf-8")
    (folder / "CLUBBOT_DATABASE_URL").write_text("\n", encoding="utf-8")
    path = tmp_path / "config.toml"
    path.write_text(EXAMPLE.replace('# url_env = "CLUBBOT_DATABASE_URL"', 'url_env = "CLUBBOT_DATABASE_URL"'), encoding="utf-8")
    env = {"CREDENTIALS_DIRECTORY": str(folder), "CLUBBOT_TELEGRAM_TOKEN": "telegram-from-environment"}
    with pytest.raises(ConfigError, match="url_env names CLUBBOT_DATABASE_URL, which is empty"):
        load_config(path, env=env)
    (folder / "CLUBBOT_DATABASE_URL").write_text("postgresql://clubbot@127.0.0.1/clubbot\n", encoding="utf-8")
    config = load_config(path, env=env)
    assert (config.discord_token, config.telegram_token) == ("discord-from-credential", "telegram-from-environment")
    assert config.database_url == "postgresql://clubbot@127.0.0.1/clubbot"


def test_a_url_env_that_is_no_postgresql_url_is_refused_without_showing_its_value(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[database]\nurl_env = "CLUBBOT_DATABASE_URL"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path, env={"CLUBBOT_DATABASE_URL": "mysql://clubbot:SECRET@db/clubbot"})
    assert str(refused.value).startswith(f"{path}:2: [database] url_env (CLUBBOT_DATABASE_URL) must give a postgresql:// URL")
    assert "SECRET" not in str(refused.value)
