"""Benchmark of the Keizer engine; prints figures (not a test).

    .venv/bin/python benchmarks/keizer_bench.py [--players 150] [--rounds 28] [--present 200] [--runs 21] [--smoke]

- standings of a 150-player, 28-round season with random results (seeded RNG), target < 5 ms;
- pairing 200 present players in round 5 of a cycle, target < 20 ms.
The targets are for the default sizes.
Each figure is the median of several runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, standings  # noqa: E402
from engine.keizer.pairing import pair_round  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402

RESULTS = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.WHITE_WINS_FORFEIT]
WEIGHTS = [45, 40, 14, 1]


def season(n_players: int, n_rounds: int, seed: int, settings: KeizerSettings) -> tuple[list[Player], list[Round]]:
    """A season built round by round with the real pairing; ~10% absent each round."""
    rng = random.Random(seed)
    players = [Player(f"p{i:03d}", f"Player {i}", rating=rng.randint(1000, 2300)) for i in range(n_players)]
    rounds: list[Round] = []
    for number in range(1, n_rounds + 1):
        absent = {p.id: rng.choice(list(Absence)) for p in players if rng.random() < 0.1}
        present = [p.id for p in players if p.id not in absent]
        pairing = pair_round(players, rounds, present, settings, number)
        games = tuple(Game(g.white, g.black, rng.choices(RESULTS, WEIGHTS)[0]) for g in pairing.games)
        rounds.append(Round(number, games, (pairing.bye,) if pairing.bye else (), absent))
    return players, rounds


def median_ms(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=150, help="the season whose standings are computed")
    parser.add_argument("--rounds", type=int, default=28)
    parser.add_argument("--present", type=int, default=200, help="players present in the round paired")
    parser.add_argument("--runs", type=int, default=21, help="runs of each figure (some take half)")
    smallest(parser, players=20, rounds=3, present=20, runs=1)
    args = parser.parse_args()
    n, runs, few = args.present, args.runs, max(1, args.runs // 2)
    settings = KeizerSettings()
    players, rounds = season(args.players, args.rounds, 2024, settings)
    med, best = median_ms(lambda: standings(players, rounds, settings), runs)
    label = f"standings, {args.players} players, {args.rounds} rounds:"
    print(f"{label:<46}median {med:7.2f} ms  (best {best:.2f}; target < 5)")
    extra = KeizerSettings(extra_passes=5)
    med, best = median_ms(lambda: standings(players, rounds, extra), few)
    print(f"{'standings, same season, extra_passes=5:':<46}median {med:7.2f} ms  (best {best:.2f})")

    players, rounds = season(n, 4, 7, settings)
    everyone = [p.id for p in players]
    med, best = median_ms(lambda: pair_round(players, rounds, everyone, settings, 5), runs)
    print(f"{f'pair_round, {n} present, round 5 of a cycle:':<46}median {med:7.2f} ms  (best {best:.2f}; target < 20)")
    odd = everyone[:-1]
    med, best = median_ms(lambda: pair_round(players, rounds, odd, settings, 5), runs)
    print(f"{f'pair_round, {n - 1} present (bye), round 5:':<46}median {med:7.2f} ms  (best {best:.2f})")
    players, rounds = season(n, 6, 7, settings)
    med, best = median_ms(lambda: pair_round(players, rounds, everyone, settings, 7), few)
    print(f"{f'pair_round, {n} present, round 7 of a cycle:':<46}median {med:7.2f} ms  (best {best:.2f})")


if __name__ == "__main__":
    main()
