"""The go, NK, grades and backup commands on Discord (issue 46 §4): typed options, as the Keizer commands
have, instead of one free-text ``argumenten``: the sub-command words as choices, names with autocomplete,
numbers as integers. Through the real discord.py against the fake (which checks the command payload
against Discord's rules); each command's options become the line the console types, so the handlers
answer exactly as they answer that line."""

from __future__ import annotations

import re

from tests.bot.adapters.discord_markdown import shown
from tests.bot.adapters.discord_world import UserOption
from tests.bot.adapters.fake_discord import (  # noqa: F401 - fixtures
    EPHEMERAL,
    FakeDiscord,
    Harness,
    bot,
    content,
    fake,
    flags,
)
from tests.bot.adapters.test_discord_adapter import season_with_players

TYPED = ("go", "zet", "pas", "opgeven", "dood", "akkoord", "afwijzen", "bord", "nk", "graad", "graden", "graadzetten",
         "partij", "partijenimport", "speeltempo", "backup")  # fmt: skip
STRING, INTEGER, BOOLEAN, ATTACHMENT = 3, 4, 5, 11


def synced(fake: FakeDiscord) -> dict[str, dict]:
    (sync,) = fake.of("PUT", "/api/v10/applications/")
    return {c["name"]: c for c in sync.json}


def options_of(command: dict) -> dict[str, dict]:
    return {o["name"]: o for o in command.get("options", [])}


async def test_go_nk_grades_and_backup_have_typed_options(bot: Harness, fake: FakeDiscord) -> None:
    commands = synced(fake)
    for name in TYPED:
        assert "argumenten" not in options_of(commands[name]), name
    assert options_of(commands["backup"]) == {}
    nk = options_of(commands["nk"])
    assert nk["actie"]["required"] and nk["actie"]["type"] == STRING
    result = [c for c in nk["actie"]["choices"] if c["value"] == "uitslag"][0]
    assert result["name_localizations"]["en-US"] == "result"
    assert nk["naam"]["autocomplete"] and nk["tweede"]["autocomplete"]
    assert nk["rating"]["type"] == INTEGER and (nk["rating"]["min_value"], nk["rating"]["max_value"]) == (-900, 3500)
    assert nk["ronde"]["name_localizations"]["en-US"] == "round" and nk["reglementair"]["type"] == BOOLEAN
    go = options_of(commands["go"])
    assert {c["value"] for c in go["actie"]["choices"]} >= {"uitdagen", "accepteren", "weigeren", "lijst", "sgf"}
    assert go["tegenstander"]["autocomplete"] and go["voorgift"]["type"] == INTEGER
    assert go["tegenstander"]["name_localizations"]["en-US"] == "opponent"
    zet = options_of(commands["zet"])
    assert zet["punt"]["required"] and zet["partij"]["type"] == INTEGER
    partij = options_of(commands["partij"])
    assert partij["tegen"]["autocomplete"] and partij["minuten"]["type"] == INTEGER
    assert {c["value"] for c in partij["uitslag"]["choices"]} == {"gewonnen", "verloren", "remise"}
    assert options_of(commands["partijenimport"])["bestand"]["type"] == ATTACHMENT
    assert options_of(commands["graad"])["speler"]["autocomplete"]


def game_number(answer: object) -> int:
    found = re.search(r"\(#([0-9]+)\)", shown(content(answer)))  # type: ignore[arg-type]
    assert found is not None, content(answer)  # type: ignore[arg-type]
    return int(found.group(1))


async def test_a_go_game_is_challenged_accepted_and_played_with_options(bot: Harness) -> None:
    await season_with_players(bot)
    for name in ("Anna", "Bert"):  # their Discord accounts become the members the director entered
        await bot.command("koppel", "Leider", {"speler": name, "account": UserOption(name)}, director=True)
    answer = await bot.command("go", "Anna", {"actie": "uitdagen", "tegenstander": "Bert", "kleur": "wit", "vrij": True})
    assert "Zwart: Bert" in shown(content(answer)) and "op 19x19" in shown(content(answer)), content(answer)
    answer = await bot.command("go", "Bert", {"actie": "weigeren", "partij": game_number(answer)})
    assert not flags(answer) & EPHEMERAL, content(answer)
    answer = await bot.command("go", "Anna", {"actie": "uitdagen", "tegenstander": "Bert", "grootte": "9", "voorgift": 2})
    text = shown(content(answer))
    assert "op 9x9, voorgift 2" in text and "Zwart: Bert" in text, text  # the weaker (1900) takes the stones
    handicap = game_number(answer)
    offered = await bot.autocomplete("zet", "Bert", "partij", "")  # the club's open games, by number
    assert [(c["name"], c["value"]) for c in offered] == [(f"#{handicap} Bert - Anna (9x9)", handicap)], offered
    answer = await bot.command("go", "Bert", {"actie": "accepteren", "tegenstander": "Anna"})
    assert not flags(answer) & EPHEMERAL, content(answer)
    # both handicap stones in one option: each point its own word of the line (/zet C3 G7 #n)
    answer = await bot.command("zet", "Bert", {"punt": "C3 G7", "partij": handicap})
    assert not flags(answer) & EPHEMERAL, content(answer)
    answer = await bot.command("zet", "Anna", {"punt": "E5", "tegenstander": "Bert"})
    assert not flags(answer) & EPHEMERAL, content(answer)
    answer = await bot.command("zet", "Anna", {"punt": "D4", "partij": handicap})
    assert flags(answer) & EPHEMERAL, content(answer)  # not her turn: refused, only to her


