"""Issue 44 §3, the words: one English word for one thing (``/signoff`` a round, ``/player X withdraw``
the season), hints that show what to type, a draw written ½-½ everywhere, points that say which points,
on a real store through the real Core."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, rows
from tests.bot.keizer.test_commands import ANNA, BERT, CARLA, make_season, ok, pair_round_one, refused
from tests.bot.keizer.test_results import director_member


async def test_signing_off_and_leaving_the_season_are_two_english_words(commands: Core, config) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/language en")
    help_text = await ok(commands, ANNA, "/help")
    assert "/afmelden (/signoff)" in help_text and "/withdraw" not in help_text, help_text
    assert "/signoff [rapid] [round] [team]" in await refused(commands, ANNA, "/signoff x y z")
    assert "signed off" in await ok(commands, ANNA, "/signoff")
    assert rows(config, "SELECT COUNT(*) FROM signoffs") == [(1,)]
    assert "signed off" in await ok(commands, BERT, "/withdraw")  # the old word still signs off for a round
    left = await ok(commands, DIRECTOR, "/player Anna withdraw")  # the season: another word's meaning
    assert "has withdrawn" in left, left


async def test_hints_show_what_to_type(commands: Core, config) -> None:
    """A hint is a command to type as it stands, never ``a|b`` alternatives (the usage line keeps them)."""
    await make_season(commands)
    now = await ok(commands, ANNA, "/mijn meldingen")
    assert now == ("Privébericht met je tegenstander bij een nieuwe indeling: uit (aanzetten: /mijn meldingen indeling aan)."
                   " Herinneringen (afmelden, ontbrekende uitslag): aan (uitzetten: /mijn meldingen herinneringen uit).")  # fmt: skip
    turned_on = await ok(commands, ANNA, "/mijn meldingen aan")
    assert "|" not in turned_on and "/mijn meldingen indeling uit" in turned_on, turned_on
    assert "uitzetten: /mijn meldingen indeling uit" in await ok(commands, ANNA, "/mijn meldingen")
    await ok(commands, DIRECTOR, "/language en")
    assert "(on: /me notices reminders on)" in await ok(commands, BERT, "/me notices reminders off") + await ok(commands, BERT, "/me notices")


async def test_a_disputed_draw_is_written_like_every_other_draw(commands: Core, clock, config) -> None:
    """Round 1 (tests/bot/keizer/test_results.py): board 1 Bert (white) - Anna. Bert reports a draw, Anna a
    win: the reply, the directors' notice, /uitslagen and the pairing all write the draw ½-½."""
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, BERT, "/uitslag remise")
    assert "½-½?" in await ok(commands, ANNA, "/indeling")  # the pairing table: reported, not confirmed
    said = await ok(commands, ANNA, "/uitslag gewonnen")
    assert said.startswith("Bert meldde ½-½, jij 0-1."), said
    (notice,) = rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)
    assert "Bert ½-½, Anna 0-1" in notice[0] and "1/2" not in notice[0], notice
    open_list = await ok(commands, DIRECTOR, "/uitslagen")
    assert "Bert meldt ½-½ en Anna meldt 0-1" in open_list and "1/2" not in open_list, open_list
    await ok(commands, DIRECTOR, "/uitslag Anna ½-½")  # the director settles it as the list says
    assert rows(config, "SELECT result FROM games WHERE board = 1") == [("1/2-1/2",)]
    refused_text = await refused(commands, ANNA, "/uitslag verloren")
    assert "(½-½)" in refused_text, refused_text
    assert "½-½" in await ok(commands, ANNA, "/indeling") and "1/2" not in await ok(commands, ANNA, "/indeling")


async def test_points_say_which_points(commands: Core, clock, config) -> None:
    """The card's total counts games (1 a win, ½ a draw) beside a column of Keizer points: it says so; a
    no-show's 0 is Keizer points."""
    await make_season(commands)
    await pair_round_one(commands, clock)  # board 1 Bert (white) - Anna, board 2 Daan (white) - Carla
    await ok(commands, DIRECTOR, "/uitslag Anna 0-1")
    await ok(commands, DIRECTOR, "/nietverschenen Carla")
    card = await ok(commands, ANNA, "/kaart")
    assert "1 partij gespeeld, 1 wedstrijdpunt (1 voor een winst, ½ voor remise)" in card, card
    mine = await ok(commands, CARLA, "/mijn")
    assert "Niet verschenen in ronde 1 (zonder afmelding): 0 Keizerpunten" in mine, mine
    await ok(commands, DIRECTOR, "/language en")
    assert "1 game played, 1 point over the board (1 for a win, ½ for a draw)" in await ok(commands, ANNA, "/card")
