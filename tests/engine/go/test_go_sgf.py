"""SGF: a finished game written and read back replays to the same position; records written by other
programs are read (handicap, passes, variations); a broken or illegal record is refused."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.go import BLACK, WHITE, Action, GoError, GoGame, GoSettings, parse_point, standard_handicap
from engine.go.sgf import read_sgf, write_sgf


def play(settings: GoSettings, texts: list[str]) -> GoGame:
    g = GoGame(settings)
    for text in texts:
        g.apply(Action.parse(text, settings.size))
    return g


def test_write_contains_the_header_moves_and_result() -> None:
    settings = GoSettings(19, Fraction(1, 2), 2)
    g = GoGame(settings)
    g.apply(Action("handicap", BLACK, standard_handicap(19, 2)))
    for text in ("W C3", "B pass", "W R17", "B resign"):
        g.apply(Action.parse(text, 19))
    assert g.outcome is not None
    text = write_sgf(settings, g.actions, black="Anna", white="Bert [5d]", date="2026-12-03", result=g.outcome.sgf())
    assert text.startswith("(;FF[4]GM[1]")
    for part in ("SZ[19]", "KM[0.5]", "HA[2]", "PB[Anna]", "PW[Bert [5d\\]]", "RE[W+R]", "DT[2026-12-03]",
                 "AB[pd][dp]", ";W[cq]", ";B[]", ";W[qc]"):  # R17: column R is the 17th letter (q), row 17 is the 3rd from the top (c)
        assert part in text, part


def test_a_written_game_reads_back_to_the_same_position() -> None:
    settings = GoSettings(9, Fraction(7, 2))
    moves = ["B D5", "W E5", "B E6", "W F6", "B E4", "W F4", "B A9", "W G5", "B F5", "W A1", "B pass", "W E5"]
    g = play(settings, moves)
    back = read_sgf(write_sgf(settings, g.actions, black="A", white="B"))
    assert back.settings == settings
    assert back.actions == tuple(g.actions)
    assert bytes(back.game.board.cells) == bytes(g.board.cells)
    assert back.game.captured == {BLACK: 1, WHITE: 1}
    assert (back.black, back.white) == ("A", "B")


def test_reading_a_record_from_elsewhere() -> None:
    text = """(;GM[1]FF[4]SZ[13]KM[0.5]HA[2]AB[dj][jd]PB[Zwart]PW[Wit]RE[B+R]
    C[comment with \\] inside]
    ;W[cc];B[dc](;W[cd];B[tt];W[])(;W[kk]))"""
    sgf = read_sgf(text)
    assert sgf.settings == GoSettings(13, Fraction(1, 2), 2)
    assert sgf.result == "B+R"
    kinds = [a.kind for a in sgf.actions]
    assert kinds == ["handicap", "play", "play", "play", "pass", "pass"]  # the main line only
    assert sgf.game.phase == "marking"  # two passes ended play
    assert sgf.game.board.cells[parse_point("D4", 13)] == BLACK  # AB[dj]: column d, row j from the top


def test_default_komi_when_the_record_has_none() -> None:
    assert read_sgf("(;SZ[9];B[ee])").settings.komi == Fraction(7, 2)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "no tree",
        "(;SZ[9];B[ee]",
        "(;SZ[10];B[ee])",
        "(;GM[2];B[ee])",
        "(;SZ[9];B[zz])",
        "(;SZ[9]AW[aa];B[ee])",
        "(;SZ[9];B[ee];W[ee])",  # occupied: the replay refuses it
        "(;SZ[9];B[ee];B[dd])",  # black twice
        "(;SZ[9];B[ee]",
        "(;SZ[9]KM[x])",
    ],
)
def test_broken_or_illegal_records_are_refused(text: str) -> None:
    with pytest.raises(GoError):
        read_sgf(text)


def test_play_after_two_passes_reads_as_a_rejected_marking() -> None:
    sgf = read_sgf("(;SZ[9];B[ee];W[];B[];W[dd];B[];W[])")
    assert [a.kind for a in sgf.actions] == ["play", "pass", "pass", "done", "reject", "play", "pass", "pass"]
    assert sgf.game.phase == "marking" and sgf.game.board.cells[parse_point("D6", 9)] == WHITE


def test_the_rules_event_round_and_days_played_are_in_the_root() -> None:
    """Issue 31 §3: RU (seed 001's territory counting and simple ko: the Japanese rules' SGF name), EV and
    RO for a competition game, DT with every day played in FF[4]'s short form."""
    from datetime import date

    from engine.go.sgf import sgf_dates

    settings = GoSettings(9, Fraction(7, 2))
    text = write_sgf(settings, play(settings, ["B E5"]).actions, date=sgf_dates([date(2026, 12, 3), date(2026, 12, 5)]),
                     event="Clubcompetitie 2026-27", round="3")
    for part in ("RU[Japanese]", "EV[Clubcompetitie 2026-27]", "RO[3]", "DT[2026-12-03,05]"):
        assert part in text, part
    assert sgf_dates([date(2026, 12, 3)]) == "2026-12-03"
    assert sgf_dates([date(2026, 12, 31), date(2027, 1, 2), date(2026, 12, 31)]) == "2026-12-31,2027-01-02"
    assert sgf_dates([date(2026, 11, 30), date(2026, 12, 1)]) == "2026-11-30,12-01"
    assert read_sgf(text).settings == settings


