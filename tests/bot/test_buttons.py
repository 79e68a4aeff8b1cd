"""A button belongs to a game and a person (issue 21, item 3): the confirm button under Anna's report is
Bert's; Daan pressing it (his own game waits for his confirmation too) used to confirm his own game. Now
anyone else hears "this button is for Bert" and nothing changes; the same for the NK's and go's buttons."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

ANNA, BERT, CARLA, DAAN = (actor(n) for n in ("Anna", "Bert", "Carla", "Daan"))
PAIRED = datetime(2026, 12, 3, 17, 1, tzinfo=timezone.utc)


async def test_the_confirm_button_is_the_opponents(commands: Core, clock, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await link(commands, ANNA, BERT, CARLA, DAAN)
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    games = rows(config, "SELECT w.name, b.name FROM games g JOIN members w ON w.id = g.white_id"
                         " JOIN members b ON b.id = g.black_id ORDER BY g.board")  # fmt: skip
    (w1, b1), (w2, b2) = games
    reply = await commands.handle(actor(w1), "/uitslag gewonnen")
    (button,) = reply.buttons
    assert b1 in button.label
    await ok(commands, actor(w2), "/uitslag gewonnen")  # the other game waits for its confirmation too
    for stranger in (w1, w2, b2):
        said = await refused(commands, actor(stranger), button.command, config)
        assert f"Deze knop is voor {b1}" in said
    assert rows(config, "SELECT COUNT(*) FROM games WHERE result IS NOT NULL") == [(0,)]
    await ok(commands, actor(b1), button.command)
    assert rows(config, "SELECT COUNT(*) FROM games WHERE result IS NOT NULL") == [(1,)]


async def test_the_nk_confirm_and_go_accept_buttons_belong_to_the_other_player(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/nk nieuw NK")
    for who, rating in ((ANNA, 2100), (BERT, 2000)):
        await ok(commands, who, f"/nk inschrijven {rating}")
    await ok(commands, DIRECTOR, "/nk goedkeuren alle")
    await ok(commands, DIRECTOR, "/nk ronde")
    (button,) = (await commands.handle(ANNA, "/nk uitslag gewonnen")).buttons
    assert "Deze knop is voor Bert" in await refused(commands, CARLA, button.command, config)
    await ok(commands, BERT, button.command)
    challenge = await commands.handle(ANNA, "/go uitdagen Bert 9")
    accept, decline = challenge.buttons
    assert "Deze knop is voor Bert" in await refused(commands, CARLA, accept.command, config)
    assert "Deze knop is voor Bert" in await refused(commands, ANNA, decline.command, config)
    await ok(commands, BERT, accept.command)
