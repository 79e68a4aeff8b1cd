"""Grades (seed 002) through the commands layer on a real SQLite file: entering games, the grade card, a
promotion recorded and announced once, corrections, the CSV import, competition games, refusals."""

from __future__ import annotations

from tests.paths import REPO

import json
from datetime import datetime, timedelta, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.grades import commands as grades
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

ANNA, BERT = actor("Anna"), actor("Bert")
JUNE = datetime(2027, 6, 1, 10, 0, tzinfo=timezone.utc)
ROOT = REPO
GAME = "minuten=90 byoyomi=30 toernooi=Regio"


async def anna_at_1_dan(commands: Core, clock: ShiftedClock) -> None:
    clock.set(JUNE)
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await ok(commands, DIRECTOR, "/speler Bert 1900")
    await link(commands, ANNA)
    await ok(commands, ANNA, "/aanmelden")
    text = await ok(commands, DIRECTOR, "/graadzetten Anna 1d vanaf=2027-01-01")
    assert "1d" in text and "2027-01-01" in text


async def enter(commands: Core, day: str, kind: str) -> str:
    """W25: a win against a 1 dan (equal); L10: a loss against a 3 dan (2 stronger)."""
    opponent, grade, result = {"W25": ("Piet", "1d", "gewonnen"), "L10": ("Karel", "3d", "verloren")}[kind]
    return await ok(commands, DIRECTOR, f"/partij Anna datum={day} tegen={opponent} graad={grade} uitslag={result} {GAME}")


async def test_a_promotion_earned_with_entered_games(commands: Core, clock: ShiftedClock, config) -> None:
    await anna_at_1_dan(commands, clock)
    day = datetime(2027, 1, 4)
    for i, kind in enumerate(["W25", "L10"] * 5 + ["W25"]):
        text = await enter(commands, (day + timedelta(weeks=i)).date().isoformat(), kind)
        assert text.endswith("+25." if kind == "W25" else "-10.")
    # A handicap game and a too-short game: entered, shown as not counting, part of no series.
    handicap = await ok(commands, DIRECTOR, f"/partij Anna datum=2027-02-02 tegen=Piet graad=1d uitslag=verloren handicap=2 {GAME}")
    assert "telt niet (handicap)" in handicap
    short = await ok(commands, DIRECTOR, "/partij Anna datum=2027-02-03 tegen=Piet graad=1d uitslag=verloren minuten=30 byoyomi=30")
    assert "telt niet (minder dan 45 minuten)" in short
    card = await ok(commands, ANNA, "/graad")
    # 6 x 25 - 5 x 10 = 100 from 11 counted games: 25 short, one game short of 12.
    assert "Anna: 1d" in card
    assert "Lopende reeks: 100 punten uit 11 partijen" in card
    assert "Nog 25 punten nodig voor 2d" in card and "nog minstens 1 partij" in card
    assert rows(config, "SELECT COUNT(*) FROM announcements")[0][0] == 0

    promoted = await enter(commands, "2027-03-22", "W25")  # the 12th counted game: 125
    assert "Anna is gepromoveerd naar 2d (125 punten uit 12 partijen)" in promoted
    announced = rows(config, "SELECT kind, body, round_id FROM announcements")
    assert len(announced) == 1 and announced[0][0].startswith("promotion:") and announced[0][2] is None
    assert "van 1d naar 2d" in announced[0][1] and "2027-01-04 tot 2027-03-22" in announced[0][1]
    (games_json, points), = rows(config, "SELECT games_json, points FROM grade_events WHERE kind = 'promotion'")
    earned = json.loads(games_json)
    assert points == 125 and len(earned) == 12
    assert "2027-02-02" not in {g["date"] for g in earned} and sum(g["points"] for g in earned) == 125

    card = await ok(commands, BERT, "/graad Anna")  # anyone may look
    assert "Anna: 2d" in card and "Laatste promotie: naar 2d op 2027-03-22" in card
    assert "Lopende reeks: 0 punten uit 0 partijen" in card and "Nog 125 punten nodig voor 3d" in card
    await ok(commands, ANNA, "/graad")  # looking again records and announces nothing new
    assert rows(config, "SELECT COUNT(*) FROM announcements")[0][0] == 1
    assert rows(config, "SELECT COUNT(*) FROM grade_events WHERE kind = 'promotion'")[0][0] == 1

    everyone = await ok(commands, DIRECTOR, "/graden alle")
    assert "Anna" in everyone and "125" in everyone
    close = await ok(commands, DIRECTOR, "/graden")
    assert "Niemand." in close


