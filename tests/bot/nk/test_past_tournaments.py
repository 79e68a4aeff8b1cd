"""A finished NK stays readable in the chat when the next one is made (issue 45 §1): ``/nk stand "NK
2025"`` and ``/nk indeling "NK 2025" [ronde]`` read a past tournament by its name (quoted or not, case and
accents aside); without a name they read the current one as before; an unknown name is refused with the
names there are, in the club's language, and changes nothing."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import ok, refused
from tests.bot.web.conftest import ARCHIVE_DIRECTOR, a_club_with_an_archive

PIET = ARCHIVE_DIRECTOR  # any member may read the tables; the director is the club's one actor here


async def test_last_years_table_and_rounds_by_the_tournaments_name(commands: Core, config) -> None:
    await a_club_with_an_archive(commands, website=False)  # NK 2025 (Jan Koster champion) finished, NK 2026 made after it
    now = await ok(commands, PIET, "/nk stand")
    assert now.startswith("NK 2026:") and "kampioen" not in now.split("\n", 1)[0]
    for asked in ('/nk stand "NK 2025"', "/nk stand NK 2025", "/nk stand nk  2025", "/championship standings NK 2025"):
        table = await ok(commands, PIET, asked)
        assert table.startswith("NK 2025: stand na ronde 2") or table.startswith("NK 2025: standings after round 2"), asked
        assert "Nederlands kampioen: Jan Koster" in table, asked
    assert (await commands.handle(PIET, '/nk stand "NK 2025"')).image.startswith(b"\x89PNG")  # the picture too
    assert await ok(commands, PIET, '/stand nk "NK 2025"') == await ok(commands, PIET, '/nk stand "NK 2025"')  # the route too
    last = await ok(commands, PIET, '/nk indeling "NK 2025"')  # its last round
    assert last.startswith("NK 2025, ronde 2:")
    first = await ok(commands, PIET, '/nk indeling "NK 2025" 1')
    assert first.startswith("NK 2025, ronde 1:") and "Piet de Vries" in first and "Jan Koster" in first
    assert (await ok(commands, PIET, "/nk indeling")).startswith("NK 2026, ronde 1:")  # the current one's, as before
    assert (await ok(commands, PIET, "/nk indeling 1")).startswith("NK 2026, ronde 1:")


async def test_an_unknown_tournament_or_round_is_refused_in_the_clubs_language(commands: Core, config) -> None:
    await a_club_with_an_archive(commands, website=False)
    said = await refused(commands, PIET, '/nk stand "NK 1999"', config)
    assert said == 'Een NK-toernooi "NK 1999" ken ik niet. De toernooien van de club: NK 2025, NK 2026.'
    assert "NK 2025" in await refused(commands, PIET, "/nk indeling Kampioenschap 1", config)
    assert "Ronde 3 bestaat niet" in await refused(commands, PIET, '/nk indeling "NK 2025" 3', config)
    await ok(commands, PIET, "/taal en")
    said = await refused(commands, PIET, "/championship standings NK 1999", config)
    assert said == "I know no championship tournament \"NK 1999\". The club's tournaments: NK 2025, NK 2026."
