"""Fair turns between clubs (issue 16): a burst of one club's commands waits in that club's own queue, so
another club's command is answered after a handful of the busy club's, not after all of them. Order of
completion, not time, is what is checked."""

from __future__ import annotations

import asyncio

from bot.core.commands.club_slots import ClubSlots
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok


async def test_another_clubs_command_is_not_answered_behind_a_whole_burst(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for name in ("Anna", "Bert", "Carla", "Daan"):
        await ok(commands, DIRECTOR, f"/speler {name} 1800")
    other_director = actor("Baas", director=True, club="club-2")
    await ok(commands, other_director, "/seizoen naam=T start=2026-12-03 rondes=5")
    await ok(commands, other_director, "/speler Zoe 1500")
    zoe = actor("Zoe", club="club-2")
    await link(commands, zoe)
    await ok(commands, zoe, "/aanmelden")
    await commands.handle(actor("Lezer"), "/stand")  # the busy club's reply is cached: the cheapest burst

    answered: list[str] = []

    async def ask(who: str, club: str, text: str) -> None:
        reply = await commands.handle(actor(who, club=club), text)
        assert reply.ok, reply.text
        answered.append(who)

    burst = [asyncio.create_task(ask(f"lid-{i}", "club-1", "/stand")) for i in range(200)]
    await asyncio.sleep(0)  # the burst has arrived first
    await ask("Zoe", "club-2", "/afmelden")
    await asyncio.gather(*burst)
    assert answered.index("Zoe") <= 4 * 8, answered.index("Zoe")  # without the slots: behind ~90 of them


async def test_a_club_has_at_most_its_slots_under_way_and_the_rest_in_order() -> None:
    slots = ClubSlots(slots=3)
    running: list[int] = []
    most = 0
    order: list[int] = []

    async def command(n: int) -> None:
        nonlocal most
        await slots.enter("club")
        try:
            running.append(n)
            most = max(most, len(running))
            await asyncio.sleep(0)
            order.append(n)
            running.remove(n)
        finally:
            slots.leave("club")

    await asyncio.gather(*(command(n) for n in range(20)))
    assert most == 3 and order == list(range(20))
    assert slots.busy_clubs() == 0  # nothing kept for a club with nothing under way


async def test_a_cancelled_wait_gives_nothing_back_twice() -> None:
    slots = ClubSlots(slots=1)
    await slots.enter("club")
    waiting = asyncio.create_task(slots.enter("club"))
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    slots.leave("club")
    assert slots.busy_clubs() == 0
    await asyncio.wait_for(slots.enter("club"), timeout=5)  # the slot is free again
    slots.leave("club")
