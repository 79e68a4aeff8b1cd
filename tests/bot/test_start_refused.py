"""A start that cannot go right stops at once, in one line (issue 46 §1): the real ``clubbot run``, as a
process, with each mistake. Checked every time: the exit status (2 for a mistake in the configuration or
the command line, 1 for something outside the bot, as docs/deploy.md says), exactly one line on standard
error saying what is wrong and what to do, no traceback, and nothing made (no SQLite file, no directory,
no lock file). Before, each of these started quietly or ended in a traceback."""

from __future__ import annotations

import os
import resource
import signal
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

EXE = Path(sys.executable).parent / "clubbot"
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")}, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": ""}
URL_VARIABLE = "CLUBBOT_TEST_DATABASE_URL"


def run(tmp_path: Path, *args: str, env: dict[str, str] | None = None, **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), "run", *args], input="/stop\n", capture_output=True, text=True, timeout=120,
                          env=env or ENV, cwd=tmp_path, **options)  # type: ignore[call-overload]  # fmt: skip


def refused_in_one_line(done: subprocess.CompletedProcess[str], status: int, *said: str) -> str:
    assert done.returncode == status, (done.returncode, done.stdout[-500:], done.stderr[-3000:])
    assert done.stderr.startswith("clubbot: ") and done.stderr.count("\n") == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and done.stdout == "", (done.stdout[-500:], done.stderr)
    for words in said:
        assert words in done.stderr, done.stderr
    return done.stderr


def left_in(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.name != "config.toml")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the test uses it: nothing listens there


@pytest.mark.parametrize("value", [None, "", "  "], ids=["unset", "empty", "blank"])
def test_url_env_naming_a_variable_that_is_not_set_stops_instead_of_starting_on_a_sqlite_file(tmp_path: Path, value: str | None) -> None:
    """In the documented several-process setup this process would otherwise run on its own SQLite file and
    acknowledge members' commands into a database no other process reads."""
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{tmp_path / "club.sqlite3"}"\nurl_env = "{URL_VARIABLE}"\n', encoding="utf-8")
    env = {**ENV, **({} if value is None else {URL_VARIABLE: value})}
    line = refused_in_one_line(run(tmp_path, "--config", str(config), env=env), 2, f"{config}:3: [database] url_env", URL_VARIABLE)
    assert ("not set" if value is None else "empty") in line and "postgresql://" in line
    assert left_in(tmp_path) == []


@pytest.mark.parametrize("deadline", ["19:00", "18:00"])
def test_a_deadline_not_before_the_publication_is_refused_at_start(tmp_path: Path, deadline: str) -> None:
    """Every /seizoen with the defaults would be refused; sign-offs cannot close after the pairing is made."""
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{tmp_path / "club.sqlite3"}"\n\n[season]\ndeadline = "{deadline}"\npublish = "18:00"\n', encoding="utf-8")
    refused_in_one_line(run(tmp_path, "--config", str(config)), 2, f"{config}:5: [season] deadline {deadline} is not before publish 18:00")
    assert left_in(tmp_path) == []


@pytest.mark.parametrize("given", ["--db", "[database] path"])
def test_a_database_in_a_directory_that_does_not_exist_is_refused_not_made(tmp_path: Path, given: str) -> None:
    """A mistyped directory made a new, empty database quietly (the checkout's own data/ is still made)."""
    path = tmp_path / "srv" / "clubbot" / "data" / "club.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{path}"\n' if given != "--db" else "", encoding="utf-8")
    args = ["--config", str(config), *(["--db", str(path)] if given == "--db" else [])]
    refused_in_one_line(run(tmp_path, *args), 2, f"the database {path} ({given}", f"mkdir -p {path.parent}")
    assert left_in(tmp_path) == []