async def test_the_nk_is_run_with_options(bot: Harness) -> None:
    await season_with_players(bot)
    answer = await bot.command("nk", "Leider", {"actie": "nieuw", "naam": "NK 2027", "rondes": 5, "groep": 8}, director=True)
    assert 'NK-toernooi "NK 2027" aangemaakt: 5 ronden, groepen van 8' in shown(content(answer)), content(answer)
    answer = await bot.command("nk", "Leider", {"actie": "inschrijven", "naam": "Anna", "rating": 1800, "land": "NL"},
                               director=True)  # fmt: skip
    assert "Anna" in shown(content(answer)) and not flags(answer) & EPHEMERAL, content(answer)
    # a value the sub-command does not take is refused with its usage, as the console line would be
    answer = await bot.command("nk", "Leider", {"actie": "nieuw", "naam": "X", "klasse": "A"}, director=True)
    assert flags(answer) & EPHEMERAL and "/nk nieuw" in shown(content(answer)), content(answer)
    names = await bot.autocomplete("nk", "Leider", "naam", "an", director=True)
    assert [c["value"] for c in names] == ["Anna"]
    await bot.command("nk", "Leider", {"actie": "inschrijven", "naam": "Bert", "rating": 1700}, director=True)
    answer = await bot.command("nk", "Leider", {"actie": "ronde"}, director=True)
    assert not flags(answer) & EPHEMERAL, content(answer)
    answer = await bot.command("nk", "Leider", {"actie": "uitslag", "naam": "Bert", "uitslag": "gewonnen", "reglementair": True,
                                                "ronde": 1}, director=True)  # fmt: skip
    assert not flags(answer) & EPHEMERAL, content(answer)
    answer = await bot.command("nk", "Anna", {"actie": "indeling", "ronde": 1})
    assert re.search(r"1  Bert +Anna +Bert \(F\)", shown(content(answer))), content(answer)  # Bert won by forfeit


async def test_grades_are_set_and_games_entered_with_options(bot: Harness) -> None:
    await season_with_players(bot)
    await bot.command("speler", "Leider", {"naam": "Carla de Vries", "rating": 1700}, director=True)
    answer = await bot.command("graadzetten", "Leider", {"speler": "Anna", "graad": "2k", "vanaf": "2026-11-01"}, director=True)
    assert "Anna heeft nu graad 2k" in shown(content(answer)), content(answer)
    answer = await bot.command("partij", "Leider", {
        "speler": "Anna", "datum": "2026-11-20", "tegen": "Carla de Vries", "graad": "1k", "uitslag": "gewonnen",
        "minuten": 60, "byoyomi": 30,
    }, director=True)  # fmt: skip
    text = shown(content(answer))
    assert "ingevoerd" in text and "Anna" in text, text
    number = re.search(r"#([0-9]+)", text)
    assert number is not None
    answer = await bot.command("partij", "Leider", {"actie": "lijst", "speler": "Anna"}, director=True)
    assert "Carla de Vries" in shown(content(answer)), content(answer)
    answer = await bot.command("partij", "Leider", {"actie": "verwijder", "nummer": int(number.group(1))}, director=True)
    assert "#" + number.group(1) in shown(content(answer)), content(answer)


async def test_backup_takes_no_options(bot: Harness) -> None:
    await season_with_players(bot)
    answer = await bot.command("backup", "Leider", director=True)
    assert answer.files and flags(answer) & EPHEMERAL, content(answer)


async def test_the_seasons_reminder_and_joining_settings_are_options_on_discord(bot: Harness) -> None:
    """Issue 44 §2: ``/seizoen aanmelden=goedkeuring`` (and ``herinnering=``) had no Discord option, so a
    director on Discord could not require approval for new players."""
    await season_with_players(bot)
    answer = await bot.command("seizoen", "Leider", {"aanmelden": "goedkeuring"}, director=True)
    assert "goedkeuring" in shown(content(answer)), content(answer)
    answer = await bot.command("seizoen", "Leider", {"herinnering": "iedereen"}, director=True)
    assert "iedereen" in shown(content(answer)), content(answer)
