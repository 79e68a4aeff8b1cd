"""Trust (docs/reliability.md): a display name never makes a chat account a member, a code the director
hands out does, once; a stranger's refused command leaves no trace."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta, timezone

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

ANNA = actor("Anna")
IMPOSTOR = Actor("console", "club-1", "Test club", "user:someone-else", "Anna")  # another account, named Anna
PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the first playing day
NEW_PHONE = Actor("console", "club-1", "Test club", "user:anna-new-phone", "Anna B.")


async def _season(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    await ok(commands, DIRECTOR, "/speler Anna 2100")
    await ok(commands, DIRECTOR, "/speler Bert 1900")


def _code(text: str) -> str:
    match = re.search(r"\b([A-Z2-9]{4}-[A-Z2-9]{4})\b", text)
    assert match, text
    return match.group(1)


async def test_a_display_name_does_not_make_an_account_a_member(commands: Core, config: Config) -> None:
    await _season(commands)
    text = await refused(commands, IMPOSTOR, "/aanmelden", config)
    assert "wedstrijdleider" in text and "/koppel Anna" in text
    # nor by the other doors a newcomer has: registering for an NK
    await ok(commands, DIRECTOR, "/nk nieuw Kampioenschap")
    await refused(commands, IMPOSTOR, "/nk inschrijven 1500", config)
    await refused(commands, IMPOSTOR, "/afmelden", config)  # not a member: Anna's sign-off is not theirs to give
    assert rows(config, "SELECT COUNT(*) FROM identities") == [(0,)]


async def test_once_anna_is_linked_an_impostor_still_gets_nowhere(commands: Core, config: Config) -> None:
    await _season(commands)
    await link(commands, ANNA)
    await ok(commands, ANNA, "/aanmelden")
    await refused(commands, IMPOSTOR, "/aanmelden", config)
    await refused(commands, IMPOSTOR, "/afmelden", config)


async def test_a_one_time_code_links_the_account_that_redeems_it(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await _season(commands)
    reply = await commands.handle(DIRECTOR, "/koppel Anna")
    assert reply.ok and reply.private and reply.secret, reply.text
    code = _code(reply.text)
    assert rows(config, "SELECT COUNT(*) FROM link_codes WHERE code_hash LIKE ?", f"%{code}%") == [(0,)]  # only a hash
    await refused(commands, IMPOSTOR, "/aanmelden ABCD-EFGH", config)  # a guess
    text = await ok(commands, ANNA, f"/aanmelden {code.lower().replace('-', '')}")  # as typed on a phone
    assert "Anna" in text and "ronde 1" in text
    assert rows(config, "SELECT m.name FROM identities i JOIN members m ON m.id = i.member_id WHERE i.user_id = ?",
                ANNA.user_id) == [("Anna",)]  # fmt: skip
    await refused(commands, IMPOSTOR, f"/aanmelden {code}", config)  # used up
    # Anna on a new phone: a new code moves her; the old account stops acting as her
    code = _code(await ok(commands, DIRECTOR, "/koppel Anna"))
    await ok(commands, NEW_PHONE, f"/aanmelden {code}")
    assert "/aanmelden" in await refused(commands, ANNA, "/afmelden", config)
    await ok(commands, NEW_PHONE, "/afmelden")


async def test_a_code_expires_after_seven_days(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await _season(commands)
    code = _code(await ok(commands, DIRECTOR, "/koppel Bert"))
    clock.advance(timedelta(days=7, minutes=1))
    assert "verlopen" in await refused(commands, actor("Bert"), f"/aanmelden {code}", config)


async def test_a_member_cannot_redeem_a_code_for_someone_else(commands: Core, config: Config) -> None:
    await _season(commands)
    await link(commands, ANNA)
    code = _code(await ok(commands, DIRECTOR, "/koppel Bert"))
    await refused(commands, ANNA, f"/aanmelden {code}", config)  # Anna is Anna already
    await refused(commands, DIRECTOR, f"/koppel Bert <@{ANNA.user_id}>", config)  # that account is Anna
    await refused(commands, DIRECTOR, "/koppel Onbekend", config)
    await refused(commands, DIRECTOR, "/koppel", config)
    await refused(commands, ANNA, "/koppel Bert", config)  # the director's


async def test_a_new_name_still_joins_by_itself(commands: Core, config: Config) -> None:
    await _season(commands)
    assert "Welkom, Zoë" in await ok(commands, actor("Zoë"), "/aanmelden")


async def test_a_strangers_refused_command_in_an_unknown_chat_leaves_no_trace(commands: Core, config: Config) -> None:
    stranger = actor("Vreemde", club="elsewhere")
    for text in ("/speler Anna 2000", "/onzin", "/afmelden", "/stand", "/help", "/uitslag 1-0", "/kanaal 5"):
        await commands.handle(stranger, text)
    assert rows(config, "SELECT COUNT(*) FROM clubs") == [(0,)]
    await ok(commands, stranger, "/aanmelden")  # accepted: now the chat is a club
    assert rows(config, "SELECT external_id FROM clubs") == [("elsewhere",)]


# ------------------------------------------------------------------------------------------- pairing the future
async def _paired_round_one(commands: Core, clock: ShiftedClock) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for name, rating in (("Anna", 2100), ("Bert", 1900), ("Carla", 1800), ("Daan", 1700)):
        await ok(commands, DIRECTOR, f"/speler {name} {rating}")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")


async def test_a_second_publiceer_does_not_pair_next_weeks_round(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for name, rating in (("Anna", 2100), ("Bert", 1900), ("Carla", 1800), ("Daan", 1700)):
        await ok(commands, DIRECTOR, f"/speler {name} {rating}")
    clock.set(PAIRED - timedelta(days=1))
    await ok(commands, DIRECTOR, "/publiceer")  # round 1, a day early: the director's choice
    # the day before round 1 is played, round 2 cannot be paired at all, not even with toch
    assert "pas op 2026-12-03" in await refused(commands, DIRECTOR, "/publiceer", config)
    assert "pas op 2026-12-03" in await refused(commands, DIRECTOR, "/publiceer toch", config)
    # on round 1's evening its results are missing: not tonight, not even with toch (it paired round 2
    # a week early, closing its sign-offs: found in a console month)
    clock.set(PAIRED)
    for text in ("/publiceer", "/publiceer toch"):
        assert "ronde 1 wordt vandaag gespeeld en er ontbreken nog 2 uitslagen" in await refused(commands, DIRECTOR, text, config)
    # the next day: the director is told which results are missing, and asked
    clock.set(PAIRED + timedelta(days=1))
    text = await refused(commands, DIRECTOR, "/publiceer", config)
    assert "ontbreken nog 2 uitslagen" in text and "Anna" in text and "/publiceer toch" in text
    await ok(commands, DIRECTOR, "/publiceer toch")  # knowingly
    assert rows(config, "SELECT number FROM rounds WHERE status = 'paired' ORDER BY number") == [(1,), (2,)]


async def test_with_all_results_in_the_next_round_is_paired_without_asking(commands: Core, clock: ShiftedClock) -> None:
    await _paired_round_one(commands, clock)
    for name in ("Anna", "Carla"):
        await ok(commands, DIRECTOR, f"/uitslag {name} 1-0 1")
    clock.set(PAIRED + timedelta(days=1))
    await ok(commands, DIRECTOR, "/publiceer")


async def test_on_the_evening_itself_with_all_results_in_the_next_round_may_be_paired(commands: Core, clock: ShiftedClock) -> None:
    """Some clubs pair next week's round at the end of the evening, once every result is in."""
    await _paired_round_one(commands, clock)
    for name in ("Anna", "Carla"):
        await ok(commands, DIRECTOR, f"/uitslag {name} 1-0 1")
    clock.set(PAIRED + timedelta(hours=4))
    await ok(commands, DIRECTOR, "/publiceer")


