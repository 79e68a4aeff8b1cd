"""Trust (docs/reliability.md): a display name never makes a chat account a member, a code the director
hands out does, once; a stranger's refused command leaves no trace."""

from __future__ import annotations

import re
from datetime import timedelta

from bot.config import Config
from bot.core.clock import ShiftedClock
from bot.core.context import Actor
from bot.core.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

ANNA = actor("Anna")
IMPOSTOR = Actor("console", "club-1", "Test club", "user:someone-else", "Anna")  # another account, named Anna
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
