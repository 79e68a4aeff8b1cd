"""Both platforms at once, as `clubbot run` starts them: app.run_platforms with a Discord and a Telegram
token, the real libraries talking to local fakes of both APIs, the scheduler in the same loop."""

from __future__ import annotations

import asyncio
import sqlite3

import yarl
from discord.gateway import DiscordWebSocket

from bot.app import run_platforms
from bot.config import Config
from tests.bot.adapters.fake_discord import FakeDiscord, fake  # noqa: F401 - the Discord fake's fixture
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram, message, user


async def test_discord_and_telegram_run_together_and_stop_cleanly(config: Config, fake: FakeDiscord) -> None:  # noqa: F811
    telegram = await FakeTelegram().start()
    config = Config(
        **{
            **config.__dict__,
            "discord_token": "discord-test-token",
            "telegram_token": TOKEN,
            "telegram_base_url": telegram.base_url,
            "telegram_base_file_url": telegram.base_file_url,
        }
    )
    old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{fake.port}/gateway")
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(config, stop))
    try:
        await fake.wait_for(lambda: fake.of("PUT", "/api/v10/applications/"), timeout=10)  # slash commands synced
        for _ in range(200):
            if any(c.method == "setMyCommands" for c in telegram.calls):
                break
            await asyncio.sleep(0.05)
        assert any(c.method == "setMyCommands" for c in telegram.calls), [c.method for c in telegram.calls]
        telegram.push(message(user(501, "Anna Jansen"), "/aanmelden"))
        for _ in range(200):
            sent = [c for c in telegram.calls if c.method == "sendMessage"]
            if sent:
                break
            await asyncio.sleep(0.05)
        assert sent and "Anna Jansen" in str(sent[0].params.get("text"))
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
    finally:
        stop.set()
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
        await telegram.close()
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT platform, COUNT(*) FROM clubs GROUP BY platform").fetchall() == [("telegram", 1)]
    assert db.execute("SELECT name FROM members").fetchall() == [("Anna Jansen",)]
    db.close()
