"""The NK tournament file (JSON, docs/mcmahon.md) and the EGF tournament results export.

Pure: ``parse_tournament(text)`` -> ``Tournament``, ``export_tournament(t)`` -> text,
``egf_results(t, ...)`` -> the text of an EGF results table. Every error is a ``McMahonFileError``
naming the place in the file (``players[3].rating``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from engine.mcmahon.model import EARNED_GROUP1, EARNED_TOP, Game, Player, Points, Round, Settings, Tournament, egf_grade
from engine.mcmahon.tournament import standings


class McMahonFileError(ValueError):
    pass


def _fail(where: str, message: str) -> McMahonFileError:
    return McMahonFileError(f"{where}: {message}" if where else message)


def _get(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
    if key not in obj:
        if default is ...:
            raise _fail(where, f"missing {key!r}")
        return default
    value = obj[key]
    if value is None and default is None:
        return None
    if isinstance(value, bool) and kind is int:
        raise _fail(f"{where}.{key}", "expected a number, not true/false")
    if not isinstance(value, kind):
        raise _fail(f"{where}.{key}", f"expected {getattr(kind, '__name__', kind)}, got {type(value).__name__}")
    return value


def parse_tournament(text: str) -> Tournament:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise McMahonFileError(f"line {e.lineno}, column {e.colno}: {e.msg}") from None
    if not isinstance(data, dict):
        raise _fail("", "the file must hold one JSON object")
    name = _get(data, "name", str, "", "")
    raw_settings = _get(data, "settings", dict, "", {})
    rounds_n = _get(raw_settings, "rounds", int, "settings", 7)
    size = _get(raw_settings, "group_size", int, "settings", 16)
    if not 1 <= rounds_n <= 20:
        raise _fail("settings.rounds", "must be 1..20")
    if not 2 <= size <= 1000:
        raise _fail("settings.group_size", "must be 2..1000")
    players: list[Player] = []
    seen: set[str] = set()
    for i, raw in enumerate(_get(data, "players", list, "")):
        where = f"players[{i}]"
        if not isinstance(raw, dict):
            raise _fail(where, "expected an object")
        pid = _get(raw, "id", str, where)
        if not pid or pid in seen:
            raise _fail(f"{where}.id", f"empty or repeated id {pid!r}")
        seen.add(pid)
        earned = _get(raw, "earned", str, where, None)
        if earned not in (None, EARNED_TOP, EARNED_GROUP1):
            raise _fail(f"{where}.earned", f"expected 'top', 'group1' or null, got {earned!r}")
        rating = _get(raw, "rating", int, where)
        override = _get(raw, "strength", int, where, None)
        for key, value in (("rating", rating), ("strength", override)):
            if value is not None and not -900 <= value <= 3500:
                raise _fail(f"{where}.{key}", "must be -900..3500")
        players.append(
            Player(
                id=pid, name=_get(raw, "name", str, where, pid), rating=rating, strength_override=override,
                earned=earned, eligible=_get(raw, "eligible", bool, where, True),
                country=_get(raw, "country", str, where, "NL"), club=_get(raw, "club", str, where, ""),
                grade=_get(raw, "grade", str, where, None), egf_pin=_get(raw, "egf_pin", str, where, None),
                withdrawn_from=_get(raw, "withdrawn_from", int, where, None),
            )  # fmt: skip
        )
    eligible = {p.id for p in players if p.eligible}
    rounds: list[Round] = []
    for r, raw in enumerate(_get(data, "rounds", list, "", [])):
        where = f"rounds[{r}]"
        if not isinstance(raw, dict):
            raise _fail(where, "expected an object")
        number = _get(raw, "number", int, where, r + 1)
        if number != r + 1:
            raise _fail(f"{where}.number", f"expected round {r + 1}")
        used: set[str] = set()
        games: list[Game] = []
        for g, graw in enumerate(_get(raw, "games", list, where, [])):
            gw = f"{where}.games[{g}]"
            if not isinstance(graw, dict):
                raise _fail(gw, "expected an object")
            black = _get(graw, "black", str, gw)
            white = _get(graw, "white", str, gw)
            for key, pid in (("black", black), ("white", white)):
                if pid not in eligible:
                    raise _fail(f"{gw}.{key}", f"unknown or ineligible player {pid!r}")
                if pid in used:
                    raise _fail(f"{gw}.{key}", f"{pid!r} plays twice in round {number}")
                used.add(pid)
            winner = _get(graw, "winner", str, gw, None)
            if winner not in (None, black, white):
                raise _fail(f"{gw}.winner", f"{winner!r} did not play in this game")
            jigo = _get(graw, "jigo", bool, gw, False)
            if jigo and winner is not None:
                raise _fail(f"{gw}.jigo", "a jigo has no winner")
            games.append(Game(black, white, winner, _get(graw, "forfeit", bool, gw, False), board=g + 1, jigo=jigo))
        bye = _get(raw, "bye", str, where, None)
        if bye is not None and (bye not in eligible or bye in used):
            raise _fail(f"{where}.bye", f"unknown player or player with a game: {bye!r}")
        rounds.append(Round(number, tuple(games), bye))
    return Tournament(tuple(players), tuple(rounds), Settings(rounds=rounds_n, group_size=size), name)


def export_tournament(t: Tournament) -> str:
    """The tournament as a file that ``parse_tournament`` reads back to the same ``Tournament``."""
    data: dict[str, Any] = {
        "name": t.name,
        "settings": {"rounds": t.settings.rounds, "group_size": t.settings.group_size},
        "players": [
            {
                "id": p.id, "name": p.name, "rating": p.rating, "strength": p.strength_override, "earned": p.earned,
                "eligible": p.eligible, "country": p.country, "club": p.club, "grade": p.grade, "egf_pin": p.egf_pin,
                **({"withdrawn_from": p.withdrawn_from} if p.withdrawn_from is not None else {}),
            }  # fmt: skip
            for p in t.players
        ],
        "rounds": [
            {
                "number": r.number,
                "games": [
                    {"black": g.black, "white": g.white, "winner": g.winner, "forfeit": g.forfeit, **({"jigo": True} if g.jigo else {})}
                    for g in r.games
                ],
                "bye": r.bye,
            }
            for r in t.rounds
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


_ASCII = {"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
          "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i", "ĳ": "ij", "Ĳ": "IJ"}  # fmt: skip


def ascii_text(text: str) -> str:
    """Latin letters without their accents (``Émile Öztürk`` -> ``Emile Ozturk``, ``ß`` -> ``ss``): the EGF
    file is read as ASCII. Characters with no Latin form are left out."""
    spelled = "".join(_ASCII.get(c, c) for c in text)
    decomposed = unicodedata.normalize("NFKD", spelled)
    return "".join(c for c in decomposed if c.isascii() and (c.isprintable() or c == " "))


def _clean(text: str, width: int) -> str:
    """EGF fields are ASCII, separated by blanks: inner blanks become underscores; ';' starts a comment,
    '|' the PIN."""
    out = "_".join(ascii_text(text).replace(";", ",").replace("[", "(").replace("]", ")").replace("|", "/").split())
    return (out or "-")[:width]


_DATES = re.compile(r"\d{4}-\d{2}-\d{2}(,\d{4}-\d{2}-\d{2})?$")


EGF_OVERTIME_MOVES = 45  # the EGF's adjusted time: basic time plus the overtime of 45 moves


def adjusted_minutes(basic_minutes: int, seconds_per_move: int) -> int:
    """The EGF's ``TM[]``: basic time plus 45 moves of overtime, in whole minutes (90 min + 30 s/move: 112)."""
    return basic_minutes + EGF_OVERTIME_MOVES * seconds_per_move // 60


