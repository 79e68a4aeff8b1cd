"""Go board speed: generate random legal games, then replay them through the rules and report moves
per second (move legality, captures, ko; the same path the bot and SGF replays take).

    .venv/bin/python benchmarks/go_bench.py [--games 1000] [--size 19] [--seed 1] [--repeat 3] [--smoke]

Random games: each player picks a random legal point that does not fill one of its own one-point eyes,
and passes when there is none (so games end, with many captures on the way).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.go import EMPTY, Action, GoError, GoGame, GoSettings, default_komi  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402
from engine.go.board import neighbours  # noqa: E402


def random_game(size: int, rng: random.Random, max_turns: int) -> list[Action]:
    game = GoGame(GoSettings(size, default_komi(size)))
    near = neighbours(size)
    points = list(range(size * size))
    while game.phase == "play" and len(game.actions) < max_turns:
        colour = game.to_move
        cells = game.board.cells
        tries = [rng.randrange(len(points)) for _ in range(12)]  # a few random draws, then every point
        rng.shuffle(points)
        for p in [*tries, *points]:
            if cells[p] != EMPTY or all(cells[q] == colour for q in near[p]):
                continue  # occupied, or one of our own eyes
            try:
                game.apply(Action("play", colour, (p,)))
                break
            except GoError:
                continue
        else:
            game.apply(Action("pass", colour))
    return game.actions


def replay_all(size: int, games: list[list[Action]]) -> tuple[int, int]:
    moves = captures = 0
    for actions in games:
        game = GoGame(GoSettings(size, default_komi(size)))
        for action in actions:
            game.apply(action)
        moves += len(actions)
        captures += game.captured[1] + game.captured[2]
    return moves, captures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    smallest(parser, games=3, size=9, repeat=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    games = [random_game(args.size, rng, max_turns=3 * args.size * args.size) for _ in range(args.games)]
    generated = time.perf_counter() - t0
    total = sum(len(g) for g in games)
    print(f"{args.games} random legal {args.size}x{args.size} games, {total} turns "
          f"({total / args.games:.0f} a game), generated in {generated:.1f} s")  # fmt: skip
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        moves, captures = replay_all(args.size, games)
        times.append(time.perf_counter() - t0)
    best, median = min(times), statistics.median(times)
    print(f"replay through the rules (legality, captures, ko): {moves} turns, {captures} stones captured")
    print(f"  median {median:.2f} s = {moves / median:,.0f} moves/s (best {moves / best:,.0f} moves/s)")


if __name__ == "__main__":
    main()
