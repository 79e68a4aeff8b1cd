"""The season file: one Keizer season as JSON text, parsed, checked and written back.

Pure: ``parse_season(text)`` takes the file's text and returns a ``Season``;
``export_season(season)`` returns the text. The CLI reads and writes the files.
The format is documented in ``docs/season-file.md``.

Every error is a ``SeasonFileError`` that names the line and column in the file where the
problem is. JSON syntax errors carry ``json``'s own position; for the checks after that
(unknown player, a player twice in a round, a wrong result text, ...) a small scanner
(``json_positions``) maps every JSON path, such as ``rounds[2].games[1].white``, to the
offset where its value (and, inside an object, its key) starts.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, NoReturn

from engine.keizer.json_positions import JsonPath, format_path, json_positions, line_column
from engine.keizer.model import Absence, Game, KeizerSettings, Player, PlayerId, Result, Round


RESULT_CODES: tuple[str, ...] = tuple(r.value for r in Result)
ABSENCE_KINDS: tuple[str, ...] = tuple(a.value for a in Absence)
VALUE_RULES: tuple[str, ...] = ("top", "ratio")
START_ORDERS: tuple[str, ...] = ("rating", "list")
RISER_FROM: tuple[str, ...] = ("start", "round1")


@dataclass(frozen=True)
class Season:
    """A season file's content."""

    settings: KeizerSettings = dataclasses.field(default_factory=KeizerSettings)
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = ()
    present: tuple[PlayerId, ...] | None = None  # for the next round; None: not given
    name: str | None = None
    dates: tuple[str, ...] = ()  # each round's play date (YYYY-MM-DD), one per round, or none given
    free_evenings: tuple[str, ...] = ()  # the evenings the season does not play (YYYY-MM-DD), in order

    def player(self, player_id: PlayerId) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)


class SeasonFileError(ValueError):
    """A bad season file; ``str()`` names the file, line and column and what is wrong."""

    def __init__(self, message: str, line: int, column: int, path: str = "", source: str = "season file"):
        self.message = message
        self.line = line
        self.column = column
        self.path = path
        self.source = source
        where = f"{source}: line {line}, column {column}"
        super().__init__(f"{where}: {path + ': ' if path else ''}{message}")


# --------------------------------------------------------------------------- parsing


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a season file")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_FRACTION_TEXT = re.compile(r"\s*-?[0-9]+(\s*/\s*[0-9]+|\.[0-9]+)?\s*")


class _Reader:
    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        positions = json_positions(text)
        self.values, self.keys, self.duplicates = positions.values, positions.keys, positions.duplicates

    def where(self, path: JsonPath, key: bool = False) -> tuple[int, int]:
        if key and path in self.keys:
            return line_column(self.text, self.keys[path])
        while path not in self.values:
            path = path[:-1]
        return line_column(self.text, self.values[path])

    def fail(self, path: JsonPath, message: str, key: bool = False) -> NoReturn:
        line, column = self.where(path, key)
        raise SeasonFileError(message, line, column, format_path(path), self.source)

    def line_of(self, path: JsonPath) -> int:
        return self.where(path)[0]

    # typed getters ---------------------------------------------------------

    def obj(self, x: Any, path: JsonPath, fields: tuple[str, ...], what: str) -> dict[str, Any]:
        if not isinstance(x, dict):
            self.fail(path, f"{what} must be an object {{...}}, not {_kind(x)}")
        for key in x:
            if key not in fields:
                self.fail(path + (key,), f"unknown field {key!r} in {what} (fields: {', '.join(fields)})", key=True)
        return x

    def lst(self, x: Any, path: JsonPath, what: str) -> list[Any]:
        if not isinstance(x, list):
            self.fail(path, f"{what} must be a list [...], not {_kind(x)}")
        return x

    def string(self, x: Any, path: JsonPath, what: str) -> str:
        if not isinstance(x, str) or not x.strip():
            self.fail(path, f"{what} must be a non-empty text, not {_kind(x)}")
        return x

    def integer(self, x: Any, path: JsonPath, what: str, minimum: int) -> int:
        if not _is_int(x):
            self.fail(path, f"{what} must be a whole number, not {_kind(x)}")
        if x < minimum:
            self.fail(path, f"{what} must be at least {minimum}, not {x}")
        return int(x)

    def fraction(self, x: Any, path: JsonPath, what: str) -> Fraction:
        if _is_int(x):
            value = Fraction(x)
        elif isinstance(x, float):
            value = Fraction(repr(x))
        elif isinstance(x, str) and _FRACTION_TEXT.fullmatch(x):
            try:
                value = Fraction(x.replace(" ", ""))
            except ZeroDivisionError:
                self.fail(path, f"{what}: division by zero in {x!r}")
        else:
            self.fail(path, f'{what} must be a number or a fraction text like "1/3", not {_kind(x)}')
        if value < 0:
            self.fail(path, f"{what} must not be negative, not {x!r}")
        return value

    def player_id(self, x: Any, path: JsonPath, known: dict[PlayerId, Player], what: str) -> PlayerId:
        pid = self.string(x, path, what)
        if pid not in known:
            self.fail(path, f"unknown player {pid!r}")
        return pid


