"""The fixtures of a test of online play at the bot's clock: the strict fake lichess starting at the bot's
clock's moment, and a Core playing on it (its client on the fake's clock). Import both with
``from tests.bot.online.online_fixtures import core, lichess  # noqa: F401  (the fixtures)``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.commands.dispatch import Core
from bot.core.running.clock import ShiftedClock
from bot.systems import make_core
from tests.bot.online.fake_lichess import FakeLichess, strict_lichess, with_lichess


@pytest.fixture
async def lichess(clock: ShiftedClock) -> AsyncIterator[FakeLichess]:
    async with strict_lichess(start=clock.now()) as fake:
        yield fake


@pytest.fixture
async def core(store, config, clock: ShiftedClock, lichess: FakeLichess) -> AsyncIterator[Core]:
    made = make_core(store, with_lichess(config, lichess), clock)
    made.online.timing = lichess.clock
    yield made
    await made.online.close()
