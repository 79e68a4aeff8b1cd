"""Shared helpers for the engine tests: random seasons for the property tests."""

from __future__ import annotations

import random
from fractions import Fraction

from engine.keizer import Absence, Game, Player, Result, Round

RESULTS: list[Result | None] = [*Result, None]


def random_season(
    rng: random.Random,
    n_players: int,
    n_rounds: int,
    late: bool = True,
    start_points: bool = False,
) -> tuple[list[Player], list[Round]]:
    """Players (ratings with ties, some late joiners) and rounds with random games and results.

    Pairings are random, not Keizer pairings: the scoring must not depend on how games came about.
    """
    players = []
    for i in range(n_players):
        joined = rng.choice([1, 1, 1, 2, 3]) if late and i >= 2 else 1
        sp: Fraction | None = None
        if start_points and rng.random() < 0.3:
            sp = Fraction(rng.randint(0, 60), rng.choice([1, 2, 3]))
        rating = rng.choice([1500, 1600, 1700, 1800, 1900])
        players.append(Player(f"p{i}", f"Player {i}", rating=rating, joined_round=joined, start_points=sp))
    rounds = []
    for number in range(1, n_rounds + 1):
        here = [p.id for p in players if p.joined_round <= number]
        rng.shuffle(here)
        absent: dict[str, Absence] = {}
        games = []
        byes: list[str] = []
        while here:
            pid = here.pop()
            roll = rng.random()
            if roll < 0.15:
                absent[pid] = rng.choice(list(Absence))
            elif roll < 0.2:
                continue  # not mentioned in the round at all
            elif roll < 0.3 or not here:
                byes.append(pid)
            else:
                games.append(Game(pid, here.pop(), rng.choice(RESULTS)))
        rounds.append(Round(number, tuple(games), tuple(byes), absent))
    return players, rounds
