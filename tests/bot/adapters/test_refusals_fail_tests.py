"""A refusal a test did not expect fails it (``refusals.py``), also one the bot only logs: the real Telegram
adapter starting against the fake while Telegram refuses its command menus (``setMyCommands``, a description
of 257 characters) logs the refusal and goes on, and the test that started it fails at its end, naming the
request. Run as a pytest of its own in a subprocess (with the refusals plugin only), so that its failing
is what is seen."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

INNER = '''
from pathlib import Path

import pytest

from bot.config import Config, load_config
from bot.core.storage.store import Store
from tests.bot.adapters.fake_telegram import FakeError, FakeTelegram, Harness

REFUSED = "Bad Request: setMyCommands: description of /stand is not 1-256 characters"


async def start_refused(tmp_path: Path, refused: bool = True) -> FakeTelegram:
    """The real adapter's start against the fake; Telegram refuses its menus if ``refused``."""
    config = load_config(Path("config.example.toml"), env={})
    config = Config(**{**config.__dict__, "db_path": tmp_path / "club.sqlite3"})
    fake = await FakeTelegram().start()

    async def refuse(params: dict, files: dict) -> bool:
        raise FakeError(400, REFUSED)

    if refused:
        fake.api_setMyCommands = refuse  # as Telegram answers a description of 257 characters
    store = await Store.open(config.db_path)
    harness = Harness(fake, store, config)
    try:
        await harness.start()  # logs "registering the command menus with Telegram failed" and goes on
        await harness.stop()
    finally:
        await store.close()
        await fake.close()
    assert [c.status for c in fake.of("setMyCommands")] == ([400] if refused else [200] * 6)  # the first refused, the rest not tried
    return fake


async def test_menus_refused_at_start(tmp_path: Path) -> None:
    await start_refused(tmp_path)


@pytest.mark.expect_refusal("setMyCommands 400 .*not 1-256")
async def test_menus_refused_at_start_as_the_test_expects(tmp_path: Path) -> None:
    await start_refused(tmp_path)


@pytest.mark.expect_refusal("setMyCommands 400")
async def test_a_refusal_expected_that_never_came(tmp_path: Path) -> None:
    await start_refused(tmp_path, refused=False)
'''


def test_a_refused_request_at_start_fails_the_test_that_made_it(tmp_path: Path) -> None:
    inner = tmp_path / "test_inner.py"
    inner.write_text(textwrap.dedent(INNER))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.bot.adapters.refusals", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-q", "-rA", "-o", "asyncio_mode=auto", "-o", "asyncio_default_fixture_loop_scope=function",
         str(inner)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = ran.stdout + ran.stderr
    summary = [line.split() for line in out.splitlines() if "test_inner.py::" in line and line.startswith(("PASSED ", "ERROR "))]
    passed = {words[1].split("::")[-1] for words in summary if words[0] == "PASSED"}
    errors = {words[1].split("::")[-1] for words in summary if words[0] == "ERROR"}  # failed at their end
    assert ran.returncode == 1 and "3 passed, 2 errors" in out, out
    # the bot only logged the refusal: the test's body went well, and the test fails at its end naming it
    assert passed == {"test_menus_refused_at_start", "test_menus_refused_at_start_as_the_test_expects", "test_a_refusal_expected_that_never_came"}, out
    assert "registering the command menus with Telegram failed" in out, out
    assert "refused: Telegram: setMyCommands -> 400 Bad Request: setMyCommands: description of /stand is not 1-256 characters" in out, out
    assert errors == {"test_menus_refused_at_start", "test_a_refusal_expected_that_never_came"}, out
    assert "expected a refusal matching 'setMyCommands 400', none came" in out, out