def test_one_handicap_stone_is_no_ha_property() -> None:
    """SGF's HA is 2 or more: a record with a single placed stone says so with AB alone."""
    settings = GoSettings(9, Fraction(1, 2), 1)
    g = GoGame(settings)
    g.apply(Action("handicap", BLACK, (parse_point("E5", 9),)))
    text = write_sgf(settings, g.actions)
    assert "HA[" not in text and "AB[ee]" in text


def test_a_counted_game_ends_with_the_agreed_territory_and_reads_back() -> None:
    """Issue 45 §2: TB/TW in the last node, the points under dead stones included (white's dead D4 on
    black's territory); without a count (``territory=None``) there is none."""
    from engine.go import territory

    settings = GoSettings(9, Fraction(7, 2))
    g = play(settings, ["B E5", "W D4", "B pass", "W pass", "B mark D4", "B done", "W accept"])
    assert g.outcome is not None and g.dead == {parse_point("D4", 9)}
    text = write_sgf(settings, g.actions, result=g.outcome.sgf(), territory=territory(g.board.cells, 9, g.dead))
    last = text.rstrip().rstrip(")").rsplit(";", 1)[1]
    assert last.startswith("W[]TB[") and "TW" not in text
    assert "[df]" in last and last.count("[") == 1 + 80  # the pass, then every point but E5
    back = read_sgf(text)
    assert bytes(back.game.board.cells) == bytes(g.board.cells)
    assert "TB" not in write_sgf(settings, g.actions, result=g.outcome.sgf())


def read_ff4_dates(text: str) -> list[date]:
    """FF[4]'s DT read by its rules: a full ``YYYY-MM-DD``, then each part as short as the one before
    allows: ``DD`` (same month), ``MM-DD`` (same year), or in full."""
    days: list[date] = []
    for part in text.split(","):
        pieces = [int(p) for p in part.split("-")]
        if len(pieces) == 3:
            days.append(date(*pieces))
        elif len(pieces) == 2:
            days.append(date(days[-1].year, *pieces))
        else:
            days.append(date(days[-1].year, days[-1].month, pieces[0]))
    return days


@given(st.sets(st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)), min_size=1, max_size=12))
def test_dt_reads_back_by_ff4s_rules_as_the_days_played(days: set[date]) -> None:
    """Issue 45 §2: DT lists every day played, in order, and nothing else (``2026-12-02,03,10``,
    ``2026-12-30,31,2027-01-02``)."""
    from engine.go.sgf import sgf_dates

    text = sgf_dates(list(days))
    assert read_ff4_dates(text) == sorted(days)
    assert text.count(",") == len(days) - 1 and len(text.split(",")[0]) == 10
