"""Measure: how far the NK pairing's score differences are above what is necessary (issue 20, item 2).

    .venv/bin/python benchmarks/mcmahon_score_difference.py [--tournaments 150] [--reference 200000] [--large 3] [--smoke]

Random tournaments of 16-160 players (and ``--large`` of 500) with random results. Every regular round from 2
on is paired twice: as the bot pairs it (the search within its budget of pools, checked against the exact
optimum since issue 31) and as a reference with a budget of ``--reference`` pools, which lets the search
finish and so finds the best pairing there is by the same order of costs (fewest repeats, then the
smallest total score difference). Prints how many
rounds the bot's pairing is worse than the reference, the totals, the parity lower bound (across every
boundary between two score groups with an odd number of players above it one game must cross) and
the time per pairing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.mcmahon.score_groups as score_groups  # noqa: E402
from engine.mcmahon import Game, Player, Round, Tournament, pair_next, status  # noqa: E402
from engine.mcmahon.tournament import state_after  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402


def lower_bound(scores: list[int]) -> int:
    values = sorted(set(scores), reverse=True)
    total, above = 0, 0
    for high, low in zip(values, values[1:]):
        above += scores.count(high)
        total += (above % 2) * (high - low)
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=150)
    parser.add_argument("--reference", type=int, default=200_000)
    parser.add_argument("--large", type=int, default=3, help="tournaments of 500 players besides")
    smallest(parser, tournaments=2, reference=2_000, large=0)
    args = parser.parse_args()
    rng = random.Random(20261125)
    sizes = [rng.randint(16, 160) for _ in range(args.tournaments)] + [500] * args.large
    rounds = worse = unproved = 0
    totals = {"bot": [0, 0], "reference": [0, 0]}
    bound_total = 0
    slowest = 0.0
    default = score_groups._POOLS, score_groups._STEPS
    for n in sizes:
        players = tuple(Player(f"p{i:03d}", f"P{i}", 2700 - 5 * i + rng.randint(0, 30)) for i in range(n))
        t = Tournament(players)
        while status(t).next_round is not None and len(t.rounds) < 7:
            start = time.perf_counter()
            p = pair_next(t)
            slowest = max(slowest, time.perf_counter() - start)
            if p.round >= 2:
                st = state_after(t)
                score_groups._POOLS, score_groups._STEPS = args.reference, args.reference * 1000
                ref = pair_next(t)
                score_groups._POOLS, score_groups._STEPS = default
                figures = {}
                for name, pairing in (("bot", p), ("reference", ref)):
                    diff = sum(abs(st.score[g.black] - st.score[g.white]) for g in pairing.games)
                    figures[name] = (pairing.repeats, diff)
                    totals[name][0] += pairing.repeats
                    totals[name][1] += diff
                rounds += 1
                worse += figures["bot"] > figures["reference"]
                unproved += figures["bot"] < figures["reference"]  # the reference ran out of budget too
                bound_total += lower_bound([st.score[x] for g in p.games for x in (g.black, g.white)])
            games = tuple(Game(g.black, g.white, rng.choice([g.black, g.white]), board=g.board) for g in p.games)
            t = Tournament(players, t.rounds + (Round(p.round, games, p.bye),))
    print(f"{len(sizes)} tournaments, {rounds} rounds 2-7 checked")
    for name, (repeats, diff) in totals.items():
        print(f"{name:>9}: total score difference {diff}, repeats {repeats}")
    print(f"parity lower bound of the score difference: {bound_total}")
    print(f"rounds where the bot's pairing has more repeats or a larger difference than the reference: {worse}")
    print(f"rounds where the reference did worse (its budget ran out as well): {unproved}")
    print(f"slowest pairing: {slowest * 1000:.1f} ms")


if __name__ == "__main__":
    main()