async def test_the_card_shows_the_series_the_rule_reads_before_a_back_dated_game(commands: Core, clock: ShiftedClock, config) -> None:
    """Issue 45 §3: counted back from today the card showed "0 punten uit 0 partijen" two years after 11
    games, while the rule reads them as of the last game: a 12th game entered with its date right after
    them promotes. The card shows those 11 and says a game of today no longer counts them."""
    await anna_at_1_dan(commands, clock)
    day = datetime(2027, 1, 4)
    for i, kind in enumerate(["W25", "L10"] * 5 + ["W25"]):
        await enter(commands, (day + timedelta(weeks=i)).date().isoformat(), kind)
    clock.set(datetime(2029, 6, 1, 10, 0, tzinfo=timezone.utc))
    card = await ok(commands, ANNA, "/graad")
    assert "Lopende reeks: 100 punten uit 11 partijen, tot en met de partij van 2027-03-15" in card
    assert "Nog 25 punten nodig voor 2d" in card and "En nog minstens 1 partij" in card
    assert "Een partij van vandaag telt de 11 oudste partijen van deze reeks niet meer mee (gespeeld vóór 2028-04-01" in card
    promoted = await enter(commands, "2027-03-22", "W25")
    assert "Anna is gepromoveerd naar 2d (125 punten uit 12 partijen)" in promoted


async def test_enough_points_from_too_few_games_is_not_read_as_done(commands: Core, clock: ShiftedClock) -> None:
    """Issue 45 §3: 145 points from 10 games (7 x 25 - 3 x 10; 215 would promote early) read "Nog 0 punten
    nodig"; the card says the points are there and the series is still 2 games short."""
    await anna_at_1_dan(commands, clock)
    for i, kind in enumerate(["W25", "L10"] * 3 + ["W25"] * 4):
        await enter(commands, f"2027-02-{i + 1:02d}", kind)
    card = await ok(commands, ANNA, "/graad")
    assert "Lopende reeks: 145 punten uit 10 partijen" in card and "Nog 0 punten" not in card
    assert "De punten zijn er (145 van de 125), maar de reeks is nog te kort: promotie naar 2d na nog 2 partijen" in card
    await ok(commands, DIRECTOR, "/taal en")
    card = await ok(commands, ANNA, "/graad")
    assert "The points are there (145 of the 125), but the series is still too short: promotion to 2d after 2 more games" in card
    line = next(x for x in (await ok(commands, DIRECTOR, "/grades")).splitlines() if x.strip().startswith("Anna"))
    assert line.split()[1:] == ["1d", "10", "145", "2", "games"]  # still needed: 2 games, not a bare 0 that reads as done
    await ok(commands, DIRECTOR, "/taal nl")
    line = next(x for x in (await ok(commands, DIRECTOR, "/graden")).splitlines() if x.strip().startswith("Anna"))
    assert line.split()[1:] == ["1d", "10", "145", "2", "partijen"]


async def test_the_committee_list_shows_players_close_to_promotion(commands: Core, clock: ShiftedClock) -> None:
    await anna_at_1_dan(commands, clock)
    await ok(commands, DIRECTOR, "/graadzetten Bert 1d vanaf=2027-01-01")
    for i, kind in enumerate(["W25", "L10"] * 4 + ["W25", "W25"]):  # 4 x 15 + 50 = 110 from 10 games
        await enter(commands, f"2027-02-{i + 1:02d}", kind)
    text = await ok(commands, DIRECTOR, "/graden")
    assert "Anna" in text and "Bert" not in text
    line = next(x for x in text.splitlines() if x.strip().startswith("Anna"))
    assert line.split()[1:] == ["1d", "10", "110", "15"]


