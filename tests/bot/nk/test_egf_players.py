"""What the EGF file needs of each NK player, set in the chat (issue 31 §2): ``/nk speler Naam club=...
land=... pin=...``; the file the EGD reads (the reader in tests/engine/mcmahon/test_egf_file.py) carries
them, and a player registered in the chat with one name keeps the columns in place. On a real store."""

from __future__ import annotations

import random

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused
from tests.bot.nk.test_director import games_of, play_out, tournament
from tests.engine.mcmahon.test_egf_file import read_egd


async def test_club_country_and_pin_set_in_the_chat_reach_the_egf_file(commands: Core, config) -> None:
    names = await tournament(commands, 8)
    await ok(commands, DIRECTOR, '/nk inschrijven Anna 1800')  # a one-word name, as a chat account has
    await ok(commands, DIRECTOR, f'/nk speler "{names[0]}" club="Go Utrecht" land=be pin=12345678')
    reply = await ok(commands, DIRECTOR, "/nk speler anna club=Ams")
    assert "Anna: club Ams, land -, EGF-pin -" in reply
    for bad in ("/nk speler Anna land=Nederland", "/nk speler Anna pin=123", "/nk speler Anna club=a;b",
                "/nk speler Niemand pin=12345678", "/nk speler Anna", "/nk speler pin=12345678"):  # fmt: skip
        await refused(commands, DIRECTOR, bad, config)
    await refused(commands, actor("Anna"), "/nk speler Anna pin=12345678", config)  # the director's
    await play_out(commands, config, random.Random(5))
    reply = await commands.handle(DIRECTOR, "/nk egf")
    assert reply.ok and reply.attachment is not None
    headers, players = read_egd(reply.attachment[1].decode())
    assert len(players) == 9
    first = next(p for p in players if p["surname"] == "01")
    assert (first["first"], first["club"], first["country"], first["pin"]) == ("Speler", "Go_U", "BE", "12345678")
    anna = next(p for p in players if p["surname"] == "Anna")
    assert (anna["first"], anna["club"], anna["country"], anna["pin"]) == ("-", "Ams", "NL", None)
    # DT: the days the rounds were paired, in the club's time zone
    assert len(headers["DT"]) in (10, 21)
    # the director clears a value with -
    reply = await ok(commands, DIRECTOR, f'/nk speler "{names[0]}" pin=-')
    assert "EGF-pin -" in reply


async def test_club_country_and_pin_at_registration(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    await ok(commands, DIRECTOR, '/nk inschrijven "Jan de Vries" 2200 club=Haag land=nl pin=10000037')
    reply = await ok(commands, DIRECTOR, '/nk speler "Jan de Vries" club=Leiden')
    assert "club Leiden, land NL, EGF-pin 10000037" in reply
    await refused(commands, DIRECTOR, "/nk inschrijven Piet 2000 pin=abc", config)
    bert = actor("Bert")
    await ok(commands, bert, "/nk inschrijven 1900 land=BE")  # a player registering themselves
    reply = await ok(commands, DIRECTOR, "/nk speler Bert pin=12345678")
    assert "club -, land BE, EGF-pin 12345678" in reply


async def test_a_file_written_with_games_still_open_says_so(commands: Core, config) -> None:
    """A game without a result is written as not played (0-): the director is told how many are open, so
    the file is not sent in too early; with every result in, no such line."""
    await tournament(commands, 8)
    await ok(commands, DIRECTOR, "/nk ronde")
    reply = await ok(commands, DIRECTOR, "/nk egf")
    assert "4 partijen hebben nog geen uitslag" in reply
    for black, _, _ in games_of(config, 1):
        await ok(commands, DIRECTOR, f'/nk uitslag "{black}" gewonnen 1')
    await play_out(commands, config, random.Random(5), 1)
    reply = await ok(commands, DIRECTOR, "/nk egf")
    assert "geen uitslag" not in reply


async def test_who_can_still_win_is_named_in_the_tables_order(commands: Core) -> None:
    """The line under the table names the contenders as the table ranks them (it followed the losses of the
    round being played, which the table does not count yet: the top of the table came last)."""
    names = await tournament(commands, 7)
    await ok(commands, DIRECTOR, "/nk ronde")
    await ok(commands, DIRECTOR, '/nk uitslag "Speler 04" gewonnen')  # board 1: 04 beats 01
    reply = await commands.handle(DIRECTOR, "/nk stand")
    line = next(x for x in reply.lines if x.startswith("Kunnen nog kampioen worden"))
    assert reply.table is not None
    assert line.split(": ", 1)[1].split(", ") == [row[1] for row in reply.table.rows] == names


async def test_an_nk_player_without_a_pin_of_the_nk_gets_the_members_egd_pin(commands: Core, config) -> None:
    """Issue 34 §1: the member's EGD PIN (``/speler Naam egd=...``) is the NK player's where the NK has
    none of its own; a PIN set for the NK wins."""
    await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    await ok(commands, DIRECTOR, '/nk inschrijven "Jan de Vries" 2200')
    await ok(commands, DIRECTOR, '/nk inschrijven Piet 2000 pin=10000037')
    await ok(commands, DIRECTOR, '/speler Jan de Vries egd=12345678')
    await ok(commands, DIRECTOR, '/speler Piet egd=87654321')
    assert "EGF-pin 12345678" in await ok(commands, DIRECTOR, '/nk speler "Jan de Vries" club=Haag')
    assert "EGF-pin 10000037" in await ok(commands, DIRECTOR, '/nk speler Piet club=Haag')
