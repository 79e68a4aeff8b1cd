"""Exactly once on lichess (issue 43 §2): the real ``clubbot run`` console process, playing its round on the
fake lichess run as a program of its own (so lichess keeps its state across the bot's restart), killed with
SIGKILL after lichess made a challenge and before the bot heard of it (the fake holds that answer back:
``hold``). Started again on the same database, the bot makes that board's challenge again; the one made
before the kill is never recorded and never announced, and no board gets a second announced challenge."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.bot.adapters.local_server import free_port
from tests.bot.test_crash import Bot
from tests.paths import REPO

TOKEN = "lip_clubbot_fake_token"
SCRIPT = [
    "/seizoen naam=S start=2026-12-03 rondes=5 online=lichess tempo=15+10 beoordeeld=ja",
    *(f"/speler {name} {rating} lichess={name}" for name, rating in (("Anna", 2100), ("Bert", 1950), ("Carla", 1800), ("Daan", 1700))),
]


def control(url: str, *words: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.bot.online.fake_lichess_control", url, *words], cwd=REPO,
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def state(url: str) -> dict:
    """The fake's state, read over HTTP (no program started for each look)."""
    with urllib.request.urlopen(f"{url}/_fake/state", timeout=10) as answer:
        return json.loads(answer.read())


def wait_until(what: str, check, timeout: float = 30.0):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if found := check():
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")


class OnlineBot(Bot):
    """``tests/bot/test_crash.py``'s console bot, with the bot's lichess token and a config pointing at the fake."""

    def __init__(self, db: Path, clock: str, config: Path) -> None:
        super().__init__(db, clock, ("--config", str(config)), {"CLUBBOT_LICHESS_TOKEN": TOKEN})


def test_a_kill_between_making_a_challenge_and_recording_it_announces_no_second_challenge(tmp_path: Path) -> None:
    port = free_port()
    fake = subprocess.Popen([sys.executable, "-m", "tests.bot.online.fake_lichess", "--port", str(port), "--clock",
                             "2026-12-01T11:00:00+00:00", *(f"--user={n}" for n in ("Anna", "Bert", "Carla", "Daan"))],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    config = tmp_path / "config.toml"
    example = (REPO / "config.example.toml").read_text(encoding="utf-8")
    assert 'url = "https://lichess.org"' in example
    config.write_text(example.replace('url = "https://lichess.org"', f'url = "{url}"'), encoding="utf-8")
    db = tmp_path / "club.sqlite3"
    try:
        assert fake.stdout is not None and fake.stdout.readline().startswith(f"fake lichess at {url}")
        bot = OnlineBot(db, "2026-12-01T12:00", config)
        for line in SCRIPT:
            bot.send(line)
            bot.wait_for(lambda out: bool(out.strip()))
        control(url, "hold", "1")  # the first challenge is made, its answer never comes
        bot.send("/klok 2026-12-03 18:05")  # round 1 paired, its challenges being made
        orphan = wait_until("lichess made the first challenge", lambda: state(url)["challenges"])[0]["id"]
        bot.kill()
        first_run = list(bot.out)
        assert not any("Indeling ronde 1" in line for line in first_run)  # held for its challenges
        bot = OnlineBot(db, "2026-12-03T18:05", config)
        bot.wait_for(lambda out: "Indeling ronde 1" in out, timeout=60)
        lines = [bot.wait_for(lambda out: out.startswith("[kanaal] Bord")) for _ in range(2)]
        bot.finish()
        final = state(url)
    finally:
        fake.terminate()
        fake.wait(timeout=10)
    assert final["problems"] == [] and len(final["challenges"]) == 3  # the orphan, and one for each board
    linked = [re.search(r"lichess: (\S+)$", line) for line in lines]
    assert all(linked), lines
    announced = [m.group(1).rsplit("/", 1)[1] for m in linked if m]
    with sqlite3.connect(db) as conn:
        recorded = conn.execute("SELECT board, lichess_id, attempts, status FROM online_games ORDER BY board").fetchall()
    assert [(b, s) for b, _, _, s in recorded] == [(1, "created"), (2, "created")]
    assert sorted(announced) == sorted(i for _, i, _, _ in recorded)  # one announced challenge per board, the recorded one
    assert orphan not in announced and orphan not in {i for _, i, _, _ in recorded}
    assert sorted(a for _, _, a, _ in recorded) == [1, 2]  # the board whose answer was lost was asked for again
    assert not any(orphan in line for line in first_run + bot.out)
