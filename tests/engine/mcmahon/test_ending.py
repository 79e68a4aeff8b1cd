"""The NK always ends, with a champion (issue 31, section 1): withdrawn players are never contenders, a
round without players is refused, kept contenders play each other, and drawn or double-forfeited title
games end after one replay. Seed 000: "Met dit systeem is na 7 of 8 ronden de kampioen bekend"."""

from __future__ import annotations

import dataclasses
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mcmahon import Game, Player, Round, Tournament, pair_next, status


def field(n: int) -> tuple[Player, ...]:
    return tuple(Player(f"p{i:03d}", f"P{i}", 2400 - 10 * i) for i in range(1, n + 1))


def add(t: Tournament, number: int, games: tuple[Game, ...], bye: str | None = None) -> Tournament:
    return Tournament(t.players, t.rounds + (Round(number, games, bye),), t.settings, t.name)


@cache  # made once per worker: a Tournament is frozen, and several tests start from the same one
def to_title_round(seed: int, n: int = 16) -> Tournament | None:
    """A tournament played with random results up to its first title round (None: it never got one)."""
    rng = random.Random(seed)
    t = Tournament(field(n))
    while (s := status(t)).next_round is not None:
        if s.title_round_next:
            return t
        p = pair_next(t)
        games = tuple(dataclasses.replace(g, winner=rng.choice([g.black, g.white])) for g in p.games)
        t = add(t, p.round, games, p.bye)
    return None


def title_seed() -> int:
    """The first seed whose 16-player tournament (``to_title_round``) reaches a title round of two."""
    return next(seed for seed in range(500) if (t := to_title_round(seed)) is not None and len(status(t).contenders) == 2)


def a_title_round() -> Tournament:
    t = to_title_round(title_seed())
    assert t is not None
    return t


def withdraw(t: Tournament, pid: str, number: int) -> Tournament:
    players = tuple(dataclasses.replace(p, withdrawn_from=number) if p.id == pid else p for p in t.players)
    return Tournament(players, t.rounds, t.settings, t.name)


def test_a_double_forfeited_title_game_then_a_finalist_withdrawn_crowns_the_other() -> None:
    t = a_title_round()
    p = pair_next(t)
    assert p.title_round and len(p.games) == 1
    g = p.games[0]
    t = add(t, p.round, (dataclasses.replace(g, forfeit=True),))
    t = withdraw(t, g.black, p.round + 1)
    s = status(t)
    assert g.black not in s.contenders
    assert s.champion == g.white and s.next_round is None
    with pytest.raises(ValueError):
        pair_next(t)


def test_a_withdrawn_player_is_never_a_contender() -> None:
    t = a_title_round()
    a, b = status(t).contenders
    s = status(withdraw(t, a, len(t.rounds) + 1))
    assert s.contenders == (b,) or s.champion == b
    assert a not in s.contenders


def test_a_round_with_nobody_to_pair_is_refused() -> None:
    t = Tournament(field(6))
    p = pair_next(t)
    t = add(t, 1, tuple(dataclasses.replace(g, winner=g.black) for g in p.games))
    for q in t.players:
        t = withdraw(t, q.id, 2)
    with pytest.raises(ValueError, match="no players"):
        pair_next(t)


def test_drawn_title_games_are_replayed_once_with_colours_reversed_then_decided_by_sos() -> None:
    for kind in ("jigo", "forfeit"):
        t = a_title_round()
        first = pair_next(t)
        g = first.games[0]
        t = add(t, first.round, (dataclasses.replace(g, **{kind: True}),))
        s = status(t)
        assert s.champion is None and s.title_round_next and sorted(s.contenders) == sorted((g.black, g.white))
        replay = pair_next(t)
        assert replay.title_round and len(replay.games) == 1
        assert (replay.games[0].black, replay.games[0].white) == (g.white, g.black)  # colours reversed
        t = add(t, replay.round, (dataclasses.replace(replay.games[0], **{kind: True}),))
        s = status(t)
        assert s.champion in (g.black, g.white) and s.next_round is None and s.champion_after == replay.round


