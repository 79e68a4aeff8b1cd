"""What members look for on chess-results and pairgoth pages (issue 45 §1), fetched over real HTTP from
the bot's web server: the NK table's rounds (opponent's place, colour, result) and its withdrawn players,
the NK pairing's score, group and rating, the Keizer pairing's absent members, the tournament's details,
when the page last changed, and a finished go game's count."""

from __future__ import annotations

import re
from html import unescape

from bot.core.commands.dispatch import Core
from bot.core.running.clock import ShiftedClock
from bot.core.running.scheduler import Alarm
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused
from tests.bot.web.test_pages import PUBLISH, get
from tests.bot.web.test_system_pages import club_id

FOUR = ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800")


def table_of(body: str) -> tuple[list[str], list[list[str]]]:
    """The page's table: its headers and its rows' cells, as text (without what a phone shows under a cell)."""
    body = re.sub(r'<span class="under">.*?</span>', "", body)
    headers = [unescape(h) for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', body)]
    rows = []
    for row in re.findall(r"<tr>(<td.*?)</tr>", body):
        rows.append([unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)])
    return headers, rows


async def an_nk(commands: Core, options: str = "") -> int:
    for name in FOUR:
        await ok(commands, DIRECTOR, f"/speler {name}")
    await ok(commands, DIRECTOR, "/website aan")
    await ok(commands, DIRECTOR, f"/nk nieuw Clubkampioenschap {options}".strip())
    for name in FOUR:
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")
    return await club_id(commands)


async def test_the_nk_table_has_a_column_per_round_and_marks_the_withdrawn(commands: Core, site: str) -> None:
    club = await an_nk(commands)
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")  # board 1: Carla (black) - Anna (white)
    await ok(commands, DIRECTOR, "/nk uitslag Bert gewonnen reglementair")  # board 2: Daan (black) - Bert (white)
    await ok(commands, DIRECTOR, "/nk terugtrekken Daan")
    await ok(commands, DIRECTOR, "/nk ronde")  # three left: a bye
    status, body, _ = await get(f"{site}/c/{club}/nk")
    assert status == 200
    headers, rows = table_of(body)
    assert headers[3:5] == ["R1", "R2"]
    by_name = {row[1]: row for row in rows}
    # the opponent's place in this table, the colour (z zwart, w wit), the result (+ - by forfeit); none yet in round 2
    assert by_name["Anna"][3:5] == ["3w1", "2w"] and by_name["Bert"][3:5] == ["4w+", "1z"]
    assert by_name["Carla"][3:5] == ["1z0", "vrij"] and by_name["Daan"][3:5] == ["2z-", ""]
    assert by_name["Daan"][-1] == "teruggetrokken vanaf ronde 2"
    assert "1 gewonnen, ½ jigo, 0 verloren" in body  # the legend says what the cells mean
    chat = (await commands.handle(DIRECTOR, "/stand nk")).table  # the chat's stays narrow, the withdrawal marked
    assert chat is not None and "R1" not in chat.headers and chat.rows[3][-1] == "teruggetrokken vanaf ronde 2"
    await ok(commands, DIRECTOR, "/taal en")
    headers, rows = table_of((await get(f"{site}/c/{club}/nk"))[1])
    assert [row[3] for row in rows] == ["3w1", "4w+", "1b0", "2b-"] and rows[3][-1] == "withdrawn from round 2"


async def test_the_nk_pairing_has_each_players_score_group_and_strength(commands: Core, site: str) -> None:
    club = await an_nk(commands)
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")
    await ok(commands, DIRECTOR, "/nk uitslag Bert gewonnen")
    await ok(commands, DIRECTOR, "/nk ronde")
    status, body, _ = await get(f"{site}/c/{club}/nk-indeling/2")
    assert status == 200
    headers, rows = table_of(body)
    assert headers == ["Bord", "Zwart", "Punten", "Groep", "Sterkte", "Wit", "Punten", "Groep", "Sterkte", "Uitslag"]
    # before round 2: the winners 1 point and still in group 0, the losers 0 points and a group lower
    assert {tuple(row[1:5]) for row in rows} | {tuple(row[5:9]) for row in rows} == {
        ("Anna", "1", "0", "2100"), ("Bert", "1", "0", "2000"), ("Carla", "0", "1", "1900"), ("Daan", "0", "1", "1800")}
    _, first = table_of((await get(f"{site}/c/{club}/nk-indeling/1"))[1])
    assert first[0] == ["1", "Carla", "0", "0", "1900", "Anna", "0", "0", "2100", "Anna"]  # before round 1: the start
    chat = (await commands.handle(DIRECTOR, "/nk indeling 1")).table  # the chat's stays narrow, for a phone
    assert chat is not None and chat.rows[0] == ("1", "Carla", "Anna", "Anna")


