"""``/waarom punten``'s engine (engine/keizer/explain.py): a score told result by result, at the values
of the current list, adding up to the standings' score."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings as hyp_settings, strategies as st

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, standings
from engine.keizer.explain import Passed, ScoreLine, pairing_reasons, score_lines
from engine.keizer.pairing import pair_round
from tests.engine.conftest import random_season
from tests.engine.keizer.test_keizer import keizer_settings

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def test_seed_004_note_the_win_told_at_the_value_now() -> None:
    # seed 004, rule i and its note: A beat B when B led (50); after round 2 B is 3rd, so the same win
    # is told at 48, and that is all A's score
    ps = [Player(x, x, rating=r) for x, r in [("B", 2400), ("C", 2300), ("D", 2200), ("A", 2100)]]
    r1 = Round(1, (Game("A", "B", W), Game("C", "D", W)))
    r2 = Round(2, (Game("C", "A", W), Game("B", "D", D)))
    assert score_lines("A", ps, [r1, r2]) == (
        ScoreLine(1, "win", "B", 48, Fraction(1), Fraction(48)),
        ScoreLine(2, "loss", "C", 49, Fraction(0), Fraction(0)),  # C 2nd after round 1
    )
    # after round 1 the values were the start list's: B 50
    assert score_lines("A", ps, [r1, r2], after_round=1) == (ScoreLine(1, "win", "B", 50, Fraction(1), Fraction(50)),)
    # a draw is half the opponent's value: B drew with D (4th after round 1: 47)
    assert score_lines("B", ps, [r1, r2])[1] == ScoreLine(2, "draw", "D", 47, Fraction(1, 2), Fraction(47, 2))


def test_absences_bye_and_forfeits_are_shares_of_the_own_value() -> None:
    ps = [Player(x, x, rating=r) for x, r in [("a", 2000), ("b", 1900), ("c", 1800), ("d", 1700), ("e", 1600)]]
    rounds = [
        Round(1, (Game("a", "b", Result.WHITE_WINS_FORFEIT),), byes=("c",), absent={"d": Absence.NOTICE, "e": Absence.TEAM}),
    ]
    # start values a 50, b 49, c 48, d 47, e 46
    assert score_lines("a", ps, rounds) == (ScoreLine(1, "forfeit_win", "b", 49, Fraction(1), Fraction(49)),)
    assert score_lines("b", ps, rounds) == (ScoreLine(1, "forfeit_loss", "a", 49, Fraction(0), Fraction(0)),)
    assert score_lines("c", ps, rounds) == (ScoreLine(1, "bye", None, 48, Fraction(1), Fraction(48)),)
    assert score_lines("d", ps, rounds) == (ScoreLine(1, "notice", None, 47, Fraction(1, 3), Fraction(47, 3)),)
    assert score_lines("e", ps, rounds) == (ScoreLine(1, "team", None, 46, Fraction(2, 3), Fraction(92, 3)),)


def test_start_points_and_start_bonus_are_lines_of_their_own() -> None:
    ps = [Player("a", "a", rating=2000, start_points=Fraction(7)), Player("b", "b", rating=1900)]
    lines = score_lines("a", ps, [Round(1, (Game("b", "a", Result.WHITE_WINS),))], KeizerSettings(start_bonus=True))
    assert lines == (
        ScoreLine(None, "start", None, 0, Fraction(0), Fraction(7)),
        ScoreLine(None, "bonus", None, 50, Fraction(1), Fraction(50)),
        ScoreLine(1, "loss", "b", 49, Fraction(0), Fraction(0)),
    )


@hyp_settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32), n=st.integers(1, 10), r=st.integers(0, 6), s=keizer_settings, sp=st.booleans(),
    leave=st.integers(0, 7),
)  # fmt: skip
def test_lines_sum_to_the_standings_score(seed: int, n: int, r: int, s: KeizerSettings, sp: bool, leave: int) -> None:
    # for every player of a random season (late joiners, start points, a withdrawal), after every round
    ps, rounds = random_season(random.Random(seed), n, r, start_points=sp)
    if leave and ps and ps[0].joined_round < leave:  # the first player withdraws from round ``leave`` on
        ps[0] = replace(ps[0], withdrawn_from=leave)
        rounds = [replace(x, games=tuple(g for g in x.games if ps[0].id not in (g.white, g.black)),
                          byes=tuple(b for b in x.byes if b != ps[0].id),
                          absent={k: v for k, v in x.absent.items() if k != ps[0].id})
                  if x.number >= leave else x for x in rounds]  # fmt: skip
    for k in range(0, r + 1):
        for row in standings(ps, rounds, s, after_round=k):
            lines = score_lines(row.player.id, ps, rounds, s, after_round=k)
            assert sum((x.points for x in lines), Fraction(0)) == row.score
            assert all(x.points == x.value * x.share for x in lines if x.kind != "start")
            assert all(x.round is not None and x.round <= k for x in lines if x.kind not in ("start", "bonus"))


# --- /waarom indeling ---------------------------------------------------------------------------


def test_pairing_reason_passes_over_the_player_met_this_cycle() -> None:
    # start a 50, b 49, c 48, d 47. Round 1 (b-a, d-c) all draws: b 25, a 24.5, d 24, c 23.5. Round 2:
    # b met a, so b plays d (a passed over: met in round 1), a plays c; colours: every balance even,
    # so the lower-ranked gets white: d against b, c against a
    ps = [Player(x, x, rating=r) for x, r in [("a", 2000), ("b", 1900), ("c", 1800), ("d", 1700)]]
    r1 = Round(1, (Game("b", "a", D), Game("d", "c", D)))
    r2 = pair_round(ps, [r1], ["a", "b", "c", "d"], KeizerSettings(), 2)
    assert r2.games == (Game("d", "b"), Game("c", "a"))
    paired = Round(2, r2.games)
    why = pairing_reasons("d", ps, [r1, paired], paired)
    assert (why.place, why.present, why.board, why.opponent, why.opponent_place, why.white) == (3, 4, 1, "b", 1, True)
    assert why.passed == (Passed("a", 2, "met", 1),)
    assert why.colour_rule == "lower_ranked" and why.colours == (1, 0) and why.opponent_colours == (1, 0)
    assert pairing_reasons("a", ps, [r1, paired], paired).passed == (Passed("d", 3, "taken"),)  # b took d


def test_pairing_reason_of_the_bye_and_of_a_colour_balance() -> None:
    ps = [Player(x, x, rating=r) for x, r in [("a", 2000), ("b", 1900), ("c", 1800)]]
    r1 = Round(1, (Game("b", "a", W),), byes=("c",))  # b 50 (beat a); a 0; c bye 48
    # round 2: ranking b 50, c 48, a 0; a (lowest, no bye yet) gets the bye; b-c: b had white (+1), c no
    # game (0): c gets white by the balance
    r2 = pair_round(ps, [r1], ["a", "b", "c"], KeizerSettings(), 2)
    assert r2.bye == "a" and r2.games == (Game("c", "b"),)
    paired = Round(2, r2.games, byes=("a",))
    bye = pairing_reasons("a", ps, [r1, paired], paired)
    assert bye.bye and bye.byes == 0 and bye.place == 3 and bye.passed == ()
    why = pairing_reasons("b", ps, [r1, paired], paired)
    assert why.colour_rule == "balance" and why.white is False and why.colours == (1, 0)
    director = Round(2, (Game("b", "c"),), byes=("a",))  # the director swapped the colours
    assert pairing_reasons("c", ps, [r1, director], director).colour_rule == "director"


@hyp_settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 11), r=st.integers(0, 5), cycle=st.sampled_from([0, 3, 7]))
def test_pairing_reasons_agree_with_the_pairing(seed: int, n: int, r: int, cycle: int) -> None:
    # for every present player of a pairing the engine made: the reason names its board, opponent, colour
    # and bye; the colours follow the rule (never "director"); a player passed over as met did meet them
    rng = random.Random(seed)
    ps, rounds = random_season(rng, n, r, late=False)
    s = KeizerSettings(cycle_length=cycle)
    present = [p.id for p in ps if rng.random() < 0.85]
    result = pair_round(ps, rounds, present, s, r + 1)
    paired = Round(r + 1, result.games, byes=(result.bye,) if result.bye else ())
    for pid in present:
        why = pairing_reasons(pid, ps, [*rounds, paired], paired, s)
        assert why.present == len(present) and why.bye == (pid == result.bye)
        if why.bye:
            continue
        board, game = next((i + 1, g) for i, g in enumerate(result.games) if pid in (g.white, g.black))
        assert why.board == board and why.white == (game.white == pid)
        assert why.opponent == (game.black if game.white == pid else game.white)
        assert why.colour_rule in ("balance", "whites", "lower_ranked", "run")
        for p in why.passed:
            if p.why == "met":
                top = pid if why.place < (why.opponent_place or 0) else why.opponent
                assert any({g.white, g.black} == {top, p.player} for x in rounds if x.number == p.met_round for g in x.games)
