"""A token revoked while the bot runs (issue 46 §3): the real ``clubbot run`` process against the local fakes
of Telegram and Discord. Once the platform refuses the token (Telegram's getUpdates answers 401
Unauthorized; Discord closes the gateway with 4004, authentication failed) the bot says so in one line
and exits with status 1, so that its supervisor starts it again; before, it went on running deaf
(Telegram's polling ended, the Discord gateway task logged a traceback) and nobody was told."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from bot.adapters.lost import Lost
from bot.adapters.telegram.polling import Polling
from tests.bot.adapters.discord_process import FAKE_ENV
from tests.bot.adapters.fake_discord import FakeDiscord
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram
from tests.paths import REPO

CLUBBOT = str(Path(sys.executable).parent / "clubbot")


def environment(**secrets: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")}, **secrets}


async def exited(proc: asyncio.subprocess.Process, log: Path, timeout: float = 60.0) -> int:
    try:
        return await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"the bot ran on after its token was revoked:\n{log.read_text()[-3000:]}") from None


def one_clear_line(log: Path, words: str) -> None:
    text = log.read_text()
    lines = [line for line in text.splitlines() if "clubbot stops" in line]
    assert len(lines) == 1 and words in lines[0], text[-3000:]
    assert "Traceback" not in text, text[-3000:]


async def test_a_telegram_token_revoked_while_running_stops_the_bot_with_status_1(tmp_path: Path) -> None:
    telegram = await FakeTelegram().start()
    config = tmp_path / "config.toml"
    config.write_text(f'[telegram]\nbase_url = "{telegram.base_url}"\nbase_file_url = "{telegram.base_file_url}"\n')
    log = tmp_path / "bot.log"
    try:
        with open(log, "wb") as out:
            proc = await asyncio.create_subprocess_exec(
                CLUBBOT, "run", "--config", str(config), "--db", str(tmp_path / "club.sqlite3"), cwd=tmp_path,
                env=environment(CLUBBOT_TELEGRAM_TOKEN=TOKEN), stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out,
            )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while not telegram.of("deleteWebhook"):  # its last call before it polls
                assert proc.returncode is None and time.monotonic() < deadline, log.read_text()[-3000:]
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)  # polling
            assert proc.returncode is None, log.read_text()[-3000:]
            telegram.revoked = True  # at @BotFather
            assert await exited(proc, log) == 1, log.read_text()[-3000:]
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    finally:
        await telegram.close()
    one_clear_line(log, "Telegram refused the bot's token while it ran (getUpdates: Unauthorized)")


async def test_a_discord_token_revoked_while_running_stops_the_bot_with_status_1(tmp_path: Path) -> None:
    discord = await FakeDiscord().start()
    log = tmp_path / "bot.log"
    try:
        with open(log, "wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.bot.adapters.discord_process", "run", "--config",
                str(REPO / "config.example.toml"), "--db", str(tmp_path / "club.sqlite3"), cwd=REPO,
                env=environment(CLUBBOT_DISCORD_TOKEN="test-token", **{FAKE_ENV: discord.url}),
                stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out,
            )  # fmt: skip
        try:
            try:
                await discord.wait_for(lambda: discord.ready.is_set() or proc.returncode is not None, timeout=60)
            except TimeoutError:
                raise AssertionError(f"the bot did not connect to Discord:\n{log.read_text()[-3000:]}") from None
            assert proc.returncode is None, log.read_text()[-3000:]
            await discord.revoke()
            assert await exited(proc, log) == 1, log.read_text()[-3000:]
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    finally:
        await discord.close()
    one_clear_line(log, "Discord closed the gateway connection with 4004, authentication failed")


async def test_a_lasting_telegram_conflict_ends_the_session_a_short_one_does_not() -> None:
    """409 Conflict on getUpdates: another process polls with the same token (or a webhook is set). A
    restart's overlap is short and passes; one that lasts is the end."""
    from telegram.error import Conflict, NetworkError

    lost = Lost()
    polling = Polling(lost, conflict_patience=0.3)
    polling.error(Conflict("Conflict: terminated by other getUpdates request"))
    polling.error(NetworkError("a blip"))  # the run of conflicts is broken: it starts again
    polling.error(Conflict("Conflict: terminated by other getUpdates request"))
    await asyncio.sleep(0.2)
    polling.error(Conflict("Conflict: terminated by other getUpdates request"))
    assert not lost
    await asyncio.sleep(0.2)
    polling.error(Conflict("Conflict: terminated by other getUpdates request"))
    assert lost and "another process polls with this token" in lost.reason
