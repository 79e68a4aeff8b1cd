"""``/healthz`` and ``/metrics`` scraped over real HTTP from a running bot (app.run_platforms with the real
Telegram library against its local fake): on ``[metrics] address`` when the website is off, and on the
website's own address when it is on."""

from __future__ import annotations

import asyncio
import re

import aiohttp

from bot.app import run_platforms
from bot.config import Config
from bot.core.running.health import REGISTRY
from tests.bot.adapters.local_server import free_port
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram, message, user


async def scrape(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def running_bot_scraped(config: Config, address_key: str) -> tuple[tuple[int, str], tuple[int, str]]:
    """(healthz while running, metrics after a command)."""
    telegram = await FakeTelegram().start()
    port = free_port()
    config = Config(
        **{
            **config.__dict__,
            "telegram_token": TOKEN,
            "telegram_base_url": telegram.base_url,
            "telegram_base_file_url": telegram.base_file_url,
            address_key: f"127.0.0.1:{port}",
        }
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(config, stop))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if any(c.method == "setMyCommands" for c in telegram.calls) and not task.done():
                try:  # the site answers from the start; the platform counts as connected once its login is done
                    health = await scrape(f"{base}/healthz")
                    if health[0] == 200:
                        break
                except aiohttp.ClientConnectionError:
                    pass
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the bot did not serve {base}/healthz")
        telegram.push(message(user(501, "Anna Jansen"), "/aanmelden"))
        for _ in range(200):
            if any(c.method == "sendMessage" for c in telegram.calls):
                break
            await asyncio.sleep(0.05)
        metrics = await scrape(f"{base}/metrics")
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
        return health, metrics
    finally:
        stop.set()
        await telegram.close()


def joined(metrics: str) -> float:
    """The count of /aanmelden commands that went well, as scraped (the metrics count for the process)."""
    found = re.search(r'^clubbot_commands_total\{command="aanmelden",outcome="ok"\} (\S+)$', metrics, re.M)
    return float(found.group(1)) if found else 0.0


async def test_healthz_and_metrics_on_the_metrics_address(config: Config) -> None:
    before = REGISTRY.get_sample_value("clubbot_commands_total", {"command": "aanmelden", "outcome": "ok"}) or 0.0
    (status, body), (m_status, metrics) = await running_bot_scraped(config, "metrics_address")
    assert status == 200, body
    assert '"status": "ok"' in body and '"database": "ok"' in body and '"telegram": "connected"' in body, body
    assert '"scheduler_last_wake": null' not in body, body
    assert m_status == 200
    assert joined(metrics) == before + 1, metrics
    assert "clubbot_command_seconds_bucket" in metrics
    assert "clubbot_db_transaction_seconds_count" in metrics
    assert "clubbot_announcements_queued" in metrics and "clubbot_scheduler_lag_seconds" in metrics


async def test_healthz_and_metrics_on_the_website_address(config: Config) -> None:
    (status, body), (m_status, metrics) = await running_bot_scraped(config, "web_address")
    assert status == 200 and '"telegram": "connected"' in body, body
    assert m_status == 200 and "clubbot_commands_total" in metrics