async def published(commands: Core, clock: ShiftedClock) -> None:
    """Round 1 published at its minute, by the alarm as in the running bot."""
    clock.set(PUBLISH)

    async def send(club_row, announcement) -> None:
        return None

    await Alarm(commands, send).run_due()


async def test_the_keizer_pairing_lists_who_is_absent_and_why(commands: Core, clock: ShiftedClock, site: str) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800", "Eva 1700", "Frank 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await ok(commands, DIRECTOR, "/website aan")
    carla, daan, eva = actor("Carla"), actor("Daan"), actor("Eva")
    await link(commands, carla, daan, eva)
    await ok(commands, eva, "/afmelden 1")
    await ok(commands, carla, "/afmelden 1")
    await ok(commands, daan, "/afmelden 1 teamwedstrijd")
    await published(commands, clock)
    club = await club_id(commands)
    status, body, _ = await get(f"{site}/c/{club}/indeling/1")
    assert status == 200
    assert "<p>Afgemeld: Carla, Eva</p>" in body and "<p>Afwezig voor een teamwedstrijd: Daan</p>" in body
    _, rows = table_of(body)
    assert {name for row in rows for name in row} >= {"Anna", "Bert"} and "Vrij (invaller, wel aanwezig zijn): Frank" in body
    await ok(commands, DIRECTOR, "/nietverschenen Frank 1")  # the bye's holder did not come: a no-show
    body = (await get(f"{site}/c/{club}/indeling/1"))[1]
    assert "<p>Niet verschenen (0): Frank</p>" in body and "Vrij (invaller" not in body
    await ok(commands, DIRECTOR, "/taal en")
    body = (await get(f"{site}/c/{club}/indeling/1"))[1]
    assert "<p>Signed off: Carla, Eva</p>" in body and "<p>Absent for a team match: Daan</p>" in body
    assert "<p>No-show (0): Frank</p>" in body
    chat = await commands.handle(carla, "/indeling 1")
    assert "Signed off" not in chat.text  # the chat's pairing as it was: its picture shows the boards


async def test_a_counted_go_games_page_shows_the_count(commands: Core, site: str) -> None:
    """The game of ``test_a_game_over_several_days_lists_them_and_its_count``: black walls off column D,
    white column F, each invader dead; counted, W+3.5."""
    from tests.bot.go.test_commands import ANNA as GO_ANNA, BERT as GO_BERT, start_game

    await start_game(commands, 9)
    await ok(commands, DIRECTOR, "/website aan")
    for row in range(1, 10):
        await ok(commands, GO_ANNA, f"/zet D{row}")
        await ok(commands, GO_BERT, f"/zet F{row}")
    for who, text in ((GO_ANNA, "/zet H5"), (GO_BERT, "/zet B5"), (GO_ANNA, "/pas"), (GO_BERT, "/pas"),
                      (GO_ANNA, "/dood B5"), (GO_ANNA, "/dood H5"), (GO_ANNA, "/dood klaar")):  # fmt: skip
        await ok(commands, who, text)
    club = await club_id(commands)
    await ok(commands, GO_BERT, "/akkoord")
    status, body, _ = await get(f"{site}/c/{club}/go/1")
    assert status == 200 and "Uitslag: W+3.5" in body
    assert "<p>Zwart: 22.5 = 27 gebied - 0 geslagen - 1 dood - komi 3.5</p>" in body
    assert "<p>Wit: 26 = 27 gebied - 0 geslagen - 1 dood</p>" in body
    before = (await get(f"{site}/c/{club}/go/1?zet=3"))[1]
    assert "gebied" not in before  # a step back in the game shows that position, not the count