def results(rng: random.Random, g: Game) -> Game:
    r = rng.random()
    if r < 0.1:
        return dataclasses.replace(g, jigo=True)
    if r < 0.2:
        return dataclasses.replace(g, forfeit=True)
    return dataclasses.replace(g, winner=rng.choice([g.black, g.white]))


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_with_jigos_and_double_forfeits_every_tournament_ends_with_a_champion(n: int, seed: int) -> None:
    """Title games are at most two decisive games and one replay: the champion is known by round 10."""
    rng = random.Random(seed)
    t = Tournament(field(n))
    while (s := status(t)).next_round is not None:
        assert len(t.rounds) < 10, [r.games for r in t.rounds[7:]]
        alive = set(s.contenders)
        p = pair_next(t)
        if p.round >= t.settings.endgame_from:  # contenders play each other, never a non-contender while another waits
            mixed = sum(1 for g in p.games if (g.black in alive) != (g.white in alive))
            assert mixed <= len(alive - {p.bye}) % 2, (p, alive)
        t = add(t, p.round, tuple(results(rng, g) for g in p.games), p.bye)
    s = status(t)
    assert s.champion is not None


def test_23_players_kept_contenders_play_each_other_and_one_of_them_wins() -> None:
    """A 23-player field where jigos and double forfeits leave nobody in the top group or group 1: the kept
    contenders are paired with each other (before: with non-contenders, and a wrong player was crowned)."""
    from engine.mcmahon.tournament import contenders_of, state_after, withdrawn_by

    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        t = Tournament(field(23))
        while (s := status(t)).next_round is not None:
            p = pair_next(t)
            if s.champion is None and t.rounds and not contenders_of(state_after(t), withdrawn_by(t, p.round)):
                kept = set(s.contenders) - {p.bye}
                assert sum(g.black in kept and g.white in kept for g in p.games) == len(kept) // 2, (seed, p, kept)
                checked += 1
            t = add(t, p.round, tuple(results(rng, g) for g in p.games), p.bye)
        s = status(t)
        assert s.champion is not None and len(t.rounds) <= 10
    assert checked >= 3


def test_a_round_without_a_game_adds_the_start_score_to_sos_as_the_egf_rules_say() -> None:
    """Issue 45 §3, the EGF Tournament System Rules: "To a player's SOS ... in a round without an
    opponent or with the opponent Bye, in a McMahon his own start McMahon Score is added". The title
    round has a game for the two finalists only: everyone else's SOS gains their start score (0 in the
    top group, -1 in group 1, -2 in group 2), as a bye's does, so every SOS sums the same rounds; SOSOS
    adds the player's own SOS. The EGF file's SOS (on the MMS base) sums every round the same way."""
    import re

    from engine.mcmahon import standings
    from engine.mcmahon.files import egf_results
    from engine.mcmahon.tournament import sos_tables, state_after

    seed = next(seed for seed in range(500) if (t := to_title_round(seed, 40)) is not None and len(status(t).contenders) == 2)
    t = to_title_round(seed, 40)
    assert t is not None
    p = pair_next(t)
    g = p.games[0]
    done = add(t, p.round, (dataclasses.replace(g, winner=g.black),))
    after = {r.player.id: r for r in standings(done)}
    st = state_after(done)
    others = [pid for pid in after if pid not in (g.black, g.white)]
    assert {st.start[pid] for pid in others} == {0, -1, -2}

    def opponent(pid: str, rnd: Round) -> str | None:
        return next((x.white if x.black == pid else x.black for x in rnd.games if pid in (x.black, x.white)), None)

    for pid, row in after.items():  # each round: the opponent's score now, or the player's own start score
        assert row.sos == sum(after[o].score if (o := opponent(pid, rnd)) else st.start[pid] for rnd in done.rounds), pid
    sos, sosos = sos_tables(st)
    assert all(len(st.opponents[pid]) == p.round for pid in after)
    for pid in others:
        assert sosos[pid] == sum(sos[o] for o in st.opponents[pid] if o is not None) + sos[pid]  # this round: own SOS
    shift = max(r.start_group for r in after.values())
    written = {}
    for line in egf_results(done, dates="2027-05-01,2027-05-02").splitlines():
        if not line.startswith(";"):
            tokens = [w for w in line.split() if not w.startswith("|") and not re.fullmatch(r"\d+[+=-](/[bw]\d)?", w)]
            written[int(tokens[0])] = float(tokens[-2])
    for pid, row in after.items():
        expected = sum(after[o].score if (o := opponent(pid, rnd)) else st.start[pid] for rnd in done.rounds)
        assert written[row.rank] == expected + shift * len(done.rounds), pid
