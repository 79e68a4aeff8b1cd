"""What a club prints: the cross table, the standings after every round, a member's card and TRF-16."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings as hyp_settings, strategies as st

from engine.keizer import Absence, Game, Player, Result, Round, standings
from engine.keizer.reports import cross_table, member_card, performance, rank_history, trf

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW
PLAYERS = [Player("a", "Anna", 2000), Player("b", "Bert", 1900), Player("c", "Carla", 1800), Player("d", "Daan", 1700), Player("e", "Eva", 1600)]
ROUNDS = [
    Round(1, (Game("b", "a", B), Game("d", "c", D)), byes=("e",)),
    Round(2, (Game("a", "c", W), Game("e", "b", Result.WHITE_WINS_FORFEIT)), absent={"d": Absence.NOTICE}),
]


def test_the_cross_table_names_each_rounds_opponent_by_final_place_colour_and_result() -> None:
    table = cross_table(PLAYERS, ROUNDS)
    place = {p.id: rank for rank, p, _, _ in table}
    cells = {p.id: c for _, p, _, c in table}
    assert [rank for rank, _, _, _ in table] == list(range(1, 6))
    assert cells["a"] == [f"{place['b']}b1", f"{place['c']}w1"]
    assert cells["b"] == [f"{place['a']}w0", f"{place['e']}b-"]
    assert cells["e"] == ["bye", f"{place['b']}w+"]
    assert cells["d"] == [f"{place['c']}w=", "afw"]
    scores = {s.player.id: s.score for s in standings(PLAYERS, ROUNDS)}
    assert all(score == scores[p.id] for _, p, score, _ in table)  # the points column


def test_the_cross_table_says_a_team_match_absence_and_takes_the_clubs_words() -> None:
    rounds = [ROUNDS[0], Round(2, ROUNDS[1].games, absent={"d": Absence.TEAM})]
    cells = {p.id: c for _, p, _, c in cross_table(PLAYERS, rounds, words={"b": "z", "bye": "vrij", "team": "tw"})}
    assert cells["d"][1] == "tw" and cells["e"][0] == "vrij" and cells["a"][0].endswith("z1")
    assert "d" in {p.id for _, p, _, _ in cross_table(PLAYERS, rounds)} and cells["d"][0].endswith("w=")


def test_the_history_is_the_standings_after_every_round() -> None:
    history = rank_history(PLAYERS, ROUNDS)
    for n in (1, 2):
        after = {s.player.id: s.rank for s in standings(PLAYERS, ROUNDS, after_round=n)}
        assert {pid: places[n - 1] for pid, places in history.items()} == after


def test_a_members_card_and_performance() -> None:
    card = member_card("a", PLAYERS, ROUNDS)
    assert [(m.round, m.opponent, m.colour, m.result) for m, _ in card.rounds] == [(1, "b", "b", "1"), (2, "c", "w", "1")]
    assert card.rounds[-1][1] == next(s.score for s in standings(PLAYERS, ROUNDS) if s.player.id == "a")
    assert card.games == 2 and card.points == 2 and card.performance == round(Fraction(1900 + 1800, 2) + 400)
    assert member_card("e", PLAYERS, ROUNDS).performance is None  # a bye and a forfeit: nothing rated
    assert performance([(2000, Fraction(1)), (1800, Fraction(0))]) == 1900
    assert performance([(2000, Fraction(1, 2))]) == 2000


def test_trf_puts_every_field_in_its_columns() -> None:
    text = trf("Clubcompetitie", PLAYERS, ROUNDS, start="2026/12/03", end="2027/06/10")
    lines = text.splitlines()
    assert lines[0] == "012 Clubcompetitie"
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 5
    anna = players[0]  # start numbers by rating: Anna is 1
    assert anna[4:8] == "   1" and anna[14:47].rstrip() == "Anna" and anna[48:52] == "2000"
    assert anna[80:84] == " 2.0"
    numbers = {line[14:47].rstrip(): int(line[4:8]) for line in players}
    assert anna[91:95] == f"{numbers['Bert']:4d}" and anna[96] == "b" and anna[98] == "1"
    assert anna[101:105] == f"{numbers['Carla']:4d}" and anna[106] == "w" and anna[108] == "1"
    eva = next(line for line in players if "Eva" in line)
    assert eva[91:99] == "0000 - U" and eva[101:109] == f"{numbers['Bert']:4d} w +" and eva[80:84] == " 2.0"
    daan = next(line for line in players if "Daan" in line)
    assert daan[101:109] == "0000 - Z" and daan[98] == "=" and daan[80:84] == " 0.5"


def test_trf_132_has_each_round_date_in_its_columns() -> None:
    # FIDE TRF-16: "132 Dates of the round (format: YY/MM/DD; pos. 92-99 round 1, 102-109 round 2, ...)"
    text = trf("Club", PLAYERS, ROUNDS, round_dates={1: "2026/12/03", 2: "2026/12/10", 3: "2026/12/17"})
    line = next(x for x in text.splitlines() if x.startswith("132"))
    assert line[91:99] == "26/12/03" and line[101:109] == "26/12/10" and len(line) == 109
    assert not any(x.startswith("132") for x in trf("Club", PLAYERS, ROUNDS).splitlines())


@hyp_settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_trf_points_add_up_and_every_game_is_seen_from_both_sides(seed: int) -> None:
    import random

    rng = random.Random(seed)
    ps = [Player(f"p{i}", f"P{i}", rng.randint(1000, 2400)) for i in range(rng.randint(2, 12))]
    rounds = []
    for n in range(1, rng.randint(1, 6) + 1):
        ids = [p.id for p in ps]
        rng.shuffle(ids)
        games = tuple(Game(ids[i], ids[i + 1], rng.choice(list(Result))) for i in range(0, len(ids) - 1, 2))
        rounds.append(Round(n, games, byes=(ids[-1],) if len(ids) % 2 else ()))
    lines = [line for line in trf("S", ps, rounds).splitlines() if line.startswith("001")]
    by_number = {int(line[4:8]): line for line in lines}
    for line in lines:
        total = Fraction(0)
        for k in range(len(rounds)):
            block = line[91 + 10 * k: 99 + 10 * k]
            opponent, colour, result = int(block[0:4]), block[5], block[7]
            total += {"1": 1, "+": 1, "U": 1, "=": Fraction(1, 2)}.get(result, 0)
            if opponent:
                other = by_number[opponent][91 + 10 * k: 99 + 10 * k]
                assert int(other[0:4]) == int(line[4:8]) and {colour, other[5]} == {"w", "b"}
                assert {result, other[7]} in ({"1", "0"}, {"="}, {"+", "-"}, {"-"})
        assert line[80:84] == f"{float(total):4.1f}"


def test_a_withdrawn_player_stays_in_the_cross_table_and_has_a_rank_in_the_trf() -> None:
    """Daan leaves after round 1: out of the ranking, but his game was played; he is listed after the
    ranked players (in the order they stood when they left), with his round-1 cell and a TRF rank."""
    players = [*PLAYERS[:3], Player("d", "Daan", 1700, withdrawn_from=2), PLAYERS[4]]
    rounds = [ROUNDS[0], Round(2, (Game("a", "c", W), Game("e", "b", Result.WHITE_WINS_FORFEIT)))]
    assert "d" not in {s.player.id for s in standings(players, rounds)}
    table = cross_table(players, rounds)
    assert [rank for rank, _, _, _ in table] == [1, 2, 3, 4, 5]
    place = {p.id: rank for rank, p, _, _ in table}
    cells = {p.id: c for _, p, _, c in table}
    assert place["d"] == 5 and cells["d"] == [f"{place['c']}w=", ""] and cells["c"][0] == "5b="
    assert next(score for _, p, score, _ in table if p.id == "d") is None  # withdrawn: no points
    daan = next(line for line in trf("Club", players, rounds).splitlines() if "Daan" in line)
    assert daan[85:89] == "   5"


def test_trf_columns_are_counted_in_bytes_for_a_name_with_accents() -> None:
    """A rating office reads TRF by byte columns: "Jürgen Öztürk" (UTF-8, 3 letters of 2 bytes) keeps the
    rating at bytes 49-52 and the rounds where every other line has them; a name longer than the field
    is cut at a whole letter."""
    players = [Player("a", "Jürgen Öztürk", 2000), *PLAYERS[1:3], Player("d", "Ångström-Ødegård Æbelø Ñúñez Çelik", 1700), PLAYERS[4]]
    lines = [line.encode("utf-8") for line in trf("Club", players, ROUNDS).splitlines() if line.startswith("001")]
    for line in lines:
        assert line[47:48] == b" " and line[48:52].strip().isdigit(), line
        assert line[91:95].strip().isdigit() and line[96:97] in (b"w", b"b", b"-"), line
    jurgen = next(line for line in lines if "Jürgen".encode() in line)
    assert jurgen[14:47].decode("utf-8").rstrip() == "Jürgen Öztürk" and jurgen[48:52] == b"2000"
    long = next(line for line in lines if "Ångström".encode() in line)
    assert long[14:47].decode("utf-8").startswith("Ångström-Ødegård") and long[48:52] == b"1700"


def test_an_unrated_player_is_no_rating_in_a_performance_nor_in_the_trf() -> None:
    """Issue 44: Tim Koster has no rating (0). Anna beats him and loses to Bert (1900): before, Tim's 0 was
    averaged in, (0 + 1900) / 2 + 0 = 950 (the 938 of the issue's case); now only Bert counts, 1900 - 400
    = 1500. The TRF leaves Tim's rating field (positions 49-52) empty, counts him out of the rated players
    (072), and starts him last."""
    players = [Player("a", "Anna", 2000), Player("b", "Bert", 1900), Player("t", "Tim Koster", 0)]
    rounds = [Round(1, (Game("a", "t", W),), byes=("b",)), Round(2, (Game("b", "a", W),), byes=("t",))]
    card = member_card("a", players, rounds)
    assert card.games == 2 and card.points == 1 and card.performance == 1500
    assert member_card("t", players, rounds).performance == 2000 - 400  # his own: Anna is rated
    lines = trf("Club", players, rounds).splitlines()
    tim = next(line for line in lines if "Tim Koster" in line)
    assert tim[4:8] == "   3" and tim[48:52] == "    " and tim[53:56] == "   "
    assert "072 2" in lines


def test_the_cross_table_gives_a_no_show_and_a_missing_result_their_own_words_when_asked() -> None:
    rounds = [*ROUNDS, Round(3, (Game("a", "b"),), absent={"c": Absence.UNEXCUSED, "d": Absence.AUTO, "e": Absence.NOTICE})]
    words = {"afw": "afw", "noshow": "nv0", "auto": "auto", "pending": "?"}
    cells = {p.id: c for _, p, _, c in cross_table(PLAYERS, rounds, words=words)}
    assert [cells[p][2] for p in "cde"] == ["nv0", "auto", "afw"]
    assert cells["a"][2].endswith("w?") and cells["b"][2].endswith("b?")
    plain = {p.id: c for _, p, _, c in cross_table(PLAYERS, rounds)}  # without words: as before
    assert [plain[p][2] for p in "cde"] == ["afw", "afw", "afw"]