@pytest.mark.parametrize("given", ["--db", "url_env"])
def test_postgresql_unreachable_at_start_is_one_line_without_the_password(tmp_path: Path, given: str) -> None:
    """Nothing listens on the port (it was 71 lines of traceback, exit 1)."""
    url = f"postgresql://clubbot:SECRET-PASSWORD@127.0.0.1:{closed_port()}/clubbot"
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\nurl_env = "{URL_VARIABLE}"\n' if given == "url_env" else "", encoding="utf-8")
    args = ["--config", str(config), *(["--db", url] if given == "--db" else [])]
    line = refused_in_one_line(run(tmp_path, *args, env={**ENV, URL_VARIABLE: url}), 1, "PostgreSQL at 127.0.0.1:", "cannot be reached")
    assert "SECRET" not in line
    assert left_in(tmp_path) == []


def limit_file_size(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.parametrize("size", [0, 64 * 1024], ids=["at-the-lock-file", "in-the-migrations"])
def test_a_disk_that_takes_no_more_at_start_is_one_line_and_leaves_nothing(tmp_path: Path, size: int) -> None:
    """Simulates a full disk without mount rights: the bot runs with a file size limit (RLIMIT_FSIZE) and
    SIGXFSZ ignored, so every write past the limit fails as it would on a full disk (EFBIG, where a full
    disk gives ENOSPC). With 0 bytes the bot's lock file cannot take its process id; with 64 KiB the new
    database's migrations fail part way ("disk I/O error")."""
    path = tmp_path / "club.sqlite3"
    done = run(tmp_path, "--db", str(path), preexec_fn=lambda: limit_file_size(size))
    refused_in_one_line(done, 1, f"the database {path} cannot be written", f"df -h {tmp_path}")
    assert left_in(tmp_path) == []


def test_a_full_file_system_at_start_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    """A real full disk: a 128 KiB tmpfs in a mount namespace of the test's own (``unshare``; skipped where
    the machine allows no user namespaces), too small for a new database's migrations (ENOSPC)."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("no user namespaces here to mount a small file system in")
    disk = tmp_path / "disk"
    disk.mkdir()
    left = tmp_path / "left.txt"  # what the bot left on the small disk, listed before the namespace ends
    script = 'mount -t tmpfs -o size=128k tmpfs "$1" || exit 99; "$2" run --db "$1/club.sqlite3"; rc=$?; ls -A "$1" > "$3"; exit $rc'
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(disk), str(EXE), str(left)], input="/stop\n",
                          capture_output=True, text=True, timeout=120, env=ENV, cwd=tmp_path)  # fmt: skip
    assert done.returncode != 99, done.stderr
    refused_in_one_line(done, 1, f"the database {disk / 'club.sqlite3'} cannot be written, its disk is full")
    assert left.read_text() == ""


def test_the_checkouts_own_data_directory_is_still_made_on_the_first_start() -> None:
    """``./run.sh`` needs nothing set up: data/ in the checkout is the bot's own (README)."""
    from bot.start_failures import OWN_DATA_DIR, missing_directory

    assert OWN_DATA_DIR == REPO / "data"
    assert missing_directory(OWN_DATA_DIR / "clubbot.sqlite3", "[database] path") is None
    assert missing_directory(REPO / "dat" / "clubbot.sqlite3", "[database] path") is not None


def test_a_full_disk_never_removes_a_database_that_was_there(tmp_path: Path) -> None:
    """Only what the failed start made is removed: a club's existing database stays, byte for byte."""
    path = tmp_path / "club.sqlite3"
    assert run(tmp_path, "--db", str(path)).returncode == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert "club.sqlite3" in before
    done = run(tmp_path, "--db", str(path), preexec_fn=lambda: limit_file_size(0))
    refused_in_one_line(done, 1, f"the database {path} cannot be written")
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after.keys() == before.keys() and after["club.sqlite3"] == before["club.sqlite3"]  # the lock's pid aside


def test_db_on_the_command_line_is_used_without_reading_url_env(tmp_path: Path) -> None:
    """``clubbot run --db FILE`` names the database itself: a config whose url_env is unset still runs."""
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\nurl_env = "{URL_VARIABLE}"\n', encoding="utf-8")
    done = run(tmp_path, "--config", str(config), "--db", str(tmp_path / "club.sqlite3"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert (tmp_path / "club.sqlite3").exists()
