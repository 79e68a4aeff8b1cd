"""/groepen (/groups): next season's groups A-D by seed 004's rules, through the commands layer on a real
SQLite file: the proposal while a season is played, the proposal for a new season with a newcomer and
the director's choice, applying it, and refusals that change nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

ORDER = ["Daan", "Carla", "Bert", "Anna"]  # who beats whom: the earlier name wins every game


async def play_season(commands: Core, clock: ShiftedClock, config) -> None:
    """S1: A = Anna 2100, Bert 2000; B = Carla 1800, Daan 1700; three rounds, each game won by the player
    earlier in ORDER, so the final ranking is Daan, Carla, Bert, Anna."""
    await ok(commands, DIRECTOR, "/seizoen naam=S1 start=2026-12-03 rondes=3")
    for line in ("Anna 2100 groep=A", "Bert 2000 groep=A", "Carla 1800 groep=B", "Daan 1700 groep=B"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    for number, day in enumerate((3, 10, 17), 1):
        clock.set(datetime(2026, 12, day, 17, 5, tzinfo=timezone.utc))
        await ok(commands, DIRECTOR, "/publiceer")
        games = rows(
            config,
            "SELECT w.name, b.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN members w ON w.id = g.white_id"
            " JOIN members b ON b.id = g.black_id WHERE r.number = ? AND r.season_id = 1",
            number,
        )
        assert len(games) == 2
        for white, black in games:
            result = "1-0" if ORDER.index(white) < ORDER.index(black) else "0-1"
            await ok(commands, DIRECTOR, f"/uitslag {white} {result}")


def groups(config, season: str) -> dict[str, str | None]:
    return dict(
        rows(
            config,
            "SELECT m.name, sp.group_name FROM season_players sp JOIN members m ON m.id = sp.member_id"
            " JOIN seasons s ON s.id = sp.season_id WHERE s.name = ?",
            season,
        )
    )


async def test_groups_from_the_final_ranking_applied_to_the_new_season(commands: Core, clock, config) -> None:
    await play_season(commands, clock, config)
    now = await ok(commands, actor("Anna"), "/groepen")  # anyone may look
    assert "als S1 nu zou eindigen" in now
    # A's winner (Bert, the higher of A) stays; A's last (Anna) goes down; B's winner (Daan) up, its last down
    assert "Groep A: Bert, Daan" in now and "Groep B: Anna" in now and "Groep C: Carla" in now
    assert "Daan: B → A (winnaar van groep B)" in now and "Anna: A → B (laatste van groep A)" in now
    await refused(commands, DIRECTOR, "/groepen toepassen", config)  # S1 is still the season: nothing to apply to

    clock.set(datetime(2026, 12, 20, 12, 0, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/seizoen naam=S2 start=2027-01-07 rondes=3")
    await ok(commands, DIRECTOR, "/speler Eva 1900")
    assert groups(config, "S2") == {"Anna": "A", "Bert": "A", "Carla": "B", "Daan": "B", "Eva": None}  # carried as they were
    proposal = await ok(commands, actor("Carla"), "/groepen")
    assert "Groepen voor seizoen S2, uit de eindstand van S1" in proposal
    # Eva (1900) fits A's range after the moves (Daan 1700 - Bert 2000)
    assert "Groep A: Bert, Daan, Eva" in proposal and "Eva: nieuw → A (op rating)" in proposal

    await refused(commands, actor("Daan"), "/groepen toepassen", config)  # the director's
    await refused(commands, DIRECTOR, "/groepen toepassen Zed=C", config)  # not a member
    await refused(commands, DIRECTOR, "/groepen toepassen Eva=E", config)  # no such group
    await refused(commands, DIRECTOR, "/groepen toepassen Eva", config)  # malformed
    # a name of several words without quotes is one name (it was the usage: found in a console month)
    assert '"Zed van Zorro"' in await refused(commands, DIRECTOR, "/groepen toepassen Zed van Zorro=C", config)
    await refused(commands, DIRECTOR, "/groepen toepassen Carla=B Eva", config)  # words after the last Name=Group
    applied = await ok(commands, DIRECTOR, "/groepen toepassen Carla=B")  # rule 4: the director's choice wins
    assert "Carla: B → B" not in applied and "Toegepast" in applied
    assert groups(config, "S2") == {"Anna": "B", "Bert": "A", "Carla": "B", "Daan": "A", "Eva": "A"}
    assert groups(config, "S1") == {"Anna": "A", "Bert": "A", "Carla": "B", "Daan": "B"}  # last season untouched

    clock.set(datetime(2027, 1, 7, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")  # S2 has begun: its groups are no longer applied from S1
    await refused(commands, DIRECTOR, "/groepen toepassen", config)


async def test_no_groups_or_nothing_played_is_said_and_changes_nothing(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S1 start=2026-12-03 rondes=3")
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    assert "nog geen gespeelde ronde" in await refused(commands, actor("Anna"), "/groepen", config)
    await ok(commands, DIRECTOR, "/taal en")
    assert "no round played yet" in await refused(commands, DIRECTOR, "/groups apply", config)


async def test_the_director_sets_groups_by_hand(commands: Core, clock, config) -> None:
    """Issue 44: /groepen A: Anna, Bert; B: ... sets many at once in the running season, /speler Naam groep=A
    one without typing the rating again (before: the usage); every reply names each change."""
    await ok(commands, DIRECTOR, "/seizoen naam=S1 start=2026-12-03 rondes=3")
    for line in ("Anna 2100", "Bert 2000", "Carla de Vries 1800", "Daan 1700"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    said = await ok(commands, DIRECTOR, "/groepen A: Anna, Bert; b: Carla de Vries, Daan")
    assert said.splitlines() == ["Groepen in seizoen S1:", "Anna: groep - → A", "Bert: groep - → A",
                                 "Carla de Vries: groep - → B", "Daan: groep - → B"]  # fmt: skip
    assert groups(config, "S1") == {"Anna": "A", "Bert": "A", "Carla de Vries": "B", "Daan": "B"}
    moved = await ok(commands, DIRECTOR, "/speler Daan groep=A")
    assert moved.splitlines()[1:] == ["Daan: groep B → A"]
    assert rows(config, "SELECT rating FROM members WHERE name = 'Daan'") == [(1700,)]
    assert "Anna: groep A (was al zo)" in await ok(commands, DIRECTOR, "/groepen A: Anna")
    assert "Bert: groep A → C" in await ok(commands, DIRECTOR, "/speler Bert 2010 groep=C")  # with a rating: said too
    before = groups(config, "S1")
    await refused(commands, actor("Anna"), "/groepen B: Anna", config)  # the director's
    await refused(commands, DIRECTOR, "/groepen E: Anna", config)  # no such group
    await refused(commands, DIRECTOR, "/groepen A: Anna; B: anna", config)  # twice
    await refused(commands, DIRECTOR, "/groepen A: Anna, Zed", config)  # nobody's name: nothing changes
    await ok(commands, DIRECTOR, "/seizoen naam=R start=2026-12-04 rondes=3 soort=rapid")
    await refused(commands, DIRECTOR, "/groepen rapid A: Anna", config)  # Anna plays no rapid
    assert groups(config, "S1") == before
