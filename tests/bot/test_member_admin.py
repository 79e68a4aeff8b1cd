"""One member, one identity (issue 21, item 5): the director renames a member, merges two records of one
person (games, sign-offs and grades move; refused when both played in one round), and removes a member
who never played."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

PAIRED = datetime(2026, 12, 3, 17, 1, tzinfo=timezone.utc)


async def season(commands: Core, clock) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")


async def test_rename_and_remove(commands: Core, clock, config) -> None:
    await season(commands, clock)
    said = await ok(commands, DIRECTOR, "/speler Anna hernoem Anna de Vries")
    assert "Anna heet nu Anna de Vries" in said
    assert rows(config, "SELECT name FROM members WHERE name LIKE 'Anna%'") == [("Anna de Vries",)]
    assert "al een lid" in await refused(commands, DIRECTOR, '/speler "Anna de Vries" hernoem Bert', config)
    await refused(commands, actor("Bert"), "/speler Bert hernoem Bertus", config)  # the director's
    await ok(commands, DIRECTOR, "/speler Eva 1500")
    assert "verwijderd" in await ok(commands, DIRECTOR, "/speler Eva verwijder")
    assert rows(config, "SELECT COUNT(*) FROM members WHERE name = 'Eva'") == [(0,)]
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    # Daan is paired (his game has no result yet): he stays
    assert "blijft" in await refused(commands, DIRECTOR, "/speler Daan verwijder", config)


async def test_merge_moves_everything_and_refuses_two_people(commands: Core, clock, config) -> None:
    await season(commands, clock)
    # "Anna" joined by herself as a second record of Anna de Vries... here: Ann, a second record of Anna
    await ok(commands, DIRECTOR, "/speler Ann 0")
    ann = actor("Ann")
    await link(commands, ann)
    await ok(commands, ann, "/afmelden 2")
    said = await ok(commands, DIRECTOR, "/speler Ann samenvoegen Anna")
    assert "samengevoegd" in said
    assert rows(config, "SELECT COUNT(*) FROM members WHERE name = 'Ann'") == [(0,)]
    # her sign-off and her chat account are Anna's now
    assert rows(config, "SELECT m.name FROM signoffs so JOIN members m ON m.id = so.member_id") == [("Anna",)]
    assert (await commands.handle(ann, "/aanmelden 2")).ok  # the account acts as Anna
    # two people who played in one round are not merged
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    for (white,) in rows(config, "SELECT w.name FROM games g JOIN members w ON w.id = g.white_id"):
        await ok(commands, DIRECTOR, f"/uitslag {white} 1-0")
    said = await refused(commands, DIRECTOR, "/speler Bert samenvoegen Carla", config)
    assert "twee mensen" in said
    assert "zichzelf" in await refused(commands, DIRECTOR, "/speler Bert samenvoegen Bert", config)


async def test_a_name_like_a_members_is_asked_about_before_it_becomes_a_second_member(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    await ok(commands, DIRECTOR, '/speler "Anna de Vries" 2100')
    await ok(commands, DIRECTOR, '/speler "Zoë Bakker" 1500')
    said = await refused(commands, actor("Anna"), "/aanmelden", config)
    assert "Ben jij Anna de Vries?" in said and "/aanmelden nieuw" in said
    assert "Ben jij Zoë Bakker?" in await refused(commands, actor("zoe"), "/aanmelden", config)
    # someone else called Anna says so and joins as a new member
    assert (await commands.handle(actor("Anna"), "/aanmelden nieuw")).ok
    assert rows(config, "SELECT name FROM members WHERE name LIKE 'Anna%' ORDER BY name") == [("Anna",), ("Anna de Vries",)]
    assert (await commands.handle(actor("Annabel"), "/aanmelden")).ok  # not the same first word


async def test_a_mention_stands_for_the_linked_members_name(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    await ok(commands, DIRECTOR, '/speler "Anna de Vries" 2100')
    anna = actor("Anna")
    await ok(commands, DIRECTOR, f'/koppel "Anna de Vries" <@{anna.user_id}>')
    said = await ok(commands, DIRECTOR, f"/speler <@{anna.user_id}> 2150")  # the mention is Anna de Vries
    assert "Anna de Vries" in said
    assert rows(config, "SELECT rating FROM members WHERE name = 'Anna de Vries'") == [(2150,)]
    assert "geen lid" in await refused(commands, DIRECTOR, "/afmelden <@user:niemand>", config)
