"""The NK's players and the club's past competitions on the website (issue 45 §1): every name in the NK's
standings and pairings links to that player's NK page (an NK player need not play in the Keizer
competition, whose member page does not know them), with their rounds, opponents, colours, results, score
and SOS and their start group; a finished NK and a finished Keizer season stay readable in the archive,
which the menu links once there is something in it. Unknown players and archive pages are the club's 404."""

from __future__ import annotations

import re
from html import unescape

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.conftest import ARCHIVE_DIRECTOR, a_club_with_an_archive
from tests.bot.web.test_system_pages import club_id, get


def links(body: str) -> dict[str, str]:
    """The main part's links: their text -> where they lead."""
    main = body[body.index("<main>") :]
    return {text: href for href, text in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', main)}


def cells(body: str) -> list[list[str]]:
    """The table's rows, each cell's text (links and all; not what a phone shows under a cell)."""
    body = re.sub(r'<span class="under">.*?</span>', "", body)
    rows = re.findall(r"<tr>(.*?)</tr>", body[body.index("<tbody>") :], re.S)
    return [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


async def test_every_nk_name_links_to_the_players_own_nk_page(commands: Core, site: str) -> None:
    club, pages = await a_club_with_an_archive(commands)
    members = {m.name: m.id for m in await commands.store.members(club)}
    nk = f"{site}/c/{club}/nk-speler/"
    status, body, _ = await get(f"{site}/c/{club}/nk")
    assert status == 200 and "NK 2026" in body
    assert {name: links(body)[name] for name in ("Jan Koster", "Piet de Vries", "Kees", "Lies")} == {
        name: f"/c/{club}/nk-speler/{members[name]}" for name in ("Jan Koster", "Piet de Vries", "Kees", "Lies")}  # fmt: skip
    status, body, _ = await get(f"{site}/c/{club}/nk-indeling/1")
    assert status == 200 and links(body)["Kees"] == f"/c/{club}/nk-speler/{members['Kees']}"
    # Jan Koster plays in no Keizer round of 2026-27's: his NK page knows him all the same. Round 1 of NK
    # 2026 (slide pairing by strength in one group of four: 1-3, 2-4) has Kees black against Jan white.
    status, body, _ = await get(f"{nk}{members['Jan Koster']}")
    assert status == 200 and "<h2 id=\"title\">Jan Koster in NK 2026</h2>" in body
    assert "Startgroep 0 (0 = topgroep), startscore 0." in body
    assert cells(body) == [["1", "Kees", "wit", "", "0", "0"]]  # no result yet
    assert links(body)["Kees"] == f"/c/{club}/nk-speler/{members['Kees']}"
    # last year's NK, read in the archive: Jan beat Piet twice, white then black (colours alternate)
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-nk-speler']}")
    assert status == 200 and "Jan Koster in NK 2025" in body
    assert cells(body) == [["1", "Piet de Vries", "wit", "1-0", "1", "0"], ["2", "Piet de Vries", "zwart", "1-0", "2", "0"]]
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-nk-stand']}")
    assert links(body)["Piet de Vries"].endswith(f"/archief/nk/{pages['archief-nk-stand'].split('/')[2]}/speler/{members['Piet de Vries']}")
    # an NK player's page for a number nobody has, a member who is no NK player, a word: the club's 404
    await ok(commands, ARCHIVE_DIRECTOR, "/speler Ria 1500")
    ria = (await commands.store.member_by_name(club, "Ria")).id  # type: ignore[union-attr]
    for rest in ("99999", str(ria), "Jan", "1x"):
        status, body, _ = await get(f"{nk}{rest}")
        assert status == 404 and "Op dit adres staat geen pagina (meer)." in body and ">NK-stand<" in body, rest


async def test_a_jigo_and_a_forfeit_are_written_as_the_chat_writes_results(commands: Core, site: str) -> None:
    for name in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {name}")
    await ok(commands, DIRECTOR, "/website aan")
    await ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap komi=7")  # a whole komi: a jigo can happen
    for name in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")  # one group of four by strength: Anna-Carla, Bert-Daan
    await ok(commands, DIRECTOR, "/nk uitslag Anna jigo")
    await ok(commands, DIRECTOR, "/nk uitslag Daan gewonnen reglementair")
    club = await club_id(commands)
    members = {m.name: m.id for m in await commands.store.members(club)}
    pages = {name: (await get(f"{site}/c/{club}/nk-speler/{members[name]}"))[1] for name in ("Anna", "Bert", "Daan")}
    assert cells(pages["Anna"])[0][1:4] == ["Carla", cells(pages["Anna"])[0][2], "½-½"]
    assert cells(pages["Anna"])[0][4] == "½"  # half a point for a jigo
    assert cells(pages["Bert"])[0][3] == "0-1 (F)" and cells(pages["Daan"])[0][3] == "1-0 (F)"


async def test_a_finished_nk_and_season_stay_readable_in_the_archive(commands: Core, site: str) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await ok(commands, DIRECTOR, "/website aan")
    other = await club_id(commands)
    status, body, _ = await get(f"{site}/c/{other}/")
    assert status == 200 and "Archief" not in body  # nothing past yet: no archive in the menu
    status, body, _ = await get(f"{site}/c/{other}/archief")
    assert status == 200 and "Het archief is nog leeg" in body
    club, pages = await a_club_with_an_archive(commands)
    status, body, _ = await get(f"{site}/c/{club}/")
    assert f'<a href="/c/{club}/archief">Archief</a>' in body  # the menu links it now
    status, body, _ = await get(f"{site}/c/{club}/archief")
    assert status == 200 and cells(body) == [["2026", "2025-26", "Keizercompetitie"], ["2026", "NK 2025", "NK"]]
    assert links(body)["NK 2025"] == f"/c/{club}/{pages['archief-nk-stand']}"
    assert links(body)["2025-26"] == f"/c/{club}/{pages['archief-keizer-stand']}"
    # NK 2025's final table, its champion and its rounds; NK 2026 is what the NK pages show now
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-nk-stand']}")
    assert status == 200 and "NK 2025: stand na ronde 2" in body and "Nederlands kampioen: Jan Koster" in body
    assert [row[:3] for row in cells(body)] == [["1", "Jan Koster", "2"], ["2", "Piet de Vries", "0"]]
    assert "Per ronde: de plaats van de tegenstander in deze stand" in body  # what its round columns' 2w1 mean, as on the NK page
    assert "<p>Speeldatum: di 1 december 2026</p>" in body  # its days, as the NK pages say them (both rounds on one day)
    assert links(body)["Indeling ronde 2"].endswith(f"{pages['archief-nk-stand'][: -len('stand')]}indeling/2")
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-nk-indeling']}")
    assert status == 200 and ">NK 2025, ronde 1</h2>" in body and cells(body) == [  # the website's wider table, as the current NK's page: score, group, strength
        ["1", "Piet de Vries", "0", "0", "1800", "Jan Koster", "0", "0", "1900", "Jan Koster"]]
    assert "NK 2026" in (await get(f"{site}/c/{club}/nk"))[1]
    # the season 2025-26 that 2026-27 ended: its standings and its round
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-keizer-stand']}")
    assert status == 200 and "Stand 2025-26 na ronde 1" in body
    assert [row[:3] for row in cells(body)] == [["1", "Piet de Vries", "50"], ["2", "Jan Koster", "0"]]
    assert links(body)["Kruistabel"] == f"/c/{club}/{pages['archief-keizer-kruistabel']}"
    assert "<p>Speeldatum: wo 2 december 2026</p>" in body  # its one round's date, as the season's pages said it
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-keizer-kruistabel']}")  # as /kruistabel seizoen=2025-26
    assert status == 200 and "Kruistabel 2025-26" in body and "Per ronde: de plaats van de tegenstander" in body
    assert cells(body) == [["1", "Piet de Vries", "50", "2w1"], ["2", "Jan Koster", "0", "1z0"]]
    assert links(body)["Eindstand"] == f"/c/{club}/{pages['archief-keizer-stand']}"
    status, body, _ = await get(f"{site}/c/{club}/{pages['archief-keizer-indeling']}")
    assert status == 200 and "2025-26: Indeling ronde 1" in body and cells(body)[0][-1] == "1-0"
    # what is not in the archive: the running NK and season, a round not played, another club's, words
    running_nk = (await commands.store.fetch_one("SELECT id FROM nk_tournaments WHERE name = 'NK 2026'"))["id"]  # type: ignore[index]
    running = (await commands.store.fetch_one("SELECT id FROM seasons WHERE name = '2026-27'"))["id"]  # type: ignore[index]
    for rest in (f"nk/{running_nk}/stand", f"keizer/{running}/stand", pages["archief-nk-stand"][8:].replace("stand", "indeling/3"),
                 pages["archief-keizer-stand"][8:].replace("stand", "indeling/2"), "nk", "nk/x/stand", "onzin/1/stand",
                 pages["archief-nk-stand"][8:] + "/meer"):  # fmt: skip
        status, body, _ = await get(f"{site}/c/{club}/archief/{rest}")
        assert status == 404 and "Op dit adres staat geen pagina (meer)." in body, rest
    assert (await get(f"{site}/c/{other}/{pages['archief-nk-stand']}"))[0] == 404  # club-2's NK under the first club
    await ok(commands, ARCHIVE_DIRECTOR, "/taal en")
    status, body, _ = await get(f"{site}/c/{club}/archief")
    assert ">Archive</a>" in body and cells(body)[0] == ["2026", "2025-26", "Keizer competition"]
    assert "Per round: the opponent's place in these standings" in unescape((await get(f"{site}/c/{club}/{pages['archief-nk-stand']}"))[1])


async def test_a_past_nks_pages_say_its_days_and_time_control(commands: Core, clock, site: str) -> None:
    """The archive's pages of a past NK say under their title what the NK pages said of it (issue 45 §1):
    the days its rounds were paired and its time control."""
    from datetime import datetime, timezone

    for name in ("Anna 2100", "Bert 2000"):
        await ok(commands, DIRECTOR, f"/speler {name}")
    await ok(commands, DIRECTOR, "/website aan")
    clock.set(datetime(2027, 3, 6, 9, 30, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, '/nk nieuw Voorjaar rondes=2 "tempo=60 min + 30 s byo-yomi"')
    for name in ("Anna 2100", "Bert 2000"):
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")
    clock.set(datetime(2027, 3, 7, 9, 30, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/nk ronde")
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")  # Bert's second loss: Anna is champion
    await ok(commands, DIRECTOR, "/nk nieuw Najaar")
    club = await club_id(commands)
    tour = (await commands.store.fetch_one("SELECT id FROM nk_tournaments WHERE name = 'Voorjaar'"))["id"]  # type: ignore[index]
    for page in ("stand", "indeling/1"):
        body = (await get(f"{site}/c/{club}/archief/nk/{tour}/{page}"))[1]
        assert "<p>Speeldata: za 6 maart 2027 t/m zo 7 maart 2027</p>" in body, page
        assert "<p>Speeltempo: 60 min + 30 s byo-yomi</p>" in body, page
    await ok(commands, DIRECTOR, "/taal en")
    body = (await get(f"{site}/c/{club}/archief/nk/{tour}/stand"))[1]
    assert "<p>Dates: Sat 6 March 2027 to Sun 7 March 2027</p>" in body and "<p>Time control: 60 min + 30 s byo-yomi</p>" in body
