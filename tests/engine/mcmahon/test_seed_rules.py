"""Seed 000's endgame rules, exactly (issue 31, section 1, item 3): they apply after round 5 in every field
size; the lone top-group player meets a group-2 player not met whenever there is one (else a non-contender
not met further down, not a repeat); a contender never gets the bye while a non-contender can."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from functools import cache

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.mcmahon import Pairing, Player, Round, Tournament, pair_next, status
from engine.mcmahon.tournament import State, contenders_of, state_after, withdrawn_by


def field(n: int) -> tuple[Player, ...]:
    return tuple(Player(f"p{i:03d}", f"P{i}", 2400 - 10 * i) for i in range(1, n + 1))


def rounds(n: int, seed: int) -> Iterator[tuple[Tournament, Pairing]]:
    """Every regular round of a random tournament: the tournament before it and its pairing."""
    rng = random.Random(seed)
    t = Tournament(field(n))
    while (s := status(t)).next_round is not None and not s.title_round_next:
        p = pair_next(t)
        yield t, p
        games = tuple(dataclasses.replace(g, winner=rng.choice([g.black, g.white])) for g in p.games)
        t = Tournament(t.players, t.rounds + (Round(p.round, games, p.bye),), t.settings)


def fewest_repeats(players: list[str], met: dict[str, set[str]]) -> int:
    """Exhaustively: the fewest repeat games of any pairing of ``players`` (an even number); the fewest of
    the players left after the first pairs are worked out once for each set of them."""

    @cache
    def fewest(left: tuple[str, ...]) -> int:
        if not left:
            return 0
        first, rest = left[0], left[1:]
        return min((other in met[first]) + fewest(rest[:i] + rest[i + 1:]) for i, other in enumerate(rest))

    return fewest(tuple(players))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 13), seed=st.integers(0, 10**6))
@example(n=4, seed=0)  # round 3 repeated two games where none was needed
def test_before_round_six_a_small_field_has_no_avoidable_repeats(n: int, seed: int) -> None:
    """Seed 000: repeats are allowed only "Na 5 ronden", for the contenders; in rounds 2-5 a field of 13
    or fewer pairs with the fewest repeats there are (before: contenders repeated from round 3)."""
    for t, p in rounds(n, seed):
        if 2 <= p.round <= 5:
            st_ = state_after(t)
            present = sorted(x for g in p.games for x in (g.black, g.white))
            assert p.repeats == fewest_repeats(present, st_.met), (p.round, p)


def group(st_: State, pid: str, played: int) -> float:
    return played - st_.score[pid]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(5, 40), seed=st.integers(0, 10**6))
@example(n=5, seed=0)  # round 5 gave the bye to a contender with 3 others present
def test_a_contender_never_gets_the_bye_while_a_non_contender_can(n: int, seed: int) -> None:
    for t, p in rounds(n, seed):
        if p.bye is None or p.round == 1:
            continue
        s = status(t)
        alive = set(s.contenders) if s.champion is None else contenders_of(state_after(t), withdrawn_by(t, p.round))
        if p.bye in alive:
            paired = {x for g in p.games for x in (g.black, g.white)}
            assert paired <= alive, (p.round, p.bye, sorted(alive))


@settings(max_examples=80, deadline=None)
@given(n=st.integers(6, 40), seed=st.integers(0, 10**6))
@example(n=14, seed=26)  # every group-2 player had met the top player: a repeat before, now a group-3 player
@example(n=12, seed=106)  # the same: a repeat before
@example(n=16, seed=458)  # the same (test_mcmahon's round 6: repeat p013-p007)
def test_the_lone_top_player_meets_group_two_not_met_whenever_there_is_one(n: int, seed: int) -> None:
    """Seed 000 scenario 2 (after round 5): one player in the top group, group 1 even: the top player plays
    a group-2 player not met yet whenever there is one; when every group-2 player was met, a non-contender
    not met (further down: seed 000 allows repeats only in group 1), a repeat only when the top player met
    every non-contender paired this round."""
    for t, p in rounds(n, seed):
        played = p.round - 1
        if played < 5:
            continue
        st_ = state_after(t)
        ids = [x for g in p.games for x in (g.black, g.white)]
        top = [x for x in ids + [p.bye] if x is not None and group(st_, x, played) == 0]
        one = [x for x in ids + [p.bye] if x is not None and group(st_, x, played) == 1]
        two = [x for x in ids if group(st_, x, played) == 2]
        if len(top) == 1 and len(one) >= 2 and len(one) % 2 == 0 and two and top[0] != p.bye:
            game = next(g for g in p.games if top[0] in (g.black, g.white))
            other = game.white if game.black == top[0] else game.black
            met = st_.met[top[0]]
            where = (p.round, game, group(st_, other, played))
            if any(x not in met for x in two):
                assert group(st_, other, played) == 2 and other not in met, where
            else:
                assert group(st_, other, played) >= 2, where
                below = [x for x in ids if group(st_, x, played) >= 2]
                assert other not in met or all(x in met for x in below), where
