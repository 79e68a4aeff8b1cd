"""Names as people type them: several words without quotes are read by the club's member list (the
longest names first); a line that reads two ways is refused with the members it could be."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok, refused, rows

PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the first playing day


def boards(config) -> list[tuple[str, str]]:
    return rows(config, "SELECT w.name, b.name FROM games g JOIN members w ON w.id = g.white_id"
                        " JOIN members b ON b.id = g.black_id ORDER BY g.board")  # fmt: skip


async def test_two_names_without_quotes_in_indeling_wissel(commands: Core, clock: ShiftedClock, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for line in ("Anna de Vries 2100", "Carla 2000", "Bert Jansen 1900", "Daan van 't Hof 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    before = boards(config)
    assert [sorted(b) for b in before] == [["Anna de Vries", "Carla"], ["Bert Jansen", "Daan van 't Hof"]]
    await ok(commands, DIRECTOR, "/indeling wissel Anna de Vries Bert Jansen")
    after = boards(config)
    swap = {"Anna de Vries": "Bert Jansen", "Bert Jansen": "Anna de Vries"}
    # the two change places; the colours follow the pairing's balance rule (issue 30 §5)
    assert [sorted(b) for b in after] == [sorted(swap.get(n, n) for n in board) for board in before]
    await ok(commands, DIRECTOR, "/indeling wissel anna DE vries “Bert Jansen”")  # case aside, quotes kept
    assert [sorted(b) for b in boards(config)] == [sorted(b) for b in before]
    await ok(commands, DIRECTOR, "/indeling koppel Daan van 't Hof Anna de Vries")
    assert sorted(map(sorted, boards(config))) == [["Anna de Vries", "Daan van 't Hof"], ["Bert Jansen", "Carla"]]
    said = await refused(commands, DIRECTOR, "/indeling wissel Anna de Vries Niemand Anders", config)
    assert said == 'Speler "Niemand Anders" ken ik niet.'
    await ok(commands, DIRECTOR, "/leden importeer\nZoë de Wit 1500")  # a member, not in the season
    said = await refused(commands, DIRECTOR, "/indeling wissel Zoe de Wit Carla", config)
    assert said == 'Speler "Zoë de Wit" ken ik niet.'


async def test_a_line_that_reads_two_ways_names_the_members_and_how_to_quote(commands: Core, clock, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for line in ("Anna de Vries 2100", "Bert 2000", "Anna 1900", "de Vries Bert 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    said = await refused(commands, DIRECTOR, "/indeling wissel Anna de Vries Bert", config)
    assert said == (
        '"Anna de Vries Bert" kan ik op meer manieren lezen; het kunnen deze leden zijn: Anna, Anna de Vries, Bert,'
        ' de Vries Bert. Zet elke naam tussen dubbele aanhalingstekens, bijvoorbeeld "Anna de Vries" "Bert".'
    )
    await ok(commands, DIRECTOR, '/indeling wissel "Anna" "de Vries Bert"')


async def test_tegen_takes_a_members_name_of_several_words(commands: Core, clock: ShiftedClock) -> None:
    clock.set(datetime(2027, 6, 1, 10, 0, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/speler Anna de Vries 2100")
    await ok(commands, DIRECTOR, "/speler Bert Jansen 1900")
    await ok(commands, DIRECTOR, "/graadzetten Anna de Vries 1d vanaf=2027-01-01")
    await ok(commands, DIRECTOR, "/graadzetten Bert Jansen 2d vanaf=2027-01-01")
    game = "uitslag=gewonnen minuten=90 byoyomi=30"
    text = await ok(commands, DIRECTOR, f"/partij Anna de Vries datum=2027-02-01 tegen=Bert Jansen {game}")
    assert text.endswith("+45.")  # Bert Jansen, a member of 2 dan: one stronger
    text = await ok(commands, DIRECTOR, f"/partij tegen=Bert Jansen Anna de Vries datum=2027-02-02 {game}")
    assert text.endswith("+45.")
    listing = await ok(commands, DIRECTOR, "/partij lijst Anna de Vries")
    assert listing.count("Bert Jansen") == 2, listing


async def test_nk_wissel_takes_two_names_without_quotes(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    for i, name in enumerate(("Anna de Vries", "Bert Jansen", "Carla van Dijk", "Daan")):
        await ok(commands, DIRECTOR, f'/nk inschrijven "{name}" {2600 - 20 * i}')
    await ok(commands, DIRECTOR, "/nk ronde")
    games = "SELECT mb.name, mw.name FROM nk_games g JOIN members mb ON mb.id = g.black_id JOIN members mw ON mw.id = g.white_id ORDER BY g.board"
    before = rows(config, games)
    a, b = before[0][0], before[1][1]
    await ok(commands, DIRECTOR, f"/nk wissel {a} {b}")
    swap = {a: b, b: a}
    assert rows(config, games) == [tuple(swap.get(n, n) for n in game) for game in before]


async def test_a_rating_change_names_the_member_as_stored(commands: Core, config) -> None:
    """`/speler émile 1400` after `/speler Émile 1300` changes Émile's rating, and the reply says Émile."""
    await ok(commands, DIRECTOR, "/speler Émile 1300")
    assert await ok(commands, DIRECTOR, "/speler émile 1400") == "Rating van Émile is nu 1400."
