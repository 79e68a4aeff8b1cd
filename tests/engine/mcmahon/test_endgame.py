"""The NK's endgame in every field size (issue 20, item 1): the contenders' rules come first, merged or
not. Seed 000: "Zodra er nog maar 1 speler over is die in de Topgroep of Groep 1 zit, is deze speler
Nederlands Kampioen"; "Met dit systeem is na 7 of 8 ronden de kampioen bekend"."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mcmahon import Game, Player, Round, Tournament, pair_next, status
from engine.mcmahon.tournament import contenders_of, state_after


def play(n: int, seed: int) -> tuple[Tournament, list[str]]:
    """A whole tournament of ``n`` players with random results; what went against the contenders' rules."""
    rng = random.Random(seed)
    players = tuple(Player(f"p{i:03d}", f"P{i}", 2400 - 10 * i) for i in range(1, n + 1))
    t = Tournament(players)
    problems: list[str] = []
    while status(t).next_round is not None:
        if len(t.rounds) >= 10:
            problems.append("more than 10 rounds")
            break
        alive = contenders_of(state_after(t)) if t.rounds and status(t).champion is None else set()
        p = pair_next(t)
        mixed = sum(1 for g in p.games if (g.black in alive) != (g.white in alive))
        waiting = len(alive - {p.bye}) - 2 * sum(1 for g in p.games if g.black in alive and g.white in alive) - mixed
        if mixed > len(alive - {p.bye}) % 2:
            problems.append(f"round {p.round}: {mixed} contenders play a non-contender ({sorted(alive)})")
        if waiting and not p.title_round:
            problems.append(f"round {p.round}: {waiting} contenders without a game")
        games = tuple(Game(g.black, g.white, winner=rng.choice([g.black, g.white]), board=g.board) for g in p.games)
        t = Tournament(players, t.rounds + (Round(p.round, games, p.bye),), t.settings)
    return t, problems


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_the_champion_is_a_contender_known_after_seven_or_eight_rounds_in_every_field(n: int, seed: int) -> None:
    t, problems = play(n, seed)
    assert not problems
    s = status(t)
    assert s.champion is not None and s.champion_after is not None and s.champion_after <= 8
    assert len(t.rounds) in (7, 8)
    at_the_time = state_after(t, after=s.champion_after)
    assert s.champion in contenders_of(at_the_time)  # in the top group or group 1 when it was decided


def test_eight_players_two_contenders_meet_each_other() -> None:
    """The issue's case: after round 5 two contenders with 4 points each; round 6 used to pair each with a
    non-contender (both lost, nobody was left, a group-2 player became champion). Now they meet."""
    checked = 0
    for seed in range(300):
        rng = random.Random(seed)
        players = tuple(Player(f"p{i:03d}", f"P{i}", 2400 - 10 * i) for i in range(1, 9))
        t = Tournament(players)
        while status(t).next_round is not None:
            alive = contenders_of(state_after(t))
            p = pair_next(t)
            if p.round >= 6 and len(alive) == 2 and status(t).champion is None:
                a, b = sorted(alive)
                assert any({g.black, g.white} == {a, b} for g in p.games), (seed, p)
                checked += 1
            games = tuple(Game(g.black, g.white, winner=rng.choice([g.black, g.white]), board=g.board) for g in p.games)
            t = Tournament(players, t.rounds + (Round(p.round, games, p.bye),), t.settings)
    assert checked > 10
