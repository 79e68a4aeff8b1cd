"""A finished Keizer season stays readable in the chat when the next one is made (issue 45 §1): ``/stand
seizoen=2025-26`` (``/standings season=...``) is that season's table, with its group and round words as
for the running one, and ``/indeling seizoen=2025-26 [ronde]`` its rounds; an unknown name is refused with
the club's seasons and changes nothing."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import ok, refused
from tests.bot.web.conftest import ARCHIVE_DIRECTOR, a_club_with_an_archive

WHO = ARCHIVE_DIRECTOR


async def test_last_seasons_standings_by_its_name(commands: Core, config) -> None:
    await a_club_with_an_archive(commands, website=False)  # 2025-26: Piet de Vries beat Jan Koster in its only round; 2026-27 made after it
    assert (await ok(commands, WHO, "/stand")).startswith("Stand 2026-27 voor de eerste ronde")
    for asked in ("/stand seizoen=2025-26", '/stand seizoen="2025-26"', "/stand SEIZOEN=2025-26 1", "/standings season=2025-26"):
        table = await ok(commands, WHO, asked)
        assert table.startswith("Stand 2025-26 na ronde 1"), asked
        assert table.index("Piet de Vries") < table.index("Jan Koster"), asked  # the winner first
    assert "Piet de Vries" in await ok(commands, WHO, "/stand tabel seizoen=2025-26")  # the website's table
    for asked in ("/indeling seizoen=2025-26", "/indeling seizoen=2025-26 1", "/pairings season=2025-26 1"):
        pairing = await ok(commands, WHO, asked)  # its round 1, the last: Piet (white) won
        assert pairing.startswith("2025-26: Indeling ronde 1 (2026-12-02)") or pairing.startswith("2025-26: Pairing round 1"), asked
        assert "Piet de Vries" in pairing and "1-0" in pairing, asked


async def test_an_unknown_season_is_refused_with_the_clubs_seasons(commands: Core, config) -> None:
    await a_club_with_an_archive(commands, website=False)
    said = await refused(commands, WHO, "/stand seizoen=1999", config)
    assert said == 'Een seizoen "1999" ken ik niet. De seizoenen van de club: 2025-26, 2026-27.'
    assert await refused(commands, WHO, "/stand seizoen=2025-26 5", config) == "Ronde 5 bestaat niet (dit seizoen heeft 1 ronde)."
    assert "De seizoenen van de club: 2025-26, 2026-27." in await refused(commands, WHO, "/indeling seizoen=1999 1", config)
    await ok(commands, WHO, "/taal en")
    said = await refused(commands, WHO, "/standings season=1999", config)
    assert said == "I know no season \"1999\". The club's seasons: 2025-26, 2026-27."


async def test_last_seasons_cross_table_history_and_card_by_its_name(commands: Core, config) -> None:
    """The chat's other views of a season read a past one by its name too: ``/kruistabel``, ``/verloop``
    and ``/kaart Naam`` take ``seizoen=`` (``season=``) as ``/stand`` does; an unknown name is refused."""
    await a_club_with_an_archive(commands, website=False)
    assert "Kruistabel 2026-27" in await ok(commands, WHO, "/kruistabel")  # the running one without a name
    cross = await ok(commands, WHO, "/kruistabel seizoen=2025-26")
    assert cross.startswith("Kruistabel 2025-26") and "2w1" in cross and "1z0" in cross  # Piet (white) beat Jan
    history = await ok(commands, WHO, "/verloop seizoen=2025-26")
    assert history.startswith("Verloop 2025-26") and history.index("Piet de Vries") < history.index("Jan Koster")
    for asked in ('/kaart "Jan Koster" seizoen=2025-26', "/kaart seizoen=2025-26 Jan Koster"):
        card = await ok(commands, WHO, asked)
        assert card.startswith("Jan Koster in 2025-26") and "Piet de Vries" in card, asked
    assert "De seizoenen van de club: 2025-26, 2026-27." in await refused(commands, WHO, "/kruistabel seizoen=1999", config)
    assert "De seizoenen van de club" in await refused(commands, WHO, '/kaart "Jan Koster" seizoen=1999', config)
    assert "[seizoen=Naam]" in await refused(commands, WHO, "/verloop onzin", config)
    await ok(commands, WHO, "/taal en")
    assert (await ok(commands, WHO, "/crosstable season=2025-26")).startswith("Cross table 2025-26")
    assert (await ok(commands, WHO, "/history season=2025-26")).startswith("2025-26 round by round")
    assert "I know no season" in await refused(commands, WHO, "/card season=1999", config)
