"""What the tests of a round on lichess share (issue 43 §2): a club whose season plays online on the strict
fake, its players with lichess accounts there and chat accounts here, and the real alarm posting into a list."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timezone

import pytest

from bot.core.commands.dispatch import Core
from bot.core.running.clock import ShiftedClock
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club
from tests.bot.conftest import DIRECTOR, actor, link, ok
from bot.systems import make_core
from tests.bot.online.fake_lichess import FakeLichess, strict_lichess, with_lichess

PUBLISHED = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam, round 1's publication
SEASON = "/seizoen naam=2026-27 start=2026-12-03 rondes=28"
ONLINE = "online=lichess tempo=15+10 beoordeeld=ja"
PLAYERS = ("Anna", "Bert", "Cor", "Dirk", "Els", "Frits", "Gea", "Hans", "Ilse", "Jan", "Kees", "Lies")


@dataclass
class Posted:
    """What the alarm posted: (recipient or None for the channel, kind, body), in order."""

    posts: list[tuple[str | None, str, str]] = field(default_factory=list)
    buttons: dict[str, list[tuple[str, str] | None]] = field(default_factory=dict)  # a recipient's buttons, in order

    async def send(self, club: Club, announcement: Announcement) -> str:
        self.posts.append((announcement.recipient, announcement.kind, announcement.body))
        if announcement.recipient is not None:
            self.buttons.setdefault(announcement.recipient.removeprefix("user:"), []).append(announcement.link)
        return f"m{announcement.id}"

    def channel(self, kind: str | None = None) -> list[str]:
        return [body for to, k, body in self.posts if to is None and (kind is None or k == kind)]

    def private(self, name: str) -> list[str]:
        return [body for to, _, body in self.posts if to == "user:" + name.lower()]


async def online_club(core: Core, lichess: FakeLichess, season: str = f"{SEASON} {ONLINE}", without: tuple[str, ...] = (),
                      players: tuple[str, ...] = PLAYERS) -> None:  # fmt: skip
    """The season, and each player with a chat account; a lichess account (there and here) unless ``without``."""
    await ok(core, DIRECTOR, season)
    for name in players:
        account = "" if name in without else f" lichess={name}"
        await ok(core, DIRECTOR, f"/speler {name} 1800{account}")
        if name not in without:
            lichess.add_user(name)
        await link(core, actor(name))
        await ok(core, actor(name), "/mijn meldingen aan")  # the private notice of the pairing


async def at(core: Core, clock: ShiftedClock, lichess: FakeLichess, moment: datetime, alarm: Alarm) -> None:
    """The bot's and lichess's clocks at ``moment``, and the alarm's pass run there."""
    clock.set(moment)
    lichess.clock.set(moment.timestamp())
    await alarm.run_due()


@pytest.fixture
async def lichess(clock: ShiftedClock) -> AsyncIterator[FakeLichess]:
    """The strict fake, its clock starting at the bot's."""
    async with strict_lichess(start=clock.now()) as fake:
        yield fake


@pytest.fixture
async def core(store, config, clock: ShiftedClock, lichess: FakeLichess) -> AsyncIterator[Core]:  # type: ignore[no-untyped-def]
    """The bot on a real SQLite file, playing online on the fake (its client on the fake's clock)."""
    made = make_core(store, with_lichess(config, lichess), clock)
    made.online.timing = lichess.clock
    yield made
    await made.online.close()
