"""The private chat with the bot, opened by a deep link (issue 46 §4): where the bot may not write to a
member yet, the group's answer has a button ``https://t.me/<bot>?start=<payload>`` (the fake checks it as
Telegram does), and Start in the chat it opens brings what was asked for, to the asker only, once."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.adapters.telegram.adapter import TelegramAdapter
from bot.config import Config
from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Command
from bot.core.commands.replies import Reply
from bot.core.storage.store import Store
from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    BOT_USERNAME,
    GROUP,
    GROUP_CHAT,
    GROUP_TITLE,
    Call,
    FakeTelegram,
    Harness,
    buttons,
    fake,
    message,
    private_chat,
    tg,
    user,
)
from tests.bot.adapters.telegram_rules import START_PAYLOAD
from tests.bot.adapters.test_telegram_adapter import ANNA, BERT, LEIDER, setup_club

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
CLOSED = "Forbidden: bot can't initiate conversation with a user"


def start_payload(call: Call) -> str:
    """The payload of the deep link on the one button of a message, checked to open the bot's private chat."""
    (button,) = buttons(call)
    assert "callback_data" not in button
    url = urlsplit(button["url"])
    assert (url.scheme, url.netloc, url.path) == ("https", "t.me", "/" + BOT_USERNAME)
    (payload,) = parse_qs(url.query)["start"]
    return payload


def group_note(calls: list[Call]) -> Call:
    (note,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(GROUP)]
    return note


