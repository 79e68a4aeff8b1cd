"""Issue 44 §3: a member whom the no-show rule signs off (seed 004 rule j) is told so privately at once,
in the club's language, with the command that brings them back; not again for the same sign-off, and a
member who turned reminders off is not written to."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from tests.bot.conftest import DIRECTOR, ok, rows
from tests.bot.keizer.test_club_season import ANNA, BERT, main_season
from tests.bot.keizer.test_mijn_absences import play_round_without_anna
from tests.bot.keizer.test_reminders import Outbox

NOTICE = ("Je bent 2 keer op rij niet verschenen zonder je af te melden, en daarom afgemeld voor de komende rondes"
          " van S. Speel je weer mee? Meld je aan met /aanmelden.")  # fmt: skip


def notices(config, who) -> list[str]:
    return [body for (body,) in rows(config, "SELECT body FROM announcements WHERE recipient = ? AND kind LIKE 'auto-signoff%'",
                                     who.user_id)]  # fmt: skip


async def test_the_member_signed_off_by_the_no_show_rule_is_told_privately(commands: Core, clock, config) -> None:
    await main_season(commands)
    await play_round_without_anna(commands, clock, config, 1)
    assert notices(config, ANNA) == []  # one no-show: not signed off yet
    await play_round_without_anna(commands, clock, config, 2)
    assert notices(config, ANNA) == [NOTICE]
    outbox = Outbox()
    await Alarm(commands, outbox).run_due()  # what the adapter does after the command: posted at once
    assert (ANNA.user_id, NOTICE) in outbox.sent
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0 1")  # another result: the rule counts again, no second notice
    assert notices(config, ANNA) == [NOTICE]
    assert notices(config, BERT) == []


async def test_the_notice_is_in_the_clubs_language(commands: Core, clock, config) -> None:
    await main_season(commands)
    await ok(commands, DIRECTOR, "/taal en")
    await play_round_without_anna(commands, clock, config, 1)
    await play_round_without_anna(commands, clock, config, 2)
    assert notices(config, ANNA) == [
        "You did not show up 2 times in a row without signing off, so you are signed off for the coming rounds"
        " of S. Want to play again? Sign on with /join."
    ]


async def test_no_notice_for_a_member_who_turned_reminders_off(commands: Core, clock, config) -> None:
    await main_season(commands)
    await ok(commands, ANNA, "/mijn meldingen herinneringen uit")
    await play_round_without_anna(commands, clock, config, 1)
    await play_round_without_anna(commands, clock, config, 2)
    assert notices(config, ANNA) == []
    assert rows(config, "SELECT sp.auto_signed_off FROM season_players sp JOIN members m ON m.id = sp.member_id"
                        " WHERE m.name = 'Anna'") == [(1,)]  # fmt: skip
