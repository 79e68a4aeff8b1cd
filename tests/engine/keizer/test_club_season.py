"""Keizer as a club runs it all season (issue 19): the rapid champion of a short season, the riser prize
from the start order, ties by rating, withdrawals, and what an automatic sign-off earns."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, standings, value_ranking
from engine.keizer.pairing import pair_round
from engine.keizer.prizes import prizes_from_rounds
from engine.keizer.scores import scoring

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def ids(table: list) -> list[str]:
    return [s.player.id for s in table]


# --- the rapid champion of a three-round rapid season --------------------------------------------


def test_a_three_round_rapid_season_asks_two_rounds_for_its_prize() -> None:
    main = [Player("a", "A", 1800), Player("b", "B", 1700)]
    main_rounds = [Round(1, (Game("a", "b", W),))]
    rapid_players = [Player("a", "A", 1800), Player("b", "B", 1700), Player("c", "C", 1600)]
    rapid_rounds = [
        Round(1, (Game("a", "b", W),), absent={"c": Absence.NOTICE}),
        Round(2, (Game("a", "c", W),), absent={"b": Absence.NOTICE}),
    ]
    rapid = (rapid_players, rapid_rounds, KeizerSettings())
    prizes = prizes_from_rounds(main, main_rounds, KeizerSettings(), season_rounds=28, rapid=rapid, rapid_season_rounds=3)
    assert prizes.rapid_champion is not None and prizes.rapid_champion.winner == "a"
    assert "2 needed" in prizes.rapid_champion.reason
    # counted against 28 rounds, nobody could ever win it (the bug the issue names)
    old = prizes_from_rounds(main, main_rounds, KeizerSettings(), season_rounds=28, rapid=rapid)
    assert old.rapid_champion is not None and old.rapid_champion.winner is None


# --- the riser prize counts from the start order --------------------------------------------------


def _missing_round_one() -> tuple[list[Player], list[Round]]:
    """The top-rated player misses round 1 (with notice), then wins every game."""
    ps = [Player(c, c.upper(), 2000 - 100 * i) for i, c in enumerate("abcdef")]
    rounds = [Round(1, (Game("c", "b", W), Game("e", "d", W)), byes=(), absent={"a": Absence.NOTICE, "f": Absence.NOTICE})]
    rounds += [Round(n, (Game("a", x, W), Game(y, z, D)), absent={q: Absence.NOTICE for q in "abcdef" if q not in ("a", x, y, z)})
               for n, (x, y, z) in zip(range(2, 6), ["bcd", "cbe", "dbf", "ebc"])]  # fmt: skip
    return ps, rounds


def test_the_riser_prize_counts_from_the_start_order_so_missing_round_one_earns_nothing() -> None:
    ps, rounds = _missing_round_one()
    everyone = KeizerSettings(attendance_for_prizes=Fraction(0))
    assert ids(standings(ps, rounds, everyone, after_round=0))[0] == "a"  # the start order: rating
    after_one = ids(standings(ps, rounds, everyone, after_round=1))
    final = ids(standings(ps, rounds, everyone))
    assert final[0] == "a" and after_one.index("a") > 0  # a "rose" from after round 1 to first
    prize = prizes_from_rounds(ps, rounds, everyone).riser
    assert prize.winner != "a" and "in the start order" in prize.reason
    old_way = prizes_from_rounds(ps, rounds, KeizerSettings(attendance_for_prizes=Fraction(0), riser_from="round1")).riser
    gained = after_one.index("a")  # places a gained from the list after round 1 to first
    assert gained >= 1 and "after round 1" in old_way.reason
    if old_way.winner != "a":  # someone else gained even more: a at least ties or is among them
        assert gained <= int(old_way.reason.split()[1])


# --- ties: rating first, then the start order -----------------------------------------------------


def test_equal_scores_under_last_seasons_order_are_broken_by_rating() -> None:
    """Start order "list" (last season's final order): z, y, x although x is rated highest. Before
    round 1 the ranking is that list; after a round in which y and x were both absent without notice
    (0 points each) their tie is broken by rating (seed 003), not by last season's order."""
    ps = [Player("z", "Z", 1500), Player("y", "Y", 1900), Player("x", "X", 2100), Player("w", "W", 1000)]
    settings = KeizerSettings(start_order="list")
    assert ids(standings(ps, [], settings, after_round=0)) == ["z", "y", "x", "w"]
    rounds = [Round(1, (Game("z", "w", W),), absent={"y": Absence.UNEXCUSED, "x": Absence.UNEXCUSED})]
    after = ids(standings(ps, rounds, settings))
    # y and x both have 0: rating first (x 2100 above y 1900), not last season's order (y above x)
    assert after.index("x") < after.index("y")
    # with start order "rating" nothing changes: the two orders are the same
    assert ids(standings(ps, rounds, KeizerSettings())).index("x") < ids(standings(ps, rounds, KeizerSettings())).index("y")


# --- withdrawals ----------------------------------------------------------------------------------


def _season_with_a_leaver() -> tuple[list[Player], list[Round]]:
    ps = [Player(c, c.upper(), 2000 - 100 * i) for i, c in enumerate("abcd")]
    r1 = Round(1, (Game("b", "a", D), Game("d", "c", W)))
    r2 = Round(2, (Game("a", "d", W), Game("c", "b", W)))
    r3 = Round(3, (Game("a", "c", D),), byes=(), absent={"d": Absence.NOTICE})
    return ps, [r1, r2, r3]


def test_a_withdrawn_player_leaves_the_ranking_and_their_games_keep_their_value() -> None:
    ps, rounds = _season_with_a_leaver()
    value_when_leaving = {s.player.id: s.value for s in value_ranking(ps, rounds, 3)}["b"]
    gone = [p if p.id != "b" else Player("b", "B", 1900, withdrawn_from=3) for p in ps]
    assert "b" in ids(standings(gone, rounds, after_round=2))  # in the ranking before they left
    after = standings(gone, rounds)
    assert "b" not in ids(after) and len(after) == 3
    # a drew with b in round 1 and c beat b in round 2: those points stay, at b's value when leaving
    stayed = standings(ps, rounds)
    a_then = {s.player.id: s.score for s in after}["a"]
    assert a_then > 0
    c_score = {s.player.id: s.score for s in after}["c"]
    assert c_score >= value_when_leaving  # c's win over b counts b's value as it was
    assert {s.player.id for s in stayed} == set("abcd")
    # out of the pairing: b cannot be present any more
    with pytest.raises(ValueError):
        pair_round(gone, rounds, ["a", "b", "c", "d"], round_number=4)
    assert {x for g in pair_round(gone, rounds, ["a", "c", "d"], round_number=4).games for x in (g.white, g.black)} <= set("acd")


def test_a_withdrawn_players_value_is_the_one_of_the_last_ranking_they_were_in_not_with_a_joiner_inserted() -> None:
    """Worked by hand (values "top": 50, 49, ...). Round 1 at the start order a 50, b 49, c 48, d 47: a beats
    b (a 49), c beats d (c 47). The standings after round 1: a 49, c 47, b 0, d 0 (b above d by rating), so
    b's value there is 48 (3rd). e joins in round 2 with 10 start points and b withdraws from round 2: the
    list that values round 2 is a, c, e, b, d, where b would be 4th (47). b keeps 48, the value of the last
    ranking b was in (the README's rule). Round 2: a beats e (3rd of a, c, e, d: 48), so a has 48 + 48 = 96."""
    ps = [Player(c, c.upper(), 2000 - 100 * i) for i, c in enumerate("abcd")]
    ps[1] = Player("b", "B", 1900, withdrawn_from=2)
    ps.append(Player("e", "E", 1500, joined_round=2, start_points=Fraction(10)))
    rounds = [Round(1, (Game("a", "b", W), Game("c", "d", W))), Round(2, (Game("a", "e", W), Game("c", "d", D)))]
    after_one = standings(ps, rounds, after_round=1)
    assert [(s.player.id, s.score, s.value) for s in after_one] == [("a", 49, 50), ("c", 47, 49), ("b", 0, 48), ("d", 0, 47)]
    # the list that values round 2: e entered at 10, above b, who would be worth 47 there
    assert [(s.player.id, s.value) for s in value_ranking(ps, rounds, 2)] == [("a", 50), ("c", 49), ("e", 48), ("b", 47), ("d", 46)]
    after_two = {s.player.id: s.score for s in standings(ps, rounds)}
    assert after_two["a"] == 96  # the win over b at 48, not 47
    assert scoring(ps, rounds).values["b"] == 48


def test_a_player_who_comes_back_rejoins_and_the_standings_before_stay_as_they_were() -> None:
    """b leaves from round 3 and comes back from round 4: the standings after rounds 0-3 are those of
    the withdrawal alone (published, they never change); from round 4 on b is ranked and paired again,
    with the points of their games so far."""
    ps, rounds = _season_with_a_leaver()
    gone = [p if p.id != "b" else Player("b", "B", 1900, withdrawn_from=3) for p in ps]
    back = [p if p.id != "b" else Player("b", "B", 1900, withdrawn_from=3, returned_from=4) for p in ps]
    r4 = Round(4, (Game("b", "d", W), Game("c", "a", D)))
    def shown(ranking: list) -> list:
        return [(s.rank, s.player.id, s.score, s.value, s.played) for s in ranking]

    for after in range(4):
        assert shown(standings(back, [*rounds, r4], after_round=after)) == shown(standings(gone, rounds, after_round=after))
    assert "b" in ids(value_ranking(back, rounds, 4))
    b_before = {s.player.id: s.score for s in standings(ps, rounds, after_round=2)}["b"]
    assert {s.player.id: s.score for s in value_ranking(back, rounds, 4)}["b"] >= b_before  # the draw with a
    assert {x for g in pair_round(back, rounds, list("abcd"), round_number=4).games for x in (g.white, g.black)} == set("abcd")
    after4 = standings(back, [*rounds, r4])
    assert set(ids(after4)) == set("abcd") and len(after4) == 4


def test_a_withdrawal_before_the_season_leaves_no_trace() -> None:
    ps = [Player("a", "A", 2000), Player("b", "B", 1900, withdrawn_from=1), Player("c", "C", 1800)]
    assert ids(standings(ps, [], after_round=0)) == ["a", "c"]
    assert ids(standings(ps, [Round(1, (Game("a", "c", W),))])) == ["a", "c"]


# --- what an automatic sign-off earns -------------------------------------------------------------


@pytest.mark.parametrize("fraction", [Fraction(1, 3), Fraction(0)])
def test_an_automatic_sign_off_earns_its_setting(fraction: Fraction) -> None:
    ps = [Player("a", "A", 2000), Player("b", "B", 1900), Player("c", "C", 1800)]
    rounds = [Round(1, (Game("a", "b", D),), absent={"c": Absence.AUTO})]
    settings = KeizerSettings(auto_signoff_fraction=fraction)
    c = next(s for s in standings(ps, rounds, settings) if s.player.id == "c")
    value = {s.player.id: s.value for s in value_ranking(ps, rounds, 1, settings)}["c"]
    assert c.score == fraction * value


# --- an unrated player's estimate -----------------------------------------------------------------


def test_an_estimate_places_an_unrated_player_in_the_start_order_and_nothing_else() -> None:
    """t is unrated (0) with an estimate of 1850: the start order is a, t, c (not a, c, t), and a late
    joiner's start points interpolate at 1850. After a round ties are broken by the real rating: t (0)
    below c (1800) when both have 0 points."""
    ps = [Player("a", "A", 2000), Player("t", "T", 0, estimate=1850), Player("c", "C", 1800)]
    assert ids(standings(ps, [], after_round=0)) == ["a", "t", "c"]
    assert ids(standings([*ps[:1], Player("t", "T", 0), ps[2]], [], after_round=0)) == ["a", "c", "t"]
    rounds = [Round(1, (Game("a", "c", W),), absent={"t": Absence.UNEXCUSED})]
    assert ids(standings(ps, rounds)) == ["a", "c", "t"]  # c and t both 0: rating, the real one, first
    # round 1 at the start order's values (a 50, t 49, c 48): a beat c, 48. A joiner in round 2, unrated
    # with an estimate of 1900, interpolates between a (2000, 48 points) and t (1850 estimated, 0 points):
    # 0 + 48 * (1900 - 1850) / (2000 - 1850) = 16; without the estimates, at rating 0, it would be 0
    late = [*ps, Player("j", "J", 0, joined_round=2, estimate=1900)]
    assert {s.player.id: s.score for s in value_ranking(late, rounds, 2)}["j"] == 16
