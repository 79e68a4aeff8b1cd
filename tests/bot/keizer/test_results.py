"""Results that say who won, and the director's flows around them (issue 30, section 5), on a real store.

Round 1 of the five players below (by rating): board 1 Bert (white) - Anna, board 2 Daan (white) -
Carla, Eva has the bye (equal colour balance: the lower-ranked player gets white).
"""

from __future__ import annotations

from datetime import timedelta

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, rows
from tests.bot.keizer.test_commands import ANNA, BERT, DAAN, make_season, ok, pair_round_one, refused


async def director_member(commands: Core) -> str:
    """The director's own member record with their chat account (as the console makes it); the account."""
    club = await commands.club_of(DIRECTOR)
    member = await commands.store.add_member(club.id, DIRECTOR.display_name, 0, commands.clock.now(), is_director=True)
    await commands.store.link_identity(club.id, DIRECTOR.user_id, member.id)
    return DIRECTOR.user_id


async def test_a_result_reply_names_the_winner_and_the_colours(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    assert "0-1: Anna (zwart) wint van Bert" in await ok(commands, ANNA, "/uitslag 0-1")
    assert "0-1: Anna (zwart) wint van Bert" in await ok(commands, BERT, "/bevestig")
    assert "1-0: Daan (wit) wint van Carla" in await ok(commands, DIRECTOR, "/uitslag Carla 1-0")
    assert "½-½: Daan (wit) en Carla spelen remise" in await ok(commands, DIRECTOR, "/uitslag Carla remise")
    assert "0-1F: Carla (zwart) wint reglementair van Daan" in await ok(commands, DIRECTOR, "/uitslag Carla 0-1F")
    await ok(commands, DIRECTOR, "/taal en")
    assert "1-0: Daan (white) beats Carla" in await ok(commands, DIRECTOR, "/result Carla 1-0")
    assert "0-0F: neither Daan (white) nor Carla showed up" in await ok(commands, DIRECTOR, "/result Carla 0-0F")


async def test_two_reports_that_disagree_notify_the_director_privately(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, ANNA, "/uitslag gewonnen")  # 0-1
    text = await ok(commands, BERT, "/uitslag gewonnen")  # 1-0: they disagree
    assert "wedstrijdleider" in text
    assert rows(config, "SELECT result, reported_result FROM games WHERE board = 1") == [(None, "0-1")]
    notices = rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)
    assert len(notices) == 1
    assert "Anna" in notices[0][0] and "Bert" in notices[0][0] and "0-1" in notices[0][0] and "1-0" in notices[0][0]
    assert "/uitslag Anna" in notices[0][0]  # the command that settles it
    await ok(commands, BERT, "/uitslag gewonnen")  # the same dispute again: no second notice
    assert len(rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)) == 1


def flag(config, name: str) -> int:
    """The stored automatic sign-off (seed 004 rule j) of the player named ``name``."""
    return rows(config, "SELECT sp.auto_signed_off FROM season_players sp JOIN members m ON m.id = sp.member_id"
                " WHERE m.name = ?", name)[0][0]  # fmt: skip


def forfeit_loss(config, name: str, number: int) -> str:
    """The forfeit result by which ``name`` loses their game of round ``number``: 0-1F as white, 1-0F as black."""
    (white,) = rows(config, "SELECT m.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN members w ON"
                    " w.id IN (g.white_id, g.black_id) JOIN members m ON m.id = g.white_id"
                    " WHERE r.number = ? AND w.name = ?", number, name)[0]  # fmt: skip
    return "0-1F" if white == name else "1-0F"


async def test_two_no_shows_on_one_board_are_a_double_forfeit(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    assert "0-1F" in await ok(commands, DIRECTOR, "/nietverschenen Bert")  # Bert is white
    text = await ok(commands, DIRECTOR, "/nietverschenen Anna")
    assert "0-0F" in text
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("0-0F",)]
    await ok(commands, DIRECTOR, "/nietverschenen Anna")  # again: still neither came
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("0-0F",)]


async def daan_misses_round_one(commands: Core, clock: ShiftedClock) -> None:
    """Four players; Daan does not come to round 1; round 2 is paired (its results still open)."""
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700"))
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/nietverschenen Daan")
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer toch")


