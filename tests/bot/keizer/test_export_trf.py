"""/exporteer trf van=N tot=M (/export trf from=N to=M): a slice of rounds as TRF-16, for a rating office
that rates an event over more than 30 days in periods."""

from __future__ import annotations

from pathlib import Path

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok
from tests.bot.conftest import refused as unchanged
from tests.bot.keizer.test_commands import refused
from tests.bot.keizer.test_why import two_rounds
from tests.bot.keizer.trf_reader import read_trf

DATA = Path(__file__).parents[1] / "ratings" / "samples"


async def test_trf_of_a_slice_of_rounds(commands: Core, clock: ShiftedClock) -> None:
    # /exporteer trf van=2 tot=2: only round 2, dated as round 2 (a rating office rates periods in slices)
    await two_rounds(commands, clock)
    whole = (await commands.handle(DIRECTOR, "/exporteer trf")).attachment
    part = (await commands.handle(DIRECTOR, "/exporteer trf van=2 tot=2")).attachment
    assert whole is not None and part is not None and part[0] == whole[0].replace(".trf", "_2-2.trf")
    lines = part[1].decode().splitlines()
    assert "042 2026/12/10" in lines and "052 2026/12/10" in lines
    assert next(x for x in lines if x.startswith("132"))[91:] == "26/12/10"
    anna = next(x for x in lines if x.startswith("001") and "Anna" in x)
    assert len(anna) == 99 and anna[98] == "="  # one round: the draw against Daan
    assert len(next(x for x in whole[1].decode().splitlines() if "Anna" in x)) == 109
    for text in ("/exporteer trf van=3 tot=3", "/exporteer trf van=2 tot=1", "/exporteer trf van=2", "/exporteer trf van=x tot=2"):
        await refused(commands, DIRECTOR, text)


async def test_trf_header_from_the_club_and_fide_ids_in_the_player_lines(commands: Core, clock: ShiftedClock, config) -> None:
    """Issue 34 §1: lines 022, 032, 102 and 112 from /club, 042/052 from the calendar, the FIDE ID and the
    federation in positions 54-56 and 58-68 of the player lines, read by a reader written from FIDE's
    description (tests/bot/keizer/trf_reader.py); a name with accents keeps every column in place."""
    await two_rounds(commands, clock)
    said = await ok(commands, DIRECTOR, '/club plaats=Utrecht federatie=ned arbiter="Jan Scheids" hulparbiter="Piet Hulp"')
    assert said == "Clubgegevens voor het TRF-bestand: plaats Utrecht, federatie NED, arbiter Jan Scheids, hulparbiter Piet Hulp."
    await ok(commands, DIRECTOR, "/speler Anna fide=1000330")
    await ok(commands, DIRECTOR, "/speler Daan hernoem Jürgen Öztürk")
    await ok(commands, DIRECTOR, "/speler Jürgen Öztürk fide=24612345")
    listing = (DATA / "players_list_foa.txt").read_bytes()
    await ok(commands, DIRECTOR, "/ratings importeer datum=2026-11-01", listing)  # his federation: GER
    reply = await commands.handle(DIRECTOR, "/exporteer trf")
    assert reply.attachment is not None
    header, players = read_trf(reply.attachment[1])
    assert header["012"] == [header["012"][0]] and header["022"] == ["Utrecht"] and header["032"] == ["NED"]
    assert header["042"] == ["2026/12/03"] and header["052"] == ["2027/06/10"]  # the season's first and last round
    assert header["092"] == ["Keizer (club competition)"]
    assert header["102"] == ["Jan Scheids"] and header["112"] == ["Piet Hulp"]
    by_name = {p["name"]: p for p in players}
    assert (by_name["Anna"]["fide"], by_name["Anna"]["federation"]) == ("1000330", "NED")  # the list: NED
    assert (by_name["Jürgen Öztürk"]["fide"], by_name["Jürgen Öztürk"]["federation"]) == ("24612345", "GER")
    assert (by_name["Bert"]["fide"], by_name["Bert"]["federation"]) == ("", "NED")  # no ID: the club's federation
    numbers = {p["name"]: p["start"] for p in players}
    # round 1 Bert (white) - Anna 0-1, round 2 Anna (white) - Daan, now Jürgen Öztürk, a draw
    assert by_name["Anna"]["rounds"] == [(str(numbers["Bert"]), "b", "1"), (str(numbers["Jürgen Öztürk"]), "w", "=")]
    assert by_name["Jürgen Öztürk"]["rounds"][1] == (str(numbers["Anna"]), "b", "=")
    # cleared with -: the lines go
    await ok(commands, DIRECTOR, "/club arbiter=- hulparbiter=-")
    header, _ = read_trf((await commands.handle(DIRECTOR, "/exporteer trf")).attachment[1])
    assert "102" not in header and "112" not in header and header["032"] == ["NED"]


async def test_club_details_are_the_directors_and_checked(commands: Core, config) -> None:
    assert "wedstrijdleider" in await unchanged(commands, actor("Anna"), "/club plaats=Utrecht", config)
    assert "drie letters" in await unchanged(commands, DIRECTOR, "/club federatie=Nederland", config)
    assert "drie letters" in await unchanged(commands, DIRECTOR, "/club federatie=N3D", config)
    assert "60 tekens" in await unchanged(commands, DIRECTOR, "/club arbiter=" + "x" * 61, config)
    assert "Gebruik" in await unchanged(commands, DIRECTOR, "/club stad=Utrecht", config)
    await ok(commands, DIRECTOR, "/club plaats=Utrecht")
    # a value left empty clears nothing by accident (it did, silently: found in a console month); - clears
    for empty in ("/club plaats=", "/club arbiter=", "/club plaats= federatie=NED"):
        assert "- maakt er een leeg" in await unchanged(commands, DIRECTOR, empty, config)
    assert "plaats Utrecht" in await ok(commands, DIRECTOR, "/club")
    await ok(commands, DIRECTOR, "/club plaats=-")
    assert await ok(commands, DIRECTOR, "/club") == "Clubgegevens voor het TRF-bestand: plaats —, federatie —, arbiter —, hulparbiter —."


async def test_names_and_a_city_typed_without_quotes(commands: Core, config) -> None:
    """A director types ``arbiter=Jan de Vries`` as the name is written (it was refused with the usage); a
    federation stays one word, and a word after it is still a mistake."""
    said = await ok(commands, DIRECTOR, "/club plaats=Den Haag arbiter=Jan de Vries hulparbiter=Piet van 't Hof federatie=NED")
    assert said == ("Clubgegevens voor het TRF-bestand: plaats Den Haag, federatie NED, arbiter Jan de Vries,"
                    " hulparbiter Piet van 't Hof.")  # fmt: skip
    assert "Gebruik" in await unchanged(commands, DIRECTOR, "/club federatie=NED Utrecht", config)
    assert "Gebruik" in await unchanged(commands, DIRECTOR, "/club Utrecht", config)
    assert "Gebruik" in await unchanged(commands, DIRECTOR, "/club arbiter=A arbiter=B", config)