def _shown(x: object) -> str:
    return repr(x) if isinstance(x, str) else _kind(x)


def _kind(x: object) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true/false"
    if isinstance(x, (int, float)):
        return f"the number {x}"
    if isinstance(x, str):
        return f"the text {x!r}"
    if isinstance(x, list):
        return "a list"
    return "an object"


_TOP_FIELDS = ("name", "settings", "players", "rounds", "present", "free_evenings")
_PLAYER_FIELDS = ("id", "name", "rating", "group", "joined_round", "start_points", "withdrawn_from", "returned_from")
_ROUND_FIELDS = ("number", "date", "games", "byes", "absent")
_GAME_FIELDS = ("white", "black", "result")


def parse_season(text: str, source: str = "season file") -> Season:
    """Parse and check a season file's text. Raises ``SeasonFileError`` naming the line."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise SeasonFileError(f"not valid JSON: {e.msg}", e.lineno, e.colno, "", source) from None
    except ValueError as e:  # NaN / Infinity
        raise SeasonFileError(str(e), *line_column(text, _first_constant(text)), "", source) from None
    except RecursionError:
        raise SeasonFileError("nested too deeply to be a season file", 1, 1, "", source) from None
    try:
        reader = _Reader(text, source)
    except RecursionError:
        raise SeasonFileError("nested too deeply to be a season file", 1, 1, "", source) from None
    if reader.duplicates:
        path = reader.duplicates[0]
        reader.fail(path, f"the key {path[-1]!r} appears twice in the same object", key=True)
    top = reader.obj(data, (), _TOP_FIELDS, "the season file")

    name = top.get("name")
    if name is not None and not isinstance(name, str):
        reader.fail(("name",), f"name must be a text, not {_kind(name)}")

    settings = _parse_settings(reader, top.get("settings"))
    players = _parse_players(reader, top.get("players"))
    known = {p.id: p for p in players}
    rounds = _parse_rounds(reader, top.get("rounds", []), known)

    present: tuple[PlayerId, ...] | None = None
    if top.get("present") is not None:
        items = reader.lst(top["present"], ("present",), "present")
        seen: dict[PlayerId, int] = {}
        for i, x in enumerate(items):
            pid = reader.player_id(x, ("present", i), known, "a present player")
            if known[pid].joined_round > len(rounds) + 1:
                reader.fail(
                    ("present", i),
                    f"player {pid!r} joins in round {known[pid].joined_round}, "
                    f"not in the next round ({len(rounds) + 1})",
                )
            if pid in seen:
                reader.fail(("present", i), f"player {pid!r} is listed twice (also at line {seen[pid]})")
            seen[pid] = reader.line_of(("present", i))
        present = tuple(seen)
    dates = _parse_dates(reader, top.get("rounds", []), len(rounds))
    free: list[str] = []
    for i, x in enumerate(reader.lst(top.get("free_evenings", []), ("free_evenings",), "free_evenings")):
        day = _day(reader, x, ("free_evenings", i), "a free evening")
        if day in free:
            reader.fail(("free_evenings", i), f"the free evening {day} is listed twice")
        free.append(day)
    return Season(settings=settings, players=players, rounds=rounds, present=present, name=name, dates=dates,
                  free_evenings=tuple(sorted(free)))  # fmt: skip


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _day(reader: _Reader, x: Any, path: JsonPath, what: str) -> str:
    """A date as YYYY-MM-DD that exists (no 2027-02-30)."""
    text = reader.string(x, path, what)
    try:
        ok = bool(_DATE.match(text)) and date.fromisoformat(text).isoformat() == text
    except ValueError:
        ok = False
    if not ok:
        reader.fail(path, f"{what} must be a date written YYYY-MM-DD, not {_shown(x)}")
    return text


def _parse_dates(reader: _Reader, raw: list[Any], count: int) -> tuple[str, ...]:
    """The rounds' ``date``s: every round has one or none has; each on or after the one before."""
    given = [i for i in range(count) if isinstance(raw[i], dict) and raw[i].get("date") is not None]
    if not given:
        return ()
    if len(given) != count:
        missing = next(i for i in range(count) if i not in given)
        reader.fail(("rounds", missing), f"round {missing + 1} has no date: give every round a date, or none")
    dates = [_day(reader, raw[i]["date"], ("rounds", i, "date"), "a round's date") for i in range(count)]
    for i in range(1, count):
        if dates[i] < dates[i - 1]:
            reader.fail(("rounds", i, "date"), f"round {i + 1} on {dates[i]} comes before round {i} on {dates[i - 1]}")
    return tuple(dates)


