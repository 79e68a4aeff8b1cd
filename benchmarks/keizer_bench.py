"""Benchmark of the Keizer engine; prints figures (not a test).

    .venv/bin/python benchmarks/keizer_bench.py

- standings of a 150-player, 28-round season with random results (seeded RNG), target < 5 ms;
- pairing 200 present players in round 5 of a cycle, target < 20 ms.
Each figure is the median of several runs, in milliseconds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, standings  # noqa: E402
from engine.keizer.pairing import pair_round  # noqa: E402

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
    settings = KeizerSettings()
    players, rounds = season(150, 28, 2024, settings)
    med, best = median_ms(lambda: standings(players, rounds, settings), 21)
    print(f"standings, 150 players, 28 rounds:            median {med:7.2f} ms  (best {best:.2f}; target < 5)")
    extra = KeizerSettings(extra_passes=5)
    med, best = median_ms(lambda: standings(players, rounds, extra), 11)
    print(f"standings, same season, extra_passes=5:       median {med:7.2f} ms  (best {best:.2f})")

    players, rounds = season(200, 4, 7, settings)
    everyone = [p.id for p in players]
    med, best = median_ms(lambda: pair_round(players, rounds, everyone, settings, 5), 21)
    print(f"pair_round, 200 present, round 5 of a cycle:  median {med:7.2f} ms  (best {best:.2f}; target < 20)")
    odd = everyone[:-1]
    med, best = median_ms(lambda: pair_round(players, rounds, odd, settings, 5), 21)
    print(f"pair_round, 199 present (bye), round 5:       median {med:7.2f} ms  (best {best:.2f})")
    players, rounds = season(200, 6, 7, settings)
    med, best = median_ms(lambda: pair_round(players, rounds, everyone, settings, 7), 11)
    print(f"pair_round, 200 present, round 7 of a cycle:  median {med:7.2f} ms  (best {best:.2f})")


if __name__ == "__main__":
    main()
