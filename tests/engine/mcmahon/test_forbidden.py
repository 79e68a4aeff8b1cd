"""Issue 34, section 3, for the NK: a pair the director keeps apart (``/indeling verbied``) counts as a repeat,
before anything else, in every round of the NK pairing: round 1's slide, the score groups, the title game."""

from __future__ import annotations

from engine.mcmahon import Game, Player, Round, Tournament, pair_next


def field(n: int) -> tuple[Player, ...]:
    return tuple(Player(f"p{i:02d}", f"Player {i}", 2800 - 10 * i) for i in range(1, n + 1))


def pairs_of(games: tuple[Game, ...]) -> set[frozenset[str]]:
    return {frozenset((g.black, g.white)) for g in games}


def test_round_one_slides_past_a_forbidden_pair() -> None:
    """Eight players, one start group: the slide pairs p01-p05, p02-p06, ...; p01 and p05 are kept apart,
    so p01 takes the next pair's lower player (p06) and p02 meets p05. Nothing counts as a repeat."""
    t = Tournament(field(8))
    assert frozenset(("p01", "p05")) in pairs_of(pair_next(t).games)
    p = pair_next(t, forbidden=[("p05", "p01")])
    assert pairs_of(p.games) == {frozenset(x) for x in (("p01", "p06"), ("p02", "p05"), ("p03", "p07"), ("p04", "p08"))}
    assert p.repeats == 0


def test_a_score_group_pairs_around_a_forbidden_pair() -> None:
    """Round 2: the four winners fold 1-4, 2-3; with the fold's first pair forbidden they pair otherwise,
    without a repeat and without a player crossing to another score group."""
    t = Tournament(field(8))
    first = pair_next(t)
    games = tuple(Game(g.black, g.white, min(g.black, g.white), board=g.board) for g in first.games)
    t = Tournament(t.players, (Round(1, games),))
    plain = pair_next(t)
    a, b = sorted(next(iter(pairs_of(plain.games))))
    kept_apart = pair_next(t, forbidden=[(a, b)])
    assert frozenset((a, b)) not in pairs_of(kept_apart.games)
    assert kept_apart.repeats == 0
    winners = {min(g.black, g.white) for g in first.games}
    for g in kept_apart.games:
        assert (g.black in winners) == (g.white in winners)


def test_a_forbidden_pair_meets_only_when_nothing_else_is_left() -> None:
    """Two players: they must meet, and the pairing counts the forbidden pair as a repeat; a pair of
    players outside the field is ignored."""
    t = Tournament(field(2))
    p = pair_next(t, forbidden=[("p01", "p02"), ("p01", "p99")])
    assert pairs_of(p.games) == {frozenset(("p01", "p02"))} and p.repeats == 1
