"""The log as an operator reads it: one line per event with the club id, in the format ``[bot] log_format``
names, from a running bot (app.run_platforms, the real Telegram library against its local fake)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sqlite3

import pytest

from bot.app import run_platforms
from bot.config import Config
from bot.core.running.log_lines import configure_logging
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram, message, user


async def logged_while_joining(config: Config, form: str) -> tuple[list[str], int]:
    """The log lines of a bot to which Anna says /aanmelden, and the id of her club."""
    telegram = await FakeTelegram().start()
    out = io.StringIO()
    handler = configure_logging("INFO", form, out)
    config = Config(**{**config.__dict__, "telegram_token": TOKEN, "telegram_base_url": telegram.base_url,
                       "telegram_base_file_url": telegram.base_file_url})  # fmt: skip
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(config, stop))
    try:
        for _ in range(200):
            if any(c.method == "setMyCommands" for c in telegram.calls):
                break
            await asyncio.sleep(0.05)
        telegram.push(message(user(501, "Anna Jansen"), "/aanmelden"))
        for _ in range(200):
            if any(c.method == "sendMessage" for c in telegram.calls):
                break
            await asyncio.sleep(0.05)
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
    finally:
        stop.set()
        logging.getLogger().removeHandler(handler)
        await telegram.close()
    db = sqlite3.connect(config.db_path)
    (club,) = db.execute("SELECT id FROM clubs").fetchone()
    db.close()
    return out.getvalue().splitlines(), club


async def test_json_log_one_object_per_line_with_the_club(config: Config) -> None:
    lines, club = await logged_while_joining(config, "json")
    events = [json.loads(line) for line in lines]  # every line is one JSON object
    commands = [e for e in events if "event=command" in e["message"] and "command=aanmelden" in e["message"]]
    assert len(commands) == 1, lines
    assert commands[0]["club"] == club and "outcome=ok" in commands[0]["message"]


@pytest.mark.parametrize("form", ["keyvalue", "text"])
async def test_keyvalue_and_text_logs_name_the_club(config: Config, form: str) -> None:
    lines, club = await logged_while_joining(config, form)
    commands = [line for line in lines if "command=aanmelden" in line]
    assert len(commands) == 1, lines
    assert f"club={club}" in commands[0]
    if form == "keyvalue":
        assert commands[0].startswith("time=") and "level=INFO" in commands[0]


@pytest.mark.parametrize("form", ["json", "keyvalue", "text"])
def test_the_bots_tokens_are_never_written_to_the_log(form: str) -> None:
    """A library's error that quotes a token (python-telegram-bot's refused token, a Telegram address with
    the token in it, a traceback) is written with ``***`` in its place, in every log format."""
    stream = io.StringIO()
    handler = configure_logging("INFO", form, stream, secrets=[TOKEN, "lichess-secret-token", "short"])
    try:
        log = logging.getLogger("clubbot.test")
        log.error("The token `%s` was rejected by the server", TOKEN)
        try:
            raise RuntimeError(f"GET https://api.telegram.org/bot{TOKEN}/getMe and lichess-secret-token")
        except RuntimeError:
            log.exception("a request failed")
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN not in text and "lichess-secret-token" not in text and text.count("***") >= 3, text
