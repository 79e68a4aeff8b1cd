"""Benchmark: pairing one round of a 500-player NK tournament (target < 1 s), every round 1-7.

    .venv/bin/python benchmarks/mcmahon_bench.py [--players 500] [--rounds 7] [--runs 5] [--smoke]

Random results (fixed seed); prints the median of 5 runs per round in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.mcmahon import Game, Player, Round, Tournament, pair_next, standings  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5, help="pairings of each round (the median is printed)")
    smallest(parser, players=20, rounds=2, runs=1)
    args = parser.parse_args()
    n = args.players
    rng = random.Random(2027)
    players = tuple(Player(f"p{i:03d}", f"Player {i}", 2700 - 3 * i + rng.randint(0, 20)) for i in range(n))
    t = Tournament(players)
    worst = 0.0
    for number in range(1, args.rounds + 1):
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            pairing = pair_next(t)
            times.append(time.perf_counter() - start)
        median = statistics.median(times) * 1000
        worst = max(worst, median)
        print(f"round {number}: pairing {n} players {median:7.1f} ms (median of {args.runs}), {pairing.repeats} repeat(s)")
        games = tuple(Game(g.black, g.white, rng.choice([g.black, g.white]), board=g.board) for g in pairing.games)
        t = Tournament(players, t.rounds + (Round(number, games, pairing.bye),))
    start = time.perf_counter()
    standings(t)
    print(f"standings after {args.rounds} rounds: {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"slowest round: {worst:.1f} ms (target < 1000 ms)")


if __name__ == "__main__":
    main()