def _first_constant(text: str) -> int:
    match = re.search(r"NaN|-?Infinity", text)
    return match.start() if match else 0


def _parse_settings(reader: _Reader, raw: Any) -> KeizerSettings:
    if raw is None:
        return KeizerSettings()
    path: JsonPath = ("settings",)
    fields = {f.name: f for f in dataclasses.fields(KeizerSettings)}
    raw = reader.obj(raw, path, tuple(fields), "settings")
    values: dict[str, Any] = {}
    for key, x in raw.items():
        default = fields[key].default
        here = path + (key,)
        if isinstance(default, bool):
            if not isinstance(x, bool):
                reader.fail(here, f"{key} must be true or false, not {_kind(x)}")
            values[key] = x
        elif isinstance(default, Fraction):
            values[key] = reader.fraction(x, here, key)
        elif isinstance(default, int):
            values[key] = reader.integer(x, here, key, 1 if key in ("top_value", "cycles") else 0)
        elif isinstance(default, str):
            if key == "value_rule" and x not in VALUE_RULES:
                reader.fail(here, f"value_rule must be one of {', '.join(map(repr, VALUE_RULES))}, not {_kind(x)}")
            if key == "riser_from" and x not in RISER_FROM:
                reader.fail(here, f"riser_from must be one of {', '.join(map(repr, RISER_FROM))}, not {_kind(x)}")
            if key == "start_order" and x not in START_ORDERS:
                reader.fail(here, f"start_order must be one of {', '.join(map(repr, START_ORDERS))}, not {_kind(x)}")
            values[key] = reader.string(x, here, key)
        else:  # pragma: no cover - a new kind of setting
            values[key] = x
    return KeizerSettings(**values)


