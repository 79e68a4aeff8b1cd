"""The website's pages of the other systems and the club's home (issue 17): NK standings and pairings, the
club's grade list, go games with the board as SVG and the SGF to download; a page is listed in the
menu only while the club has something to show on it; the home names the coming round, its deadline,
publication time and how many signed off."""

from __future__ import annotations

import re

import aiohttp

from bot.core.commands.dispatch import Core
from engine.go.sgf import read_sgf
from tests.bot.conftest import DIRECTOR, actor, link, ok

ANNA, BERT = actor("Anna"), actor("Bert")


async def get(url: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text(), dict(response.headers)


async def club_id(commands: Core) -> int:
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    return club.id


async def test_the_home_names_the_coming_round_and_the_menu_only_what_there_is(
    commands: Core, site: str
) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await ok(commands, DIRECTOR, "/website aan")
    club = await club_id(commands)
    status, body, _ = await get(f"{site}/c/{club}/")
    assert status == 200 and ">Stand<" not in body and ">Go-partijen<" not in body  # nothing to show yet
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    await link(commands, ANNA)
    await ok(commands, ANNA, "/afmelden 1")
    status, body, _ = await get(f"{site}/c/{club}/")
    assert ">Stand<" in body and ">Indeling<" in body and ">Rapid<" not in body
    assert (
        "Ronde 1 — do 3 december 2026. Afmelden tot do 3 december 2026 17:00, indeling om do 3 december 2026 18:00. 1 afgemeld."
        in body
    )


async def test_nk_grades_and_go_pages(commands: Core, site: str) -> None:
    for name in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {name}")
    await link(commands, ANNA, BERT)
    await ok(commands, DIRECTOR, "/website aan")
    club = await club_id(commands)
    # the NK: standings and the pairing of its round
    await ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap")
    for name in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")
    status, body, _ = await get(f"{site}/c/{club}/nk")
    assert status == 200 and "Clubkampioenschap" in body and "Carla" in body
    status, body, _ = await get(f"{site}/c/{club}/nk-indeling/1")
    assert status == 200 and "Carla" in body and "Daan" in body
    assert (await get(f"{site}/c/{club}/nk-indeling/7"))[0] == 404
    # grades: the club's list, highest first
    await ok(commands, DIRECTOR, "/graadzetten Anna 1d vanaf=2026-01-01")
    await ok(commands, DIRECTOR, "/graadzetten Bert 5k vanaf=2026-01-01")
    status, body, _ = await get(f"{site}/c/{club}/graden")
    assert status == 200 and body.index("Anna") < body.index("Bert") and "1d" in body and "5k" in body
    # a go game: listed, its board as SVG with the stones on it, its record to download
    await ok(commands, ANNA, "/go uitdagen @Bert 9")
    await ok(commands, BERT, "/go accepteren")
    game = await commands.store.fetch_one("SELECT id, black_id FROM go_games")
    black, white = (
        (ANNA, BERT)
        if game["black_id"] == (await commands.store.member_by_name(club, "Anna")).id
        else (BERT, ANNA)
    )  # type: ignore[union-attr]
    for who, move in ((black, "E5"), (white, "C3"), (black, "G7")):
        await ok(commands, who, f"/zet {move}")
    status, body, _ = await get(f"{site}/c/{club}/go")
    assert status == 200 and f'href="/c/{club}/go/{game["id"]}"' in body
    status, body, _ = await get(f"{site}/c/{club}/go/{game['id']}")
    assert status == 200 and "<svg" in body
    assert (
        len(re.findall(r'<circle class="black"', body)) == 2
        and len(re.findall(r'<circle class="white"', body)) == 1
    )
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{site}/c/{club}/go/{game['id']}.sgf") as response,
    ):
        assert response.status == 200 and "attachment" in response.headers["Content-Disposition"]
        record = read_sgf((await response.read()).decode("utf-8"))
    assert len(record.actions) == 3
    for missing in ("go/999", "go/abc", f"go/{game['id']}.exe", "graden/1"):
        assert (await get(f"{site}/c/{club}/{missing}"))[0] == 404, missing