async def test_correcting_deleting_and_listing_games(commands: Core, clock: ShiftedClock, config) -> None:
    await anna_at_1_dan(commands, clock)
    await enter(commands, "2027-02-01", "W25")
    (number,), = rows(config, "SELECT id FROM grade_games")
    text = await ok(commands, DIRECTOR, f"/partij wijzig {number} uitslag=verloren")
    assert f"#{number}" in text and "-45" in text  # a loss against an equal grade
    text = await ok(commands, DIRECTOR, f"/game correct #{number} grade=4d")
    assert "telt niet (de puntentabel geeft bij dit graadverschil niets)" in text  # a loss against 3 stronger does not count
    listing = await ok(commands, DIRECTOR, "/partij lijst Anna")
    assert f"#{number}" in listing and "4d" in listing and "verloren" in listing
    await ok(commands, DIRECTOR, f"/partij verwijder {number}")
    assert rows(config, "SELECT COUNT(*) FROM grade_games") == [(0,)]
    assert "Er zijn geen partijen van Anna." in await ok(commands, DIRECTOR, "/partij lijst Anna")


async def test_a_member_opponent_with_an_unreliable_grade(commands: Core, clock: ShiftedClock) -> None:
    await anna_at_1_dan(commands, clock)
    await ok(commands, DIRECTOR, "/graadzetten Bert 2d vanaf=2026-01-01")
    text = await ok(commands, DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Bert uitslag=gewonnen {GAME}")
    assert text.endswith("+45.")  # Bert's grade that day: 2 dan, one stronger
    marked = await ok(commands, DIRECTOR, "/graadzetten Bert onbetrouwbaar")
    assert "onbetrouwbaar" in marked
    assert "Lopende reeks: 0 punten uit 0 partijen" in await ok(commands, ANNA, "/graad")
    await ok(commands, DIRECTOR, "/graadzetten Bert betrouwbaar geschat")
    card = await ok(commands, BERT, "/graad Bert")
    assert "(geschat)" in card
    assert "Lopende reeks: 45 punten uit 1 partij" in await ok(commands, ANNA, "/graad")


async def test_below_2_kyu_there_are_no_points(commands: Core, clock: ShiftedClock) -> None:
    await anna_at_1_dan(commands, clock)
    await ok(commands, DIRECTOR, "/graadzetten Bert 5 kyu")
    card = await ok(commands, BERT, "/graad Bert")
    assert "Bert: 5k" in card and "vanaf 2 kyu" in card
    text = await ok(commands, DIRECTOR, f"/partij Bert datum=2027-02-01 tegen=Piet graad=5k uitslag=gewonnen {GAME}")
    assert "telt niet (onder 2 kyu)" in text
    await ok(commands, DIRECTOR, "/speler Carla 1800")
    assert "Carla heeft nog geen graad" in await ok(commands, DIRECTOR, "/graad Carla")


async def test_the_example_csv_file(commands: Core, clock: ShiftedClock, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await ok(commands, DIRECTOR, "/speler Bert 1900")
    await ok(commands, DIRECTOR, "/graadzetten Anna 1d vanaf=2026-01-01")
    await ok(commands, DIRECTOR, "/graadzetten Bert 2k vanaf=2026-01-01")
    data = (ROOT / "examples" / "grades.csv").read_bytes()
    assert "8 partijen ingelezen." in await ok(commands, DIRECTOR, "/partijenimport", data)
    # Anna (1d): +45 (2d), +25 (1d), -10 (3d), +10 (1k), -25 (2d); the draw and the 30-minute game do not count.
    card = await ok(commands, DIRECTOR, "/graad Anna")
    assert "Lopende reeks: 45 punten uit 5 partijen" in card
    assert "Lopende reeks: 0 punten uit 0 partijen" in await ok(commands, DIRECTOR, "/graad Bert")  # handicap
    assert "0 partijen ingelezen; regels 2, 3, 4, 5, 6, 7, 8 en 9 stonden er al in." in await ok(commands, DIRECTOR, "/importgames", data)


async def test_a_bad_csv_line_refuses_the_whole_file(commands: Core, clock: ShiftedClock, config) -> None:
    await anna_at_1_dan(commands, clock)
    header = "player;date;opponent;grade;result;minutes;byoyomi\n"
    good = "Anna;2027-02-01;Piet;1d;won;90;30\n"
    text = await refused(commands, DIRECTOR, "/partijenimport", config, (header + good + "Anna;2027-02-31;Piet;1d;won;90;30\n").encode())
    assert "Regel 3" in text and "2027-02-31" in text
    text = await refused(commands, DIRECTOR, "/partijenimport", config, (header + good + "Nobody;2027-02-01;Piet;1d;won;90;30\n").encode())
    assert "Regel 3" in text and "Nobody" in text
    text = await refused(commands, DIRECTOR, "/partijenimport", config, (header + "Anna;2027-02-01;Piet;;won;90;30\n").encode())
    assert "Regel 2" in text and "graad" in text
    await refused(commands, DIRECTOR, "/partijenimport", config, b"speler,datum,kleur\nAnna,2027-02-01,zwart\n")
    # the reasons in the club's language, not the csv module's English (found in a console month)
    huge = (header + good + "Anna;2027-02-01;" + "x" * 200_000 + ";1d;won;90;30\n").encode()
    assert "een veld is te lang" in await refused(commands, DIRECTOR, "/partijenimport", config, huge)
    lacking = await refused(commands, DIRECTOR, "/partijenimport", config, b"speler;datum;tegen;graad;uitslag\nAnna;2027-02-01;Piet;1d;won\n")
    assert "Dit ontbreekt nog: minuten, byoyomi." in lacking
    await refused(commands, DIRECTOR, "/partijenimport", config, b"\xff\xfe")
    # a grade that is none is said to be none, not answered with the usage; an empty value is refused
    # (both found in a console month: /graadzetten Anna 10d, /partij wijzig 12 graad=)
    assert "\"10d\" is geen graad" in await refused(commands, DIRECTOR, "/graadzetten Anna 10d", config)
    assert "\"0k\" is geen graad" in await refused(commands, DIRECTOR, "/graadzetten Anna 0k", config)
    assert "graad= zonder waarde" in await refused(commands, DIRECTOR, "/partij Anna datum=2027-02-01 tegen=Piet graad= uitslag=gewonnen minuten=90 byoyomi=30", config)
    await refused(commands, DIRECTOR, "/partijenimport", config)
    await refused(commands, ANNA, "/partijenimport", config, (header + good).encode())


async def test_refused_commands_change_nothing(commands: Core, clock: ShiftedClock, config) -> None:
    await anna_at_1_dan(commands, clock)
    await enter(commands, "2027-02-01", "W25")
    bad = [
        (ANNA, f"/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen {GAME}"),  # not a director
        (ANNA, "/graadzetten Anna 9d"),
        (ANNA, "/graden"),
        (DIRECTOR, "/graad Nobody"),
        (DIRECTOR, f"/partij Nobody datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen {GAME}"),
        (DIRECTOR, f"/partij Anna datum=2027-13-01 tegen=Piet graad=1d uitslag=gewonnen {GAME}"),
        (DIRECTOR, f"/partij Anna datum=2027-07-01 tegen=Piet graad=1d uitslag=gewonnen {GAME}"),  # future
        (DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Piet graad=10d uitslag=gewonnen {GAME}"),
        (DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Piet uitslag=gewonnen {GAME}"),  # no grade
        (DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Anna uitslag=gewonnen {GAME}"),
        (DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=misschien {GAME}"),
        (DIRECTOR, "/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen"),  # no time control
        (DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen handicap=12 {GAME}"),
        (DIRECTOR, f"/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen officieel=soms {GAME}"),
        (DIRECTOR, f"/partij Anna kleur=zwart datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen {GAME}"),
        (DIRECTOR, "/partij wijzig 999 uitslag=verloren"),
        (DIRECTOR, "/partij wijzig 1 kleur=zwart"),
        (DIRECTOR, "/partij verwijder abc"),
        (DIRECTOR, "/partij"),
        (DIRECTOR, "/graadzetten Anna"),
        (DIRECTOR, "/graadzetten Anna 12d"),
        (DIRECTOR, "/graadzetten Anna vanaf=2027-01-01"),
        (DIRECTOR, "/graadzetten Nobody 1d"),
        (DIRECTOR, "/graden misschien"),
        (DIRECTOR, "/speeltempo minuten=90"),
        (DIRECTOR, "/speeltempo minuten=90 byoyomi=30"),  # no season running
        (DIRECTOR, "/speeltempo nk=Onbekend minuten=90 byoyomi=30"),
        (DIRECTOR, "/speeltempo seizoen=Onbekend minuten=90 byoyomi=30"),
    ]
    for who, text in bad:
        await refused(commands, who, text, config)


async def test_english_replies(commands: Core, clock: ShiftedClock, config) -> None:
    await anna_at_1_dan(commands, clock)
    await ok(commands, DIRECTOR, "/language en")
    text = await ok(commands, DIRECTOR, "/game Anna date=2027-02-01 opponent=Piet grade=2d result=won minutes=60 byoyomi=30")
    assert text.endswith("+45.")
    card = await ok(commands, ANNA, "/grade")
    assert "Current series: 45 points from 1 game" in card and "80 more points needed for 2d" in card
    assert "not a date" in await refused(commands, DIRECTOR, "/setgrade Anna 2d from=yesterday", config)
    said = await refused(commands, DIRECTOR, "/game Anna date=2027-02-01 opponent=Piet grade=2d result=won", config)
    assert said.endswith("minutes, byo-yomi.")  # the fields as typed in English (it said them so in Dutch too)


async def season_with_two_1_dans(commands: Core) -> None:
    """A Keizer season from 3 December 2026 with Anna and Bert, both 1 dan since 1 January 2026."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=28")
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await ok(commands, DIRECTOR, "/speler Bert 1950")
    for who in (ANNA, BERT):
        await link(commands, who)
        await ok(commands, who, "/aanmelden")
    await ok(commands, DIRECTOR, "/graadzetten Anna 1d vanaf=2026-01-01")
    await ok(commands, DIRECTOR, "/graadzetten Bert 1d vanaf=2026-01-01")


async def test_competition_games_count_once_a_time_control_is_set(commands: Core, clock: ShiftedClock, config) -> None:
    # Anna (1d) has 11 entered games worth 100 points; her Keizer win against Bert (1d) on 3 December makes 125.
    await season_with_two_1_dans(commands)
    for i, kind in enumerate(["W25", "L10"] * 5 + ["W25"]):
        await enter(commands, f"2026-{i + 1:02d}-10", kind)
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    await ok(commands, ANNA, "/uitslag gewonnen")
    await ok(commands, BERT, "/bevestig")
    await grades.GradesSchedule().run_due(commands, clock.now())  # no time control yet: the game does not count
    assert "Lopende reeks: 100 punten uit 11 partijen" in await ok(commands, ANNA, "/graad")
    text = await ok(commands, DIRECTOR, "/speeltempo minuten=90 byoyomi=30 officieel=ja")
    assert "2026-27" in text and "90 minuten" in text
    # The next /graadzetten, /partij, /graad or scheduler wake finds the promotion; here the scheduler's.
    await grades.GradesSchedule().run_due(commands, clock.now())
    announced = rows(config, "SELECT kind, body FROM announcements WHERE kind LIKE 'promotion:%'")
    assert len(announced) == 1 and "van 1d naar 2d" in announced[0][1]
    await grades.GradesSchedule().run_due(commands, clock.now())
    assert len(rows(config, "SELECT kind FROM announcements WHERE kind LIKE 'promotion:%'")) == 1
    card = await ok(commands, BERT, "/graad Bert")
    assert "Lopende reeks: -45 punten uit 1 partij" in card  # Bert lost to an equal grade
    assert "Anna" in card and "2026-27" in card
    listing = await ok(commands, DIRECTOR, "/speeltempo")
    assert "seizoen 2026-27: 90 minuten, 30 s byoyomi, officieel: ja" in listing


async def test_a_season_is_not_official_unless_the_director_says_so(commands: Core, clock: ShiftedClock) -> None:
    await season_with_two_1_dans(commands)
    await ok(commands, DIRECTOR, "/speeltempo seizoen=2026-27 minuten=90 byoyomi=30")
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0")
    listing = await ok(commands, DIRECTOR, "/partij lijst Anna")
    assert "telt niet (niet officieel)" in listing and "Bert" in listing


async def test_the_confirmation_that_completes_a_promotion_announces_it_at_once(
    commands: Core, clock: ShiftedClock, config
) -> None:
    await season_with_two_1_dans(commands)
    await ok(commands, DIRECTOR, "/speeltempo minuten=90 byoyomi=30 officieel=ja")
    for i, kind in enumerate(["W25", "L10"] * 5 + ["W25"]):
        await enter(commands, f"2026-{i + 1:02d}-10", kind)
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    await ok(commands, ANNA, "/uitslag gewonnen")
    assert rows(config, "SELECT kind FROM announcements WHERE kind LIKE 'promotion:%'") == []
    await ok(commands, BERT, "/bevestig")  # no scheduler wake, no grades command: the confirmation itself
    announced = rows(config, "SELECT body FROM announcements WHERE kind LIKE 'promotion:%'")
    assert len(announced) == 1 and "van 1d naar 2d" in announced[0][0]


async def test_a_two_game_match_in_a_file_is_two_games(commands: Core, clock: ShiftedClock, config) -> None:
    """Issue 31 §4: two lines alike (a two-game match, a double round robin) are two games; only what the
    database already holds is skipped, per identical game and by line number, and /partij agrees."""
    await anna_at_1_dan(commands, clock)
    header = "player;date;opponent;grade;result;minutes;byoyomi;event\n"
    lost = "Anna;2027-02-01;Piet;1d;lost;90;30;Match\n"
    data = (header + lost + lost).encode()
    assert "2 partijen ingelezen." in await ok(commands, DIRECTOR, "/partijenimport", data)
    assert rows(config, "SELECT COUNT(*) FROM grade_games") == [(2,)]
    assert "Lopende reeks: -90 punten uit 2 partijen" in await ok(commands, DIRECTOR, "/graad Anna")
    # the same file again: both lines are in already, named by line
    again = await ok(commands, DIRECTOR, "/partijenimport", data)
    assert "0 partijen ingelezen" in again and "regels 2 en 3 stonden er al in" in again
    # a third game of the match added to the file: only it is new
    third = await ok(commands, DIRECTOR, "/partijenimport", (header + lost + lost + lost).encode())
    assert "1 partij ingelezen" in third and "regels 2 en 3 stonden er al in" in third
    assert rows(config, "SELECT COUNT(*) FROM grade_games") == [(3,)]
    # /partij takes the same game once more, as a fourth game, as the import would
    await ok(commands, DIRECTOR, "/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=verloren minuten=90 byoyomi=30 toernooi=Match")
    assert rows(config, "SELECT COUNT(*) FROM grade_games") == [(4,)]
    assert "regels 2, 3 en 4 stonden er al in" in await ok(
        commands, DIRECTOR, "/partijenimport", (header + lost * 3).encode())


async def test_an_event_of_several_words_typed_without_quotes(commands: Core, clock: ShiftedClock, config) -> None:
    """``toernooi=Open Utrecht`` after the player's name: the words are the event's (they were read as the
    player "Anna Utrecht": found in a console month)."""
    await anna_at_1_dan(commands, clock)
    await ok(commands, DIRECTOR, "/partij Anna datum=2027-02-01 tegen=Piet graad=1d uitslag=gewonnen minuten=90 byoyomi=30 toernooi=Open Utrecht 2027")
    assert rows(config, "SELECT event FROM grade_games") == [("Open Utrecht 2027",)]
