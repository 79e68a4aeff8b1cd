"""/stand of a big club: pages of at most 40 rows (a picture a phone shows whole), a button to the next
page, and the whole table as a file on request; a small club's /stand is one table as before."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.commands.dispatch import Core
from bot.keizer.views import PAGE_ROWS
from tests.bot.conftest import DIRECTOR, actor, ok, refused
from bot.config import Config


async def club_of(commands: Core, players: int) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=Groot start=2026-12-03")
    for i in range(players):
        await ok(commands, DIRECTOR, f"/speler Speler{i:03d} {2400 - i}")


async def test_a_big_clubs_standings_come_in_pages_with_the_whole_table_as_a_file(commands: Core, config: Config) -> None:
    await club_of(commands, 95)
    anna = actor("Anna")
    first = await commands.handle(anna, "/stand")
    assert first.ok and first.table is not None and len(first.table.rows) == PAGE_ROWS
    assert first.table.rows[0][1] == "Speler000" and "(1/3)" in first.lines[0]
    assert [b.command for b in first.buttons] == ["/stand pagina=2"]
    assert "/stand alles" in first.text
    width, height = Image.open(io.BytesIO(first.image or b"")).size
    assert max(width, height) <= 1280, (width, height)
    second = await commands.handle(anna, "/stand pagina=2")
    assert second.table is not None and second.table.rows[0][1] == f"Speler{PAGE_ROWS:03d}"
    last = await commands.handle(anna, "/stand pagina=3")
    assert last.table is not None and len(last.table.rows) == 15 and last.buttons == ()
    assert "pagina 4 bestaat niet" in await refused(commands, anna, "/stand pagina=4", config)
    assert "/stand" in await refused(commands, anna, "/stand pagina=nul", config)
    whole = await commands.handle(anna, "/stand alles")
    assert whole.ok and whole.attachment is not None and whole.image is None
    name, content = whole.attachment
    text = content.decode("utf-8")
    assert name == "stand.txt" and all(f"Speler{i:03d}" in text for i in range(95))


async def test_a_small_clubs_standings_are_one_table(commands: Core) -> None:
    await club_of(commands, PAGE_ROWS)
    reply = await commands.handle(actor("Anna"), "/stand")
    assert reply.table is not None and len(reply.table.rows) == PAGE_ROWS and reply.buttons == ()
    assert reply.lines == ("Stand Groot voor de eerste ronde",)



async def test_each_asker_sees_their_own_row_under_the_shared_page(commands: Core) -> None:
    """One cached page serves every member; a member not on it also gets their own row."""
    await club_of(commands, 95)
    from tests.bot.conftest import link

    late = actor("Speler090")
    await link(commands, late)
    reply = await commands.handle(late, "/stand")
    assert reply.lines[-1].startswith("Jij: 91. Speler090")
    assert "Keizerpunt" in reply.lines[-1], reply.lines[-1]  # which points (issue 44 §3)
    top = actor("Speler003")
    await link(commands, top)
    assert not (await commands.handle(top, "/stand")).lines[-1].startswith("Jij:")  # on the page already
    assert not (await commands.handle(actor("Anna"), "/stand")).lines[-1].startswith("Jij:")  # not a member
    assert commands.replies.hits >= 1  # the page itself came from the cache
