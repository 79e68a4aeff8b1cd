"""``/ratings importeer`` (issue 34 §1): the director sends a rating list; members with an identity in
its federation get the listed rating, members without one get a proposal by name, confirmed with
``/ratings bevestig``; the reply names the list's date. Only the director; a hostile file changes
nothing. On a real store, through the console as well."""

from __future__ import annotations

import io
from pathlib import Path

from bot.adapters.console import ConsoleAdapter
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

DATA = Path(__file__).parent / "samples"


def data(name: str) -> bytes:
    return (DATA / name).read_bytes()


def members(config) -> dict[str, tuple]:
    found = rows(config, "SELECT name, rating, knsb_id, fide_id, egd_pin FROM members WHERE is_director = 0")
    return {r[0]: r[1:] for r in found}


async def club(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/speler Jan de Vries 2200 knsb=8400001")
    await ok(commands, DIRECTOR, "/speler Jürgen Öztürk 1700")
    await ok(commands, DIRECTOR, "/speler Bert Jansen 1850")
    await ok(commands, DIRECTOR, "/speler Anna Smit 1500 knsb=8499999")  # no longer on the list


async def test_knsb_list_refreshes_by_identity_and_proposes_by_name(commands: Core, config) -> None:
    await club(commands)
    said = await ok(commands, DIRECTOR, "/ratings importeer", data("knsb_ratinglijst.csv"))
    assert said.splitlines() == [
        "Ratings van 2026-11-01 (KNSB, 5 spelers): 1 rating bijgewerkt, 0 ongewijzigd.",
        "Niet op de lijst: 1 lid met een identiteit ervan: Anna Smit.",
        "1 voorstel op naam (bevestig met /ratings bevestig, of /ratings bevestig Naam):",
        "Jürgen Öztürk = Öztürk, Jürgen (KNSB 8400003, rating 1750)",
    ]  # Bert Jansen is listed twice (two clubs): no proposal for him
    assert members(config)["Jan de Vries"] == (2261, "8400001", None, None)
    assert members(config)["Jürgen Öztürk"] == (1700, None, None, None)  # a proposal changes nothing yet
    assert await ok(commands, DIRECTOR, "/ratings bevestig jurgen ozturk") == "1 voorstel bevestigd: Jürgen Öztürk."
    assert members(config)["Jürgen Öztürk"] == (1750, "8400003", None, None)
    assert "geen voorstellen" in await refused(commands, DIRECTOR, "/ratings bevestig", config)


async def test_fide_list_needs_a_date_and_confirms_all(commands: Core, config) -> None:
    await club(commands)
    await ok(commands, DIRECTOR, "/speler Carla Bakker 1600 fide=1001001")
    assert "datum=2026-11-01" in await refused(commands, DIRECTOR, "/ratings importeer", config, data("players_list_foa.txt"))
    assert "geen datum" in await refused(commands, DIRECTOR, "/ratings importeer datum=1-11-2026", config, data("players_list_foa.txt"))
    said = await ok(commands, DIRECTOR, "/ratings importeer fide datum=2026-11-01", data("players_list_foa.txt"))
    assert said.splitlines()[0] == "Ratings van 2026-11-01 (FIDE, 5 spelers): 0 ratings bijgewerkt, 1 ongewijzigd."
    assert said.splitlines()[2:] == [
        "Bert Jansen = Jansen, Bert (FIDE 1000950, rating 1912)",
        "Jan de Vries = Vries, Jan de (FIDE 1000330, rating 2285)",
        "Jürgen Öztürk = Öztürk, Jürgen (FIDE 24612345, rating 1733)",
    ]  # Carla has no standard rating: hers stays
    assert "3 voorstellen bevestigd" in await ok(commands, DIRECTOR, "/ratings confirm")
    assert members(config)["Jan de Vries"] == (2285, "8400001", "1000330", None)
    assert members(config)["Carla Bakker"] == (1600, None, "1001001", None)
    said = await ok(commands, DIRECTOR, "/ratings importeer datum=2026-12-01", data("players_list_xml.xml"))
    assert said.splitlines() == ["Ratings van 2026-12-01 (FIDE, 4 spelers): 0 ratings bijgewerkt, 4 ongewijzigd."]


async def test_egd_list_for_go(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Bert Jansen 1500 egd=10396133")
    await ok(commands, DIRECTOR, "/speler Hiroshi Tanaka 2600")
    said = await ok(commands, DIRECTOR, "/ratings importeer", data("all.hst"))
    assert said.splitlines() == [
        "Ratings van 2026-11-01 (EGD, 4 spelers): 1 rating bijgewerkt, 0 ongewijzigd.",
        "1 voorstel op naam (bevestig met /ratings bevestig, of /ratings bevestig Naam):",
        "Hiroshi Tanaka = Tanaka Hiroshi (EGD 19876543, rating 2650)",
    ]
    assert members(config)["Bert Jansen"] == (1610, None, None, "10396133")


async def test_the_egd_list_keeps_a_chess_players_rating(commands: Core, config) -> None:
    """A member with a KNSB or FIDE number plays chess: the EGD's go rating is no rating of theirs (found
    in a month run through the console: Jan's 2261 became his GoR 2190); their PIN is still kept."""
    await ok(commands, DIRECTOR, "/speler Jan de Vries 2261 knsb=8400001 egd=12345678")
    await ok(commands, DIRECTOR, "/speler Jürgen Öztürk 1700 fide=24612345")
    said = await ok(commands, DIRECTOR, "/ratings importeer", data("all.hst"))
    assert said.splitlines()[:2] == [
        "Ratings van 2026-11-01 (EGD, 4 spelers): 0 ratings bijgewerkt, 0 ongewijzigd.",
        "Schaakrating gehouden (een KNSB- of FIDE-nummer; de EGD-lijst is go): 1 lid: Jan de Vries.",
    ]
    assert members(config)["Jan de Vries"] == (2261, "8400001", None, "12345678")
    assert "Jürgen Öztürk = Öztürk Jürgen (EGD 11122233, rating 1998)" in said
    await ok(commands, DIRECTOR, "/ratings bevestig Jürgen Öztürk")
    assert members(config)["Jürgen Öztürk"] == (1700, None, "24612345", "11122233")  # the PIN, not the GoR


async def test_only_the_director_and_hostile_files_change_nothing(commands: Core, config) -> None:
    await club(commands)
    assert "wedstrijdleider" in await refused(commands, actor("Bert"), "/ratings importeer", config, data("all.hst"))
    assert "bestand" in await refused(commands, DIRECTOR, "/ratings importeer", config)
    assert "MB" in await refused(commands, DIRECTOR, "/ratings importeer", config, b"1;A;1\n" * (1024 * 1024))
    assert "geen tekst" in await refused(commands, DIRECTOR, "/ratings importeer", config, b"\x00\x01garbage\xff")
    assert "geen tekst" in await refused(commands, DIRECTOR, "/ratings importeer", config, b"\xef\xbb\xbf\x81\x8d\x8f\x90\x9d")
    assert "geen ratinglijst" in await refused(commands, DIRECTOR, "/ratings importeer", config, b"hallo\nwereld\n")
    bomb = b'<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><playerslist>&b;</playerslist>'
    assert "DOCTYPE" in await refused(commands, DIRECTOR, "/ratings importeer datum=2026-11-01", config, bomb)
    assert "geen enkele speler" in await refused(commands, DIRECTOR, "/ratings importeer", config, b"Relatienummer;Naam;Rating\n")
    assert "Gebruik" in await refused(commands, DIRECTOR, "/ratings weg", config)
    assert "Gebruik" in await refused(commands, DIRECTOR, "/ratings importeer chess", config, data("all.hst"))
    assert "voorstel" in await refused(commands, DIRECTOR, "/ratings bevestig Niemand", config)


async def test_the_console_attaches_the_file_by_its_path(commands: Core, clock, config) -> None:
    out = io.StringIO()
    console = ConsoleAdapter(commands, clock, "Wedstrijdleider", "Test club", out=out)
    await console.start()
    await console.handle_line("/speler Jan de Vries 2200 knsb=8400001")
    await console.handle_line(f"/ratings importeer {DATA / 'knsb_ratinglijst.csv'}")
    assert "bot> Ratings van 2026-11-01 (KNSB, 5 spelers): 1 rating bijgewerkt, 0 ongewijzigd.\n" in out.getvalue()
    assert members(config)["Jan de Vries"][0] == 2261


async def test_the_egd_pages_date_in_english_words_is_read(commands: Core, config) -> None:
    """The page that shows the EGD's list (allworld_lp.html) dates it in English words above the list,
    "(27 Nov 2026)" (the line pairgoth's EGF reader takes the date from): read without ``datum=``; a
    page without a date is still refused in the user's words, changing nothing."""
    await ok(commands, DIRECTOR, "/speler Bert Jansen 1500 egd=10396133")
    page = data("allworld_lp.html").decode().replace("European Go Database, all players (2026-11-01)", "European Go Database")
    dated = page.replace("<pre>", "(27 Nov 2026)\n<pre>")
    said = await ok(commands, DIRECTOR, "/ratings importeer", dated.encode())
    assert said.splitlines()[0] == "Ratings van 2026-11-27 (EGD, 4 spelers): 1 rating bijgewerkt, 0 ongewijzigd."
    assert members(config)["Bert Jansen"] == (1610, None, None, "10396133")
    said = await refused(commands, DIRECTOR, "/ratings importeer", config, page.encode())
    assert said == "De EGD-lijst zegt niet van welke datum hij is: geef die mee, bijvoorbeeld datum=2026-11-01."
    unknown = page.replace("<pre>", "(31 Foo 2026)\n<pre>").encode()  # no month: no date
    assert "datum=" in await refused(commands, DIRECTOR, "/ratings importeer", config, unknown)
