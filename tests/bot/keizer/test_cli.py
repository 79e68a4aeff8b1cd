"""`clubbot keizer ...` on the example season and on bad files."""

from __future__ import annotations

from tests.paths import REPO

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main

ROOT = REPO
EXAMPLE = ROOT / "examples" / "season.json"
RAW = json.loads(EXAMPLE.read_text(encoding="utf-8"))  # the example, read without the code under test


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def write(tmp_path: Path, data: Any, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- standings


def test_standings_json_on_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "keizer", "standings", str(EXAMPLE))
    assert data["after_round"] == len(RAW["rounds"])
    rows = data["standings"]
    last = len(RAW["rounds"])
    joined = [p["id"] for p in RAW["players"] if p.get("joined_round", 1) <= last]
    assert sorted(r["id"] for r in rows) == sorted(joined)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    exact = [Fraction(r["score_exact"]) for r in rows]
    assert exact == sorted(exact, reverse=True)
    for r in rows:
        assert r["score"] == round(float(Fraction(r["score_exact"])), 2)
        assert set(r) >= {"rank", "id", "name", "score", "score_exact", "value", "played", "attendance"}
    assert [r["value"] for r in rows] == [50 - i for i in range(len(rows))]  # top value 50, one less a place


def test_standings_by_hand(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    season = {
        "players": [
            {"id": "a", "name": "A", "rating": 2000},
            {"id": "b", "name": "B", "rating": 1900},
            {"id": "c", "name": "C", "rating": 1800},
            {"id": "d", "name": "D", "rating": 1700},
        ],
        "rounds": [{"games": [{"white": "a", "black": "b", "result": "1-0"}], "byes": ["c"],
                    "absent": {"d": "team"}}],
    }
    rows = run_json(capsys, "keizer", "standings", write(tmp_path, season))["standings"]
    # start order by rating: a 50, b 49, c 48, d 47. a beats b: 49; c's bye: own value 48;
    # d's team match: 2/3 of 47 = 94/3 = 31.33; b lost: 0.
    assert [(r["id"], r["score_exact"]) for r in rows] == [("a", "49"), ("c", "48"), ("d", "94/3"), ("b", "0")]
    assert rows[2]["score"] == 31.33
    start = run_json(capsys, "keizer", "standings", write(tmp_path, season), "--after-round", "0")
    assert start["after_round"] == 0
    assert [r["id"] for r in start["standings"]] == ["a", "b", "c", "d"]


def test_standings_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "keizer", "standings", str(EXAMPLE), "--after-round", "1")
    assert code == 0 and err == ""
    assert "after round 1" in out
    for p in RAW["players"]:
        assert (p["name"] in out) == (p.get("joined_round", 1) <= 1)