async def test_the_keizer_pages_say_dates_venue_time_control_and_when_last_changed(
    commands: Core, clock: ShiftedClock, config, site: str
) -> None:
    from datetime import timedelta

    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await ok(commands, DIRECTOR, "/website aan")
    said = await ok(commands, DIRECTOR, "/speelavond locatie=De Ster, Dorpsstraat 1 speeltempo=90 min + 30 s per zet")
    assert "Speeltempo: 90 min + 30 s per zet." in said
    # too long: refused in the user's words, nothing changes
    assert "hoogstens 40 tekens" in await refused(commands, DIRECTOR, "/speelavond speeltempo=" + "9" * 41, config)
    assert "Speeltempo: 90 min + 30 s per zet." in await ok(commands, DIRECTOR, "/speelavond")
    club = await club_id(commands)
    body = (await get(f"{site}/c/{club}/stand"))[1]
    assert "<p>Speeldata: do 3 december 2026 t/m do 31 december 2026</p>" in body
    assert "<p>Locatie: De Ster, Dorpsstraat 1</p>" in body and "<p>Speeltempo: 90 min + 30 s per zet</p>" in body
    assert "Bijgewerkt" not in body  # nothing published or played yet
    await published(commands, clock)  # 18:00 in Amsterdam
    body = (await get(f"{site}/c/{club}/indeling/1"))[1]
    assert "<p>Bijgewerkt: do 3 december 2026 18:00</p>" in body and "<p>Speeltempo: 90 min + 30 s per zet</p>" in body
    clock.set(PUBLISH + timedelta(hours=2, minutes=5))
    _, rows = table_of(body)
    await ok(commands, DIRECTOR, f"/uitslag {rows[0][1]} 1-0 1")
    for page in ("indeling/1", "indeling", "stand", "stand/1", "kruistabel"):
        assert "<p>Bijgewerkt: do 3 december 2026 20:05</p>" in (await get(f"{site}/c/{club}/{page}"))[1], page
    await ok(commands, DIRECTOR, "/speelavond speeltempo=-")  # cleared: the page no longer says one
    body = (await get(f"{site}/c/{club}/stand"))[1]
    assert "Speeltempo" not in body and "Locatie: De Ster" in body
    await ok(commands, DIRECTOR, "/taal en")
    body = (await get(f"{site}/c/{club}/stand"))[1]
    assert "<p>Dates: Thu 3 December 2026 to Thu 31 December 2026</p>" in body and "<p>Last updated: Thu 3 December 2026 20:05</p>" in body


async def test_the_nk_pages_say_dates_city_time_control_and_when_last_changed(
    commands: Core, clock: ShiftedClock, config, site: str
) -> None:
    from datetime import datetime, timezone

    too_long = await refused(commands, DIRECTOR, "/nk nieuw Open tempo=" + "6" * 41, config)
    assert "hoogstens 40 tekens" in too_long and await commands.store.fetch_one("SELECT 1 FROM nk_tournaments") is None
    clock.set(datetime(2027, 3, 6, 9, 30, tzinfo=timezone.utc))  # 10:30 in Amsterdam
    club = await an_nk(commands, '"tempo=60 min + 30 s byo-yomi"')
    await ok(commands, DIRECTOR, "/club plaats=Utrecht")
    body = (await get(f"{site}/c/{club}/nk"))[1]
    assert "<p>Speeldatum: za 6 maart 2027</p>" in body and "<p>Locatie: Utrecht</p>" in body  # one day, no range to itself
    assert "<p>Speeltempo: 60 min + 30 s byo-yomi</p>" in body
    assert "<p>Bijgewerkt: za 6 maart 2027 10:30</p>" in body
    await ok(commands, DIRECTOR, "/taal en")
    assert "<p>Date: Sat 6 March 2027</p>" in (await get(f"{site}/c/{club}/nk"))[1]
    await ok(commands, DIRECTOR, "/taal nl")
    clock.set(datetime(2027, 3, 6, 12, 45, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")
    assert "<p>Bijgewerkt: za 6 maart 2027 13:45</p>" in (await get(f"{site}/c/{club}/nk-indeling/1"))[1]
    assert "<p>Bijgewerkt: za 6 maart 2027 13:45</p>" in (await get(f"{site}/c/{club}/nk"))[1]
    await ok(commands, DIRECTOR, "/nk uitslag Bert gewonnen")
    clock.set(datetime(2027, 3, 7, 9, 0, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/nk ronde")  # round 2 on the next day: the dates are a range
    assert "<p>Speeldata: za 6 maart 2027 t/m zo 7 maart 2027</p>" in (await get(f"{site}/c/{club}/nk"))[1]
    await ok(commands, DIRECTOR, "/taal en")
    assert "<p>Dates: Sat 6 March 2027 to Sun 7 March 2027</p>" in (await get(f"{site}/c/{club}/nk"))[1]
