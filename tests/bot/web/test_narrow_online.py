"""A round played on lichess on a phone (issue 45 §1): the pairing page's lichess column folds under the
result as a link named "lichess", so the table still fits 390 CSS px; at 1280 the column shows each game's
address; axe-core finds nothing at either width. Against the strict fake of lichess, in Debian's headless
Chromium (screenshots ``smal-online-<width>.png``)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from selenium import webdriver

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.web.server import start_web
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.online.fake_lichess import FakeLichess
from tests.bot.online.round_setup import core, lichess  # noqa: F401 - fixtures
from tests.bot.online.round_setup import PUBLISHED, Posted, at, online_club
from tests.bot.web.test_accessible import check
from tests.bot.web.test_narrow import MEASURE, WIDTHS


async def test_an_online_rounds_links_fold_under_the_result_on_a_phone(
    core: Core, clock, lichess: FakeLichess, chrome: webdriver.Chrome, tmp_path: Path  # noqa: F811 - the fixtures
) -> None:
    await online_club(core, lichess)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, Posted().send))  # paired, the challenges made
    urls = {f"{lichess.url}/{c.id}" for c in lichess.world.challenges.values()}
    assert len(urls) == 6
    runner = await start_web(core, "127.0.0.1:0")
    site = f"http://127.0.0.1:{runner.addresses[0][1]}"
    core.config = dataclasses.replace(core.config, web_base_url=site)
    await ok(core, DIRECTOR, "/website aan")
    club = await core.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None

    def look(width: int) -> tuple[dict, list[tuple[str, str]]]:
        height, mobile = WIDTHS[width]
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        violations = check(chrome, f"{site}/c/{club.id}/indeling/1", tmp_path / f"smal-online-{width}.png")  # axe-core, as every page
        assert not violations, violations
        shown = chrome.execute_script(
            "return [...document.querySelectorAll('tbody a[href^=\"http\"]')].filter(a => a.getClientRects().length)"
            ".map(a => [a.textContent, a.href])")  # fmt: skip
        return chrome.execute_script(MEASURE), [tuple(pair) for pair in shown]

    try:
        phone, phone_links = await asyncio.to_thread(look, 390)
        computer, computer_links = await asyncio.to_thread(look, 1280)
    finally:
        await runner.cleanup()
    assert not phone["problems"], phone
    assert phone["headers"][-1] == "Uitslag lichess", phone["headers"]
    assert sorted(phone_links) == sorted(("lichess", url) for url in urls)  # under each result, a link to its game
    assert computer["headers"][-1] == "lichess" and not computer["problems"], computer
    assert sorted(computer_links) == sorted((url, url) for url in urls)
