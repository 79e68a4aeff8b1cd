"""``/koppel lichess`` on Telegram (issue 43 §1), through the real python-telegram-bot against the local
fake: a member's login link goes to their private chat only (the group hears where it went), also when
they typed it as an answer to another member's message (which, for the director's ``/koppel Naam``, names
the account to link)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.config import Config
from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    GROUP,
    FakeTelegram,
    Harness,
    fake,
    message,
    tg,
    user,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER, ANNA, BERT = user(1, "Leider"), user(11, "Anna"), user(12, "Bert")
SITE = "https://schaakclub.example"


@pytest.fixture
def config(config: Config) -> Config:
    """A bot with its lichess token (online play on; no request is made here) and a website address."""
    return dataclasses.replace(config, lichess_url="http://127.0.0.1:9", lichess_token="lip_test", web_base_url=SITE)


async def test_a_members_login_link_goes_to_their_private_chat(tg: Harness, fake: FakeTelegram) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    for who in (ANNA, BERT):
        await tg.say(LEIDER, f"/speler {who['first_name']} 1800")
        await tg.say(LEIDER, f"/koppel {who['first_name']} <@{who['id']}>")
    bert_message = message(BERT, "goedemorgen", message_id=50)["message"]
    calls = await tg.say(ANNA, "/koppel lichess", reply_to_message=bert_message)
    (private,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(ANNA["id"])]
    assert re.search(rf"{re.escape(SITE)}/c/\d+/lichess/[A-Za-z0-9_-]{{20,}}", private.text), private.text
    assert private.text.startswith("Anna, open deze link om je lichess-account te koppelen")
    group = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(GROUP)]
    assert group and all("/lichess/" not in c.text for c in group)
