"""Online play on Discord (issue 43 §1), through the real discord.py against the local fake: the director
switches the running season to lichess with the options of ``/seizoen`` alone (no name, no start: the
running season's setting), and a member who is no director asks ``/koppel`` with its ``lichess`` option
for their personal login link, privately; the rest of ``/koppel`` stays the director's."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.config import Config
from tests.bot.adapters.discord_world import UserOption
from tests.bot.adapters.fake_discord import (  # noqa: F401 - fixtures
    EPHEMERAL,
    FakeDiscord,
    Harness,
    bot,
    content,
    fake,
    flags,
    harness,
)

SITE = "https://schaakclub.example"


@pytest.fixture
def config(config: Config) -> Config:
    """A bot with its lichess token (online play on; no request is made here) and a website address."""
    return dataclasses.replace(config, lichess_url="http://127.0.0.1:9", lichess_token="lip_test", web_base_url=SITE)


async def test_the_director_switches_online_and_a_member_gets_a_login_link(bot: Harness, fake: FakeDiscord) -> None:
    await bot.command("seizoen", "Leider", {"naam": "S", "start": "2026-12-03", "rondes": 4}, director=True)
    answer = await bot.command("seizoen", "Leider", {"online": "lichess", "tempo": "15+10", "beoordeeld": "ja"}, director=True)
    assert "Online op lichess vanaf ronde 1: tempo 15+10, beoordeeld" in content(answer), content(answer)
    shown = await bot.command("seizoen", "Leider", {}, director=True)
    assert "Seizoen S: 4 rondes" in content(shown) and "tempo 15+10" in content(shown), content(shown)
    await bot.command("speler", "Leider", {"naam": "Anna", "rating": 1800}, director=True)
    await bot.command("koppel", "Leider", {"speler": "Anna", "account": UserOption("Anna")}, director=True)
    answer = await bot.command("koppel", "Anna", {"lichess": True})
    assert flags(answer) & EPHEMERAL, answer
    assert re.search(rf"{re.escape(SITE)}/c/\d+/lichess/[A-Za-z0-9_-]{{20,}}", content(answer)), content(answer)
    refused = await bot.command("koppel", "Anna", {"speler": "Bert"})
    assert "/koppel is alleen voor de wedstrijdleider." in content(refused) and flags(refused) & EPHEMERAL