async def test_every_forfeit_loss_counts_and_a_correction_lifts_the_sign_off(commands: Core, clock: ShiftedClock, config) -> None:
    await daan_misses_round_one(commands, clock)
    text = await ok(commands, DIRECTOR, f"/uitslag Daan {forfeit_loss(config, 'Daan', 2)}")  # the second no-show
    assert "komende rondes" in text and flag(config, "Daan") == 1
    lifted = await ok(commands, DIRECTOR, "/uitslag Daan remise 2")  # he did play after all
    assert "Daan" in lifted and "opgeheven" in lifted and flag(config, "Daan") == 0
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer toch")
    assert "Daan" in await ok(commands, ANNA, "/indeling")


async def test_signing_on_again_holds_when_later_results_come_in(commands: Core, clock: ShiftedClock, config) -> None:
    await daan_misses_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/nietverschenen Daan")
    assert flag(config, "Daan") == 1
    clock.advance(timedelta(days=6))
    await ok(commands, DAAN, "/aanmelden")
    assert flag(config, "Daan") == 0
    clock.advance(timedelta(days=1))
    await ok(commands, DIRECTOR, "/publiceer toch")
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0 1")  # any later result: the rule is counted again
    assert flag(config, "Daan") == 0
    assert "Daan" in await ok(commands, ANNA, "/indeling")


async def test_a_bye_holder_who_does_not_come_loses_the_bye_and_is_a_no_show(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)  # Eva has the bye: she must still be there (seed 004 l)
    text = await ok(commands, DIRECTOR, "/nietverschenen Eva")
    assert "Eva" in text and "vrij" in text
    assert rows(config, "SELECT COUNT(*) FROM byes") == [(0,)]
    assert rows(config, "SELECT m.name, so.kind FROM signoffs so JOIN members m ON m.id = so.member_id") == [("Eva", "unexcused")]
    standings = await ok(commands, ANNA, "/stand 1")
    (eva,) = [line for line in standings.splitlines() if "Eva" in line]
    assert eva.split()[1:3] == ["Eva", "0"], eva  # no bye value (46): an unexcused absence earns 0
    await refused(commands, DIRECTOR, "/nietverschenen Eva")  # already marked: there is nothing more to undo
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer toch")
    (place,) = rows(config, "SELECT 'bye' FROM byes b JOIN members m ON m.id = b.member_id WHERE m.name = 'Eva'"
                    " UNION ALL SELECT 'game' FROM games g JOIN rounds r ON r.id = g.round_id JOIN members m"
                    " ON m.id IN (g.white_id, g.black_id) WHERE r.number = 2 AND m.name = 'Eva'")  # fmt: skip
    second = await ok(commands, DIRECTOR, "/nietverschenen Eva")  # the second no-show in a row
    assert "komende rondes" in second and flag(config, "Eva") == 1, place


def board_colours(config, number: int) -> list[tuple[str, str]]:
    """(white, black) of each board of round ``number``."""
    return rows(config, "SELECT w.name, b.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN members w"
                " ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE r.number = ? ORDER BY g.board", number)  # fmt: skip


