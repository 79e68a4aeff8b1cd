"""Only ASCII digits are numbers on the website too (issue 30): ``/c/²/`` is not found, never an error."""

from __future__ import annotations

import httpx

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR


async def test_a_club_or_member_number_in_other_digits_is_not_found(commands: Core, site: str) -> None:
    assert (await commands.handle(DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")).ok
    assert (await commands.handle(DIRECTOR, "/website aan")).ok
    async with httpx.AsyncClient() as client:
        assert (await client.get(f"{site}/c/1/")).status_code == 200
        for path in ("/c/²/", "/c/٣/", "/c/1/lid/²", "/c/1/lid/٣", "/c/1/indeling/²", "/c/" + "1" * 20 + "/"):
            response = await client.get(site + path)
            assert response.status_code == 404, (path, response.status_code)
