"""Issue 44 §2: a club may require the director's approval for new players (/seizoen aanmelden=goedkeuring),
through the commands layer on a real SQLite file."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows
from tests.bot.keizer.test_commands import ANNA, make_season
from tests.bot.keizer.test_results import director_member


def in_season(config, name: str) -> bool:
    return bool(rows(config, "SELECT 1 FROM season_players sp JOIN members m ON m.id = sp.member_id WHERE m.name = ?", name))


def notices(config, who) -> list[str]:
    return [body for (body,) in rows(config, "SELECT body FROM announcements WHERE recipient = ? ORDER BY id", who.user_id)]


async def test_with_approval_a_new_player_waits_until_the_director_signs_them_on(commands: Core, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950"))
    await director_member(commands)
    assert "wacht op goedkeuring" in await ok(commands, DIRECTOR, "/seizoen aanmelden=goedkeuring")
    fred = actor("Fred")
    said = await ok(commands, fred, "/aanmelden")
    assert "Je aanmelding voor seizoen 2026-27 wacht op goedkeuring van de wedstrijdleider" in said
    assert "aangemeld voor ronde" not in said
    assert rows(config, "SELECT name FROM members WHERE name = 'Fred'") == [("Fred",)] and not in_season(config, "Fred")
    (notice,) = notices(config, DIRECTOR)[-1:]
    assert "Fred wil meedoen aan seizoen 2026-27" in notice and "/aanmelden Fred" in notice
    count = len(notices(config, DIRECTOR))
    assert "wacht op goedkeuring" in await ok(commands, fred, "/aanmelden")  # again: still waiting, told once
    assert len(notices(config, DIRECTOR)) == count and not in_season(config, "Fred")
    assert "aangemeld" in await ok(commands, ANNA, "/aanmelden")  # a player of the season is never held
    approved = await ok(commands, DIRECTOR, "/aanmelden Fred")
    assert "Fred is aangemeld voor ronde 1" in approved and "nu goedgekeurd; Fred krijgt er bericht van" in approved
    assert in_season(config, "Fred") and rows(config, "SELECT COUNT(*) FROM join_requests") == [(0,)]
    assert any("goedgekeurd: je speelt mee vanaf ronde 1" in n for n in notices(config, fred))


async def test_open_joining_is_the_default_and_a_bad_value_changes_nothing(commands: Core, config) -> None:
    await make_season(commands, players=("Anna 2100",))
    text = await refused(commands, DIRECTOR, "/seizoen aanmelden=soms", config)
    assert "open|goedkeuring" in text
    assert "aangemeld voor ronde 1" in await ok(commands, actor("Gert"), "/aanmelden")  # open: plays at once
    assert in_season(config, "Gert")
    await ok(commands, DIRECTOR, "/seizoen aanmelden=goedkeuring")
    await ok(commands, DIRECTOR, "/taal en")
    assert "waits for the tournament director's approval" in await ok(commands, actor("Hans"), "/join")
    assert "join themselves" in await ok(commands, DIRECTOR, "/season joining=open")
    assert "round 1" in await ok(commands, actor("Ida"), "/join") and in_season(config, "Ida")