def _parse_players(reader: _Reader, raw: Any) -> tuple[Player, ...]:
    if raw is None:
        reader.fail((), "the season file needs a players list")
    items = reader.lst(raw, ("players",), "players")
    players: list[Player] = []
    first_line: dict[PlayerId, int] = {}
    for i, x in enumerate(items):
        path: JsonPath = ("players", i)
        p = reader.obj(x, path, _PLAYER_FIELDS, "a player")
        if "id" not in p:
            reader.fail(path, "a player needs an id")
        pid = reader.string(p["id"], path + ("id",), "a player's id")
        if pid in first_line:
            reader.fail(path + ("id",), f"duplicate player id {pid!r} (first at line {first_line[pid]})")
        first_line[pid] = reader.line_of(path + ("id",))
        if "name" not in p:
            reader.fail(path, f"player {pid!r} needs a name")
        group = p.get("group")
        if group is not None:
            group = reader.string(group, path + ("group",), "group")
        start = p.get("start_points")
        players.append(
            Player(
                id=pid,
                name=reader.string(p["name"], path + ("name",), "a player's name"),
                rating=reader.integer(p.get("rating", 0), path + ("rating",), "rating", 0),
                group=group,
                joined_round=reader.integer(p.get("joined_round", 1), path + ("joined_round",), "joined_round", 1),
                start_points=None if start is None else reader.fraction(start, path + ("start_points",), "start_points"),
                withdrawn_from=None if p.get("withdrawn_from") is None
                else reader.integer(p["withdrawn_from"], path + ("withdrawn_from",), "withdrawn_from", 1),
                returned_from=None if p.get("returned_from") is None
                else reader.integer(p["returned_from"], path + ("returned_from",), "returned_from", 1),
            )
        )
    return tuple(players)


class _Seats:
    """Who is already in a round (a game, a bye or an absence), to catch a player twice."""

    def __init__(self, reader: _Reader, known: dict[PlayerId, Player], number: int):
        self.reader, self.known, self.number = reader, known, number
        self.taken: dict[PlayerId, str] = {}

    def take(self, pid: PlayerId, where: JsonPath, what: str, key: bool = False) -> None:
        player = self.known[pid]
        if player.joined_round > self.number:
            self.reader.fail(where, f"player {pid!r} joins in round {player.joined_round}, not before", key)
        if pid in self.taken:
            self.reader.fail(where, f"player {pid!r} is already in this round: {self.taken[pid]}", key)
        self.taken[pid] = f"{what} (line {self.reader.where(where, key)[0]})"


def _parse_rounds(reader: _Reader, raw: Any, known: dict[PlayerId, Player]) -> tuple[Round, ...]:
    items = reader.lst(raw, ("rounds",), "rounds")
    rounds: list[Round] = []
    for i, x in enumerate(items):
        path: JsonPath = ("rounds", i)
        r = reader.obj(x, path, _ROUND_FIELDS, "a round")
        number = i + 1
        if r.get("number") is not None:
            given = reader.integer(r["number"], path + ("number",), "number", 1)
            if given != number:
                reader.fail(
                    path + ("number",),
                    f"this is round {number} of the list, but its number is {given} "
                    "(rounds are listed in order 1, 2, 3, ...)",
                )
        take = _Seats(reader, known, number).take

        games: list[Game] = []
        for j, g in enumerate(reader.lst(r.get("games", []), path + ("games",), "games")):
            gpath = path + ("games", j)
            g = reader.obj(g, gpath, _GAME_FIELDS, "a game")
            colours = []
            for colour in ("white", "black"):
                if colour not in g:
                    reader.fail(gpath, f"a game needs {colour}")
                pid = reader.player_id(g[colour], gpath + (colour,), known, colour)
                take(pid, gpath + (colour,), f"game {j + 1} as {colour}")
                colours.append(pid)
            code = g.get("result")
            result = None
            if code is not None:
                if code not in RESULT_CODES:
                    reader.fail(
                        gpath + ("result",),
                        f"wrong result {_shown(code)}: expected one of {', '.join(RESULT_CODES)} or null",
                    )
                result = Result(code)
            games.append(Game(colours[0], colours[1], result))

        byes: list[PlayerId] = []
        for j, b in enumerate(reader.lst(r.get("byes", []), path + ("byes",), "byes")):
            pid = reader.player_id(b, path + ("byes", j), known, "a bye")
            take(pid, path + ("byes", j), "a bye")
            byes.append(pid)

        absent: dict[PlayerId, Absence] = {}
        raw_absent = r.get("absent", {})
        if not isinstance(raw_absent, dict):
            reader.fail(path + ("absent",), f"absent must be an object {{player id: kind}}, not {_kind(raw_absent)}")
        for pid, kind in raw_absent.items():
            apath = path + ("absent", pid)
            if pid not in known:
                reader.fail(apath, f"unknown player {pid!r}", key=True)
            take(pid, apath, "absent", key=True)
            if kind not in ABSENCE_KINDS:
                reader.fail(apath, f"wrong absence {_shown(kind)}: expected one of {', '.join(ABSENCE_KINDS)}")
            absent[pid] = Absence(kind)
        rounds.append(Round(number=number, games=tuple(games), byes=tuple(byes), absent=absent))
    return tuple(rounds)


