"""The season file: every bad file names the right line; export and parse are each other's inverse."""

from __future__ import annotations

import json
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.paths import REPO
from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round
from engine.keizer.season_file import (
    Season,
    SeasonFileError,
    export_season,
    format_path,
    json_positions,
    parse_season,
)

EXAMPLE = REPO / "examples" / "season.json"

GOOD = """{
  "name": "test",
  "settings": {"top_value": 40, "notice_fraction": "1/4", "team_fraction": 0.5},
  "players": [
    {"id": "a", "name": "Ann", "rating": 1900, "group": "A"},
    {"id": "b", "name": "Bob", "rating": 1800},
    {"id": "c", "name": "Cas", "rating": 1700},
    {"id": "d", "name": "Dirk", "rating": 1600, "joined_round": 2, "start_points": "7/2"}
  ],
  "rounds": [
    {
      "games": [
        {"white": "a", "black": "b", "result": "1-0"}
      ],
      "byes": ["c"]
    },
    {
      "number": 2,
      "games": [
        {"white": "c", "black": "a", "result": null},
        {"white": "b", "black": "d", "result": "0-1F"}
      ],
      "absent": {}
    }
  ],
  "present": ["a", "b", "c"]
}
"""


def where(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column of the n-th occurrence of needle in text (found by hand, not by the parser)."""
    offset = -1
    for _ in range(occurrence):
        offset = text.index(needle, offset + 1)
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def error_of(text: str) -> SeasonFileError:
    with pytest.raises(SeasonFileError) as info:
        parse_season(text, source="s.json")
    return info.value


def test_good_file() -> None:
    season = parse_season(GOOD)
    assert season.name == "test"
    assert season.settings == KeizerSettings(top_value=40, notice_fraction=Fraction(1, 4),
                                             team_fraction=Fraction(1, 2))
    assert [p.id for p in season.players] == ["a", "b", "c", "d"]
    assert season.players[3] == Player("d", "Dirk", 1600, None, 2, Fraction(7, 2))
    assert season.rounds[0] == Round(1, (Game("a", "b", Result.WHITE_WINS),), ("c",), {})
    assert season.rounds[1].games == (Game("c", "a", None), Game("b", "d", Result.BLACK_WINS_FORFEIT))
    assert season.present == ("a", "b", "c")


@pytest.mark.parametrize(
    "old, new, needle, occurrence, words",
    [
        # unknown player ids, wherever they are
        ('{"white": "c", "black": "a"', '{"white": "zz", "black": "a"', '"zz"', 1, "unknown player 'zz'"),
        ('"byes": ["c"]', '"byes": ["zz"]', '"zz"', 1, "unknown player 'zz'"),
        ('"absent": {}', '"absent": {"zz": "notice"}', '"zz"', 1, "unknown player 'zz'"),
        ('"present": ["a", "b", "c"]', '"present": ["a", "zz"]', '"zz"', 1, "unknown player 'zz'"),
        # a player twice in a round: the second place is named, and the first one's line
        ('"byes": ["c"]', '"byes": ["a"]', '"a"]', 1, "already in this round: game 1 as white"),
        ('{"white": "b", "black": "d"', '{"white": "a", "black": "d"', '"white": "a"', 2, "already in this round"),
        ('"absent": {}', '"absent": {"b": "team"}', '"b": "team"', 1, "already in this round"),
        # result and absence texts
        ('"result": "1-0"', '"result": "1-1"', '"1-1"', 1, "wrong result '1-1': expected one of 1-0, 0-1, 1/2-1/2, 1-0F, 0-1F, 0-0F or null"),
        ('"result": "0-1F"', '"result": 1', '"result": 1', 1, "wrong result the number 1"),
        ('"byes": ["c"]', '"absent": {"c": "ill"}', '"ill"', 1, "wrong absence"),
        # players
        ('{"id": "c", "name": "Cas"', '{"id": "a", "name": "Cas"', '"a", "name": "Cas"', 1,
         "duplicate player id 'a' (first at line 5)"),
        ('"rating": 1800', '"rating": "1800"', '"1800"', 1, "rating must be a whole number"),
        ('"rating": 1800', '"rating": 1800.5', "1800.5", 1, "rating must be a whole number"),
        ('"rating": 1800', '"rating": true', "true", 1, "rating must be a whole number"),
        ('"joined_round": 2', '"joined_round": 0', '"joined_round": 0', 1, "at least 1"),
        ('"start_points": "7/2"', '"start_points": "7/0"', '"7/0"', 1, "division by zero"),
        ('{"id": "b", "name": "Bob"', '{"id": "b"', '{"id": "b"', 1, "needs a name"),
        ('{"id": "b", "name": "Bob"', '{"name": "Bob"', '{"name": "Bob"', 1, "needs an id"),
        ('"rating": 1800}', '"rating": 1800, "club": "x"}', '"club"', 1, "unknown field 'club'"),
        # rounds
        ('"number": 2', '"number": 3', '"number": 3', 1, "its number is 3"),
        ('"byes": ["c"]', '"byes": ["d"]', '"d"]', 1, "joins in round 2"),
        ('"present": ["a", "b", "c"]', '"present": ["a", "a"]', '"a"]', 1, "listed twice"),
        ('{"white": "a", "black": "b", "result": "1-0"}', '["a", "b", "1-0"]', '["a"', 1, "must be an object"),
        ('"result": "1-0"}', '"reslt": "1-0"}', '"reslt"', 1, "unknown field 'reslt'"),
        ('{"white": "a", "black": "b"', '{"white": "a", "black": "a"', '"black": "a"', 1, "already in this round"),
        ('"byes": ["c"]', '"byes": "c"', '"byes": "c"', 1, "byes must be a list"),
        # settings
        ('"top_value": 40', '"top_value": 40, "top_valeu": 3', '"top_valeu"', 1, "unknown field 'top_valeu'"),
        ('"notice_fraction": "1/4"', '"notice_fraction": "a third"', '"a third"', 1, "fraction text"),
        ('"notice_fraction": "1/4"', '"notice_fraction": "-1/4"', '"-1/4"', 1, "must not be negative"),
        ('"top_value": 40', '"top_value": 0', '"top_value": 0', 1, "at least 1"),
        ('"top_value": 40', '"start_bonus": 1', '"start_bonus": 1', 1, "true or false"),
        ('"top_value": 40', '"value_rule": "best"', '"best"', 1, "value_rule must be one of"),
        # JSON itself
        ('"name": "test",', '"name": "test", "name": "x",', '"name": "x"', 1, "appears twice"),
    ],
)
def test_bad_file_names_the_line(old: str, new: str, needle: str, occurrence: int, words: str) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    error = error_of(text)
    line, _ = where(text, needle, occurrence)
    assert error.line == line, str(error)
    assert words in str(error), str(error)
    assert str(error).startswith(f"s.json: line {line}, column "), str(error)


def test_column_points_at_the_value() -> None:
    text = GOOD.replace('"white": "c"', '"white": "zz"')
    error = error_of(text)
    assert (error.line, error.column) == where(text, '"zz"')
    assert error.path == "rounds[1].games[0].white"


def test_json_syntax_errors_use_the_json_position() -> None:
    text = GOOD.replace('"byes": ["c"]\n', '"byes": ["c"],\n')  # trailing comma before }
    error = error_of(text)
    line, _ = where(text, '"byes": ["c"],')
    assert error.line == line + 1  # json reports where the next key was expected: the "}" line
    assert "not valid JSON" in str(error)
    assert error_of("").line == 1
    nan = GOOD.replace('"rating": 1800', '"rating": NaN')
    assert error_of(nan).line == where(nan, "NaN")[0]


@pytest.mark.parametrize("text, words", [
    ("[]", "must be an object"),
    ('{"rounds": []}', "needs a players list"),
    ('{"players": {}}', "players must be a list"),
    ('{"players": [], "round": []}', "unknown field 'round'"),
    ('{"players": [], "name": 3}', "name must be a text"),
])
def test_top_level_shape(text: str, words: str) -> None:
    assert words in str(error_of(text))


def test_empty_season() -> None:
    assert parse_season('{"players": []}') == Season()


# --------------------------------------------------------------------------- positions


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=20,
)


def walk(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    out = [(path, value)]
    if isinstance(value, list):
        for i, x in enumerate(value):
            out += walk(x, path + (i,))
    elif isinstance(value, dict):
        for k, x in value.items():
            out += walk(x, path + (k,))
    return out


@given(json_values, st.sampled_from([None, 0, 2, "\t"]), st.booleans())
def test_positions_point_at_each_value_and_key(value: Any, indent: Any, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    pos = json_positions(text)
    decoder = json.JSONDecoder()
    for path, expected in walk(value):
        assert decoder.raw_decode(text, pos.values[path])[0] == expected
        if path:
            assert (path in pos.keys) == isinstance(path[-1], str)
        if path and isinstance(path[-1], str):
            assert decoder.raw_decode(text, pos.keys[path])[0] == path[-1]
    assert set(pos.values) == {p for p, _ in walk(value)}
    assert pos.duplicates == []


def test_format_path() -> None:
    assert format_path(("rounds", 2, "games", 1, "white")) == "rounds[2].games[1].white"
    assert format_path(()) == ""


# --------------------------------------------------------------------------- round trip


ids = st.text("abcdefghijklmnopqrstuvwxyzé-_ ", min_size=1, max_size=6).filter(lambda s: s.strip() != "")
fractions = st.fractions(min_value=0, max_value=10, max_denominator=12)
# The strategies a season draws from again and again, made once: one made anew for every draw is validated
# and labelled anew each time, which cost Hypothesis more than the examples themselves (the same draws).
names = st.text(min_size=1, max_size=8).filter(lambda s: s.strip() != "")
groups = st.none() | st.sampled_from(["A", "B", "C", "D"])
start_points = st.none() | fractions
kinds = st.sampled_from(["game", "bye", "absent", "skip"])
results = st.none() | st.sampled_from(list(Result))
absences = st.sampled_from(list(Absence))


@st.composite
def seasons(draw: st.DrawFn) -> Season:
    player_ids = draw(st.lists(ids, min_size=0, max_size=9, unique=True))
    n_rounds = draw(st.integers(0, 5))
    players = tuple(
        Player(
            id=pid,
            name=draw(names),
            rating=draw(st.integers(0, 2800)),
            group=draw(groups),
            joined_round=draw(st.integers(1, n_rounds + 1)),
            start_points=draw(start_points),
        )
        for pid in player_ids
    )
    rounds = []
    for number in range(1, n_rounds + 1):
        here = [p.id for p in players if p.joined_round <= number]
        here = draw(st.permutations(here))
        games, byes, absent = [], [], {}
        i = 0
        while i < len(here):
            kind = draw(kinds)
            if kind == "game" and i + 1 < len(here):
                games.append(Game(here[i], here[i + 1], draw(results)))
                i += 2
                continue
            if kind == "bye":
                byes.append(here[i])
            elif kind == "absent":
                absent[here[i]] = draw(absences)
            i += 1
        rounds.append(Round(number, tuple(games), tuple(byes), absent))
    changes: dict[str, Any] = {}
    if draw(st.booleans()):
        changes = {
            "top_value": draw(st.integers(1, 80)),
            "value_rule": draw(st.sampled_from(["top", "ratio"])),
            "notice_fraction": draw(fractions),
            "start_bonus": draw(st.booleans()),
            "cycle_length": draw(st.integers(0, 9)),
        }
    next_round = n_rounds + 1
    eligible = [p.id for p in players if p.joined_round <= next_round]
    present = draw(st.none() | st.lists(st.sampled_from(eligible), unique=True) if eligible else st.none())
    days, day = [], date(2026, 9, 3)  # each round's date, on or after the one before (a double round: the same)
    for step in draw(st.lists(st.integers(0, 15), min_size=n_rounds, max_size=n_rounds)):
        day += timedelta(days=step)
        days.append(day.isoformat())
    free = draw(st.lists(st.dates(date(2026, 9, 1), date(2027, 8, 31)), unique=True, max_size=4))
    return Season(
        settings=KeizerSettings(**changes),
        players=players,
        rounds=tuple(rounds),
        present=None if present is None else tuple(present),
        name=draw(st.none() | st.text(max_size=10)),
        dates=tuple(days) if draw(st.booleans()) else (),
        free_evenings=tuple(sorted(d.isoformat() for d in free)),
    )


@settings(max_examples=150)
@given(seasons())
def test_export_then_parse_is_identity(season: Season) -> None:
    text = export_season(season)
    again = parse_season(text)
    assert again == season
    assert export_season(again) == text


def test_example_file_round_trips() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    season = parse_season(text, source=str(EXAMPLE))
    assert parse_season(export_season(season)) == season
    assert len(season.players) >= 12 and len(season.rounds) >= 5
    kinds = {k for r in season.rounds for k in r.absent.values()}
    assert kinds == set(Absence) - {Absence.AUTO}  # the example has no automatic sign-off (see below)
    assert any(r.byes for r in season.rounds)
    forfeits = {Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT}
    assert any(g.result in forfeits for r in season.rounds for g in r.games)


def test_docs_example_and_rapid_example_parse() -> None:
    docs = (EXAMPLE.parents[1] / "docs" / "season-file.md").read_text(encoding="utf-8")
    block = docs.split("```json\n", 1)[1].split("```", 1)[0]
    season = parse_season(block, source="docs/season-file.md")
    assert season.rounds[1].number == 2  # "number" left out: its position
    assert season.rounds[1].games[1].result is None
    assert season.rounds[1].absent == {"bram": Absence.NOTICE, "lars": Absence.UNEXCUSED}
    rapid = parse_season((EXAMPLE.parent / "rapid.json").read_text(encoding="utf-8"))
    assert parse_season(export_season(rapid)) == rapid


@pytest.mark.parametrize("old, new, needle", [
    ('"result": "1-0"', '"result": "2-0"', '"2-0"'),
    ('"byes": ["c"]', '"byes": ["c", "q"]', '"q"'),
    ('"rating": 1700', '"rating": -5', "-5"),
    ('"top_value": 40', '"top_value": "forty"', '"forty"'),
])
def test_column_points_at_the_bad_value(old: str, new: str, needle: str) -> None:
    text = GOOD.replace(old, new, 1)
    error = error_of(text)
    assert (error.line, error.column) == where(text, needle)


@pytest.mark.parametrize("depth", [900, 100_000])
def test_deep_nesting_is_a_clear_error(depth: int) -> None:
    text = '{"players": [], "name": ' + "[" * depth + "]" * depth + "}"
    error = error_of(text)
    assert error.line == 1
    assert "nested too deeply" in str(error) or "name must be a text" in str(error)


def test_withdrawals_automatic_sign_offs_and_the_new_settings_round_trip() -> None:
    season = Season(
        settings=KeizerSettings(auto_signoff_fraction=Fraction(0), riser_from="round1"),
        players=(Player("a", "A", 1800), Player("b", "B", 1700, withdrawn_from=2, returned_from=4), Player("c", "C", 1600)),
        rounds=(Round(1, (Game("a", "b", Result.DRAW),), absent={"c": Absence.AUTO}),),
    )
    text = export_season(season)
    assert '"withdrawn_from": 2' in text and '"returned_from": 4' in text and '"auto"' in text and '"riser_from": "round1"' in text
    assert parse_season(text) == season
    bad = text.replace('"round1"', '"whenever"')
    with pytest.raises(SeasonFileError, match="riser_from must be one of"):
        parse_season(bad)


@pytest.mark.parametrize(
    "first, second, free, words",
    [
        ('"2026-12-03"', '"2027-02-30"', "[]", "a round's date must be a date written YYYY-MM-DD, not '2027-02-30'"),
        ('"2026-12-10"', '"2026-12-03"', "[]", "round 2 on 2026-12-03 comes before round 1 on 2026-12-10"),
        ('"2026-12-03"', "null", "[]", "round 2 has no date: give every round a date, or none"),
        ('"2026-12-03"', '"2026-12-10"', '["2026-12-24", "2026-12-24"]', "the free evening 2026-12-24 is listed twice"),
        ('"2026-12-03"', '"2026-12-10"', '["24-12-2026"]', "a free evening must be a date written YYYY-MM-DD"),
    ],
)
def test_round_dates_and_free_evenings_are_checked(first: str, second: str, free: str, words: str) -> None:
    """Issue 44 §1: each round's date (all or none, in order, real dates) and the free evenings."""
    assert words in str(error_of(_dated(first, second, free)))
    season = parse_season(_dated('"2026-12-03"', '"2026-12-10"', '["2026-12-24"]'))
    assert season.dates == ("2026-12-03", "2026-12-10") and season.free_evenings == ("2026-12-24",)


def _dated(first: str, second: str, free: str) -> str:
    text = GOOD.replace('"byes": ["c"]', f'"date": {first}, "byes": ["c"]').replace('"number": 2,', f'"number": 2, "date": {second},')
    return text.replace('"present": ["a", "b", "c"]', f'"present": ["a", "b", "c"], "free_evenings": {free}')
