"""examples/season-44.txt, issue 44's "done when": a season with two free evenings, a postponed game, an
unrated member, groups and two late joiners (one from the chat, one from the member list), a no-show twice
and a director's result against a player's report, run through the real console with a moving clock as
the README shows. Every key reply is read here, in the order a director reads them; the ones the script
found reading wrong are among them (an unrated late joiner taking an unrated member's score, "rating 0,
geen rating", a player told to type a director's command, /mijn offering a deadline on the catch-up
evening, "de spelers zeiden" when one player had said nothing)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Config
from tests.bot.console_script import console_lines
from tests.bot.console_script import reply_to as console_reply
from tests.bot.conftest import START
from tests.paths import REPO


def run(config: Config) -> list[str]:
    return console_lines(config, (REPO / "examples" / "season-44.txt").read_text(encoding="utf-8"), START)


def test_the_season_of_issue_44_in_the_console(config: Config) -> None:
    lines = run(config)
    text = "\n".join(lines)

    def reply_to(command: str, nth: int = 0) -> list[str]:
        return console_reply(lines, command, nth)

    def saved(command: str) -> Path:
        line = next(x for x in reply_to(command) if x.startswith("bot> Bestand opgeslagen: "))
        return Path(line.removeprefix("bot> Bestand opgeslagen: "))

    def standings(command: str, nth: int = 0) -> dict[str, tuple[str, str]]:
        """name: (points, games) of a /stand table."""
        rows = [x.removeprefix("bot> ") for x in reply_to(command, nth)[3:]]
        found = {}
        for row in rows:
            m = re.match(r"\s*\d+\s+(.+?)\s{2,}(\S+)\s+\d+\s+(\d+)$", row)
            assert m, row
            found[m.group(1)] = (m.group(2), m.group(3))
        return found

    assert "Er ging iets mis" not in text
    refused = [lines[i - 1] for i, line in enumerate(lines) if line.startswith("bot! ")]
    assert refused == ["> /uitslag Ivo de Graaf gewonnen 3"], refused  # the one refusal the script provokes

    # the members: Tim Koster has no rating ("Tim Koster;;"), and is no reason to refuse the list
    assert reply_to("/leden importeer examples/season-44.csv") == ["bot> 12 leden ingelezen: 12 nieuw, 0 bijgewerkt, 0 chataccounts gekoppeld."]
    assert any(re.match(r"bot> Tim Koster\s+geen\s+nee", x) for x in reply_to("/leden"))

    # the calendar: Christmas Eve given with the season, New Year's Eve after it; the later rounds move
    assert "12 spelers doen mee" in reply_to("/seizoen naam=2026-27 start=2026-12-03 rondes=6 vrij=2026-12-24")[0]
    assert reply_to("/seizoen naam=2026-27 start=2026-12-03 rondes=6 vrij=2026-12-24")[1] == "bot> Vrije avond in 2026-27: 2026-12-24."
    assert reply_to("/seizoen vrij 2026-12-31") == [
        "bot> Vrije avond in 2026-27: 2026-12-31.",
        "bot> Ronde 4 verplaatst van 2026-12-31 naar 2027-01-07.",
        "bot> Ronde 5 verplaatst van 2027-01-07 naar 2027-01-14.",
        "bot> Ronde 6 verplaatst van 2027-01-14 naar 2027-01-21.",
    ]
    assert reply_to("/seizoen")[0] == "bot> Seizoen 2026-27: 6 rondes (van 2026-12-03 tot 2027-01-21), afmelden tot 17:00, indeling om 18:00 (Europe/Amsterdam)."
    assert "bot> Vrije avonden van 2026-27: 2026-12-24, 2026-12-31." in reply_to("/seizoen")
    groups = reply_to("/groepen A: Anna de Vries, Bert Jansen, Carla Smit, Daan Bos; B: Eva Visser, Fleur de Boer, Gijs Mulder, Hanna Dekker; C: Ivo de Graaf, Jet Bakker, Kees Vos, Tim Koster")
    assert groups[0] == "bot> Groepen in seizoen 2026-27:" and "bot> Tim Koster: groep - → C" in groups and len(groups) == 13
    # the unrated member starts below the rated ones
    assert "bot> Je staat 12e van 12, met waarde 39." in reply_to("/mijn")
    # the rounds are paired on their evenings only: nothing on 24 and 31 December
    paired = [x for x in lines if x.startswith("[kanaal] Indeling ronde")]
    assert paired == ["[kanaal] Indeling ronde 1 (2026-12-03)", "[kanaal] Indeling ronde 2 (2026-12-10)", "[kanaal] Indeling ronde 3 (2026-12-17)",
                      "[kanaal] Indeling ronde 4 (2027-01-07)", "[kanaal] Indeling ronde 5 (2027-01-14)"]  # fmt: skip
    feed = saved("/kalender").read_text(encoding="utf-8")
    assert feed.count("BEGIN:VEVENT") == 6 and "DTSTART:20270121T190000Z" in feed and "20261224" not in feed and "20261231" not in feed

    # the postponed game: the standings say "voorlopig" and name it until its result is in
    assert reply_to("/uitstel Anna de Vries tot=2026-12-17")[0].startswith("bot> Ronde 2, bord 1: Anna de Vries - Fleur de Boer is uitgesteld tot 2026-12-17.")
    assert reply_to("/stand")[0] == "bot> Stand 2026-27 na ronde 1"
    assert reply_to("/stand", 1)[0] == "bot> Stand 2026-27 na ronde 2 (voorlopig: 1 uitslag ontbreekt; inhaalpartij nog te spelen: 2: Anna de Vries - Fleur de Boer)"
    assert "inhaalpartij nog te spelen: 2: Anna de Vries - Fleur de Boer" in reply_to("/stand A")[0]
    anna = reply_to("/mijn", 1)
    assert "bot> Inhaalpartij van ronde 2 tegen Fleur de Boer: uitgesteld tot 2026-12-17; de uitslag komt in ronde 2 met /uitslag." in anna
    assert "bot> Ronde 3 is op 2026-12-17: dan speel je je inhaalpartij, dus je wordt in ronde 3 niet ingedeeld (als afgemeld op tijd)." in anna
    assert not any("afmelden kan tot" in x for x in anna)
    # round 3 leaves both players of the catch-up game out, and Anna's card says why (not "afgemeld")
    anna = reply_to("/mijn", 3)
    assert re.search(r"^bot>\s+3\s+inhaalpartij van ronde 2\s+56.67$", "\n".join(anna), re.M) and not any("Afgemeld" in x for x in anna)
    round_three = reply_to("/indeling", 2)
    assert round_three[0] == "bot> Indeling ronde 3 (2026-12-17)" and not any("Anna" in x or "Fleur" in x for x in round_three)
    assert reply_to("/uitslag Anna de Vries gewonnen 2") == ["bot> Uitslag bord 1 ronde 2: 1-0: Anna de Vries (wit) wint van Fleur de Boer."]
    assert reply_to("/stand 2")[0] == "bot> Stand 2026-27 na ronde 2 (voorlopig: 1 uitslag ontbreekt)"  # no catch-up game any more
    assert standings("/stand 2")["Anna de Vries"] == ("92", "2")

    # the no-show, twice: told apart from a sign-off, and signed off at once, privately, with /aanmelden
    kees = reply_to("/mijn", 2)
    assert "bot> Niet verschenen in ronde 2 (zonder afmelding): 0 Keizerpunten, en het telt mee voor de automatische afmelding na 2 keer op rij." in kees
    assert "[privé kees] Je bent 2 keer op rij niet verschenen zonder je af te melden, en daarom afgemeld voor de komende rondes van 2026-27. Speel je weer mee? Meld je aan met /aanmelden." in lines
    assert "bot> Je bent automatisch afgemeld voor de komende rondes (2 keer op rij niet verschenen); meld je weer aan met /aanmelden." in reply_to("/mijn", 4)
    assert reply_to("/aanmelden", 1)[0] == "bot> Je automatische afmelding is opgeheven."

    # the director's result against a player's report: asked first, naming who said what, then told
    asked = reply_to("/uitslag Ivo de Graaf gewonnen 3")[0]
    assert asked.startswith("bot! Ronde 3, bord 3: Ivo de Graaf meldde 0-1: Carla Smit (zwart) wint van Ivo de Graaf, en dat is niet 1-0")
    done = reply_to("/uitslag Ivo de Graaf gewonnen 3 toch")
    assert done[0] == "bot> Uitslag bord 3 ronde 3: 1-0: Ivo de Graaf (wit) wint van Carla Smit."
    assert done[1].startswith("bot> Dit spreekt tegen wat Ivo de Graaf meldde (0-1: Carla Smit (zwart) wint van Ivo de Graaf); 1 speler")
    assert any(x.startswith("[privé ivo] De wedstrijdleider heeft de uitslag van bord 3 ronde 3 vastgesteld") for x in done)

    # the late joiner from the chat: unrated, at the bottom; the director sets rating and group
    lotte = reply_to("/aanmelden")
    assert "bot> Lotte Peters stroomt in vanaf ronde 4: nog geen groep (die zet de wedstrijdleider: /speler Naam groep=A), 0 startpunten (plaats 13 van 13 in de ranglijst zoals die nu is)." in lotte
    assert any(x.startswith("[privé wedstrijdleider] Nieuw lid via de chat: Lotte Peters (nog zonder rating).") for x in lotte)
    assert reply_to("/speler Lotte Peters 1550 groep=B") == [
        "bot> Rating van Lotte Peters is nu 1550.",
        "bot> Lotte Peters: groep - → B",
        "bot> Lotte Peters stroomt in vanaf ronde 4: groep B, 61.92 startpunten (plaats 6 van 13 in de ranglijst zoals die nu is).",
    ]
    # the late joiner from the member list, with their group in column 8
    assert reply_to("/leden importeer examples/season-44-january.csv")[1:] == [
        "bot> Mark de Wit: groep - → C",
        "bot> Mark de Wit stroomt in vanaf ronde 4: groep C, 63.5 startpunten (plaats 6 van 14 in de ranglijst zoals die nu is).",
    ]
    assert "bot> Ronde 4: bord 4 tegen Fleur de Boer, jij speelt met wit." in reply_to("/mijn", 5)

    # the standings add up: each player's points in /stand are their /kaart's; the games are the cross table's
    after_four = standings("/stand", 3)
    assert reply_to("/stand", 3)[0] == "bot> Stand 2026-27 na ronde 4"
    assert len(after_four) == 14 and after_four["Lotte Peters"] == ("102", "1") and after_four["Mark de Wit"] == ("108", "1")
    assert re.search(r"bot>\s+4\s+Fleur de Boer\s+\d+\s+wit\s+1\s+102$", "\n".join(reply_to("/kaart", 1)), re.M)
    assert [x.removeprefix("bot> ") for x in reply_to("/stand B")[3:]] == [
        " 5  Lotte Peters      102      46      1", " 6  Eva Visser        101      45      4", "10  Gijs Mulder        63      41      4",
        "11  Fleur de Boer   59.67      40      3", "12  Hanna Dekker       37      39      3"]  # fmt: skip
    cross = {m.group(1): m.group(2).split() for m in (re.match(r"bot>\s*\d+\s+(.+?)\s{2,}\S+\s+(.*)$", x) for x in reply_to("/kruistabel")[3:]) if m}
    assert cross["Anna de Vries"][:4] == ["9z1", "11w1", "inh", "8z1"] and cross["Kees Vos"][:4] == ["2z0", "8w-", "12w-", "auto"]

    # the TRF file: the unrated member without a rating, each round on its own date, the free evenings skipped
    trf = saved("/exporteer trf").read_text(encoding="utf-8").splitlines()
    assert next(x for x in trf if x.startswith("132")).split()[1:] == ["26/12/03", "26/12/10", "26/12/17", "27/01/07", "27/01/14"]
    tim = next(x for x in trf if x.startswith("001") and "Tim Koster" in x)
    assert tim[48:52] == "    "  # positions 49-52, the rating: blank
    assert next(x for x in trf if x.startswith("072")) == "072 13"  # the rated players only
    points = {x[14:47].strip(): x[80:84].strip() for x in trf if x.startswith("001")}
    won = {name: sum(1.0 if cell == "vrij" else {"1": 1.0, "=": 0.5, "+": 1.0}.get(cell[-1], 0.0) for cell in cells) for name, cells in cross.items()}
    assert {name: float(p) for name, p in points.items()} == won  # the TRF's points are the cross table's (the bye: TRF's U, 1)
