"""A server that boots before its network: `clubbot run` retries the logins with backoff while a platform
is unreachable, and gives up with a non-zero exit (so systemd restarts it) once it stayed unreachable
longer than ``[bot] login_timeout``. The real libraries against the local fakes, started late or not at all."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import discord

from bot.app import run_platforms
from bot.config import Config
from tests.bot.adapters.local_server import free_port
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram


def with_telegram_at(config: Config, port: int, login_timeout: float) -> Config:
    return Config(
        **{
            **config.__dict__,
            "telegram_token": TOKEN,
            "telegram_base_url": f"http://127.0.0.1:{port}/bot",
            "telegram_base_file_url": f"http://127.0.0.1:{port}/file/bot",
            "login_timeout": login_timeout,
        }
    )


async def test_telegram_started_late_is_logged_in_once_it_answers(config: Config) -> None:
    port = free_port()
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(with_telegram_at(config, port, 60), stop))
    telegram = FakeTelegram()
    try:
        await asyncio.sleep(2.5)  # a few refused logins
        assert not task.done(), "the bot gave up (or stopped) while it should still be retrying"
        await telegram.start(port)
        for _ in range(300):
            if any(c.method == "setMyCommands" for c in telegram.calls):
                break
            await asyncio.sleep(0.05)
        assert any(c.method == "getMe" for c in telegram.calls), "no login retried once Telegram answered"
        assert any(c.method == "setMyCommands" for c in telegram.calls), [c.method for c in telegram.calls]
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
    finally:
        stop.set()
        await telegram.close()


async def healthz(port: int) -> tuple[int, dict[str, object]]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
            return response.status, await response.json()


async def first_healthz(port: int, where: str) -> tuple[int, dict[str, object]]:
    """``/healthz``'s first answer, waiting up to 5 s for the site to listen."""
    for _ in range(100):
        try:
            return await healthz(port)
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.05)
    raise AssertionError(f"nothing answers /healthz {where}")


async def test_healthz_answers_while_the_logins_are_retried(config: Config) -> None:
    """Issue 46 §3: nothing answered on ``[metrics] address`` until every login had succeeded; now
    ``/healthz`` says the platform is not connected (503) while its login is retried, and ok once it is,
    and ``/metrics`` answers meanwhile."""
    port, metrics = free_port(), free_port()
    stop = asyncio.Event()
    config = Config(**{**with_telegram_at(config, port, 60).__dict__, "metrics_address": f"127.0.0.1:{metrics}"})
    task = asyncio.create_task(run_platforms(config, stop))
    telegram = FakeTelegram()
    try:
        status, body = await first_healthz(metrics, "while the login is retried")  # before the first login
        assert status == 503 and body["platforms"] == {"telegram": "disconnected"}, body
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{metrics}/metrics") as response:
                assert response.status == 200 and "clubbot" in await response.text()
        assert not task.done()
        await telegram.start(port)
        for _ in range(300):
            status, body = await healthz(metrics)
            if status == 200:
                break
            await asyncio.sleep(0.05)
        assert status == 200 and body["platforms"] == {"telegram": "connected"}, body
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
    finally:
        stop.set()
        await telegram.close()


async def test_a_platform_unreachable_past_login_timeout_ends_the_bot_non_zero(config: Config) -> None:
    refusing = free_port()
    old = discord.http.Route.BASE
    discord.http.Route.BASE = f"http://127.0.0.1:{refusing}/api/v10"
    config = Config(**{**with_telegram_at(config, refusing, 3).__dict__, "discord_token": "discord-test-token"})
    stop = asyncio.Event()
    began = time.monotonic()
    try:
        code = await asyncio.wait_for(run_platforms(config, stop), 30)
    finally:
        stop.set()
        discord.http.Route.BASE = old
    assert code != 0
    assert 3 <= time.monotonic() - began < 20


async def test_the_console_serves_healthz_on_the_metrics_address(config: Config) -> None:
    """Issue 46 §3: ``[metrics] address`` was served only with the chat platforms; the console serves it
    too (the console is its only platform: nothing to wait for, the database answers: ok)."""
    import io
    import os

    from bot.app import run_console

    metrics = free_port()
    config = Config(**{**config.__dict__, "metrics_address": f"127.0.0.1:{metrics}"})
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    task = asyncio.create_task(run_console(config, stdin=stdin, stdout=io.StringIO()))
    try:
        status, body = await first_healthz(metrics, "on the console's metrics address")
        assert status == 200 and body["status"] == "ok", body
    finally:
        os.write(write, b"/stop\n")
        os.close(write)
        assert await asyncio.wait_for(task, 15) == 0
        stdin.close()
