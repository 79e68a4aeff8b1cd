"""The fake Telegram refuses what the real server refuses: each rule of ``telegram_rules`` on a request
that breaks it, and a real python-telegram-bot request that breaks one fails with the rule named."""

from __future__ import annotations

import struct
import zlib
from typing import Any

import aiohttp
import pytest
from telegram import Bot
from telegram.error import BadRequest

from tests.bot.adapters.fake_telegram import GROUP, TOKEN, FakeTelegram, fake  # noqa: F401 - fixture
from tests.bot.adapters.telegram_rules import Refused, check_request, html_text


def png(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))


@pytest.mark.parametrize(
    "method, params, files, rule",
    [
        ("sendMesage", {"chat_id": 1, "text": "x"}, {}, "no such method"),
        ("sendMessage", {"chat_id": 1}, {}, "required parameter text"),
        ("sendMessage", {"chat_id": 1.5, "text": "x"}, {}, "chat_id is not"),
        ("sendMessage", {"chat_id": 1, "text": "x" * 4097}, {}, "4097 characters"),
        ("sendMessage", {"chat_id": 1, "text": "<b>b</b>" + "x" * 4090, "parse_mode": "HTML"}, {}, None),
        ("sendMessage", {"chat_id": 1, "text": "   "}, {}, "0 characters"),
        ("sendMessage", {"chat_id": 1, "text": "a < b", "parse_mode": "HTML"}, {}, "unescaped '<'"),
        ("sendMessage", {"chat_id": 1, "text": "Tom & Jerry", "parse_mode": "HTML"}, {}, "unescaped '&'"),
        ("sendMessage", {"chat_id": 1, "text": "<b><i>x</b></i>", "parse_mode": "HTML"}, {}, "closes i"),
        ("sendMessage", {"chat_id": 1, "text": "<div>x</div>", "parse_mode": "HTML"}, {}, "unsupported tag"),
        ("sendMessage", {"chat_id": 1, "text": "<pre>x", "parse_mode": "HTML"}, {}, "not closed"),
        ("sendMessage", {"chat_id": 1, "text": "Tom &amp; Jerry &lt;3", "parse_mode": "HTML"}, {}, None),
        ("sendPhoto", {"chat_id": 1, "caption": "x" * 1025}, {"photo": ("p.png", png(10, 10))}, "caption is 1025"),
        ("sendPhoto", {"chat_id": 1}, {"photo": ("p.png", png(8000, 3000))}, r"width \+ height"),
        ("sendPhoto", {"chat_id": 1}, {"photo": ("p.png", png(2100, 100))}, "ratio"),
        ("sendMessage", {"chat_id": 1, "text": "x", "reply_markup": {"inline_keyboard": [[{"text": "k", "callback_data": "é" * 33}]]}}, {}, "callback_data of 66 bytes"),
        ("sendMessage", {"chat_id": 1, "text": "x", "reply_markup": {"inline_keyboard": [[{"text": "k", "callback_data": ""}]]}}, {}, "callback_data of 0 bytes"),
        ("setMyCommands", {"commands": [{"command": "Stand", "description": "d"}]}, {}, "'Stand' is not 1-32"),
        ("setMyCommands", {"commands": [{"command": "a" * 33, "description": "d"}]}, {}, "is not 1-32"),
        ("setMyCommands", {"commands": [{"command": "stand", "description": "d" * 257}]}, {}, "not 1-256"),
        ("setMyCommands", {"commands": [{"command": f"c{i}", "description": "d"} for i in range(101)]}, {}, "101 commands"),
        ("setMyCommands", {"commands": [{"command": "stand"}]}, {}, "commands is not Array of BotCommand"),
    ],
)  # fmt: skip
def test_each_rule_refuses_what_breaks_it(method: str, params: dict, files: dict, rule: str | None) -> None:
    if rule is None:
        check_request(method, params, files)
        return
    with pytest.raises(Refused, match=rule):
        check_request(method, params, files)


def test_html_text_is_what_the_member_sees() -> None:
    assert html_text("<pre>a &lt; b &amp;&amp; c</pre> <a href=\"https://x\">x</a>") == "a < b && c x"


async def test_a_request_the_server_refuses_fails_with_the_rule(fake: FakeTelegram) -> None:
    bot = Bot(TOKEN, base_url=fake.base_url)
    async with bot:
        with pytest.raises(BadRequest, match="unescaped '<'"):
            await bot.send_message(GROUP, "Bord 1: <Anna> - Bert", parse_mode="HTML")
    (refusal,) = fake.refusals.take()  # taken: seen here (any other fails the test at its end)
    assert (refusal.request, refusal.status) == ("sendMessage", 400)
    assert refusal.reason == "Bad Request: HTML: unescaped '<' at 8 (can't parse entities)"


def keyboard(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"inline_keyboard": [list(buttons)]}


