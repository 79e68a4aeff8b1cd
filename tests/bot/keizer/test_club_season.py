"""Keizer as a club runs it all season, through the commands (issue 19): the rapid champion of a short
rapid season, withdrawing a player and taking them back, the automatic sign-off's own kind and what it
earns, and the season's club rules (/seizoen stijgprijs=..., noshow=...)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows
from tests.bot.keizer.test_rapid import RAPID_DEADLINE, two_competitions

ANNA, BERT, CARLA, DAAN = (actor(n) for n in ("Anna", "Bert", "Carla", "Daan"))
MAIN_PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)


async def play_rapid_round(commands: Core, clock, config, number: int) -> None:
    clock.set(RAPID_DEADLINE + timedelta(weeks=number - 1, minutes=61))
    await ok(commands, DIRECTOR, "/publiceer rapid")
    whites = rows(config, "SELECT w.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
                          f" JOIN members w ON w.id = g.white_id WHERE s.kind = 'rapid' AND r.number = {number}")  # fmt: skip
    for (white,) in whites:
        await ok(commands, DIRECTOR, f"/uitslag {white} 1-0 rapid {number}")


async def test_a_three_round_rapid_season_has_a_champion_after_two_rounds(commands: Core, clock, config) -> None:
    await two_competitions(commands)
    for number in (1, 2):
        await play_rapid_round(commands, clock, config, number)
    results = rows(config, "SELECT COUNT(*) FROM games g JOIN rounds r ON r.id = g.round_id JOIN seasons s"
                           " ON s.id = r.season_id WHERE s.kind = 'rapid' AND g.result IS NOT NULL")  # fmt: skip
    assert results == [(4,)]
    prizes = await ok(commands, ANNA, "/prijzen")
    rapid_line = next(line for line in prizes.splitlines() if "apid" in line)
    assert any(name in rapid_line for name in ("Anna", "Bert", "Carla", "Daan")), prizes


async def main_season(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    for who in (ANNA, BERT, CARLA, DAAN):
        await link(commands, who)


async def test_a_withdrawn_player_is_not_paired_not_ranked_and_can_come_back(commands: Core, clock, config) -> None:
    await main_season(commands)
    clock.set(MAIN_PUBLISH + timedelta(minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    for name in ("Anna", "Carla"):
        await commands.handle(DIRECTOR, f"/uitslag {name} 1-0")
    said = await ok(commands, DIRECTOR, "/speler Daan terugtrekken")
    assert "ronde 2" in said and "/speler Daan terug" in said
    assert rows(config, "SELECT withdrawn_from FROM season_players sp JOIN members m ON m.id = sp.member_id"
                        " WHERE m.name = 'Daan'") == [(2,)]  # fmt: skip
    assert "al teruggetrokken" in await refused(commands, DIRECTOR, "/speler Daan terugtrekken", config)
    assert "speelt niet mee" in await refused(commands, DIRECTOR, "/speler Niemand terugtrekken", config)
    await refused(commands, ANNA, "/speler Daan terug", config)  # the director's, not a member's
    assert "Daan" in await ok(commands, ANNA, "/stand")  # the standings after round 1: he played it
    clock.set(MAIN_PUBLISH + timedelta(weeks=1, minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    pairing = await ok(commands, ANNA, "/indeling")
    assert "Daan" not in pairing and pairing.count("Anna") == 1
    standing = await ok(commands, ANNA, "/stand")  # after round 2: out of the ranking
    assert "Daan" not in standing and "Anna" in standing and "na ronde 2" in standing
    # the games Daan played keep counting for their opponent: the standings after round 1 still have him
    assert "Daan" in await ok(commands, ANNA, "/stand 1")
    assert "doet weer mee" in await ok(commands, DIRECTOR, "/speler Daan terug")
    assert "niet teruggetrokken" in await refused(commands, DIRECTOR, "/speler Daan terug", config)
    assert "Daan" not in await ok(commands, ANNA, "/stand")  # after round 2 as published: he is back from round 3


async def test_an_automatic_sign_off_is_its_own_kind_and_earns_the_clubs_setting(commands: Core, clock, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5 noshow=0 stijgprijs=ronde1")
    settings = json.loads(rows(config, "SELECT settings_json FROM seasons")[0][0])
    assert settings == {"auto_signoff_fraction": 0, "riser_from": "round1"}
    assert "/seizoen" in await refused(commands, DIRECTOR, "/seizoen naam=T start=2026-12-03 noshow=1/2", config)
    assert "/seizoen" in await refused(commands, DIRECTOR, "/seizoen naam=T start=2026-12-03 stijgprijs=ooit", config)
    for line in ("Anna 2100", "Bert 2000", "Carla 1900", "Daan 1800", "Eva 1700", "Frits 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    for week in range(3):  # Eva never comes: no-show twice, then signed off automatically
        clock.set(MAIN_PUBLISH + timedelta(weeks=week, minutes=1))
        await ok(commands, DIRECTOR, "/publiceer toch" if week else "/publiceer")
        if week < 2:
            eva_game = rows(config, "SELECT w.name, b.name FROM games g JOIN rounds r ON r.id = g.round_id"
                                    " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id"
                                    f" WHERE r.number = {week + 1} AND 'Eva' IN (w.name, b.name)")  # fmt: skip
            if eva_game:
                await ok(commands, DIRECTOR, "/nietverschenen Eva")
    kinds = rows(config, "SELECT r.number, so.kind FROM signoffs so JOIN rounds r ON r.id = so.round_id"
                         " JOIN members m ON m.id = so.member_id WHERE m.name = 'Eva' ORDER BY r.number")  # fmt: skip
    assert (3, "auto") in kinds, kinds


def layout(config) -> tuple[list[tuple[int, str, str]], list[str]]:
    games = rows(config, "SELECT g.board, w.name, b.name FROM games g JOIN members w ON w.id = g.white_id"
                         " JOIN members b ON b.id = g.black_id ORDER BY g.board")  # fmt: skip
    byes = [name for (name,) in rows(config, "SELECT m.name FROM byes y JOIN members m ON m.id = y.member_id")]
    return games, byes


def boards(config) -> list[tuple[int, frozenset[str]]]:
    """Who plays whom on each board (a new game's colours follow the pairing's rule: see test_results)."""
    return [(board, frozenset((white, black))) for board, white, black in layout(config)[0]]


async def test_the_director_changes_the_pairing_before_and_after_its_announcement(commands: Core, clock, config) -> None:
    await main_season(commands)
    await ok(commands, DIRECTOR, "/speler Eva 1700")
    clock.set(MAIN_PUBLISH + timedelta(minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    games, byes = layout(config)
    assert len(games) == 2 and len(byes) == 1
    (b1, w1, k1), (b2, w2, k2) = games
    # colours of board 1, by board number and by name
    await ok(commands, DIRECTOR, "/indeling kleur 1")
    assert layout(config)[0][0] == (1, k1, w1)
    await ok(commands, DIRECTOR, f"/indeling kleur {w1}")
    assert layout(config)[0][0] == (1, w1, k1)
    # swap two players of different boards: they change places
    said = await ok(commands, DIRECTOR, f"/indeling wissel {w1} {w2}")
    assert "aangepast" in said and boards(config) == [(1, frozenset((w2, k1))), (2, frozenset((w1, k2)))]
    # pair two players: k2 takes the place of w2's opponent (k1), who goes to board 2
    await ok(commands, DIRECTOR, f"/indeling koppel {w2} {k2}")
    assert boards(config) == [(1, frozenset((w2, k2))), (2, frozenset((w1, k1)))]
    # the bye to someone else: the one who had it takes their place
    await ok(commands, DIRECTOR, f"/indeling vrij {w1}")
    assert boards(config) == [(1, frozenset((w2, k2))), (2, frozenset((byes[0], k1)))] and layout(config)[1] == [w1]
    # the announcement was not sent yet: it is rewritten, no correction queued
    pairing = rows(config, "SELECT body FROM announcements WHERE kind = 'pairing'")[0][0]
    now = [f"Bord {board}: {white} - {black}" for board, white, black in layout(config)[0]]
    assert pairing.splitlines()[1:] == [*now, f"Vrij (invaller, wel aanwezig zijn): {w1}"]
    assert rows(config, "SELECT COUNT(*) FROM announcements WHERE kind LIKE 'pairing-change-%'") == [(0,)]
    # refusals change nothing
    for text, says in [("/indeling wissel Anna Niemand", "ken ik niet"), (f"/indeling koppel {w2} {k2}", "spelen al"),
                       ("/indeling kleur 9", "geen bord 9"), ("/indeling wissel Anna", "/indeling")]:  # fmt: skip
        assert says in await refused(commands, DIRECTOR, text, config), text
    await refused(commands, ANNA, f"/indeling wissel {w2} {k1}", config)  # a member may not
    # once a result is reported, its game stays; after the announcement is out, a change is a correction
    from bot.core.running.scheduler import Alarm

    async def send(club, announcement) -> str:
        return f"m{announcement.id}"

    await Alarm(commands, send).run_due()
    (_, white, black) = layout(config)[0][0]
    await ok(commands, DIRECTOR, "/indeling kleur 1")
    assert rows(config, "SELECT COUNT(*) FROM announcements WHERE kind = 'pairing-change-1'") == [(1,)]
    correction = rows(config, "SELECT body FROM announcements WHERE kind = 'pairing-change-1'")[0][0]
    assert correction.splitlines()[1] == f"Bord 1: {black} - {white}"
    await ok(commands, DIRECTOR, f"/uitslag {k2} 1-0")
    assert "al binnen" in await refused(commands, DIRECTOR, "/indeling kleur 1", config)
    assert "al binnen" in await refused(commands, DIRECTOR, f"/indeling wissel {k2} {k1}", config)
    await ok(commands, DIRECTOR, f"/indeling vrij {k1}")  # board 2 and the bye have no result: they may change


async def test_what_a_club_prints_and_sends_on(commands: Core, clock, config) -> None:
    await main_season(commands)
    await ok(commands, DIRECTOR, '/speler "<b>Eva</b> & co" 1700')
    clock.set(MAIN_PUBLISH + timedelta(minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    games, byes = layout(config)
    for _, white, _ in games:
        await ok(commands, DIRECTOR, f'/uitslag "{white}" 1-0')
    cross = await commands.handle(ANNA, "/kruistabel")
    assert cross.ok and cross.table is not None and cross.image is not None and len(cross.table.rows) == 5
    assert cross.table.headers[-1] == "1" and {row[-1][-2:] for row in cross.table.rows} >= {"w1", "z0"}
    history = await ok(commands, ANNA, "/verloop")
    assert "plaats na elke ronde" in history
    card = await commands.handle(ANNA, "/kaart")
    assert card.ok and card.table is not None and card.table.rows[0][0] == "1" and "TPR" in card.text
    assert "Van wie" in await refused(commands, DIRECTOR, "/kaart", config)
    assert (await commands.handle(ANNA, "/kaart Bert")).ok
    trf = await commands.handle(DIRECTOR, "/exporteer trf")
    assert trf.attachment is not None and trf.attachment[0] == "S.trf"
    lines = trf.attachment[1].decode().splitlines()
    assert lines[0] == "012 S" and sum(line.startswith("001") for line in lines) == 5
    assert next(line for line in lines if line.startswith("132"))[91:] == "26/12/03"  # the paired round's date
    page = (await commands.handle(DIRECTOR, "/exporteer html")).attachment
    assert page is not None and b"&lt;b&gt;Eva&lt;/b&gt; &amp; co" in page[1] and b"<b>Eva" not in page[1]
    table = (await commands.handle(DIRECTOR, "/exporteer csv")).attachment
    assert table is not None and table[1].decode().count("Anna") == 2  # the standings and the cross table
    assert (await commands.handle(DIRECTOR, "/exporteer json")).attachment[0] == "S.json"  # type: ignore[index]
    await refused(commands, ANNA, "/exporteer trf", config)  # the director's


async def test_mijn_is_a_members_own_season_in_one_private_reply(commands: Core, clock, config) -> None:
    await main_season(commands)
    await ok(commands, ANNA, "/afmelden 2")
    clock.set(MAIN_PUBLISH + timedelta(minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    reply = await commands.handle(ANNA, "/mijn")
    assert reply.ok and reply.private and reply.table is not None
    text = reply.text
    assert "Anna in S" in text and "Afgemeld voor ronde 2" in text and "Ronde 1: bord" in text and "jij speelt met" in text
    games, _ = layout(config)
    for _, white, _ in games:
        await ok(commands, DIRECTOR, f'/uitslag "{white}" 1-0')
    text = (await commands.handle(ANNA, "/mijn")).text
    assert "Je staat" in text and "Voor ronde 2 (2026-12-10) ben je afgemeld" in text
    assert (await commands.handle(actor("Eva"), "/mijn")).ok is False  # not a member
    english = await commands.handle(BERT, "/me")
    assert english.ok and "Ronde 2 is op 2026-12-10" in english.text


async def test_a_member_who_allows_it_gets_a_private_notice_when_a_round_is_paired(commands: Core, clock, config) -> None:
    from bot.core.running.scheduler import Alarm

    await main_season(commands)
    said = await ok(commands, ANNA, "/mijn meldingen aan")
    assert "privébericht" in said
    await refused(commands, actor("Eva"), "/mijn meldingen aan", config)  # not a member
    await refused(commands, ANNA, "/mijn meldingen misschien", config)
    clock.set(MAIN_PUBLISH + timedelta(minutes=1))
    await ok(commands, DIRECTOR, "/publiceer")
    notices = rows(config, "SELECT kind, recipient, body FROM announcements WHERE recipient IS NOT NULL")
    assert len(notices) == 1
    kind, recipient, body = notices[0]
    assert recipient == ANNA.user_id and body.startswith("Ronde 1 (2026-12-03): jij speelt met ")
    sent: list[tuple[str | None, str]] = []

    async def send(club, announcement) -> None:
        sent.append((announcement.recipient, announcement.body))

    await Alarm(commands, send).run_due()
    assert (ANNA.user_id, body) in sent and sum(1 for r, _ in sent if r is None) == 1  # and the channel's pairing
    assert "geen privéberichten" in await ok(commands, ANNA, "/me notices off")
