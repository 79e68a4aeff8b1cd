"""The fake lichess as a program of its own, for a scripted month in the console (issue 43 §5): started with
``python -m tests.bot.online.fake_lichess``, it prints its URL, takes the bot's requests, and is driven by
``python -m tests.bot.online.fake_lichess_control`` (the same as curl on ``/_fake/...``)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from bot.core.online.lichess import Lichess
from bot.core.online.lichess_answers import TimeControl
from tests.bot.adapters.local_server import free_port
from tests.paths import REPO


def control(url: str, *words: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.bot.online.fake_lichess_control", url, *words], cwd=REPO,
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def test_the_fake_runs_as_a_program_and_a_script_ends_its_games() -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tests.bot.online.fake_lichess", "--port", str(port), "--user", "Anna",
                                "--clock", "2026-12-03T17:00:00+00:00"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # waits for the fake to be listening
        url = f"http://127.0.0.1:{port}"
        assert first.startswith(f"fake lichess at {url} (the bot's token: lip_clubbot_fake_token"), first
        assert control(url, "user", "Bert")["name"] == "Bert"
        bot = Lichess(url, "lip_clubbot_fake_token")
        expires = datetime(2026, 12, 3, 22, 0, tzinfo=timezone.utc)  # within two weeks of the fake's time, not of today's
        made = await bot.create_challenge("Anna", "Bert", TimeControl(900, 10), rated=True, name="Club 1.1", expires_at=expires)
        assert control(url, "start", "@bert")["id"] == made.id  # the newest open challenge Bert is in
        assert control(url, "end", "@anna", "outoftime", "black", "plies=41")["winner"] == "black"
        [game] = await bot.export_games([made.id])
        own = control(url, "play", "white=bert", "black=anna", "clock=10+5", "rated=false")  # a game of their own
        assert own["id"] != made.id and (own["white"], own["black"], own["limit"], own["increment"], own["rated"]) == ("bert", "anna", 600, 5, False)
        assert (game.status, game.winner, game.plies) == ("outoftime", "black", 41)
        await bot.close()
        assert control(url, "clock", "2026-12-03T18:00")["now"] == pytest.approx(datetime(2026, 12, 3, 18, 0, tzinfo=timezone.utc).timestamp(), abs=1)
        state = control(url, "state")
        assert state["problems"] == [] and [c["status"] for c in state["challenges"]] == ["accepted"]
        assert [r["path"] for r in state["requests"]] == ["/api/challenge/open", "/api/games/export/_ids"]
        refused = subprocess.run([sys.executable, "-m", "tests.bot.online.fake_lichess_control", url, "end", made.id, "draw"],
                                 cwd=REPO, capture_output=True, text=True, timeout=30)  # fmt: skip
        assert refused.returncode != 0 and "has already ended" in refused.stderr
    finally:
        process.terminate()
        process.wait(timeout=10)
