"""The rapid competition beside the main one: ``rapid`` among a round command's arguments addresses its
own season, rounds, sign-offs and results; without the word everything stays with the main season."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

ANNA, BERT, CARLA, DAAN = (actor(n) for n in ("Anna", "Bert", "Carla", "Daan"))
RAPID_DEADLINE = datetime(2026, 12, 2, 11, 0, tzinfo=timezone.utc)  # Wednesday 12:00 in Amsterdam


def signoffs(config) -> set[tuple[str, str, int, str]]:
    return set(
        rows(
            config,
            "SELECT s.kind, m.name, r.number, so.kind FROM signoffs so JOIN rounds r ON r.id = so.round_id"
            " JOIN seasons s ON s.id = r.season_id JOIN members m ON m.id = so.member_id",
        )
    )


async def two_competitions(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    # the rapid competition, on Wednesdays, has its own roster: the four join it
    await ok(commands, DIRECTOR, "/seizoen naam=R start=2026-12-02 rondes=3 soort=rapid deadline=12:00 publicatie=13:00")
    for who in (ANNA, BERT, CARLA, DAAN):
        await link(commands, who)
        await ok(commands, who, "/aanmelden")
        await ok(commands, who, "/aanmelden rapid")


async def test_sign_offs_results_and_pairings_of_the_rapid_competition(commands: Core, clock, config) -> None:
    await two_competitions(commands)
    assert "2026-12-02" in await ok(commands, ANNA, "/afmelden rapid")
    await ok(commands, BERT, "/afmelden")
    assert signoffs(config) == {("rapid", "Anna", 1, "notice"), ("main", "Bert", 1, "notice")}
    await ok(commands, ANNA, "/aanmelden rapid")  # taken back, before the rapid deadline
    await ok(commands, ANNA, "/afmelden rapid 2")
    assert signoffs(config) == {("rapid", "Anna", 2, "notice"), ("main", "Bert", 1, "notice")}

    clock.set(RAPID_DEADLINE)
    await refused(commands, CARLA, "/afmelden rapid", config)  # the rapid deadline has passed
    await ok(commands, CARLA, "/afmelden")  # the main round's deadline is Thursday
    await ok(commands, DIRECTOR, "/publiceer rapid")
    assert rows(config, "SELECT s.kind, r.number, r.status FROM rounds r JOIN seasons s ON s.id = r.season_id"
                        " WHERE r.status = 'paired'") == [("rapid", 1, "paired")]  # fmt: skip
    pairing = await ok(commands, ANNA, "/indeling rapid")
    assert pairing.count("Bord") == 1 and "Anna" in pairing and "Bert" in pairing
    await refused(commands, ANNA, "/indeling", config)  # the main round is not paired yet

    (white, black), = rows(
        config,
        "SELECT w.name, b.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
        " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE s.kind = 'rapid' AND g.board = 1",
    )
    reply = await commands.handle(actor(white), "/uitslag rapid gewonnen")
    (button,) = reply.buttons
    assert reply.ok and button.command.startswith("/bevestig rapid 1 ~")  # the opponent's button
    assert "voor" in await refused(commands, actor("Daan" if black != "Daan" else "Carla"), button.command, config)
    await refused(commands, actor(black), "/bevestig", config)  # the main season has no game of theirs
    await ok(commands, actor(black), reply.buttons[0].command)
    assert rows(config, "SELECT g.result FROM games g JOIN rounds r ON r.id = g.round_id"
                        " JOIN seasons s ON s.id = r.season_id WHERE s.kind = 'rapid' AND g.board = 1") == [("1-0",)]  # fmt: skip
    standings = await ok(commands, ANNA, "/stand rapid")
    assert standings.splitlines()[0].startswith("Rapid: Stand R")


async def test_a_director_adds_a_player_to_the_rapid_competition_only(commands: Core, config) -> None:
    await two_competitions(commands)
    await ok(commands, DIRECTOR, "/speler Eva 1500 rapid")
    seasons = rows(config, "SELECT s.kind FROM season_players sp JOIN seasons s ON s.id = sp.season_id"
                           " JOIN members m ON m.id = sp.member_id WHERE m.name = 'Eva'")  # fmt: skip
    assert seasons == [("rapid",)]
    await ok(commands, DIRECTOR, "/afmelden Eva rapid")
    assert ("rapid", "Eva", 1, "notice") in signoffs(config)


async def test_without_a_rapid_competition_the_word_is_refused_and_changes_nothing(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await link(commands, ANNA)
    await ok(commands, ANNA, "/aanmelden")
    for text in ("/afmelden rapid", "/aanmelden rapid", "/indeling rapid", "/uitslag rapid gewonnen", "/bevestig rapid"):
        assert "rapidcompetitie" in await refused(commands, ANNA, text, config)
    for text in ("/speler Bert 1900 rapid", "/publiceer rapid", "/nietverschenen Anna rapid"):
        assert "rapidcompetitie" in await refused(commands, DIRECTOR, text, config)
