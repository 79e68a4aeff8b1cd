"""The EGF results file as the European Go Database reads it (issue 31 §2), checked by a reader written
from the format's description, not from our writer: header lines ``; XX[value]`` (CL, EV, PC, DT with the
first and last day, HA with the handicap policy, KM, TM); then per player one line of blank-separated
ASCII fields: place, surname, first name (always two name tokens), grade (``5d``, ``3k``), country (two
capitals), club, any score columns, one result per round (``<opponent's place><+|-|=>/<b|w><handicap>``,
or ``0+``, ``0-``, ``0=`` for a round without a game), and the EGF PIN as ``|12345678`` at the end."""

from __future__ import annotations

import re

from engine.mcmahon.files import egf_results
from engine.mcmahon.model import Game, Player, Round, Tournament

RESULT = re.compile(r"^(\d+)([+=-])(?:/([bw])(\d))?$")
HEADER = re.compile(r"^;\s*([A-Z]{2})\[([^\]]*)\]")


def read_egd(text: str) -> tuple[dict[str, str], list[dict[str, object]]]:
    """The headers and the player lines of an EGD results file; an AssertionError where the EGD would
    refuse it or read it wrong."""
    headers: dict[str, str] = {}
    players: list[dict[str, object]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        assert line.isascii(), f"line {number} is not ASCII: {line!r}"
        if line.startswith(";"):
            m = HEADER.match(line)
            if m:
                headers[m.group(1)] = m.group(2)
            continue
        if not line.strip():
            continue
        tokens = line.split()
        pin = tokens.pop()[1:] if tokens[-1].startswith("|") else None
        assert pin is None or re.fullmatch(r"\d{8}", pin), f"line {number}: PIN {pin!r}"
        results = []
        while tokens and RESULT.match(tokens[-1]):
            results.insert(0, tokens.pop())
        assert len(tokens) >= 6, f"line {number}: fields missing: {line!r}"
        place, surname, first, grade, country, club = tokens[:6]
        assert place.isdigit(), f"line {number}: place {place!r}"
        for part in (surname, first):
            assert re.fullmatch(r"[A-Za-z0-9_'.-]+", part), f"line {number}: name {part!r}"
        assert re.fullmatch(r"\d{1,2}[kdp]", grade), f"line {number}: grade {grade!r} (the columns shifted?)"
        assert re.fullmatch(r"[A-Z]{2}", country), f"line {number}: country {country!r}"
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,4}", club), f"line {number}: club {club!r}"
        assert all(re.fullmatch(r"\d+(\.5)?", t) for t in tokens[6:]), f"line {number}: score columns {tokens[6:]}"
        players.append({"place": int(place), "surname": surname, "first": first, "grade": grade, "country": country,
                        "club": club, "results": results, "pin": pin})  # fmt: skip
    for key in ("CL", "EV", "PC", "DT", "HA", "KM", "TM"):
        assert key in headers, f"no {key}[] header"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}(,\d{4}-\d{2}-\d{2})?", headers["DT"]), headers["DT"]
    assert re.fullmatch(r"h\d", headers["HA"]), headers["HA"]
    return headers, players


def tournament() -> Tournament:
    players = (
        Player("p1", "Émile Öztürk", 2400, club="Amsterdam Go", egf_pin="12345678"),
        Player("p2", "Anna", 2300, country="BE", club="Brussel"),  # registered in the chat with one name
        Player("p3", "Jan de Vries", 2200, club=""),
        Player("p4", "Zoë Łukasiewicz-Strauß", 2100, club="Den Haag"),
    )
    rounds = (
        Round(1, (Game("p1", "p2", winner="p1", board=1), Game("p3", "p4", winner="p4", board=2))),
        Round(2, (Game("p4", "p1", winner="p4", board=1), Game("p2", "p3", winner="p3", board=2))),
    )
    return Tournament(players, rounds, name="NK 2027")


def test_the_egd_reads_the_file_as_written() -> None:
    text = egf_results(tournament(), dates="2027-05-01,2027-05-02")
    headers, players = read_egd(text)
    assert headers["DT"] == "2027-05-01,2027-05-02" and headers["HA"] == "h9"
    by_name = {p["surname"]: p for p in players}
    assert set(by_name) == {"Ozturk", "Anna", "de_Vries", "Lukasiewicz-Strauss"}
    assert by_name["Ozturk"]["first"] == "Emile" and by_name["Ozturk"]["pin"] == "12345678"
    assert by_name["Ozturk"]["club"] == "Amst" and by_name["Ozturk"]["country"] == "NL"
    assert by_name["Anna"]["country"] == "BE" and by_name["Anna"]["first"] == "-"
    assert by_name["Lukasiewicz-Strauss"]["first"] == "Zoe"
    # every played game is in both lines, once won and once lost, with opposite colours and handicap 0
    place = {p["place"]: p for p in players}
    for p in players:
        assert len(p["results"]) == 2  # type: ignore[arg-type]
        for r, result in enumerate(p["results"]):  # type: ignore[arg-type]
            m = RESULT.match(result)
            assert m is not None
            opponent, sign, colour, handicap = int(m.group(1)), m.group(2), m.group(3), m.group(4)
            assert colour is not None and handicap == "0"
            theirs = RESULT.match(place[opponent]["results"][r])  # type: ignore[index]
            assert theirs is not None and int(theirs.group(1)) == p["place"]
            assert {sign, theirs.group(2)} == {"+", "-"} and {colour, theirs.group(3)} == {"b", "w"}


def test_the_dates_are_required() -> None:
    import pytest

    for dates in ("", "1 mei", "2027-05-01,"):
        with pytest.raises(ValueError):
            egf_results(tournament(), dates=dates)


def test_dutch_surnames_keep_their_particles_with_t_and_in() -> None:
    """'Pieter van 't Hof' is Hof with "van 't" before it (found in a month run through the console: the
    file said ``Hof Pieter_van_'t``), as 'Jan de Vries' is Vries with "de"."""
    from engine.mcmahon.files import _egf_name

    assert _egf_name("Pieter van 't Hof") == ("van 't Hof", "Pieter")
    assert _egf_name("Jan de Vries") == ("de Vries", "Jan")
    assert _egf_name("Kees in 't Veld") == ("in 't Veld", "Kees")
    assert _egf_name("Anna") == ("Anna", "")
