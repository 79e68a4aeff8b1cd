"""`clubbot mcmahon ...` on the 80-player examples and on bad files; the EGF export."""

from __future__ import annotations

from tests.paths import REPO

import json
from pathlib import Path
import pytest

from engine.mcmahon.files import export_tournament, parse_tournament
from tests.bot.keizer.test_cli import run, run_json

ROOT = REPO
START = ROOT / "examples" / "mcmahon.json"
ROUND4 = ROOT / "examples" / "mcmahon-round4.json"
FINAL = ROOT / "examples" / "mcmahon-final.json"


def test_round_one_of_the_example_is_a_slide_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    raw = json.loads(START.read_text(encoding="utf-8"))
    assert len(raw["players"]) == 80
    data = run_json(capsys, "mcmahon", "pair", str(START))
    assert data["round"] == 1 and data["bye"] is None and len(data["pairings"]) == 40
    # the top group by hand: p21 earned the top group, so it is p21 plus the 15 strongest others
    # (p01..p15 by the example's ratings, p16 drops to group 1); slide: 1st-9th, ..., 8th-16th
    strength = {p["id"]: p["strength"] if p["strength"] is not None else p["rating"] for p in raw["players"]}
    others = sorted((p for p in strength if p != "p21"), key=lambda p: -strength[p])[:15]
    top = sorted(others + ["p21"], key=lambda p: -strength[p])
    expected = {frozenset((top[i], top[i + 8])) for i in range(8)}
    got = {frozenset((g["black"], g["white"])) for g in data["pairings"][:8]}
    assert got == expected


def test_standings_after_four_rounds_show_the_seeds_group_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "mcmahon", "standings", str(ROUND4))
    groups = [row["group"] for row in data["standings"]]
    assert groups.count(0) == 1 and groups.count(1) == 5  # seed 000: after 4 rounds
    assert len(data["contenders"]) == 6 and data["champion"] is None
    first = data["standings"][0]
    assert set(first) >= {"score", "sos", "sosos", "strength"} and first["score"] == 4
    code, out, _ = run(capsys, "mcmahon", "standings", str(ROUND4))
    assert code == 0 and "can win" in out


def test_final_example_has_a_champion_and_nothing_to_pair(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "mcmahon", "standings", str(FINAL))
    assert data["champion"] == data["standings"][0]["id"] and data["next_round"] is None
    earned = {r["earned_next_year"] for r in data["standings"]}  # seed 000: 4 points top group, 3 points group 1
    assert earned == {"top", "group1", None}
    code, out, err = run(capsys, "mcmahon", "pair", str(FINAL))
    assert code == 2 and out == "" and "over" in err


def test_egf_export(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "mcmahon", "egf", str(FINAL), "--place", "NL, Utrecht", "--dates", "2027-05-01,2027-05-02")
    assert code == 0
    lines = [ln for ln in out.splitlines() if ln.strip() and not ln.startswith(";")]
    assert "; CL[A]" in out and "; EV[NK Go 2027]" in out and "; HA[h9]" in out and "; TM[112]" in out and "?" not in out
    assert len(lines) == 80
    raw = json.loads(FINAL.read_text(encoding="utf-8"))
    rounds = len(raw["rounds"])
    places = {}
    for line in lines:
        fields = [f for f in line.split() if not f.startswith("|")]  # |PIN ends a line
        results = fields[-rounds:]
        places[int(fields[0])] = results
        assert all(r[-3:] in ("/b0", "/w0") or r in ("0+", "0-") for r in results)
    # every game appears from both sides: a win of A over B is a loss of B against A, colours opposite
    for place, results in places.items():
        for r, entry in enumerate(results):
            if entry in ("0+", "0-"):
                continue
            opp = int(entry[:-4])
            mine, back = entry[-4], places[opp][r]
            assert int(back[:-4]) == place and {mine, back[-4]} == {"+", "-"} and entry[-2] != back[-2]


def test_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    raw = json.loads(START.read_text(encoding="utf-8"))
    raw["players"][3]["earned"] = "champion"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    code, out, err = run(capsys, "mcmahon", "standings", str(path))
    assert code == 2 and out == "" and "players[3].earned" in err
    path.write_text("{", encoding="utf-8")
    code, out, err = run(capsys, "mcmahon", "pair", str(path))
    assert code == 2 and "line 1" in err


def test_file_round_trip() -> None:
    t = parse_tournament(FINAL.read_text(encoding="utf-8"))
    assert parse_tournament(export_tournament(t)) == t


def test_egf_headers_cannot_be_broken_into(capsys: pytest.CaptureFixture[str]) -> None:
    """A value with ] or ; would end its header and write another: refused, nothing written."""
    for place in ("X]; CL[D", "Utrecht;", "Utrecht\nDT[1999]"):
        code, out, err = run(capsys, "mcmahon", "egf", str(FINAL), "--place", place)
        assert code == 2 and out == "" and "may not hold" in err


def test_egf_sos_is_on_the_mms_base() -> None:
    """MMS shifts every score so the lowest start group starts at 0; SOS and SOSOS shift alike: a player's
    SOS on the MMS base is the sum of the opponents' MMS (a bye: the player's own start MMS)."""
    from engine.mcmahon import standings
    from engine.mcmahon.files import egf_results

    t = parse_tournament(FINAL.read_text(encoding="utf-8"))
    text = egf_results(t, dates="2027-05-01,2027-05-02")
    rows = {int(line.split()[0]): [f for f in line.split() if not f.startswith("|")] for line in text.splitlines()
            if line.strip() and not line.startswith(";")}  # fmt: skip
    table = standings(t)
    shift = max(r.start_group for r in table)
    mms = {r.rank: r.score + shift for r in table}
    rounds = len(t.rounds)
    for row in table:
        fields = rows[row.rank]
        results = fields[-rounds:]
        expected = sum(mms[int(e[:-4])] for e in results if e[-3:-1] in ("/b", "/w"))  # 80 players: no byes, no forfeits
        assert int(fields[-rounds - 3]) == mms[row.rank] and int(fields[-rounds - 2]) == expected, row.player.name


def test_pair_after_a_double_forfeited_title_game_and_a_withdrawn_finalist(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 31: a traceback before (KeyError); now the other finalist is champion, and `pair` says the
    tournament is over in one line and exits 2, as the docs promise."""
    import dataclasses

    from engine.mcmahon import Round, Tournament, pair_next
    from tests.engine.mcmahon.test_ending import a_title_round, withdraw

    t = a_title_round()
    g = pair_next(t).games[0]
    t = Tournament(t.players, t.rounds + (Round(len(t.rounds) + 1, (dataclasses.replace(g, forfeit=True),)),), t.settings)
    t = withdraw(t, g.black, len(t.rounds) + 1)
    path = tmp_path / "t.json"
    path.write_text(export_tournament(t), encoding="utf-8")
    code, out, err = run(capsys, "mcmahon", "pair", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "over" in err
    data = run_json(capsys, "mcmahon", "standings", str(path))
    assert data["champion"] == g.white
