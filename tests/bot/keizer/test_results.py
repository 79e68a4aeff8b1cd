"""Results that say who won, and the director's flows around them (issue 30, section 5), on a real store.

Round 1 of the five players below (by rating): board 1 Bert (white) - Anna, board 2 Daan (white) -
Carla, Eva has the bye (equal colour balance: the lower-ranked player gets white).
"""

from __future__ import annotations

from bot.core.clock import ShiftedClock
from bot.core.dispatch import Core
from tests.bot.conftest import DIRECTOR, rows
from tests.bot.keizer.test_commands import ANNA, BERT, make_season, ok, pair_round_one


async def director_member(commands: Core) -> str:
    """The director's own member record with their chat account (as the console makes it); the account."""
    club = await commands.club_of(DIRECTOR)
    member = await commands.store.add_member(club.id, DIRECTOR.display_name, 0, commands.clock.now(), is_director=True)
    await commands.store.link_identity(club.id, DIRECTOR.user_id, member.id)
    return DIRECTOR.user_id


async def test_a_result_reply_names_the_winner_and_the_colours(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    assert "0-1: Anna (zwart) wint van Bert" in await ok(commands, ANNA, "/uitslag 0-1")
    assert "0-1: Anna (zwart) wint van Bert" in await ok(commands, BERT, "/bevestig")
    assert "1-0: Daan (wit) wint van Carla" in await ok(commands, DIRECTOR, "/uitslag Carla 1-0")
    assert "½-½: Daan (wit) en Carla spelen remise" in await ok(commands, DIRECTOR, "/uitslag Carla remise")
    assert "0-1F: Carla (zwart) wint reglementair van Daan" in await ok(commands, DIRECTOR, "/uitslag Carla 0-1F")
    await ok(commands, DIRECTOR, "/taal en")
    assert "1-0: Daan (white) beats Carla" in await ok(commands, DIRECTOR, "/result Carla 1-0")
    assert "0-0F: neither Daan (white) nor Carla showed up" in await ok(commands, DIRECTOR, "/result Carla 0-0F")


async def test_two_reports_that_disagree_notify_the_director_privately(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, ANNA, "/uitslag gewonnen")  # 0-1
    text = await ok(commands, BERT, "/uitslag gewonnen")  # 1-0: they disagree
    assert "wedstrijdleider" in text
    assert rows(config, "SELECT result, reported_result FROM games WHERE board = 1") == [(None, "0-1")]
    notices = rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)
    assert len(notices) == 1
    assert "Anna" in notices[0][0] and "Bert" in notices[0][0] and "0-1" in notices[0][0] and "1-0" in notices[0][0]
    assert "/uitslag Anna" in notices[0][0]  # the command that settles it
    await ok(commands, BERT, "/uitslag gewonnen")  # the same dispute again: no second notice
    assert len(rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)) == 1
