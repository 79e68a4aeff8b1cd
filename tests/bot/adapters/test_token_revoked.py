"""A token revoked while the bot runs (issue 46 §3): the real ``clubbot run`` process against the local fakes
of Telegram and Discord. Once the platform refuses the token (Telegram's getUpdates answers 401
Unauthorized; Discord closes the gateway with 4004, authentication failed) the bot says so in one line
and exits with status 1, so that its supervisor starts it again; before, it went on running deaf
(Telegram's polling ended, the Discord gateway task logged a traceback) and nobody was told."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.adapters.lost import Lost
from bot.adapters.telegram.polling import Polling
from tests.bot.adapters.discord_process import FAKE_ENV
from tests.bot.adapters.fake_discord import FakeDiscord
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram
from tests.bot.bot_process import CLUBBOT, bot_process, environment, until
from tests.paths import REPO


async def exits_with_one_clear_line(proc: asyncio.subprocess.Process, log: Path, words: str) -> None:
    """The process ends by itself within a minute, status 1, one ``clubbot stops`` line, no traceback."""
    try:
        status = await asyncio.wait_for(proc.wait(), 60)
    except TimeoutError:
        raise AssertionError(f"the bot ran on after its token was revoked:\n{log.read_text()[-3000:]}") from None
    text = log.read_text()
    assert status == 1, text[-3000:]
    lines = [line for line in text.splitlines() if "clubbot stops" in line]
    assert len(lines) == 1 and words in lines[0], text[-3000:]
    assert "Traceback" not in text, text[-3000:]


@asynccontextmanager
async def telegram_bot(tmp_path: Path, telegram: FakeTelegram, log: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    """``clubbot run`` on Telegram against ``telegram``, its output in ``log``."""
    config = tmp_path / "config.toml"
    config.write_text(f'[telegram]\nbase_url = "{telegram.base_url}"\nbase_file_url = "{telegram.base_file_url}"\n')
    async with bot_process(log, CLUBBOT, "run", "--config", str(config), "--db", str(tmp_path / "club.sqlite3"),
                           cwd=tmp_path, env=environment(CLUBBOT_TELEGRAM_TOKEN=TOKEN)) as proc:  # fmt: skip
        yield proc


async def test_a_telegram_token_revoked_while_running_stops_the_bot_with_status_1(tmp_path: Path) -> None:
    telegram = await FakeTelegram().start()
    log = tmp_path / "bot.log"
    try:
        async with telegram_bot(tmp_path, telegram, log) as proc:
            await until(lambda: bool(telegram.of("deleteWebhook")), proc, log)  # its last call before it polls
            await asyncio.sleep(1.0)  # polling
            assert proc.returncode is None, log.read_text()[-3000:]
            telegram.revoked = True  # at @BotFather
            await exits_with_one_clear_line(proc, log, "Telegram refused the bot's token while it ran (getUpdates: Unauthorized)")
    finally:
        await telegram.close()


async def test_a_discord_token_revoked_while_running_stops_the_bot_with_status_1(tmp_path: Path) -> None:
    discord = await FakeDiscord().start()
    log = tmp_path / "bot.log"
    try:
        async with bot_process(
            log, sys.executable, "-m", "tests.bot.adapters.discord_process", "run", "--config",
            str(REPO / "config.example.toml"), "--db", str(tmp_path / "club.sqlite3"), cwd=REPO,
            env=environment(CLUBBOT_DISCORD_TOKEN="test-token", **{FAKE_ENV: discord.url}),
        ) as proc:  # fmt: skip
            await until(discord.ready.is_set, proc, log)
            await discord.revoke()
            await exits_with_one_clear_line(proc, log, "Discord closed the gateway connection with 4004, authentication failed")
    finally:
        await discord.close()


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


async def test_started_again_with_the_revoked_token_the_bot_stops_and_never_writes_the_token(tmp_path: Path) -> None:
    """The supervisor's restart after a revoke meets the same refused token at login: with no platform left
    the bot must not run on deaf with ``/healthz`` saying ok; it stops, status 1, one line, and the token,
    which python-telegram-bot's refusal quotes, is never written to the log (the journal)."""
    telegram = await FakeTelegram().start()
    telegram.revoked = True  # before the start: the supervisor's restart after a revoke
    log = tmp_path / "bot.log"
    try:
        async with telegram_bot(tmp_path, telegram, log) as proc:
            await exits_with_one_clear_line(proc, log, "telegram refused the bot's token")
        assert TOKEN not in log.read_text(), log.read_text()[-3000:]
    finally:
        await telegram.close()
