"""The website's standings say they are provisional while results of a paired round are open (issue 30
§4), fetched over real HTTP from the bot's web server, as in the chat."""

from __future__ import annotations

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.keizer.test_commands import make_season, pair_round_one
from tests.bot.web.test_pages import get


async def test_the_standings_page_is_marked_provisional_until_the_results_are_in(commands: Core, clock: ShiftedClock, site: str) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    await pair_round_one(commands, clock)
    status, body, _ = await get(f"{site}/c/{club.id}/stand")
    assert status == 200 and "voorlopig: 2 uitslagen ontbreken" in body
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")
    status, body, _ = await get(f"{site}/c/{club.id}/stand/1")
    assert status == 200 and "voorlopig: 1 uitslag ontbreekt" in body
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    status, body, _ = await get(f"{site}/c/{club.id}/stand")
    assert status == 200 and "Stand 2026-27 na ronde 1" in body and "voorlopig" not in body


async def test_the_standings_page_names_a_postponed_game_until_it_is_played(commands: Core, clock: ShiftedClock, site: str) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitstel Anna")  # issue 44 §1: Bert - Anna is a catch-up game
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    status, body, _ = await get(f"{site}/c/{club.id}/stand")
    assert status == 200 and "inhaalpartij nog te spelen: 1: Bert - Anna" in body
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0 1")
    status, body, _ = await get(f"{site}/c/{club.id}/stand")
    assert status == 200 and "inhaalpartij" not in body and "voorlopig" not in body