def test_the_standings_table_aligns_cjk_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 44 §3: a CJK character takes two columns; the columns after a name stay in place."""
    season = {"players": [{"id": "a", "name": "王小明", "rating": 2000}, {"id": "b", "name": "Anna", "rating": 1900}],
              "rounds": []}  # fmt: skip
    code, out, err = run(capsys, "keizer", "standings", write(tmp_path, season))
    assert code == 0, err
    wang, anna = [line for line in out.splitlines() if "王小明" in line or "Anna" in line]
    # 王小明 is six columns wide, Anna four: the rating column starts at the same column in both rows
    assert wang.index("2000") + 3 == anna.index("1900"), out


def test_after_round_beyond_the_file_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "keizer", "standings", str(EXAMPLE), "--after-round", str(len(RAW["rounds"]) + 1))
    assert code == 2 and out == ""
    assert "no standings after round" in err


# --------------------------------------------------------------------------- pair


def test_pair_the_next_round(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "keizer", "pair", str(EXAMPLE))
    next_round = len(RAW["rounds"]) + 1
    assert data["round"] == next_round
    # lars did not come in rounds 3 and 4 without notice: signed off (seed 004 rule j)
    assert [r["absent"].get("lars") for r in RAW["rounds"][2:4]] == ["unexcused", "unexcused"]
    expected = {p["id"] for p in RAW["players"] if p.get("joined_round", 1) <= next_round} - {"lars"}
    seated = [g["white"] for g in data["pairings"]] + [g["black"] for g in data["pairings"]]
    seated += [data["bye"]] if data["bye"] is not None else []
    assert sorted(seated) == sorted(expected)
    assert (data["bye"] is None) == (len(expected) % 2 == 0)
    assert data["not_present"] == ["lars"]
    met = {frozenset((g["white"], g["black"])) for r in RAW["rounds"] for g in r["games"]}  # all in cycle 1
    assert not any(frozenset((g["white"], g["black"])) in met for g in data["pairings"])


def test_pair_uses_present_from_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    season = dict(RAW, present=["anna", "bram", "carla", "lars", "mila"])
    data = run_json(capsys, "keizer", "pair", write(tmp_path, season))
    seated = {g["white"] for g in data["pairings"]} | {g["black"] for g in data["pairings"]} | {data["bye"]}
    assert seated == {"anna", "bram", "carla", "lars", "mila"}
    code, out, _ = run(capsys, "keizer", "pair", write(tmp_path, season))
    assert code == 0 and "Pairings of round" in out and "bye:" in out


# --------------------------------------------------------------------------- prizes


def test_prizes_on_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    n = len(RAW["rounds"])
    data = run_json(capsys, "keizer", "prizes", str(EXAMPLE), "--season-rounds", str(n))
    assert data["required"] == math.ceil(Fraction(2, 3) * n)
    # by hand from the file: lars played rounds 1-2 only, mila joined in round 4; everyone else
    # has at least 4 (kim: round 1, team match in 2, bye in 4, round 5; no-show in 3)
    assert set(data["eligible"]) == {p["id"] for p in RAW["players"]} - {"lars", "mila"}
    final = run_json(capsys, "keizer", "standings", str(EXAMPLE))["standings"]
    first = run_json(capsys, "keizer", "standings", str(EXAMPLE), "--after-round", "0")["standings"]  # the start order
    eligible_order = [r["id"] for r in final if r["id"] in data["eligible"]]
    assert data["champion"]["id"] == eligible_order[0]
    groups = {p["id"]: p.get("group") for p in RAW["players"]}
    for prize in data["groups"]:
        assert prize["id"] == next(pid for pid in eligible_order if groups[pid] == prize["group"])
    first_rank = {r["id"]: r["rank"] for r in first}
    gains = {r["id"]: first_rank[r["id"]] - r["rank"] for r in final if r["id"] in data["eligible"]}
    best = max(gains.values())
    assert gains[data["riser"]["id"]] == best
    assert data["rapid"] is None


def test_prizes_with_rapid(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rapid = {
        "settings": {"cycles": 1, "cycle_length": 3},
        "players": [{"id": "anna", "name": "Anna", "rating": 2050}, {"id": "kim", "name": "Kim", "rating": 1380}],
        "rounds": [{"games": [{"white": "anna", "black": "kim", "result": "0-1"}]},
                   {"games": [{"white": "kim", "black": "anna", "result": "1-0"}]}],
    }
    data = run_json(capsys, "keizer", "prizes", str(EXAMPLE), "--rapid", write(tmp_path, rapid, "rapid.json"))
    assert data["rapid"]["id"] == "kim"  # won both rapid games, played 2 of the 2 needed
    assert data["champion"]["id"] is None  # 5 of 28 rounds: nobody has 19
    code, out, _ = run(capsys, "keizer", "prizes", str(EXAMPLE), "--rapid", write(tmp_path, rapid, "rapid.json"))
    assert code == 0 and "Rapid champion" in out and "not over" in out
    # a rapid file without cycle settings: its own 3 rounds are its season (2 needed), not 28 (19)
    rapid = {**rapid, "settings": {}, "rounds": [*rapid["rounds"], {"games": [{"white": "anna", "black": "kim", "result": "1-0"}]}]}
    data = run_json(capsys, "keizer", "prizes", str(EXAMPLE), "--rapid", write(tmp_path, rapid, "rapid.json"))
    assert data["rapid"]["id"] == "kim" and "2 needed" in data["rapid"]["reason"]


# --------------------------------------------------------------------------- bad files


@pytest.mark.parametrize("command", ["standings", "pair", "prizes"])
def test_bad_file_names_the_line_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace('"black": "ivo", "result": "0-1"', '"black": "ivo", "result": "0:1"')
    path = write(tmp_path, text)
    line = text[: text.index('"0:1"')].count("\n") + 1
    code, out, err = run(capsys, "keizer", command, path)
    assert code == 2
    assert out == ""
    assert f"line {line}," in err and "wrong result" in err and path in err


def test_unknown_player_and_invalid_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace('"byes": ["kim"]', '"byes": ["kimm"]')
    code, out, err = run(capsys, "keizer", "standings", write(tmp_path, text))
    assert (code, out) == (2, "")
    assert f"line {text[: text.index('kimm')].count(chr(10)) + 1}," in err and "unknown player 'kimm'" in err
    code, out, err = run(capsys, "keizer", "pair", write(tmp_path, '{"players": [\n  {"id": "a",}\n]}'))
    assert (code, out) == (2, "")
    assert "line 2," in err and "not valid JSON" in err


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "keizer", "standings", str(tmp_path / "nope.json"))
    assert (code, out) == (2, "")
    assert "cannot read" in err


# --------------------------------------------------------------------------- the installed command


def test_console_script_standings_json() -> None:
    script = ROOT / ".venv" / "bin" / "clubbot"
    if not script.exists():  # another install: the script beside this interpreter
        script = Path(sys.executable).parent / "clubbot"
    proc = subprocess.run(
        [str(script), "keizer", "standings", "examples/season.json", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) >= {"after_round", "standings"}
    rows = data["standings"]
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    scores = [Fraction(r["score_exact"]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(isinstance(r["score"], (int, float)) and isinstance(r["name"], str) for r in rows)