SENT = {"chat_id": GROUP, "text": "Ronde 3"}
REFUSED_AS_TELEGRAM_DOES = [
    ("sendMessage", {**SENT, "reply_markup": {"inline_keyboard": [[{"text": f"{i}", "callback_data": f"/{i}"} for i in range(10)]] * 10
                                              + [[{"text": "101", "callback_data": "/101"}]]}}, "reply markup is too long"),
    ("sendMessage", {**SENT, "reply_markup": keyboard({"text": "Site", "url": "https://example.org", "callback_data": "/stand"})},
     "can't parse inline keyboard button: InlineKeyboardButton must have exactly one optional field"),
    ("sendMessage", {**SENT, "reply_markup": keyboard({"text": "Niets"})},
     "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"),
    ("setMyCommands", {"commands": [{"command": "stand", "description": "De stand"}], "language_code": "nld"}, "invalid language code specified"),
    ("sendMessage", {**SENT, "parse_mode": "HTML5"}, "Unsupported parse_mode"),
    ("answerCallbackQuery", {"callback_query_id": "cq-1", "text": "x" * 201, "show_alert": True}, "MESSAGE_TOO_LONG"),
    ("sendMessage", {**SENT, "text": "Uitslag: <span>1-0</span>", "parse_mode": "HTML"},
     "can't parse entities: Tag \"span\" must have class \"tg-spoiler\" at byte offset 9"),
]  # fmt: skip


@pytest.mark.parametrize("method, params, description", REFUSED_AS_TELEGRAM_DOES)
async def test_the_fake_refuses_as_telegram_does(fake: FakeTelegram, method: str, params: dict[str, Any], description: str) -> None:
    """Each request exactly as it goes over the wire (JSON), answered 400 with Telegram's description."""
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake.base_url}{TOKEN}/{method}", json=params) as answer:
            status, body = answer.status, await answer.json()
    assert (status, body["ok"], body["error_code"]) == (400, False, 400)
    assert body["description"].startswith(f"Bad Request: {description}"), body
    (refusal,) = fake.refusals.take()
    assert (refusal.request, refusal.status, refusal.reason) == (method, 400, body["description"])


@pytest.mark.parametrize(
    "method, params",
    [
        ("sendMessage", {**SENT, "reply_markup": {"inline_keyboard": [[{"text": f"{i}", "callback_data": f"/{i}"} for i in range(10)]] * 10}}),
        ("sendMessage", {**SENT, "reply_markup": keyboard({"text": "Site", "url": "https://example.org"}, {"text": "Stand", "callback_data": "/stand"})}),
        ("setMyCommands", {"commands": [{"command": "stand", "description": "De stand"}], "language_code": "nl"}),
        ("setMyCommands", {"commands": [{"command": "stand", "description": "De stand"}], "language_code": ""}),
        ("sendMessage", {**SENT, "parse_mode": "MarkdownV2"}),
        ("sendMessage", {**SENT, "parse_mode": "html"}),
        ("sendMessage", {**SENT, "text": "Uitslag: <span class=\"tg-spoiler\">1-0</span>", "parse_mode": "HTML"}),
    ],
)  # fmt: skip
def test_what_keeps_inside_those_rules_passes(method: str, params: dict[str, Any]) -> None:
    check_request(method, params, {})


@pytest.mark.expect_refusal("editMessageReplyMarkup 400 .*message is not modified", "answerCallbackQuery 400 .*query is too old")
async def test_stateful_errors_as_telegram_answers_them(fake: FakeTelegram) -> None:
    """"message is not modified", "query is too old" (a press answered late or twice), 403 blocked."""
    from telegram import InlineKeyboardButton, InlineKeyboardMarkup
    from telegram.error import Forbidden

    from tests.bot.adapters.fake_telegram import callback, user

    bot = Bot(TOKEN, base_url=fake.base_url)
    anna = user(11, "Anna")
    async with bot:
        sent = await bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("ok", callback_data="/ok")]]))
        await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=None)
        with pytest.raises(BadRequest, match="(?i)message is not modified"):
            await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=None)

        now = [0.0]
        fake.clock = lambda: now[0]
        on = fake.calls[-3].result
        fake.push(callback(anna, on, "/ok"))
        query_id = f"cq-{anna['id']}-{on['message_id']}"
        await bot.answer_callback_query(query_id)
        with pytest.raises(BadRequest, match="(?i)query is too old"):  # answered twice
            await bot.answer_callback_query(query_id)
        fake.push(callback(user(12, "Bert"), on, "/ok"))
        now[0] = 16.0  # Telegram's 15 s have passed
        with pytest.raises(BadRequest, match="(?i)query is too old"):
            await bot.answer_callback_query(f"cq-12-{on['message_id']}")

        fake.blocked.add(anna["id"])
        with pytest.raises(Forbidden, match="(?i)blocked by the user"):
            await bot.send_message(anna["id"], "hallo")


def _url_button(url: str) -> dict:
    return {"chat_id": 1, "text": "x", "reply_markup": {"inline_keyboard": [[{"text": "k", "url": url}]]}}


@pytest.mark.parametrize(
    "url, rule",
    [
        ("https://t.me/clubbot?start=again-Ab_9-x", None),
        ("https://t.me/clubbot?start=" + "a" * 64, None),
        ("https://example.org/stand?x=1", None),
        ("https://t.me/clubbot?start=" + "a" * 65, "is not 1-64"),
        ("https://t.me/clubbot?start=", "is not 1-64"),
        ("https://t.me/clubbot?start=koppel%20Anna", "is not 1-64"),
        ("https://t.me/clubbot?start=a.b", "is not 1-64"),
        ("https://t.me/bot?start=x", "not a bot's username"),
        ("t.me/clubbot?start=x", "BUTTON_URL_INVALID"),
        ("javascript:alert(1)", "BUTTON_URL_INVALID"),
    ],
)  # fmt: skip
def test_a_url_button_and_its_deep_link_are_checked(url: str, rule: str | None) -> None:
    if rule is None:
        check_request("sendMessage", _url_button(url), {})
        return
    with pytest.raises(Refused, match=rule):
        check_request("sendMessage", _url_button(url), {})