# --------------------------------------------------------------------------- export


def _fraction_json(x: Fraction) -> int | str:
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def settings_json(settings: KeizerSettings) -> dict[str, Any]:
    """The settings that differ from the defaults, as in a season file's ``settings``
    (fractions as ``"1/3"`` texts, whole ones as numbers). Used by the bot's store too."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(KeizerSettings):
        value = getattr(settings, f.name)
        if value == f.default and type(value) is type(f.default):
            continue
        out[f.name] = _fraction_json(value) if isinstance(value, Fraction) else value
    return out


def _player_json(p: Player) -> dict[str, Any]:
    out: dict[str, Any] = {"id": p.id, "name": p.name, "rating": p.rating}
    if p.group is not None:
        out["group"] = p.group
    if p.joined_round != 1:
        out["joined_round"] = p.joined_round
    if p.start_points is not None:
        out["start_points"] = _fraction_json(Fraction(p.start_points))
    if p.withdrawn_from is not None:
        out["withdrawn_from"] = p.withdrawn_from
    if p.returned_from is not None:
        out["returned_from"] = p.returned_from
    return out


def _dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False)


def export_season(season: Season) -> str:
    """The season as a season file's text (``parse_season`` gives the same ``Season`` back).

    Layout: one line per player and per game; settings only where they differ from the
    defaults; every round written with its number.
    """
    lines = ["{"]
    parts: list[str] = []
    if season.name is not None:
        parts.append(f'  "name": {_dumps(season.name)}')
    settings = settings_json(season.settings)
    if settings:
        parts.append(f'  "settings": {_dumps(settings)}')
    players = ",\n".join(f"    {_dumps(_player_json(p))}" for p in season.players)
    parts.append('  "players": [\n' + players + "\n  ]" if season.players else '  "players": []')
    rounds = []
    for r in season.rounds:
        games = ",\n".join(
            "      "
            + _dumps({"white": g.white, "black": g.black, "result": None if g.result is None else g.result.value})
            for g in r.games
        )
        absent = {pid: kind.value for pid, kind in r.absent.items()}
        dated = f'      "date": {_dumps(season.dates[r.number - 1])},\n' if len(season.dates) >= r.number else ""
        rounds.append(
            "    {\n"
            f'      "number": {r.number},\n'
            + dated
            + ('      "games": [\n' + games + "\n      ],\n" if r.games else '      "games": [],\n')
            + f'      "byes": {_dumps(list(r.byes))},\n'
            f'      "absent": {_dumps(absent)}\n'
            "    }"
        )
    parts.append('  "rounds": [\n' + ",\n".join(rounds) + "\n  ]" if rounds else '  "rounds": []')
    if season.present is not None:
        parts.append(f'  "present": {_dumps(list(season.present))}')
    if season.free_evenings:
        parts.append(f'  "free_evenings": {_dumps(list(season.free_evenings))}')
    lines.append(",\n".join(parts))
    lines.append("}")
    return "\n".join(lines) + "\n"
