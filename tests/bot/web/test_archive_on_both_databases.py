"""The archive's and the NK player page's reads on SQLite and on PostgreSQL (issue 45 §1): the same club
of past competitions, read through the real Core and the website's own views (``bot/web/archive.py``)."""

from __future__ import annotations

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.systems import make_core
from bot.web import archive
from tests.bot.conftest import START, ok
from tests.bot.web.conftest import ARCHIVE_DIRECTOR, a_club_with_an_archive


async def test_past_competitions_and_an_nk_players_rounds_on_both_databases(any_store, config: Config) -> None:
    commands = make_core(any_store, config, ShiftedClock(START))
    club_id, pages = await a_club_with_an_archive(commands, website=False)
    club = await commands.store.club(club_id)
    assert club is not None
    assert (await ok(commands, ARCHIVE_DIRECTOR, '/nk stand "NK 2025"')).startswith("NK 2025: stand na ronde 2")
    assert (await ok(commands, ARCHIVE_DIRECTOR, "/stand seizoen=2025-26")).startswith("Stand 2025-26 na ronde 1")
    listed = await archive.view(commands, club, "", {}, "")
    assert listed is not None and listed.reply.table is not None
    assert listed.reply.table.rows == (("2026", "2025-26", "Keizercompetitie"), ("2026", "NK 2025", "NK"))
    player = await archive.view(commands, club, pages["archief-nk-speler"].removeprefix("archief/"), {}, "")
    assert player is not None and player.title == "Jan Koster in NK 2025" and player.reply.table is not None
    assert player.reply.table.rows == (("1", "Piet de Vries", "wit", "1-0", "1", "0"), ("2", "Piet de Vries", "zwart", "1-0", "2", "0"))
