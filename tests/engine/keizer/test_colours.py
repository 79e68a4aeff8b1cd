"""Colours in a Keizer round (seed 004 rule g, seed 003): the lower whites-minus-blacks gets white, then
fewer whites, then the lower-ranked; no fourth of one colour in a row where the other can take it; and
over a season, members who play every round stay within 2 of even."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import example, given, settings as hyp_settings, strategies as st

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, value_ranking
from engine.keizer.pairing import ColourHistory, cycle_rounds, pair_round
from tests.engine.keizer.test_pairing import players_by_rating

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def test_the_lower_balance_gets_white_not_the_fewer_whites() -> None:
    """The issue's minimal case: X had 1 white and 0 blacks, Y 2 whites and 3 blacks: Y gets white
    (balance -1 against +1), although Y had more whites."""
    ps = [Player("X", "X", rating=2000), Player("Y", "Y", rating=1900)] + [Player(f"o{i}", f"O{i}", rating=1000 + i) for i in range(4)]
    rounds = [
        Round(1, (Game("Y", "o0", D), Game("o1", "o2", D)), absent={"X": Absence.NOTICE, "o3": Absence.NOTICE}),
        Round(2, (Game("o0", "Y", D), Game("X", "o1", D)), absent={"o2": Absence.NOTICE, "o3": Absence.NOTICE}),
        Round(3, (Game("Y", "o3", D),), absent={p: Absence.NOTICE for p in ("X", "o0", "o1", "o2")}),
        Round(4, (Game("o1", "Y", D),), absent={p: Absence.NOTICE for p in ("X", "o0", "o2", "o3")}),
        Round(5, (Game("o2", "Y", D),), absent={p: Absence.NOTICE for p in ("X", "o0", "o1", "o3")}),
    ]
    p = pair_round(ps, rounds, ["X", "Y"], KeizerSettings(cycle_length=0))
    assert [(g.white, g.black) for g in p.games] == [("Y", "X")]


def test_equal_balance_fewer_whites_then_the_lower_ranked() -> None:
    ps = players_by_rating("ABCD")
    # A: W B (balance 0, 1 white); B: nothing (balance 0, 0 whites) -> B white although B is lower? B is lower anyway;
    # C: W B, D: B W: equal balance and whites -> the lower-ranked (D) gets white
    rounds = [Round(1, (Game("A", "C", D),), absent={"B": Absence.NOTICE, "D": Absence.NOTICE}),
              Round(2, (Game("C", "A", D),), absent={"B": Absence.NOTICE, "D": Absence.NOTICE})]
    p = pair_round(ps, rounds, "AB", KeizerSettings(cycle_length=0))
    ranked = [g for g in p.games]
    assert [(g.white, g.black) for g in ranked] == [("B", "A")]
    p = pair_round(ps, rounds, "AC", KeizerSettings(cycle_length=0))
    (g,) = p.games
    hi, lo = [x.player.id for x in value_ranking(ps, rounds, 3, KeizerSettings(cycle_length=0)) if x.player.id in "AC"]
    assert (g.white, g.black) == (lo, hi)


def test_a_fourth_of_one_colour_in_a_row_is_avoided_where_the_other_can_take_it() -> None:
    """P: black four times, then white three times (balance -1, a run of three whites); Q: one white
    (+1). The balance rule gives P white, a fourth in a row; Q can take white without a fourth: swapped."""
    ps = [Player("P", "P", rating=2000), Player("Q", "Q", rating=1900)] + [Player(f"o{i}", f"O{i}", rating=1000 + i) for i in range(8)]
    others = [f"o{i}" for i in range(8)]

    def alone(number: int, white: str, black: str) -> Round:
        return Round(number, (Game(white, black, D),), absent={x: Absence.NOTICE for x in ["P", "Q", *others] if x not in (white, black)})

    rounds = [alone(n, others[n - 1], "P") for n in (1, 2, 3, 4)]
    rounds += [alone(n, "P", others[n - 1]) for n in (5, 6, 7)]
    rounds.append(alone(8, "Q", others[7]))
    p = pair_round(ps, rounds, ["P", "Q"], KeizerSettings(cycle_length=0))
    assert [(g.white, g.black) for g in p.games] == [("Q", "P")]
    # without the run (P's whites earlier), the balance rule stands: P white
    rounds = [alone(n, "P", others[n - 1]) for n in (1, 2, 3)] + [alone(n, others[n - 1], "P") for n in (4, 5, 6, 7)]
    rounds.append(alone(8, "Q", others[7]))
    p = pair_round(ps, rounds, ["P", "Q"], KeizerSettings(cycle_length=0))
    assert [(g.white, g.black) for g in p.games] == [("P", "Q")]


def test_the_swap_avoids_a_fourth_only_when_it_makes_no_fourth_itself() -> None:
    h = ColourHistory()
    for _ in range(3):
        h.played("x", "Y")  # Y: three blacks in a row, balance -3; X: three whites, +3
    assert h.choose("X", "Y") == ("Y", "X")  # the balance rule: Y white; nobody gets a fourth
    h2 = ColourHistory()
    for opp in ("o1", "o2", "o3"):
        h2.played(opp, "P")  # P: three blacks in a row (balance -3)
    for opp in ("o4", "o5", "o6", "o7"):
        h2.played(opp, "Q")  # Q: four blacks (balance -4), so the balance rule gives Q white
    h2.played("Q", "o8")  # Q: ... then a white: balance -3, run of one white; whites 1
    # P -3 (0 whites) and Q -3 (1 white): equal balance, P had fewer whites -> P white: no fourth for anyone
    assert h2.choose("Q", "P") == ("P", "Q")
    h3 = ColourHistory()
    for opp in ("o1", "o2", "o3"):
        h3.played("R", opp)  # R: three whites in a row (+3)
    h3.played("o9", "S")
    h3.played("S", "o9")
    h3.played("S", "o9")
    h3.played("S", "o9")  # S: B W W W (+2, three whites in a row)
    # both would get a fourth white; S has the lower balance: S white (no swap helps)
    assert h3.choose("R", "S") == ("S", "R")
    h4 = ColourHistory()
    for opp in ("o1", "o2", "o3"):
        h4.played(opp, "T")  # T: three blacks in a row (-3)
    for opp in ("o4", "o5"):
        h4.played("U", opp)
    for opp in ("o6", "o7", "o8", "o9", "oa"):
        h4.played(opp, "U")  # U: W W B B B B B (-3, five blacks in a row... a run of 5), whites 2
    # equal balance -3: T had fewer whites (0 < 2) -> T white, U black: U's sixth black in a row;
    # swapped, T would get a fourth black: both sides make a long run, so the balance rule stands
    assert h4.choose("T", "U") == ("T", "U")


@hyp_settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), regular=st.integers(6, 24), irregular=st.integers(0, 12))
def test_colours_stay_balanced_for_members_who_play_every_round_of_a_season(seed: int, regular: int, irregular: int) -> None:
    """A simulated 28-round season: regular members come every round, irregular ones half the time
    (some join late); random results. Whoever plays every round ends and stays within 2 of an equal
    number of whites and blacks; nobody gets a fourth of one colour in a row where it was avoidable
    (checked by the unit tests above), and an irregular member's balance stays small too."""
    rng = random.Random(seed)
    ps = [Player(f"r{i}", f"R{i}", rating=rng.randint(1200, 2200)) for i in range(regular)]
    ps += [Player(f"x{i}", f"X{i}", rating=rng.randint(1200, 2200), joined_round=rng.choice([1, 1, 5, 12])) for i in range(irregular)]
    s = KeizerSettings()
    rounds: list[Round] = []
    played_all = {p.id for p in ps[:regular]}
    for number in range(1, 29):
        present = [p.id for p in ps[:regular]] + [p.id for p in ps[regular:] if p.joined_round <= number and rng.random() < 0.5]
        p = pair_round(ps, rounds, present, s, number)
        if p.bye is not None:
            played_all.discard(p.bye)
        absent = {x.id: Absence.NOTICE for x in ps if x.joined_round <= number and x.id not in present}
        games = tuple(Game(g.white, g.black, rng.choice([W, B, D])) for g in p.games)
        rounds.append(Round(number, games, (p.bye,) if p.bye else (), absent))
        balance = Counter[str]()
        for r in rounds:
            for g in r.games:
                balance[g.white] += 1
                balance[g.black] -= 1
        for pid in played_all:
            if abs(balance[pid]) > 2:  # only where every pairing of the round without a repeat of its cycle
                # paired this player with one who needed the same colour (seed 004 g: colours as far as the
                # pairing allows; a repeat weighs more), as in a small field's last round of a cycle
                game = next(g for g in p.games if pid in (g.white, g.black))
                seated = [x for x in present if x != p.bye]
                assert not _pairing_without(seated, rounds[:-1], number, s, {game.white, game.black}), (number, pid, balance[pid])
        assert all(abs(balance[x.id]) <= 3 for x in ps), (number, balance)