async def test_the_standby_gets_the_colour_the_pairing_rule_gives(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800"))
    await pair_round_one(commands, clock)  # Bert (white) - Anna; Carla has the bye
    await ok(commands, DIRECTOR, "/invaller Anna")
    assert board_colours(config, 1) == [("Carla", "Bert")]  # equal balance: the lower-ranked Carla gets white


async def test_the_standby_asks_first_before_a_repeat_within_the_cycle(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800"))
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Anna 0-1")
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer")  # Carla plays whoever of Anna and Bert has no bye
    before = board_colours(config, 2)
    reply = await commands.handle(DIRECTOR, "/invaller Carla")  # the standby met Carla's opponent in round 1
    assert not reply.ok and "ronde 1" in reply.text and "toch" in reply.text
    assert [b.command for b in reply.buttons] == ["/invaller Carla toch"]
    assert board_colours(config, 2) == before
    await ok(commands, DIRECTOR, "/invaller Carla toch")
    assert "Carla" not in {name for game in board_colours(config, 2) for name in game}


async def test_a_changed_pairing_gets_colours_by_the_rule_and_asks_before_a_repeat(
    commands: Core, clock: ShiftedClock, config
) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)  # Bert - Anna, Daan - Carla, Eva has the bye
    await ok(commands, DIRECTOR, "/indeling koppel Carla Anna")
    assert board_colours(config, 1) == [("Daan", "Bert"), ("Carla", "Anna")]  # the lower-ranked gets white
    await ok(commands, DIRECTOR, "/indeling wissel Anna Eva")
    assert board_colours(config, 1) == [("Daan", "Bert"), ("Eva", "Carla")]
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")
    await ok(commands, DIRECTOR, "/uitslag Carla 1/2-1/2")
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer")
    before = board_colours(config, 2)
    reply = await commands.handle(DIRECTOR, "/indeling koppel Eva Carla")  # they met in round 1 (Bert has the bye)
    assert not reply.ok and "ronde 1" in reply.text, reply.text
    assert [b.command for b in reply.buttons] == ["/indeling koppel Eva Carla toch"]
    assert board_colours(config, 2) == before
    await ok(commands, DIRECTOR, "/indeling koppel Eva Carla toch")
    assert {frozenset(game) for game in board_colours(config, 2)} >= {frozenset(("Eva", "Carla"))}


async def test_a_playing_directors_own_forfeit_result_is_entered(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950"))
    await director_member(commands)
    await ok(commands, DIRECTOR, "/speler Leider 1800")
    await pair_round_one(commands, clock)  # Anna - Bert, the director has the bye or a game
    game = rows(config, "SELECT g.board FROM games g JOIN members m ON m.id IN (g.white_id, g.black_id) WHERE m.name = 'Leider'")
    if not game:  # the director has the bye: give it to Bert, so the director plays Anna
        await ok(commands, DIRECTOR, "/indeling vrij Bert")
    text = await ok(commands, DIRECTOR, "/uitslag 0-0F")
    assert "0-0F" in text
    assert rows(config, "SELECT result FROM games g JOIN members m ON m.id IN (g.white_id, g.black_id) WHERE m.name = 'Leider'") == [("0-0F",)]


async def test_taking_a_pairing_back_after_the_standby_played_forgets_the_absence(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800"))
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/invaller Bert")
    assert rows(config, "SELECT kind FROM signoffs") == [("unexcused",)]
    await ok(commands, DIRECTOR, "/publiceer ongedaan")
    assert rows(config, "SELECT kind FROM signoffs") == []
    await ok(commands, DIRECTOR, "/publiceer")
    assert "Bert" in {name for game in board_colours(config, 1) for name in game}


async def test_a_player_who_comes_back_leaves_the_standings_before_as_they_were(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)  # Bert - Anna, Daan - Carla, Eva has the bye
    await ok(commands, DIRECTOR, "/uitslag Anna 0-1")
    await ok(commands, DIRECTOR, "/uitslag Carla 1-0")
    await ok(commands, DIRECTOR, "/speler Daan terugtrekken")  # from round 2
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer")
    for name in ("Anna", "Bert", "Carla", "Eva"):
        await ok(commands, DIRECTOR, f"/uitslag {name} 1-0")
    published = await ok(commands, ANNA, "/stand 2")
    assert "Daan" not in published
    crosstable = await ok(commands, ANNA, "/kruistabel")
    assert "Daan" in crosstable  # withdrawn, but his round-1 game is there
    trf = (await commands.handle(DIRECTOR, "/exporteer trf")).attachment[1].decode()
    daan = next(line for line in trf.splitlines() if "Daan" in line)
    assert daan[85:89] == "   5"
    await ok(commands, DIRECTOR, "/speler Daan terug")  # from round 3
    assert await ok(commands, ANNA, "/stand 2") == published
    assert rows(config, "SELECT withdrawn_from, returned_from FROM season_players sp JOIN members m"
                " ON m.id = sp.member_id WHERE m.name = 'Daan'") == [(2, 3)]  # fmt: skip
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer")
    assert "Daan" in await ok(commands, ANNA, "/indeling")
    assert "Daan" in await ok(commands, ANNA, "/stand")
    await refused(commands, DIRECTOR, "/speler Daan terugtrekken")  # a second withdrawal would rewrite the first


async def test_a_director_says_who_won_with_gewonnen_and_verloren(commands: Core, clock: ShiftedClock, config) -> None:
    """``/uitslag Naam gewonnen|verloren|remise`` works for the director (it was refused with the usage):
    the named player's side, entered as white's score; the reply names the winner."""
    await make_season(commands)
    await pair_round_one(commands, clock)  # board 2: Daan (white) - Carla
    assert "0-1: Carla (zwart) wint van Daan" in await ok(commands, DIRECTOR, "/uitslag Carla gewonnen")
    assert rows(config, "SELECT result FROM games WHERE board = 2") == [("0-1",)]
    assert "1-0: Daan (wit) wint van Carla" in await ok(commands, DIRECTOR, "/uitslag Carla verloren")
    assert "1-0: Daan (wit) wint van Carla" in await ok(commands, DIRECTOR, "/uitslag gewonnen Daan 1")
    assert "½-½" in await ok(commands, DIRECTOR, "/uitslag Daan remise")
    await ok(commands, DIRECTOR, "/taal en")
    assert "0-1: Carla (black) beats Daan" in await ok(commands, DIRECTOR, "/result Daan lost")
    assert rows(config, "SELECT result FROM games WHERE board = 2") == [("0-1",)]


def notices_to(config, *names: str) -> list[str]:
    return [body for (body,) in rows(config, "SELECT body FROM announcements WHERE recipient IN (%s) ORDER BY id"
                                     % ",".join("?" * len(names)), *(actor(n).user_id for n in names))]  # fmt: skip


async def test_a_director_contradicting_a_players_report_needs_toch_and_both_are_told(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)  # board 1: Bert (white) - Anna
    await ok(commands, ANNA, "/uitslag gewonnen")  # reported 0-1, Bert has not confirmed yet
    text = await refused(commands, DIRECTOR, "/uitslag Anna verloren")
    assert "Anna meldde 0-1: Anna (zwart) wint van Bert" in text and "niets veranderd" in text  # Bert said nothing
    assert "/uitslag Anna 1-0 1 toch" in text
    assert rows(config, "SELECT result, reported_result FROM games WHERE board = 1") == [(None, "0-1")]
    assert notices_to(config, "Anna", "Bert") == []
    text = await ok(commands, DIRECTOR, "/uitslag Anna verloren toch")
    assert "1-0: Bert (wit) wint van Anna" in text and "beide spelers hebben er bericht van gekregen" in text
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("1-0",)]
    told = notices_to(config, "Anna", "Bert")
    assert len(told) == 2 and all("1-0: Bert (wit) wint van Anna" in b and "Eerder: Anna meldde 0-1: Anna (zwart) wint van Bert" in b for b in told)
    # the director's own result corrected again: nothing the players said stands against it
    assert "Dit spreekt" not in await ok(commands, DIRECTOR, "/uitslag Anna remise")


async def test_a_director_contradicting_a_result_both_players_agreed_on_needs_toch(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, ANNA, "/uitslag 0-1")
    await ok(commands, BERT, "/bevestig")
    assert "Dit spreekt" not in await ok(commands, DIRECTOR, "/uitslag Anna gewonnen")  # the same: no question
    await ok(commands, DIRECTOR, "/taal en")
    text = await refused(commands, DIRECTOR, "/result Anna 1-0")
    assert "the players said 0-1: Anna (black) beats Bert" in text and "/result Anna 1-0 1 anyway" in text
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("0-1",)]
    said = await ok(commands, DIRECTOR, "/result Anna 1-0 anyway")
    assert "contradicts what the players said (0-1: Anna (black) beats Bert); both players were told" in said
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("1-0",)]


async def test_a_director_settles_a_dispute_without_toch(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, ANNA, "/uitslag gewonnen")
    await ok(commands, BERT, "/uitslag gewonnen")  # they disagree: the director decides
    assert "1-0: Bert (wit) wint van Anna" in await ok(commands, DIRECTOR, "/uitslag Bert gewonnen")
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("1-0",)]
