"""One chat account in a tight loop of commands is told to slow down; nobody else notices."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.core.commands.user_limits import BURST, UserLimits
from tests.bot.conftest import DIRECTOR


def telegram(name: str, club: str = "-1001") -> Actor:
    return Actor("telegram", club, "Schaakclub", f"{abs(hash(name)) % 10**9}", name)


async def test_a_member_in_a_tight_loop_is_told_to_slow_down_and_other_clubs_are_served(commands: Core) -> None:
    looper, other = telegram("Lus"), telegram("Anna", club="-1002")
    replies = [await commands.handle(looper, "/aanmelden") if i == 0 else await commands.handle(looper, "/help") for i in range(BURST + 30)]
    assert all(r.ok for r in replies[:BURST])
    refused = replies[BURST:]
    assert all(not r.ok and "Rustig aan" in r.text and r.private for r in refused)
    assert (await commands.handle(other, "/help")).ok  # another member, another club: served at once
    assert (await commands.handle(DIRECTOR, "/help")).ok  # the console has no limit
    for _ in range(BURST * 3):
        assert (await commands.handle(DIRECTOR, "/help")).ok


async def test_a_refused_command_changes_nothing(commands: Core) -> None:
    looper = telegram("Lus")
    for _ in range(BURST):
        await commands.handle(looper, "/help")
    reply = await commands.handle(looper, "/aanmelden")
    assert not reply.ok and "Rustig aan" in reply.text
    club = await commands.store.club_by_external("telegram", "-1001")
    assert club is None  # not even the club row of the refused sign-up


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=3.0), min_size=1, max_size=300))
def test_never_more_than_the_burst_plus_the_refill_and_always_told_when(gaps: list[float]) -> None:
    """Over any stretch of time a user gets at most BURST + elapsed/refill commands through; a refused one
    is told a wait after which the next command does go through."""
    clock = Clock()
    limits = UserLimits(burst=5, refill_seconds=1.0, clock=clock)
    accepted: list[float] = []
    for gap in gaps:
        clock.now += gap
        wait = limits.wait_for("discord", "u")
        if wait == 0:
            accepted.append(clock.now)
        else:
            assert wait >= 1
            probe = UserLimits(burst=5, refill_seconds=1.0, clock=clock)
            probe._buckets = dict(limits._buckets)
            clock.now += wait
            assert probe.wait_for("discord", "u") == 0
            clock.now -= wait
    for i, start in enumerate(accepted):
        for j in range(i, len(accepted)):
            assert j - i + 1 <= 5 + (accepted[j] - start) / 1.0 + 1e-9
