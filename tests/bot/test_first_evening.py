"""examples/first-evening.txt, the five steps of docs/first-evening.md (issue 44 §3: members, season, groups,
links, website, then round 1 published), run through the console as the doc shows; every reply a director
reads there is checked here, the ones that read wrong before among them: the website's address when it is
switched on, the weekday of /klok in the club's language, /als with a quoted name, no empty table in /mijn
before round 1."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.config import Config
from tests.bot.console_script import console_lines
from tests.paths import REPO

EVENING = datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)  # 20:00 in Amsterdam, two days before round 1


def run(config: Config, script: str) -> list[str]:
    config = Config(**{**config.__dict__, "web_base_url": "https://schaak.example.nl"})  # the website's address
    return console_lines(config, script, EVENING)


def replies(lines: list[str]) -> dict[str, list[str]]:
    """Each command typed (the first time) and the lines that answer it."""
    found: dict[str, list[str]] = {}
    command = None
    for line in lines:
        if line.startswith("> "):
            command = line[2:]
            if not command.startswith("#"):
                found.setdefault(command, [])
        elif command is not None and not command.startswith("#") and len(found[command]) < 100:
            found[command].append(line)
    return found


def test_the_first_evening_in_the_console(config: Config) -> None:
    lines = run(config, (REPO / "examples" / "first-evening.txt").read_text(encoding="utf-8"))
    said = replies(lines)
    assert not [line for line in lines if line.startswith("bot! ")], lines  # nothing refused
    assert said["/leden importeer examples/club-21.csv"] == ["bot> 21 leden ingelezen: 21 nieuw, 0 bijgewerkt, 0 chataccounts gekoppeld."]
    assert "21 spelers doen mee" in said["/seizoen naam=2026-27 start=2026-12-03"][0]
    assert "bot> Jet: groep - → B" in said["/groepen A: Anna de Vries, Bert Jansen, Carla, Daan, Eva; B: Fleur, Gijs, Hanna, Ivo, Jet"]
    assert "/aanmelden" in said['/koppel "Anna de Vries"'][0]
    assert said['/koppel "Bert Jansen" @Bert'] == ["bot> Dit account is nu Bert Jansen."]
    assert said["/website aan"] == [
        "bot> De website van de club staat aan: stand, indeling (vanaf de publicatie) en prijzen zijn openbaar.",
        "bot> De website van de club: https://schaak.example.nl/c/1/",
    ]
    mine = said["/mijn"]
    assert mine[0] == "bot> Bert Jansen in 2026-27" and "bot> Je staat 2e van 21, met waarde 49." in mine, mine
    assert not any("Tegenstander" in line for line in mine), mine  # no table of headers over no rounds
    assert said["/klok 2026-12-03 18:00"][0] == "bot> Het is nu donderdag 2026-12-03 18:00 (Europe/Amsterdam)."
    assert "[kanaal] Indeling ronde 1 (2026-12-03)" in lines and "[kanaal] Bord 1: Bert Jansen - Anna de Vries" in lines
    assert said["/indeling"][0] == "bot> Indeling ronde 1 (2026-12-03)"


def test_acting_as_someone_named_in_quotes_and_the_clock_in_english(config: Config) -> None:
    lines = run(config, '/als "Jan de Vries"\n/als Wedstrijdleider\n/taal en\n/clock\n')
    said = replies(lines)
    assert said['/als "Jan de Vries"'] == ["bot> Je bent nu Jan de Vries."]  # the name, not its quotes
    assert said["/clock"] == ["bot> It is now Tuesday 2026-12-01 20:00 (Europe/Amsterdam)."]


def test_linking_a_member_by_part_of_the_name_says_whom_it_may_mean(config: Config) -> None:
    """``/koppel Anna`` for the member "Anna de Vries": refused as every other command refuses a name it does
    not know, with the members it may mean (it said only that it knew no "Anna")."""
    lines = run(config, "/leden importeer examples/club-21.csv\n/koppel Anna\n/koppel Anna de Vries\n")
    said = replies(lines)
    assert said["/koppel Anna"] == ['bot! Speler "Anna" ken ik niet. Bedoel je een van deze leden: Anna de Vries? Typ de hele naam.']
    assert said["/koppel Anna de Vries"][0].startswith("bot> Koppelcode voor Anna de Vries: ")
