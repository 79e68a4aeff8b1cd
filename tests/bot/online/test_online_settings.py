"""Online play on or off (issue 43 §1): ``[lichess] url`` and the token from the variable ``[lichess] token_env``
names, checked at start; no token, online play off, said once in the log at start, no client to make a
request with and no request made; with several processes on PostgreSQL, one holds the lichess work."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from bot.core.online.settings import LICHESS_CLAIM, LichessTurn, OnlineOff
from bot.core.storage.store import open_store
from bot.systems import make_core
from bot.core.running.clock import Clock
from tests.bot.online.fake_lichess import FakeLichess, lichess, with_lichess  # noqa: F401  (the fixture)
from tests.paths import REPO

EXE = Path(sys.executable).parent / "clubbot"


def config_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_the_url_and_the_token_s_variable_are_read_and_the_token_turns_online_play_on(tmp_path: Path) -> None:
    path = config_file(tmp_path, '[lichess]\nurl = "http://127.0.0.1:9/"\ntoken_env = "CLUB_LICHESS"\n')
    on = load_config(path, env={"CLUB_LICHESS": " lip_abc \n"})
    assert (on.lichess_url, on.lichess_token, on.online_play) == ("http://127.0.0.1:9", "lip_abc", True)
    off = load_config(path, env={"CLUBBOT_LICHESS_TOKEN": "lip_other"})  # only the variable named counts
    assert (off.lichess_token, off.online_play) == (None, False)
    default = load_config(config_file(tmp_path, ""), env={"CLUBBOT_LICHESS_TOKEN": "lip_x"})
    assert (default.lichess_url, default.lichess_token) == ("https://lichess.org", "lip_x")


@pytest.mark.parametrize(("line", "why"), [('url = "lichess.org"', "must be a http:// or https:// address"),
                                          ('url = ""', "must be a http:// or https:// address"),
                                          ('token_env = "lip_the-token-itself"', "environment variable"),
                                          ('tokn_env = "X"', "is not a setting of [lichess]")])  # fmt: skip
def test_a_bad_lichess_setting_is_refused_with_its_line(tmp_path: Path, line: str, why: str) -> None:
    path = config_file(tmp_path, f"[lichess]\n{line}\n")
    with pytest.raises(ConfigError) as refused:
        load_config(path, env={})
    assert str(refused.value).startswith(f"{path}:2: [lichess] ") and why in str(refused.value)


async def test_without_a_token_there_is_no_client_to_ask_lichess_anything(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, ""), env={})
    store = await open_store(tmp_path / "c.sqlite3")
    core = make_core(store, config, Clock())
    try:
        assert not core.online.on
        with pytest.raises(OnlineOff):
            core.online.client()
    finally:
        await core.online.close()
        await store.close()


async def test_with_a_token_the_process_has_one_client_for_every_request(lichess: FakeLichess, tmp_path: Path) -> None:
    config = with_lichess(load_config(config_file(tmp_path, ""), env={}), lichess)
    store = await open_store(tmp_path / "c.sqlite3")
    core = make_core(store, config, Clock())
    core.online.timing = lichess.clock
    try:
        assert core.online.on and core.online.client() is core.online.client()
        assert (await core.online.client().account()).username == "ClubBot"
    finally:
        await core.online.close()
        await store.close()
    assert [s.who for s in lichess.requests()] == [lichess.bot_token]


async def clubbot_run(config: Path, db: Path, env: dict[str, str], script: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(str(EXE), "run", "--config", str(config), "--db", str(db), cwd=REPO,
                                                   env=env, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE)  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(script.encode()), timeout=60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("token", ["", "lip_clubbot_fake_token"])
async def test_the_start_says_once_whether_online_play_is_on_and_no_request_goes_to_lichess_meanwhile(
    lichess: FakeLichess, tmp_path: Path, token: str
) -> None:
    config = config_file(tmp_path, f'[lichess]\nurl = "{lichess.url}"\ntoken_env = "CLUB_LICHESS"\n')
    env = {**os.environ, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": "", "CLUB_LICHESS": token}
    script = ("/seizoen naam=Najaar start=2026-12-03 rondes=3\n/speler Anna\n/speler Bert\n"
              "/seizoen online=lichess tempo=15+10\n/stop\n")  # fmt: skip
    code, out, err = await clubbot_run(config, tmp_path / "c.sqlite3", env, script)
    assert code == 0, err
    logged = (tmp_path / "clubbot.log").read_text(encoding="utf-8")  # the console's log, beside its database
    said = [line for line in logged.splitlines() if "online play" in line]
    if token:
        assert len(said) == 1 and f"online play on: lichess at {lichess.url}" in said[0] and token not in logged + err
        assert "Online op lichess vanaf ronde 1: tempo 15+10" in out, out
    else:
        assert len(said) == 1 and "online play off: no lichess token in the environment variable CLUB_LICHESS" in said[0]
        assert "Online spelen staat uit op deze bot" in out, out  # the director is told; nothing changes
    assert "Najaar" in out
    assert lichess.requests() == []  # no round is published yet: lichess is asked nothing either way


async def test_one_process_holds_the_lichess_work_until_it_stops(pg_url: str) -> None:
    """Two processes on one PostgreSQL database: the first to ask holds the turn for as long as it runs (it
    keeps the pause after a 429 for every request); the other is refused it, until the holder lets go."""
    one, other = await open_store(pg_url), await open_store(pg_url)
    first, second = LichessTurn(one), LichessTurn(other)
    try:
        assert await first.mine() is True
        assert await second.mine() is False
        assert await first.mine() is True and await second.mine() is False  # held across passes, not per pass
        async with other.claim(LICHESS_CLAIM) as theirs:
            assert not theirs
        await first.release()
        assert await second.mine() is True
        assert await first.mine() is False
    finally:
        await first.release()
        await second.release()
        await one.close()
        await other.close()


async def test_on_sqlite_it_is_always_this_process_s_turn(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "c.sqlite3")
    try:
        turn = LichessTurn(store)
        assert await turn.mine() is True and await turn.mine() is True
        await turn.release()
    finally:
        await store.close()
