"""The website's rapid pages name the rapid competition (issue 30 §3), fetched over real HTTP from the
bot's web server: ``/rapid-indeling`` and ``/rapid`` (its standings) as the chat shows them."""

from __future__ import annotations

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.keizer.test_rapid import RAPID_DEADLINE, two_competitions
from tests.bot.web.test_pages import get


async def test_the_rapid_pages_say_rapid(commands: Core, clock: ShiftedClock, site: str) -> None:
    await two_competitions(commands)
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    clock.set(RAPID_DEADLINE)
    await ok(commands, DIRECTOR, "/publiceer rapid")
    status, body, _ = await get(f"{site}/c/{club.id}/rapid-indeling")
    assert status == 200 and "Rapid: Indeling ronde 1" in body
    status, body, _ = await get(f"{site}/c/{club.id}/rapid")
    assert status == 200 and "Rapid: Stand R na ronde 1" in body
    status, body, _ = await get(f"{site}/c/{club.id}/stand")
    assert status == 200 and "Rapid:" not in body  # the main competition's page as before