def _pairing_without(present: list[str], earlier: list[Round], number: int, s: KeizerSettings, apart: set[str]) -> bool:
    """Whether ``present`` can all be paired in round ``number`` without a repeat of its cycle and without
    the two players of ``apart`` meeting (found by search: the fields here are small)."""
    cycle = set(cycle_rounds(number, s.cycle_length))
    met = {frozenset((g.white, g.black)) for r in earlier if r.number in cycle for g in r.games} | {frozenset(apart)}

    def pairable(left: list[str]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        return any(frozenset((first, other)) not in met and pairable([x for x in rest if x != other]) for other in rest)

    return pairable(present)


def test_two_players_who_both_had_three_whites_in_a_row_are_kept_apart() -> None:
    """P and Q: black twice, then white three times (balance +1, a run of three whites); R and S the other
    way round. The plain 1-2, 3-4 (P-Q, R-S) forces two fourths; P-R, Q-S gives none."""
    ps = players_by_rating("PQRS")
    rounds = [
        Round(1, (Game("R", "P", B), Game("S", "Q", B))),
        Round(2, (Game("S", "P", B), Game("R", "Q", B))),
        Round(3, (Game("P", "R", W), Game("Q", "S", W))),
        Round(4, (Game("P", "S", W), Game("Q", "R", W))),
        Round(5, (Game("P", "R", W), Game("Q", "S", W))),
    ]
    s = KeizerSettings(cycle_length=0)
    assert [x.player.id for x in value_ranking(ps, rounds, 6, s)] == list("PQRS")
    p = pair_round(ps, rounds, "PQRS", s)
    assert {frozenset((g.white, g.black)) for g in p.games} == {frozenset("PR"), frozenset("QS")}
    assert {(g.white, g.black) for g in p.games} == {("R", "P"), ("S", "Q")}


def _runs(rounds: list[Round]) -> ColourHistory:
    history = ColourHistory()
    for rnd in sorted(rounds, key=lambda r: r.number):
        for g in rnd.games:
            history.played(g.white, g.black)
    return history


def _matchings(people: list[str]):
    """Every way to pair ``people`` (an even number) off."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for more in _matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *more]


@hyp_settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(2, 4), history=st.integers(3, 7))
@example(seed=2, count=4, history=5)  # found by this property on the pairing before it kept such players apart
def test_a_forced_fourth_of_one_colour_only_when_no_round_avoids_it(seed: int, count: int, history: int) -> None:
    """Random histories of 4-8 players with random colours (repeats allowed): when the pairing puts two
    players who both had three of one colour in a row together, every pairing of the same players has
    such a pair (repeats are allowed here, so every pairing is a legal round)."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(2 * count)]
    ps = [Player(pid, pid.upper(), rating=2000 - 10 * i) for i, pid in enumerate(ids)]
    rounds = []
    for number in range(1, history + 1):
        order = ids[:]
        rng.shuffle(order)
        rounds.append(Round(number, tuple(Game(order[i], order[i + 1], rng.choice([W, B, D])) for i in range(0, len(order), 2))))
    p = pair_round(ps, rounds, ids, KeizerSettings(cycle_length=0))
    runs = _runs(rounds)

    def forced(a: str, b: str) -> bool:
        return any(runs.would_exceed(a, c) and runs.would_exceed(b, c) for c in "wb")

    if any(forced(g.white, g.black) for g in p.games):
        assert all(any(forced(a, b) for a, b in m) for m in _matchings(ids)), [(g.white, g.black) for g in p.games]
