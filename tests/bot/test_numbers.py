"""Only ASCII digits are numbers (issue 30): ``str.isdigit`` and ``\\d`` also take ``²``, ``٣`` and
``𝟑``, which made ``/afmelden ~²`` an internal error and ``/afmelden ٣`` a sign-off for round 3. Every
command with such words, and with 20-digit numbers, is answered without an internal error, and none of
them is read as a number."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.commands.context import parse_int
from tests.bot.conftest import DIRECTOR, actor, dump
from tests.bot.test_fuzz import INTERNAL, NAMES, _world

NOT_ASCII = ["²", "³", "٣", "𝟑", "١٢", "٢٠٠٠", "߁", "෧"]
ENDINGS = ["~²", "~³", "~" + "1" * 20, "~٣", "1" * 20]
WORDS = st.sampled_from(NOT_ASCII + ENDINGS + ["rondes=٣", "start=٢٠٢٧-٠١-٠٧", "deadline=١٧:٠٠", "#٣", "+١w",
                                               "minuten=٣٠", "handicap=٣", "Anna", "1-0", "rapid"])  # fmt: skip


def test_parse_int_takes_ascii_digits_only() -> None:
    assert parse_int("3") == 3 and parse_int("+3") == 3 and parse_int("-3") == -3
    for text in NOT_ASCII + ["1" * 10, "", "3.0", "³3"]:
        assert parse_int(text) is None, text


def test_every_command_ending_in_a_digit_that_is_not_ascii_is_answered() -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            store, commands = await _world(Path(tmp) / "club.sqlite3")
            try:
                for name in NAMES:
                    for ending in ENDINGS:
                        for who in (DIRECTOR, actor("Anna")):
                            reply = await commands.handle(who, f"/{name} {ending}")
                            assert reply.text not in INTERNAL, f"/{name} {ending}"
                before = dump(Path(tmp) / "club.sqlite3")
                for text in ("/afmelden ٣", "/afmelden ²", "/aanmelden ٣", "/speler Anna ٢٠٠٠", "/uitslag Anna 1-0 ١"):
                    for who in (DIRECTOR, actor("Anna")):
                        assert not (await commands.handle(who, text)).ok, text
                assert dump(Path(tmp) / "club.sqlite3") == before
            finally:
                await store.close()

    asyncio.run(run())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), words=st.lists(WORDS, min_size=1, max_size=4))
def test_commands_with_digits_that_are_not_ascii_never_fail_inside(name: str, words: list[str]) -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            store, commands = await _world(Path(tmp) / "club.sqlite3")
            try:
                for who in (DIRECTOR, actor("Anna")):
                    reply = await commands.handle(who, f"/{name} {' '.join(words)}")
                    assert reply.text not in INTERNAL, f"/{name} {' '.join(words)}"
            finally:
                await store.close()

    asyncio.run(run())
