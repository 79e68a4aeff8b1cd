"""A director's first steps on the console: ``/als Wedstrijdleider`` is the director again; ``/website
aan`` on a bot that serves no website says so and changes nothing."""

from __future__ import annotations

import dataclasses
import io

from bot.adapters.console import ConsoleAdapter
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, ok, refused, rows


async def test_als_wedstrijdleider_is_the_director_again(commands: Core, clock) -> None:
    out = io.StringIO()
    console = ConsoleAdapter(commands, clock, "Wedstrijdleider", "Test club", out=out)
    await console.start()
    for line in ("/als Anna", "/als Wedstrijdleider", "/speler Anna 1800", "/als Bert wedstrijdleider", "/als director"):
        await console.handle_line(line)
    said = out.getvalue().splitlines()
    assert said == [
        "bot> Je bent nu Anna.",
        "bot> Je bent nu Wedstrijdleider (wedstrijdleider).",
        "bot> Speler Anna toegevoegd (rating 1800).",
        "bot> Je bent nu Bert (wedstrijdleider).",
        "bot> Je bent nu Wedstrijdleider (wedstrijdleider).",
    ], said


async def test_website_aan_without_an_address_says_so(commands: Core, config, store, clock) -> None:
    assert config.web_address is None and config.web_base_url is None
    said = await refused(commands, DIRECTOR, "/website aan", config)
    assert said == (
        "Deze bot heeft geen webadres: de beheerder zet het in de configuratie ([web] address, of clubbot run"
        " --web HOST:PORT). Er is niets veranderd."
    )
    await refused(commands, DIRECTOR, "/website besloten", config)
    await ok(commands, DIRECTOR, "/website uit")  # switching off always works
    served = make_core(store, dataclasses.replace(config, web_address="127.0.0.1:8080"), clock)
    assert "staat aan" in await ok(served, DIRECTOR, "/website aan")
    assert rows(config, "SELECT website FROM clubs") == [("on",)]
