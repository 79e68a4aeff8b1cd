"""Season rules of seed 004: cycles, no-shows (rule j), attendance and prizes (d, e, f), groups."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round, Standing
from engine.keizer.groups import group_for_rating, propose_groups
from engine.keizer.prizes import riser, season_prizes
from engine.keizer.season import (
    GROUPS,
    attendance,
    auto_signed_off,
    consecutive_no_shows,
    counts_as_played,
    cycle_of,
    is_no_show,
    present_by_default,
    required_attendance,
    rounds_of_cycle,
    season_length,
    signed_off_after,
)

# --------------------------------------------------------------------------- cycles


def test_default_season_is_four_cycles_of_seven() -> None:
    assert season_length() == 28
    assert [cycle_of(n) for n in (1, 7, 8, 14, 15, 21, 22, 28)] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert list(rounds_of_cycle(2)) == [8, 9, 10, 11, 12, 13, 14]


def test_cycles_follow_the_settings() -> None:
    s = KeizerSettings(cycles=2, cycle_length=5)
    assert season_length(s) == 10
    assert cycle_of(5, s) == 1 and cycle_of(6, s) == 2
    assert cycle_of(11, s) == 3  # an extra round after the season starts a new cycle


def test_no_cycles() -> None:
    s = KeizerSettings(cycle_length=0)
    assert season_length(s) == 0
    assert cycle_of(40, s) == 1
    with pytest.raises(ValueError):
        rounds_of_cycle(1, s)
    with pytest.raises(ValueError):
        cycle_of(0)


# --------------------------------------------------------------------------- no-shows

# what happened to player "p" in one round, by name, for building test rounds
STATUSES = ("won", "lost", "draw", "notice", "team", "unexcused", "forfeit_lost", "forfeit_won",
            "double_forfeit", "bye", "not_in_round", "no_result")
NO_SHOWS = {"unexcused", "forfeit_lost", "double_forfeit"}


def make_round(number: int, status: str, p: str = "p", q: str = "q") -> Round:
    if status == "won":
        return Round(number, games=(Game(p, q, Result.WHITE_WINS),))
    if status == "lost":
        return Round(number, games=(Game(q, p, Result.WHITE_WINS),))
    if status == "draw":
        return Round(number, games=(Game(p, q, Result.DRAW),))
    if status in ("notice", "team", "unexcused"):
        return Round(number, absent={p: Absence(status)})
    if status == "forfeit_lost":  # p is black in a 1-0F
        return Round(number, games=(Game(q, p, Result.WHITE_WINS_FORFEIT),))
    if status == "forfeit_won":  # p is black in a 0-1F: white did not come
        return Round(number, games=(Game(q, p, Result.BLACK_WINS_FORFEIT),))
    if status == "double_forfeit":
        return Round(number, games=(Game(p, q, Result.DOUBLE_FORFEIT),))
    if status == "bye":
        return Round(number, byes=(p,))
    if status == "no_result":
        return Round(number, games=(Game(p, q, None),))
    assert status == "not_in_round"
    return Round(number, games=(Game(q, "r", Result.DRAW),))


def season_of(statuses: list[str]) -> list[Round]:
    return [make_round(i + 1, s) for i, s in enumerate(statuses)]


@pytest.mark.parametrize("status", STATUSES)
def test_what_is_a_no_show(status: str) -> None:
    assert is_no_show("p", make_round(1, status)) == (status in NO_SHOWS)


def test_forfeit_no_show_is_the_absent_side_only() -> None:
    white_missing = Round(1, games=(Game("w", "b", Result.BLACK_WINS_FORFEIT),))
    assert is_no_show("w", white_missing) and not is_no_show("b", white_missing)
    black_missing = Round(1, games=(Game("w", "b", Result.WHITE_WINS_FORFEIT),))
    assert is_no_show("b", black_missing) and not is_no_show("w", black_missing)


def test_two_no_shows_in_a_row_sign_off() -> None:
    rounds = season_of(["won", "unexcused", "forfeit_lost", "not_in_round"])
    assert consecutive_no_shows("p", rounds, after_round=3) == 2
    assert consecutive_no_shows("p", rounds) == 0  # round 4 is not a no-show
    assert signed_off_after("p", rounds) == 3
    assert auto_signed_off("p", rounds)


def test_no_shows_not_in_a_row_do_not_sign_off() -> None:
    rounds = season_of(["unexcused", "notice", "unexcused", "won", "double_forfeit"])
    assert signed_off_after("p", rounds) is None
    assert not auto_signed_off("p", rounds)
    assert consecutive_no_shows("p", rounds) == 1


def test_signing_on_again_starts_a_new_count() -> None:
    rounds = season_of(["unexcused", "unexcused", "not_in_round", "unexcused"])
    assert auto_signed_off("p", rounds)
    # signed on again after round 3: only round 4 counts, one no-show
    assert not auto_signed_off("p", rounds, signed_on_again_after=3)
    assert consecutive_no_shows("p", rounds, since=3) == 1
    # ... and two more no-shows after that sign off again
    rounds += season_of(["won"] * 4 + ["unexcused"])[4:]
    assert signed_off_after("p", rounds, signed_on_again_after=3) == 5


def test_a_gap_in_round_numbers_breaks_the_run() -> None:
    rounds = [make_round(1, "unexcused"), make_round(3, "unexcused")]
    assert signed_off_after("p", rounds) is None
    assert consecutive_no_shows("p", rounds) == 1


def test_no_show_limit_is_a_setting() -> None:
    rounds = season_of(["unexcused", "unexcused", "won"])
    assert not auto_signed_off("p", rounds, KeizerSettings(no_show_limit=3))
    assert not auto_signed_off("p", rounds, KeizerSettings(no_show_limit=0))  # rule off
    assert signed_off_after("p", rounds, KeizerSettings(no_show_limit=1)) == 1


@given(st.lists(st.sampled_from(STATUSES), max_size=12), st.integers(min_value=0, max_value=12))
def test_signed_off_iff_two_no_shows_in_a_row_after_signing_on(statuses: list[str], since: int) -> None:
    rounds = season_of(statuses)
    later = statuses[since:]
    expected = next(
        (since + i + 2 for i in range(len(later) - 1) if later[i] in NO_SHOWS and later[i + 1] in NO_SHOWS), None
    )
    assert signed_off_after("p", rounds, signed_on_again_after=since or None) == expected


def test_present_by_default_leaves_out_no_shows_and_late_joiners() -> None:
    players = [Player("p", "P"), Player("q", "Q"), Player("r", "R"), Player("late", "L", joined_round=5)]
    rounds = season_of(["unexcused", "unexcused"])  # p did not come twice
    assert present_by_default(players, rounds) == ["q", "r"]
    assert present_by_default(players, rounds, next_round=5) == ["q", "r", "late"]
    assert present_by_default(players, rounds, signed_on_again_after={"p": 2}) == ["p", "q", "r"]


# --------------------------------------------------------------------------- attendance


@pytest.mark.parametrize(
    "status, counts",
    [
        ("won", True), ("lost", True), ("draw", True),
        ("team", True),  # rule f: a team-match absence counts as played
        ("bye", True),  # had to be present (internal rule l)
        ("forfeit_won", True),  # was there, ready to play
        ("notice", False), ("unexcused", False), ("forfeit_lost", False), ("double_forfeit", False),
        ("not_in_round", False), ("no_result", False),
    ],
)
def test_what_counts_as_played(status: str, counts: bool) -> None:
    assert counts_as_played("p", make_round(1, status)) is counts


def test_attendance_counts_rounds_up_to_a_round() -> None:
    rounds = season_of(["won", "notice", "team", "bye", "unexcused", "lost"])
    assert attendance("p", rounds) == 4  # won, team, bye, lost
    assert attendance("p", rounds, after_round=3) == 2


def test_required_attendance_is_two_thirds_rounded_up() -> None:
    assert required_attendance() == 19  # seed 004 rule e: "minimaal 2/3 (19 rondes)"
    assert required_attendance(season_rounds=30) == 20  # exactly 2/3
    assert required_attendance(season_rounds=27) == 18
    assert required_attendance(KeizerSettings(attendance_for_prizes=Fraction(1, 2)), season_rounds=7) == 4


# --------------------------------------------------------------------------- prizes


def ranking(*ids: str, groups: dict[str, str] | None = None) -> list[Standing]:
    """Standings in the given order; scores fall by 10 a place (only the order matters)."""
    groups = groups or {}
    return [
        Standing(rank=i + 1, player=Player(pid, pid.upper(), group=groups.get(pid)), score=Fraction(100 - 10 * i),
                 value=50 - i)
        for i, pid in enumerate(ids)
    ]


def rounds_with(played: dict[str, list[str]]) -> list[Round]:
    """Rounds where player x has status played[x][i] in round i+1 (games against a dummy 'z')."""
    n = max(len(v) for v in played.values())
    rounds = []
    for i in range(n):
        games, byes, absent = [], [], {}
        for pid, statuses in played.items():
            s = statuses[i] if i < len(statuses) else "not_in_round"
            if s == "won":
                games.append(Game(pid, f"z{pid}", Result.WHITE_WINS))
            elif s == "bye":
                byes.append(pid)
            elif s in ("notice", "team", "unexcused"):
                absent[pid] = Absence(s)
        rounds.append(Round(i + 1, games=tuple(games), byes=tuple(byes), absent=absent))
    return rounds


def test_champion_is_the_highest_player_who_played_two_thirds() -> None:
    final = ranking("a", "b", "c")
    rounds = rounds_with({"a": ["won", "notice", "notice"], "b": ["won", "won", "notice"], "c": ["won"] * 3})
    prizes = season_prizes(final, final, rounds, season_rounds=3)  # 2 of 3 needed
    assert prizes.required == 2
    assert prizes.attendance == {"a": 1, "b": 2, "c": 3}
    assert prizes.eligible == {"b", "c"}
    assert prizes.champion.winner == "b"


def test_team_match_absence_counts_for_the_prizes_but_notice_does_not() -> None:
    final = ranking("a", "b")
    rounds = rounds_with({"a": ["won", "notice", "notice"], "b": ["won", "team", "notice"]})
    prizes = season_prizes(final, final, rounds, season_rounds=3)
    assert prizes.champion.winner == "b"
    assert prizes.eligible == {"b"}


def test_nobody_eligible_means_no_champion() -> None:
    final = ranking("a")
    prizes = season_prizes(final, final, rounds_with({"a": ["won"]}))  # 1 of 28
    assert prizes.required == 19
    assert prizes.champion.winner is None and prizes.riser.winner is None


def test_group_winners_are_the_highest_eligible_of_each_group() -> None:
    groups = {"a": "A", "b": "B", "c": "A", "d": "B", "e": "C"}
    final = ranking("a", "b", "c", "d", "e", groups=groups)
    rounds = rounds_with({"a": ["notice"] * 3, "b": ["won"] * 3, "c": ["bye", "won", "notice"],
                          "d": ["won"] * 3, "e": ["notice"] * 3})
    prizes = season_prizes(final, final, rounds, season_rounds=3)
    by_group = {p.group: p.winner for p in prizes.group_winners}
    assert by_group == {"A": "c", "B": "b", "C": None}
    assert [p.group for p in prizes.group_winners] == ["A", "B", "C"]
    assert prizes.champion.winner == "b"  # the champion can also be a group winner


def test_riser_prize_counts_places_from_the_first_list() -> None:
    first = ranking("a", "b", "c", "d", "e")
    final = ranking("d", "a", "e", "b", "c")  # d: 4 -> 1 (+3), e: 5 -> 3 (+2), a: 1 -> 2 (-1)
    everyone = {pid: ["won"] for pid in "abcde"}
    prizes = season_prizes(final, first, rounds_with(everyone), season_rounds=1)
    assert prizes.riser.winner == "d"
    assert prizes.riser.tied_with == ()
    assert "3 places" in prizes.riser.reason


def test_riser_tie_goes_to_the_higher_final_place() -> None:
    first = ranking("a", "b", "c", "d")
    final = ranking("c", "d", "a", "b")  # c: 3 -> 1 (+2), d: 4 -> 2 (+2)
    prize = riser(first, final, eligible={"a", "b", "c", "d"})
    assert prize.winner == "c" and prize.tied_with == ("d",)


def test_riser_only_among_eligible_players_on_both_lists() -> None:
    first = ranking("a", "b", "c")
    final = ranking("new", "c", "a", "b")  # c: +1 ("new" was not on the first list, gains nothing)
    assert riser(first, final, eligible={"new", "a", "b", "c"}).winner == "c"
    assert riser(first, final, eligible={"a", "b", "new"}).winner is None  # c not eligible; a, b fell


def test_rapid_champion_comes_from_the_rapid_competition() -> None:
    final = ranking("a", "b")
    rapid = ranking("b", "a", "c")
    rounds = rounds_with({"a": ["won"], "b": ["won"]})
    rapid_settings = KeizerSettings(cycles=1, cycle_length=3)  # 2 rapid rounds needed
    rapid_rounds = rounds_with({"b": ["won", "notice", "notice"], "a": ["won", "won"], "c": ["won"] * 3})
    prizes = season_prizes(final, final, rounds, season_rounds=1, rapid_final=rapid,
                           rapid_rounds=rapid_rounds, rapid_settings=rapid_settings)
    assert prizes.champion.winner == "a"
    assert prizes.rapid_champion is not None and prizes.rapid_champion.winner == "a"  # b played 1 of 3
    assert season_prizes(final, final, rounds, season_rounds=1).rapid_champion is None


# --------------------------------------------------------------------------- groups


def test_group_winner_up_and_last_down_with_edges() -> None:
    last = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B", "b3": "B",
            "c1": "C", "c2": "C", "d1": "D", "d2": "D", "d3": "D"}
    final = ["a1", "b1", "a2", "c1", "b2", "a3", "d1", "b3", "c2", "d2", "d3"]
    prop = propose_groups(last, final)
    assert prop.groups == {
        "a1": "A",  # winner of A stays in A
        "a2": "A", "a3": "B",  # last of A down
        "b1": "A", "b2": "B", "b3": "C",
        "c1": "B", "c2": "D",
        "d1": "C", "d2": "D", "d3": "D",  # last of D stays in D
    }
    assert {m.player for m in prop.moves} == {"a3", "b1", "b3", "c1", "c2", "d1"}
    kinds = {m.player: m.kind for m in prop.moves}
    assert kinds == {"a3": "relegated", "b1": "promoted", "b3": "relegated", "c1": "promoted", "c2": "relegated",
                     "d1": "promoted"}  # fmt: skip
    assert sorted(prop.members("A")) == ["a1", "a2", "b1"]


def test_group_winner_must_be_eligible_when_given() -> None:
    last = {"b1": "B", "b2": "B", "b3": "B"}
    final = ["b1", "b2", "b3"]
    prop = propose_groups(last, final, eligible={"b2", "b3"})
    assert prop.groups == {"b1": "B", "b2": "A", "b3": "C"}


def test_a_group_of_one_only_promotes() -> None:
    assert propose_groups({"c": "C"}, ["c"]).groups == {"c": "B"}


def test_newcomers_by_rating_and_director_overrides() -> None:
    last = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "d1": "D", "d2": "D"}
    final = ["a1", "a2", "b1", "b2", "d1", "d2"]
    ratings = {"a1": 2100, "a2": 2000, "b1": 1800, "b2": 1700, "d1": 1300, "d2": 1200,
               "new_strong": 2050, "new_mid": 1750, "new_low": 1000, "new_unrated": 0}
    prop = propose_groups(
        last, final, ratings=ratings,
        members=[*last, "new_strong", "new_mid", "new_low", "new_unrated"],
    )
    assert prop.groups["b1"] == "A" and prop.groups["a2"] == "B" and prop.groups["b2"] == "C"
    assert prop.groups["d1"] == "C" and prop.groups["d2"] == "D"
    # A: 1800-2100, B: 2000, C: 1300-1700, D: 1200
    assert prop.groups["new_strong"] == "A"  # inside A's range only
    # 1750: 50 below A, 250 below B, 50 above C: a tie; A's median 1950 is 200 away, C's 1500 is 250
    assert prop.groups["new_mid"] == "A"
    assert prop.groups["new_low"] == "D"
    assert prop.groups["new_unrated"] == "D"
    moved = propose_groups(last, final, ratings=ratings, overrides={"a1": "B", "d2": "C"})
    assert moved.groups["a1"] == "B" and moved.groups["d2"] == "C"
    assert {m.player: m.reason for m in moved.moves}["a1"] == "moved by the director"
    assert {m.player: m.kind for m in moved.moves}["a1"] == "director"
    assert {m.player: m.kind for m in prop.moves}["new_low"] == "newcomer"


def test_members_who_left_are_dropped_and_unknown_groups_rejected() -> None:
    prop = propose_groups({"x": "B", "y": "B"}, ["x", "y"], members=["y", "z"], ratings={"y": 1500, "z": 1500})
    assert set(prop.groups) == {"y", "z"}
    with pytest.raises(ValueError):
        propose_groups({"x": "E"}, ["x"])
    with pytest.raises(ValueError):
        propose_groups({"x": "A"}, ["x"], overrides={"x": "Z"})


def test_group_for_rating() -> None:
    groups = {"A": [2000, 2200], "B": [1700, 1900], "C": [1400, 1600], "D": []}
    assert group_for_rating(2100, groups) == "A"
    assert group_for_rating(2500, groups) == "A"
    assert group_for_rating(1660, groups) == "B"  # 40 below B, 60 above C
    assert group_for_rating(1650, groups) == "B"  # 50 from both, medians 150 from both: the higher group
    overlapping = {"A": [1900, 2200], "B": [1700, 2000]}
    assert group_for_rating(1920, overlapping) == "B"  # inside both: B's median 1850 is closer than A's 2050
    assert group_for_rating(1990, overlapping) == "A"
    assert group_for_rating(1000, groups) == "C"  # D has no ratings
    assert group_for_rating(0, groups) == "D"  # unknown rating: the lowest group
    assert group_for_rating(1800, {}) == "D"
    assert group_for_rating(1800, {"A": [1700, 1900], "B": [1700, 1900]}) == "A"  # full tie: higher group


@given(
    st.dictionaries(st.text("abcdefgh", min_size=1, max_size=3), st.sampled_from(GROUPS), max_size=20),
    st.randoms(use_true_random=False),
    st.dictionaries(st.text("xyz", min_size=1, max_size=2), st.integers(0, 2500), max_size=4),
)
def test_every_member_ends_in_exactly_one_group(last: dict[str, str], rnd, newcomers: dict[str, int]) -> None:
    final = list(last)
    rnd.shuffle(final)
    ratings = {pid: rnd.randint(0, 2500) for pid in last} | newcomers
    prop = propose_groups(last, final, members=[*last, *newcomers], ratings=ratings)
    assert set(prop.groups) == set(last) | set(newcomers)
    assert set(prop.groups.values()) <= set(GROUPS)
    for pid, g in last.items():  # nobody moves more than one group by the rules
        assert abs(GROUPS.index(prop.groups[pid]) - GROUPS.index(g)) <= 1
    for g in GROUPS:  # at most one player up and one down per group
        members = [pid for pid, pg in last.items() if pg == g]
        up = [pid for pid in members if GROUPS.index(prop.groups[pid]) < GROUPS.index(g)]
        down = [pid for pid in members if GROUPS.index(prop.groups[pid]) > GROUPS.index(g)]
        assert len(up) <= 1 and len(down) <= 1
        if up:
            assert up[0] == min(members, key=final.index)
        if down:
            assert down[0] == max(members, key=final.index)
    assert {m.player for m in prop.moves} == {pid for pid, g in prop.groups.items() if last.get(pid) != g}
