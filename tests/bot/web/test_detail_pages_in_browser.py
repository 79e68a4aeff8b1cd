"""The pages issue 45 §1 added to, as a member sees them in Chromium at a phone's width (390 CSS px) and a
computer's (1280): the NK table with a column per round and a withdrawn player, the NK pairing with each
player's score, group and strength, the Keizer pairing with who signed off or is away for a team match,
a counted go game's count, and the sign-off form answering a pressed button (its redirect) with the outcome.
Each is checked by axe-core (as ``test_accessible.py`` checks every page type, whose pages show none of
these: its NK has no result, its pairing nobody absent, its go game is still being played) and its
screenshot is saved under pytest's tmp dir (``screenshots/<page>-<width>.png``); the page's own words are
asserted in the browser, so a detail that vanishes from a page fails here too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from tests.bot.conftest import DIRECTOR, actor, link, ok
from tests.bot.web.conftest import PUBLISH
from tests.bot.web.test_accessible import AXE, WIDTHS, axe_here, check

ANNA, BERT, CARLA, DAAN, EVA = (actor(name) for name in ("Anna", "Bert", "Carla", "Daan", "Eva"))


async def a_club_with_details(commands: Core) -> tuple[int, str, dict[str, str]]:
    """A Keizer season whose round 1 is published with Carla and Eva signed off and Daan away for a team
    match; an NK whose round 1 has a result and a forfeit, Daan withdrawn and round 2 paired; a counted 9x9
    go game (each side walls off its columns, each invader dead: W+3.5). The club's id, Anna's personal
    link and the pages' paths with what each must show."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800", "Eva 1700", "Frank 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await link(commands, ANNA, BERT, CARLA, DAAN, EVA)
    await ok(commands, DIRECTOR, "/website aan")
    for who, line in ((EVA, "/afmelden 1"), (CARLA, "/afmelden 1"), (DAAN, "/afmelden 1 teamwedstrijd")):
        await ok(commands, who, line)
    await ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap")
    for name in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/nk inschrijven {name}")
    await ok(commands, DIRECTOR, "/nk ronde")
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")  # board 1: Carla - Anna
    await ok(commands, DIRECTOR, "/nk uitslag Bert gewonnen reglementair")  # board 2: Daan - Bert, by forfeit
    await ok(commands, DIRECTOR, "/nk terugtrekken Daan")
    await ok(commands, DIRECTOR, "/nk ronde")  # three left: Carla has the bye
    await ok(commands, ANNA, "/go uitdagen @Bert 9")
    await ok(commands, BERT, "/go accepteren")
    game = await commands.store.fetch_one("SELECT id, black_id FROM go_games ORDER BY id DESC")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    anna = await commands.store.member_by_name(club.id, "Anna") if club is not None else None
    assert game is not None and club is not None and anna is not None
    black, white = (ANNA, BERT) if game["black_id"] == anna.id else (BERT, ANNA)
    for row in range(1, 10):
        await ok(commands, black, f"/zet D{row}")
        await ok(commands, white, f"/zet F{row}")
    for who, text in ((black, "/zet H5"), (white, "/zet B5"), (black, "/pas"), (white, "/pas"),
                      (black, "/dood B5"), (black, "/dood H5"), (black, "/dood klaar"), (white, "/akkoord")):  # fmt: skip
        await ok(commands, who, text)
    reply = await commands.handle(ANNA, "/website link")
    personal = reply.text[reply.text.index("http") :].split()[0]
    commands.clock.set(PUBLISH)  # type: ignore[attr-defined]

    async def send(club_row, announcement) -> None:
        return None

    await Alarm(commands, send).run_due()  # round 1 published, 18:00 in Amsterdam
    pages = {
        "nk-met-uitslagen": ("nk", ("Speeldatum: di 1 december 2026", "R1", "R2", "teruggetrokken vanaf ronde 2", "vrij")),
        "nk-indeling-punten": ("nk-indeling/2", ("Punten", "Groep", "Sterkte")),
        "indeling-afwezig": ("indeling/1", ("Afgemeld: Carla, Eva", "Afwezig voor een teamwedstrijd: Daan")),
        "go-partij-geteld": (f"go/{game['id']}", ("Uitslag: W+3.5", "gebied", "komi 3.5")),
    }
    return club.id, personal, {name: f"{path}|{'|'.join(words)}" for name, (path, words) in pages.items()}


async def test_the_pages_issue_45_added_to_pass_axe_with_their_details_at_390_and_1280(
    commands: Core, clock, site: str, chrome: webdriver.Chrome, tmp_path: Path
) -> None:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/install.sh --test installs it with npm ci (needs Debian's nodejs and npm)")
    base = site  # the bot's web server on 127.0.0.1, its public address pointed at it
    club, personal, pages = await a_club_with_details(commands)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    found: list[str] = []

    def text() -> str:
        return str(chrome.find_element(By.TAG_NAME, "body").text)

    # the sign-off form: a pressed button is answered with a redirect to the form, the outcome shown once
    await asyncio.to_thread(chrome.get, personal)
    for width_name, (width, height, mobile) in WIDTHS.items():
        await asyncio.to_thread(chrome.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})  # fmt: skip
        for name, spec in pages.items():
            path, *words = spec.split("|")
            found += [f"{name} at {width_name} width: {line}"
                      for line in await asyncio.to_thread(check, chrome, f"{base}/c/{club}/{path}", shots / f"{name}-{width}.png")]  # fmt: skip
            shown = await asyncio.to_thread(text)
            found += [f"{name} at {width_name} width does not say {word!r}" for word in words if word not in shown]
        await asyncio.to_thread(chrome.get, f"{base}/c/{club}/afmelden")
        label = "Afmelden" if width_name == "phone" else "Weer aanmelden"  # round 2: off on the phone, on again
        button = await asyncio.to_thread(chrome.find_element, By.XPATH, f"(//button[text()='{label}'])[1]")
        await asyncio.to_thread(button.click)
        await asyncio.to_thread(WebDriverWait(chrome, 10).until, lambda b: b.find_elements(By.CLASS_NAME, "message"))
        assert (await asyncio.to_thread(lambda: chrome.current_url)).endswith(f"/c/{club}/afmelden")
        outcome = await asyncio.to_thread(lambda: chrome.find_element(By.CLASS_NAME, "message").text)
        assert ("afgemeld voor ronde 2" if width_name == "phone" else "ronde 2") in outcome, outcome
        await asyncio.to_thread(chrome.save_screenshot, str(shots / f"afmelden-uitkomst-{width}.png"))
        found += [f"afmelden-uitkomst at {width_name} width: {line}" for line in await asyncio.to_thread(axe_here, chrome)]
        await asyncio.to_thread(chrome.refresh)  # a reload sends nothing again and shows the outcome no more
        assert not await asyncio.to_thread(chrome.find_elements, By.CLASS_NAME, "message")
    print("screenshots:", sorted(p.name for p in shots.iterdir()))
    assert not found, "axe-core found, or a page lacks:\n" + "\n".join(found)
    assert len(list(shots.iterdir())) == 2 * (len(pages) + 1)
