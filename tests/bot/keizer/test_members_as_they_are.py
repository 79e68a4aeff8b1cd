"""Issue 44 §2, members as they are, through the commands layer on a real SQLite file: equal ratings in
joining order; the director signs a member back on by name; a member without a rating."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows
from tests.bot.keizer.trf_reader import read_trf


def start_names(text: str) -> list[str]:
    """The names of a /stand before round 1, top first (rows ``place name ...``)."""
    return [line.split()[1] for line in text.splitlines() if line.split() and line.split()[0].isdigit()]


async def test_equal_ratings_keep_joining_order_past_member_ten(commands: Core, config) -> None:
    """Twelve members of one rating, added in the order Lid12..Lid01 (so that neither their names nor
    their ids read as text give the joining order). As text member id "10" sorts before "2"; the
    start order is the order they joined."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    names = [f"Lid{i:02}" for i in range(12, 0, -1)]
    for name in names:
        await ok(commands, DIRECTOR, f"/speler {name} 1500")
    ids = dict(rows(config, "SELECT name, id FROM members"))
    assert sorted(ids[n] for n in names) == [ids[n] for n in names] and ids["Lid01"] >= 10  # ids cross "9" -> "10"
    assert start_names(await ok(commands, DIRECTOR, "/stand")) == names


async def test_the_director_signs_a_member_without_a_chat_account_back_on(commands: Core, clock, config) -> None:
    """Daan has no chat account; two no-shows sign him off for the coming rounds. The director signs him
    back on by name (today refused with the usage, so nobody could); a member may not sign anyone else on,
    and a name nobody has is said so."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    for line in ("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    anna = actor("Anna")
    await link(commands, anna)
    for day in (3, 10):
        clock.set(datetime(2026, 12, day, 17, 5, tzinfo=timezone.utc))
        await ok(commands, DIRECTOR, "/publiceer toch")
        await ok(commands, DIRECTOR, "/nietverschenen Daan")
    clock.set(datetime(2026, 12, 17, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer toch")
    assert "Daan" not in await ok(commands, anna, "/indeling")

    clock.set(datetime(2026, 12, 20, 12, 0, tzinfo=timezone.utc))
    assert "wedstrijdleider" in await refused(commands, anna, "/aanmelden Daan", config)  # the director's
    assert "Zed" in await refused(commands, DIRECTOR, "/aanmelden Zed", config)  # nobody's name
    await refused(commands, DIRECTOR, "/aanmelden Daan nieuw", config)  # a name goes with no code nor nieuw
    said = await ok(commands, DIRECTOR, "/aanmelden Daan 5")
    assert "De automatische afmelding van Daan is opgeheven." in said
    assert "Daan is aangemeld voor ronde 5 (2026-12-31)." in said
    clock.set(datetime(2026, 12, 24, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer toch")
    assert "Daan" in await ok(commands, anna, "/indeling")


async def test_the_director_signs_a_member_on_for_the_rapid_competition_by_name(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    await ok(commands, DIRECTOR, "/seizoen naam=R start=2026-12-04 rondes=5 soort=rapid")
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    said = await ok(commands, DIRECTOR, "/aanmelden rapid Anna")
    assert said == "Rapid: Anna is aangemeld voor ronde 1 (2026-12-04)."
    assert rows(config, "SELECT s.kind FROM season_players sp JOIN seasons s ON s.id = sp.season_id"
                        " JOIN members m ON m.id = sp.member_id WHERE m.name = 'Anna' ORDER BY s.kind") == [("main",), ("rapid",)]


async def test_a_member_without_a_rating(commands: Core, clock, config) -> None:
    """Issue 44: "Tim Koster;;" in the member list made the whole import refuse ("" is geen rating). Now
    Tim is unrated: /leden says so, the start order places him below the rated players, and the TRF
    file leaves his rating field empty (his rating out of performances: tests/engine/keizer/test_reports.py)."""
    said = await ok(commands, DIRECTOR, "/leden importeer", b"Naam;Rating;Account\nTim Koster;;\nAnna;2000;\nBert;1900;\nCarla;1800\n")
    assert said.startswith("4 leden ingelezen: 4 nieuw")
    assert rows(config, "SELECT rating FROM members WHERE name = 'Tim Koster'") == [(0,)]
    assert "geen" in next(line for line in (await commands.handle(DIRECTOR, "/leden")).table.rows if line[0] == "Tim Koster")
    await ok(commands, DIRECTOR, "/leden importeer", b"Tim Koster;;\nAnna;;\n")  # empty: Anna keeps her rating
    assert rows(config, "SELECT rating FROM members WHERE name = 'Anna'") == [(2000,)]
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    assert start_names(await ok(commands, DIRECTOR, "/stand")) == ["Anna", "Bert", "Carla", "Tim"]  # Tim Koster last
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    reply = await commands.handle(DIRECTOR, "/exporteer trf")
    assert reply.attachment is not None
    header, players = read_trf(reply.attachment[1])
    tim = next(p for p in players if p["name"] == "Tim Koster")
    assert tim["rating"] == "" and tim["start"] == 4 and header["072"] == ["3"]


async def test_a_chat_account_that_joins_is_reported_to_the_director(commands: Core, config) -> None:
    """Issue 44: a newcomer's /aanmelden makes a member the director would not know of; each director
    account gets a private notice with the name and what to do with it."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")  # the director's account is known
    await ok(commands, actor("Eva Nieuwenhuis"), "/aanmelden")
    notices = rows(config, "SELECT recipient, body FROM announcements WHERE kind LIKE 'new_member:%'")
    assert notices == [("user:leider", 'Nieuw lid via de chat: Eva Nieuwenhuis (nog zonder rating). Zet de rating met'
                                       ' /speler "Eva Nieuwenhuis" rating; is het iemand die de club al had, voeg ze samen'
                                       ' met /speler "Eva Nieuwenhuis" samenvoegen Naam.')]  # fmt: skip
    await ok(commands, actor("Eva Nieuwenhuis"), "/aanmelden 2")  # a member already: no new notice
    assert len(rows(config, "SELECT 1 FROM announcements WHERE kind LIKE 'new_member:%'")) == 1


