"""The website's fixtures: the bot's web server on 127.0.0.1 (a free port), with the config's public
address pointing at it so the links the chat hands out lead there."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from bot.core.dispatch import Core
from bot.web.server import start_web


@pytest.fixture
async def site(commands: Core) -> AsyncIterator[str]:
    runner = await start_web(commands, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    commands.config = dataclasses.replace(commands.config, web_base_url=base)
    try:
        yield base
    finally:
        await runner.cleanup()