def check_header(name: str, value: str) -> str:
    """A header value as the EGF file carries it between ``[`` and ``]``: refused (``ValueError``) when it
    holds ``[``, ``]``, ``;`` or a line break, which would end the value or start another header."""
    if any(c in value for c in "[];\r\n") or not value.isprintable():
        raise ValueError(f"{name} may not hold [, ], ; or a line break: {value[:40]!r}")
    return value


def egf_results(
    t: Tournament,
    *,
    tournament_class: str = "A",
    place: str = "NL, Netherlands",
    dates: str = "",
    komi: str = "6.5",
    minutes: int = 112,
) -> str:
    """The final table in the EGF tournament results format (the text the EGF rating program reads).

    Header lines (comments to the parser, read by the rating officer): ``; CL[class]``, ``; EV[name]``,
    ``; PC[place]``, ``; DT[first,last date]``, ``; HA[h9]``, ``; KM[komi]``, ``; TM[adjusted minutes]``
    (komi 6.5 by default: no jigo; a tournament played with 7 passes it).
    Header values with ``[``, ``]``, ``;`` or a line break are refused (``ValueError``), and so is a ``dates``
    that is not ``YYYY-MM-DD[,YYYY-MM-DD]`` (the EGD requires ``DT``). ``; HA[h9]`` says the handicap policy,
    and every played result carries its handicap, 0 (the NK is played even). Then one line per player, in the order of
    the final standings: ``place surname_first_names grade country club MMS SOS SOSOS results...``. Each
    result is ``<opponent's place><+|-|=>/<b|w><handicap>`` (``=`` a jigo, after which scores carry a .5;
    the handicap digit is 0: ``3+/b0``). Only ``+ - =`` appear:
    a bye is ``0+`` (a free win); a forfeit, a game without a result and a round without a game (the title
    rounds for everyone but the finalists) are ``0+`` for the winner and ``0-`` for the other, so unplayed
    games are not rated. MMS is the McMahon score shifted so that the lowest start group starts at 0 (the
    EGF file has no negative scores); SOS and SOSOS are on the same base (every opponent's score shifted
    alike, a bye counted as an opponent with the player's own start score). Names are always two tokens,
    ``Surname First_names`` (blanks inside a part become underscores; a one-word name gets ``-`` as its
    first name), in ASCII (``ascii_text``), as are the grade, the country (two letters; the ``place``'s
    country when the player has none) and the club (at most 4 characters, ``-`` for none). A player's EGF
    PIN, when known, ends the line as ``|12345678`` (OpenGotha's form)."""
    for header, value in (("class", tournament_class), ("name", t.name), ("place", place), ("dates", dates), ("komi", komi)):
        check_header(header, value)
    if not _DATES.match(dates):
        raise ValueError(f"dates must be the first and last day, 2027-05-01,2027-05-02: {dates[:40]!r}")
    home = _clean(place.split(",")[0], 2).upper() if len(place.split(",")[0].strip()) == 2 else "NL"
    table = standings(t)
    place_of = {row.player.id: row.rank for row in table}
    shift = max((row.start_group for row in table), default=0)
    results: dict[str, list[str]] = {row.player.id: [] for row in table}
    opponents: dict[str, int] = {row.player.id: 0 for row in table}  # the rounds SOS sums over: all of them
    for rnd in t.rounds:
        entered: set[str] = set()
        for g in rnd.games:
            for me, other, colour in ((g.black, g.white, "b"), (g.white, g.black, "w")):
                if me not in results:
                    continue
                entered.add(me)
                opponents[me] += 1
                if g.jigo:
                    results[me].append(f"{place_of[other]}=/{colour}0")
                elif g.forfeit or g.winner is None:
                    results[me].append("0+" if g.winner == me else "0-")
                else:
                    results[me].append(f"{place_of[other]}{'+' if g.winner == me else '-'}/{colour}0")
        for pid, entries in results.items():
            if pid not in entered:
                entries.append("0+" if pid == rnd.bye else "0-")
                opponents[pid] += 1  # a round without an opponent adds the start score (EGF TSR)
    sos_of = {row.player.id: row.sos + shift * opponents[row.player.id] for row in table}
    lines = [
        f"; CL[{tournament_class}]",
        f"; EV[{t.name}]",
        f"; PC[{place}]",
        f"; DT[{dates}]",
        "; HA[h9]",
        f"; KM[{komi}]",
        f"; TM[{minutes}]",
        "; CM[Dutch Go Championship, McMahon double elimination (seed 000); generated by clubbot]",
        ";",
        "; Pl Name                          Str Co Club  MMS  SOS SOSOS  Results",
    ]
    for row in table:
        p = row.player
        surname, first = _egf_name(p.name)
        name = f"{_clean(surname, 20)} {_clean(first, 20)}"
        grade = p.grade or egf_grade(p.strength)
        pin = f"  |{p.egf_pin}" if p.egf_pin and p.egf_pin.isdigit() else ""
        sosos = _sosos(t, row.player.id, sos_of)
        country = _clean(p.country, 2).upper() if len(ascii_text(p.country).strip()) == 2 else home
        lines.append(
            f"{row.rank:>4} {name:<30} {_clean(grade, 4):>3} {country:<2} {_clean(p.club, 4):<4} "
            f"{_number(row.score + shift):>4} {_number(sos_of[p.id]):>4} {_number(sosos):>5}  " + " ".join(f"{e:>7}" for e in results[p.id]) + pin
        )
    return "\n".join(lines) + "\n"


def _number(value: Points) -> str:
    """A score in the EGF file: whole, or with .5 after a jigo."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def _sosos(t: Tournament, pid: str, sos_of: dict[str, Points]) -> Points:
    """The sum of the opponents' SOS on the MMS base (a round without an opponent: the player's own SOS),
    as the engine's SOSOS."""
    total: Points = 0
    for rnd in t.rounds:
        others = [g.white if g.black == pid else g.black for g in rnd.games if pid in (g.black, g.white)]
        total += sum(sos_of.get(other, 0) for other in others) if others else sos_of[pid]
    return total


def _egf_name(name: str) -> tuple[str, str]:
    """EGF lists the surname first: 'Jan de Vries' -> ('de Vries', 'Jan') (the last word, with Dutch
    particles before it, is the surname: 'Pieter van 't Hof' -> ('van 't Hof', 'Pieter'))."""
    words = name.split()
    if len(words) < 2:
        return name, ""
    particles = {"van", "de", "der", "den", "het", "'t", "’t", "in", "op", "ter", "ten", "te", "la", "le", "du", "von", "di", "da"}
    cut = len(words) - 1
    while cut > 1 and words[cut - 1].lower() in particles:
        cut -= 1
    return " ".join(words[cut:]), " ".join(words[:cut])