async def test_an_unrated_member_at_an_estimated_rating(commands: Core, clock, config) -> None:
    """Issue 44: the director places an unrated member in the start order at an estimated rating
    (/speler Tim schatting=1850): between Bert (1900) and Carla (1800) instead of last. It is shown marked
    as estimated and used for the start order only: the TRF file keeps Tim unrated. Refused for a rated
    player, a bad number, and once the first round is paired; each refusal changes nothing."""
    await ok(commands, DIRECTOR, "/leden importeer", b"Tim Koster;;\nAnna;2000;\nBert;1900;\nCarla;1800\n")
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    assert start_names(await ok(commands, DIRECTOR, "/stand")) == ["Anna", "Bert", "Carla", "Tim"]
    said = await ok(commands, DIRECTOR, "/speler Tim Koster schatting=1850")
    assert "geschatte rating van 1850 (geschat: alleen voor de startvolgorde" in said
    assert start_names(await ok(commands, DIRECTOR, "/stand")) == ["Anna", "Bert", "Tim", "Carla"]
    shown = await ok(commands, DIRECTOR, "/speler Tim Koster")
    assert "rating 0" in shown and "geschatte rating 1850 voor de startvolgorde van seizoen S (geschat)" in shown
    assert "heeft een rating (2000)" in await refused(commands, DIRECTOR, "/speler Anna schatting=1500", config)
    await refused(commands, DIRECTOR, "/speler Tim Koster schatting=veel", config)
    await refused(commands, DIRECTOR, "/speler Tim Koster schatting=99999", config)
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    assert "ligt vast" in await refused(commands, DIRECTOR, "/speler Tim Koster schatting=-", config)
    reply = await commands.handle(DIRECTOR, "/exporteer trf")
    assert reply.attachment is not None
    header, players = read_trf(reply.attachment[1])
    tim = next(p for p in players if p["name"] == "Tim Koster")
    assert tim["rating"] == "" and header["072"] == ["3"]  # still unrated for the rating office