async def test_publiceer_ongedaan_takes_back_a_pairing_without_results(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await _paired_round_one(commands, clock)
    before = rows(config, "SELECT board, white_id, black_id FROM games ORDER BY board")
    pending = rows(config, "SELECT COUNT(*) FROM announcements WHERE kind = 'pairing' AND sent_at IS NULL")
    assert pending == [(1,)]
    text = await ok(commands, DIRECTOR, "/publiceer ongedaan")
    assert "voordat ze was aangekondigd" in text
    assert rows(config, "SELECT COUNT(*) FROM games") == [(0,)]
    assert rows(config, "SELECT status FROM rounds WHERE number = 1") == [("closed",)]  # past its deadline
    assert rows(config, "SELECT COUNT(*) FROM announcements") == [(0,)]  # never posted: nothing to correct
    await ok(commands, DIRECTOR, "/publiceer")
    assert rows(config, "SELECT board, white_id, black_id FROM games ORDER BY board") == before
    # once posted, a withdrawal is announced as a correction, and the new pairing is announced anew
    conn = sqlite3.connect(config.db_path)
    conn.execute("UPDATE announcements SET sent_at = '2026-12-03T17:01:00+00:00', message_ref = 'm1'")
    conn.commit()
    conn.close()
    assert "correctie wordt aangekondigd" in await ok(commands, DIRECTOR, "/publiceer ongedaan")
    kinds = rows(config, "SELECT kind, sent_at IS NULL FROM announcements ORDER BY id")
    assert kinds[0][0].startswith("pairing-withdrawn-") and kinds[1][0].startswith("withdrawal-") and kinds[1][1]
    await ok(commands, DIRECTOR, "/publiceer")
    assert rows(config, "SELECT COUNT(*) FROM announcements WHERE kind = 'pairing' AND sent_at IS NULL") == [(1,)]


async def test_a_pairing_taken_back_after_its_publication_time_is_not_paired_again_at_once(
    commands: Core, config: Config, clock: ShiftedClock
) -> None:
    """Past the publication time the scheduler paired the round again at once, although the reply said "at
    its publication time" (found in a console month): it waits for /publiceer or a change, and says so."""
    from bot.core.running.scheduler import Alarm

    async def send(club, announcement) -> str:  # type: ignore[no-untyped-def]
        return f"m{announcement.id}"

    await _paired_round_one(commands, clock)
    clock.set(PAIRED + timedelta(minutes=30))
    text = await ok(commands, DIRECTOR, "/publiceer ongedaan")
    assert "Het publicatietijdstip is voorbij: ronde 1 wordt opnieuw ingedeeld met /publiceer" in text
    await Alarm(commands, send).run_due()
    assert rows(config, "SELECT status FROM rounds WHERE number = 1") == [("closed",)]  # not paired behind their back
    await ok(commands, DIRECTOR, "/afmelden Daan 1")  # a change: the scheduler may pair it again
    await Alarm(commands, send).run_due()
    assert rows(config, "SELECT status FROM rounds WHERE number = 1") == [("paired",)]


async def test_publiceer_ongedaan_refuses_once_a_result_is_in(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await refused(commands, DIRECTOR, "/publiceer ongedaan", config)  # no season
    await _paired_round_one(commands, clock)
    await link(commands, ANNA)
    await ok(commands, ANNA, "/uitslag gewonnen")  # reported, not yet confirmed: a result is in
    assert "uitslagen binnen" in await refused(commands, DIRECTOR, "/publiceer ongedaan", config)
    await refused(commands, ANNA, "/publiceer ongedaan", config)  # the director's
    await refused(commands, DIRECTOR, "/publiceer ongedaan toch", config)