async def test_a_private_file_the_bot_may_not_send_yet_comes_through_the_deep_link(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    fake.fail_chat(LEIDER["id"], 403, description=CLOSED)
    calls = await tg.say(LEIDER, "/backup")
    assert [c for c in calls if c.method == "sendDocument" and c.ok] == []
    payload = start_payload(group_note(calls))
    # someone else who presses the button gets nothing of the director's
    calls = await tg.say(ANNA, f"/start {payload}", chat=private_chat(ANNA))
    assert [c for c in calls if c.method == "sendDocument"] == []
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.chat_id == str(ANNA["id"]) and "werkt niet meer" in answer.text
    # the director presses Start in the chat the link opened: the backup comes there
    calls = await tg.say(LEIDER, f"/start {payload}", chat=private_chat(LEIDER))
    (document,) = [c for c in calls if c.method == "sendDocument"]
    assert document.chat_id == str(LEIDER["id"])
    assert next(iter(document.files.values()))[1].startswith(b"SQLite format 3")
    # once: the same link again brings no second copy
    calls = await tg.say(LEIDER, f"/start {payload}", chat=private_chat(LEIDER))
    assert [c for c in calls if c.method == "sendDocument"] == []


async def test_a_link_code_comes_through_the_deep_link_and_never_to_the_group(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    fake.fail_chat(LEIDER["id"], 403, description=CLOSED)
    calls = await tg.say(LEIDER, "/koppel Bert")
    note = group_note(calls)
    assert "Koppelcode" not in note.text
    calls = await tg.say(LEIDER, f"/start {start_payload(note)}", chat=private_chat(LEIDER))
    (code,) = [c for c in calls if c.method == "sendMessage"]
    assert code.chat_id == str(LEIDER["id"]) and "Koppelcode voor Bert" in code.text


async def test_start_in_the_private_chat_says_what_it_is_for(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    calls = await tg.say(ANNA, "/start", chat=private_chat(ANNA))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert "/aanmelden" in answer.text  # not a member yet: join in the club's group first
    await tg.say(LEIDER, f"/koppel Anna <@{ANNA['id']}>")
    calls = await tg.say(ANNA, "/start open", chat=private_chat(ANNA))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.chat_id == str(ANNA["id"]) and "Welkom" in answer.text and GROUP_TITLE in answer.text


async def test_a_link_code_comes_with_a_link_that_links_the_member_in_one_tap(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    calls = await tg.say(LEIDER, "/koppel Bert")
    (code,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(LEIDER["id"])]
    found = re.search(r"https://t\.me/" + BOT_USERNAME + r"\?start=(\S+)", code.text)
    assert found is not None, code.text
    payload = found.group(1)
    typed = re.search(r"Koppelcode voor Bert: ([A-Z0-9]{4})-([A-Z0-9]{4})", code.text)
    assert typed is not None and START_PAYLOAD.fullmatch(payload) and payload.endswith("-" + "".join(typed.groups()))
    # Bert taps it: his private chat with the bot opens, and Start links his account to the member Bert
    calls = await tg.say(BERT, f"/start {payload}", chat=private_chat(BERT))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.chat_id == str(BERT["id"]) and "Gekoppeld: je bent nu Bert" in answer.text, answer.text
    calls = await tg.say(BERT, "/start", chat=private_chat(BERT))
    assert GROUP_TITLE in [c for c in calls if c.method == "sendMessage"][0].text  # he is the club's Bert now
    # once: the code is used up, and someone else tapping the link is refused without a change
    calls = await tg.say(ANNA, f"/start {payload}", chat=private_chat(ANNA))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert "koppelcode ken ik niet" in answer.text.lower(), answer.text


async def test_turning_notices_on_in_the_group_offers_the_private_chat_they_need(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    await tg.say(LEIDER, f"/koppel Anna <@{ANNA['id']}>")
    calls = await tg.say(ANNA, "/mijn meldingen aan")
    note = group_note(calls)
    assert "privébericht" in note.text
    payload = start_payload(note)
    calls = await tg.say(ANNA, f"/start {payload}", chat=private_chat(ANNA))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.chat_id == str(ANNA["id"]) and "privéberichten" in answer.text and GROUP_TITLE in answer.text
    # turning them off, or on in the private chat itself, needs no way there
    assert buttons(group_note(await tg.say(ANNA, "/mijn meldingen uit"))) == []
    calls = await tg.say(ANNA, "/mijn meldingen aan", chat=private_chat(ANNA))
    assert all(buttons(c) == [] for c in calls if c.method == "sendMessage")


async def test_a_command_sent_with_a_file_is_not_kept_and_the_member_is_asked_to_send_it_again(
    fake: FakeTelegram, store: Store, config: Config
) -> None:
    """A command with a file of its own is not kept for the private chat (the file would be gone): the
    button only opens the chat, and the answer says to send it again."""
    harness = Harness(fake, store, config)

    async def echo(core: Core, ctx: Context) -> Reply:  # a system's command: a private file from a file
        return Reply(lines=("terug",), private=True, attachment=("terug.txt", ctx.attachment or b""))

    harness.commands.registry.add(Command("terugsturen", echo))
    assert harness.adapter is not None  # built before the command was there: built again, knowing it
    harness.adapter = TelegramAdapter(harness.commands, harness.adapter.config, harness.alarm.after_command,
                                      base_url=fake.base_url, base_file_url=fake.base_file_url, poll_timeout=10)  # fmt: skip
    await harness.start()
    try:
        await setup_club(harness, fake)
        fake.fail_chat(LEIDER["id"], 403, description=CLOSED)
        fake.files["documents/file-9"] = b"inhoud"
        update = message(LEIDER, "", message_id=60)
        del update["message"]["text"]
        update["message"].update(caption="/terugsturen", document={"file_id": "file-9", "file_unique_id": "u9",
                                                                     "file_name": "x.txt", "file_size": 6})  # fmt: skip
        note = group_note(await harness.send(update))
        assert start_payload(note) == "open" and "opnieuw" in note.text, note.text
        calls = await harness.say(LEIDER, "/start open", chat=private_chat(LEIDER))
        assert [c for c in calls if c.method == "sendDocument"] == []
        assert "Welkom" in [c for c in calls if c.method == "sendMessage"][0].text
    finally:
        await harness.stop()


async def test_an_anonymous_administrator_is_asked_to_ask_under_their_own_name(tg: Harness, fake: FakeTelegram) -> None:
    """Someone writing as the group has no private chat: no button, and never the file in the group."""
    await setup_club(tg, fake)
    anonymous = user(1087968824, "Group")
    anonymous["is_bot"] = True
    calls = await tg.say(anonymous, "/backup", sender_chat=GROUP_CHAT)
    assert [c for c in calls if c.method == "sendDocument"] == []
    note = group_note(calls)
    assert "eigen naam" in note.text and buttons(note) == []
