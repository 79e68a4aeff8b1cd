"""/nk (/championship) through the commands layer on a real SQLite file: a whole NK from creation to
champion, self-registration with the director's approval, results with confirmation, and refusals
that change nothing."""

from __future__ import annotations

import json

import random

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

ANNA, BERT = actor("Anna"), actor("Bert")


async def anna_and_bert_paired(commands: Core, options: str = "") -> None:
    """An NK of two members who registered themselves, approved, round 1 paired."""
    await ok(commands, DIRECTOR, f"/nk nieuw NK {options}".strip())
    await ok(commands, ANNA, "/nk inschrijven 2100")
    await ok(commands, BERT, "/nk inschrijven 2000")
    await ok(commands, DIRECTOR, "/nk goedkeuren alle")
    await ok(commands, DIRECTOR, "/nk ronde")


async def test_registration_needs_the_directors_approval(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/help")  # the club exists from the first command on
    await refused(commands, ANNA, "/nk inschrijven 2100", config)  # no tournament yet
    await refused(commands, ANNA, "/nk nieuw NK 2027", config)  # director only
    await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    await refused(commands, DIRECTOR, "/nk nieuw Ander", config)  # one at a time
    assert "wedstrijdleider" in await refused(commands, ANNA, "/nk inschrijven 2100 recht=top", config)  # rights: the director's
    text = await ok(commands, ANNA, "/nk inschrijven 2100")
    assert "Anna" in text and "2100" in text
    await refused(commands, ANNA, "/nk inschrijven 2100 sterkte=2500", config)  # override: director only
    await ok(commands, BERT, "/championship register 1900")
    await ok(commands, BERT, "/championship register 1910")  # not approved yet: her own rating may change
    said = await ok(commands, DIRECTOR, "/nk inschrijven Anna 2100 recht=top sterkte=2150")  # entered and approved
    assert "nieuwe speler" not in said  # Anna is a member already
    # registering again does not undo the director's approval, strength or right (it used to)
    assert "toegelaten" in await refused(commands, ANNA, "/nk inschrijven 2110", config)
    assert rows(config, "SELECT confirmed, earned, strength, rating FROM nk_players ORDER BY rating DESC") == [
        (1, "top", 2150, 2100), (0, None, None, 1910)]  # fmt: skip
    await refused(commands, DIRECTOR, "/nk goedkeuren Carla", config)
    stand = await ok(commands, BERT, "/nk stand")
    assert "1 toegelaten" in stand and "1 wacht" in stand
    await ok(commands, DIRECTOR, "/nk goedkeuren alle")
    await ok(commands, DIRECTOR, "/nk ronde")
    await refused(commands, BERT, "/nk inschrijven 1950", config)  # registration closed


async def test_a_whole_tournament_from_the_chat(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/taal en")
    await ok(commands, DIRECTOR, "/championship new NK 2027")
    names = [f"Speler {i:02d}" for i in range(1, 21)]  # 20 players: top group 16, group 1 of 4
    for i, name in enumerate(names):
        await ok(commands, DIRECTOR, f'/nk inschrijven "{name}" {2600 - 20 * i}')
    await ok(commands, DIRECTOR, '/nk inschrijven "Speler 20" 2580 sterkte=2590 recht=top')  # now in the top group
    rng = random.Random(7)
    for number in range(1, 9):
        text = await commands.handle(DIRECTOR, "/nk ronde")
        if not text.ok:
            assert "over" in text.text
            break
        pairs = rows(
            config,
            "SELECT g.board, mb.name, mw.name FROM nk_games g JOIN nk_rounds r ON r.id = g.round_id"
            " JOIN members mb ON mb.id = g.black_id JOIN members mw ON mw.id = g.white_id"
            " WHERE r.number = ? ORDER BY g.board",
            number,
        )
        if number == 1:
            # slide in the top group (by strength, Speler 20 second strongest): 1-9, ..., 8-16
            top = ["Speler 01", "Speler 20"] + [f"Speler {i:02d}" for i in range(2, 16)]
            assert {frozenset(p[1:]) for p in pairs[:8]} == {frozenset((top[i], top[i + 8])) for i in range(8)}
            await refused(commands, DIRECTOR, "/nk ronde", config)  # round 1 has no results yet
        announcement = rows(config, "SELECT body, image, picture FROM announcements WHERE kind = ?", f"nk:1:round:{number}")
        assert len(announcement) == 1 and f"Board 1: {pairs[0][1]} (black) - {pairs[0][2]} (white)" in announcement[0][0]
        # the pairing as a picture (drawn when it is sent, not inside the command), the text as fallback
        assert announcement[0][1] is None and json.loads(announcement[0][2])["rows"][0][1:] == [pairs[0][1], pairs[0][2]]
        for board, black, white in pairs:
            winner = rng.choice([black, white])
            await ok(commands, DIRECTOR, f'/nk uitslag "{winner}" won')
        standings = rows(config, "SELECT body, image, picture FROM announcements WHERE kind = ?", f"nk:1:standings:{number}")
        assert len(standings) == 1 and standings[0][1] is None and json.loads(standings[0][2])["headers"][1] == "Name"
    champion = rows(config, "SELECT body FROM announcements WHERE kind LIKE 'nk:1:champion%'")
    assert len(champion) == 1 and "Dutch champion" in champion[0][0]
    assert rows(config, "SELECT status FROM nk_tournaments") == [("finished",)]
    table = await ok(commands, ANNA, "/championship standings")
    assert "Dutch champion" in table and "SOS" in table
    reply = await commands.handle(DIRECTOR, "/nk egf")
    assert reply.ok and reply.attachment is not None
    egf = reply.attachment[1].decode()
    assert "; EV[NK 2027]" in egf and len([ln for ln in egf.splitlines() if not ln.startswith(";")]) == 20


async def test_results_are_reported_and_confirmed(commands: Core, config) -> None:
    await anna_and_bert_paired(commands)
    board = await ok(commands, BERT, "/nk indeling")
    assert "Anna" in board and "Bert" in board
    await ok(commands, ANNA, "/nk uitslag gewonnen")
    await refused(commands, ANNA, "/nk bevestig", config)  # not one's own report
    await refused(commands, BERT, "/nk uitslag gewonnen", config)  # conflicting report
    assert rows(config, "SELECT winner_id FROM nk_games") == [(None,)]
    await ok(commands, BERT, "/nk bevestig")
    assert rows(config, "SELECT m.name FROM nk_games g JOIN members m ON m.id = g.winner_id") == [("Anna",)]
    await refused(commands, BERT, "/nk uitslag gewonnen", config)  # final now
    await ok(commands, DIRECTOR, "/nk uitslag Bert gewonnen reglementair")  # the director corrects
    assert rows(config, "SELECT m.name, g.forfeit FROM nk_games g JOIN members m ON m.id = g.winner_id") == [("Bert", 1)]
    stand = await ok(commands, ANNA, "/nk stand")
    assert "kan winnen" in stand or "kampioen" in stand
    assert (await commands.handle(ANNA, "/nk stand")).image.startswith(b"\x89PNG")
    for text in ("/nk", "/nk onzin", "/nk indeling 9", "/nk uitslag", "/nk uitslag Anna gewonnen", "/nk egf"):
        await refused(commands, ANNA, text, config)


async def test_stand_shows_the_nk_table(commands: Core, config) -> None:
    """/stand nk is the tournament table; a club with only an NK running gets it from plain /stand."""
    await anna_and_bert_paired(commands)
    await ok(commands, ANNA, "/nk uitslag gewonnen")
    await ok(commands, BERT, "/nk bevestig")
    table = await ok(commands, ANNA, "/nk stand")
    assert await ok(commands, ANNA, "/stand nk") == table
    assert await ok(commands, ANNA, "/standings nk") == table
    assert await ok(commands, ANNA, "/stand") == table  # no Keizer season: the NK's table
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2030-01-03")
    assert await ok(commands, ANNA, "/stand") != table  # with a season, /stand is the competition's
    assert await ok(commands, ANNA, "/stand nk") == table


async def test_a_jigo_is_refused_when_the_komi_has_a_half(commands: Core, config) -> None:
    """Issue 31: with komi 6.5 (a new NK's) the score on the board is never equal: a jigo reported by a
    player or entered by the director is refused, in the club's language, and nothing is written."""
    await anna_and_bert_paired(commands)
    said = await refused(commands, ANNA, "/nk uitslag jigo", config)
    assert "Een jigo kan niet bij komi 6.5" in said
    said = await refused(commands, DIRECTOR, "/nk uitslag Bert jigo 1", config)
    assert "komi 6.5" in said
    assert rows(config, "SELECT winner_id, jigo, reported_jigo FROM nk_games") == [(None, 0, 0)]
    await ok(commands, DIRECTOR, "/taal en")
    assert "A jigo cannot happen with komi 6.5" in await refused(commands, ANNA, "/nk uitslag jigo", config)
    await ok(commands, ANNA, "/nk uitslag gewonnen")  # a result that can happen is still taken


async def test_the_director_chooses_the_komi_when_the_tournament_is_made(commands: Core, config) -> None:
    """``/nk nieuw Naam komi=7`` for a tournament played with a whole komi (a jigo can happen: the reply says
    so); a komi that is no whole or half number of points up to 20 is refused and makes no tournament."""
    for bad in ("komi=6.25", "komi=21", "komi=-1", "komi=zeven", "komi=٧"):
        assert "geen komi" in await refused(commands, DIRECTOR, f"/nk nieuw NK {bad}", config)
    assert rows(config, "SELECT COUNT(*) FROM nk_tournaments") == [(0,)]
    said = await ok(commands, DIRECTOR, "/nk nieuw NK 2027 komi=7,0")
    assert "komi 7: een jigo kan" in said
    assert rows(config, "SELECT name, komi FROM nk_tournaments") == [("NK 2027", "7")]


async def test_the_director_approves_a_registration_whatever_the_accents_and_spacing(commands: Core, config) -> None:
    """/nk goedkeuren compares names as the store does (``name_key``: case, accents and spacing aside), not
    with ``lower()``: "emile  dupre" approves Émile Dupré."""
    await ok(commands, DIRECTOR, "/nk nieuw NK")
    await ok(commands, actor("Émile Dupré"), "/nk inschrijven 2100")
    await ok(commands, DIRECTOR, "/nk goedkeuren emile  dupre")
    assert rows(config, "SELECT confirmed FROM nk_players") == [(1,)]


async def test_a_jigo_reported_and_confirmed_or_entered_by_the_director(commands: Core, config) -> None:
    """Issue 20: jigo as a result. A player reports it, the other confirms it (a win reported against a
    jigo is a conflict that changes nothing); half a point each in the table, 'jigo' in the pairing, '='
    in the EGF file; the director can enter one; a jigo by forfeit makes no sense and is refused. The
    tournament plays komi 7 (``/nk nieuw ... komi=7``): a jigo needs a whole komi."""
    await anna_and_bert_paired(commands, "komi=7")
    await ok(commands, ANNA, "/nk uitslag jigo")
    await refused(commands, BERT, "/nk uitslag gewonnen", config)  # conflicts with the jigo reported
    assert rows(config, "SELECT winner_id, jigo, reported_jigo FROM nk_games") == [(None, 0, 1)]
    await ok(commands, BERT, "/nk bevestig")
    assert rows(config, "SELECT winner_id, jigo, forfeit FROM nk_games") == [(None, 1, 0)]
    table = (await commands.handle(ANNA, "/nk stand")).table
    assert table is not None and {row[1]: row[2] for row in table.rows} == {"Anna": "½", "Bert": "½"}
    wide = (await commands.handle(ANNA, "/nk stand tabel")).table  # the website's: round 1 as chess-results has it
    assert wide is not None and {row[1]: row[3] for row in wide.rows} == {"Anna": "2w½", "Bert": "1z½"}
    pairing = (await commands.handle(ANNA, "/nk indeling 1")).table
    assert pairing is not None and pairing.rows[0][-1] == "jigo"
    egf = (await commands.handle(DIRECTOR, "/nk egf")).attachment
    assert egf is not None and "1=/" in egf[1].decode() and "2=/" in egf[1].decode()
    await refused(commands, BERT, "/nk uitslag jigo", config)  # final now
    await refused(commands, DIRECTOR, "/nk uitslag Anna jigo reglementair", config)
    await ok(commands, DIRECTOR, "/nk uitslag Anna gewonnen")  # the director corrects: no jigo any more
    assert rows(config, "SELECT jigo FROM nk_games") == [(0,)]
    said = await ok(commands, DIRECTOR, "/nk uitslag Bert jigo 1")
    assert "jigo" in said and rows(config, "SELECT winner_id, jigo FROM nk_games") == [(None, 1)]


async def test_a_name_nobody_has_is_said_to_be_a_new_player(commands: Core, config) -> None:
    """``/nk inschrijven Onbekend 1500`` with a name no member has enters a new player: said, so that a typo
    does not go unseen (found in a console month: it was silent)."""
    await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    said = await ok(commands, DIRECTOR, "/nk inschrijven Onbekend 1500")
    assert "Onbekend was nog niet bekend en staat nu als nieuwe speler in de club" in said
    assert "nieuwe speler" not in await ok(commands, DIRECTOR, "/nk inschrijven Onbekend 1510")
