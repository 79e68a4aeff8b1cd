"""What the real Telegram Bot API refuses, for the fake: every request is checked against the Bot API
description in ``spec/telegram_bot_api_subset.json`` (the method exists, required parameters present,
parameter types) and the documented limits (text 1-4096 characters after entity parsing, caption <= 1024,
callback_data 1-64 bytes, setMyCommands: <= 100 commands of 1-32 characters a-z, 0-9, _ with a description
of 1-256 characters; photo: <= 10 MB, width + height <= 10000, ratio <= 20; HTML parse_mode: only the
tags Telegram knows, well nested, ``<``, ``>`` and ``&`` escaped, ``<span>`` only as ``class="tg-spoiler"``;
an inline keyboard of at most 100 buttons, each of exactly one kind; parse_mode HTML, Markdown or
MarkdownV2; language_code two letters; a callback query's text <= 200 characters). Every answer the fake
gives carries the fields the description requires of its type. ``check_request`` raises ``Refused`` with
the rule a request broke; the fake answers it 400 "Bad Request: " and the rule.

Where Telegram has words of its own for a refusal, the rule starts with them: the Bot API server's
(github.com/tdlib/telegram-bot-api ``telegram-bot-api/Client.cpp`` at 01a3679c0bbf, 2026-05-07: "Unsupported
parse_mode", "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
"reply markup is too long"), TDLib's HTML parser's ('Tag "span" must have class "tg-spoiler" at byte
offset N'), and the server's answers bots reported ("invalid language code specified" for ``zh-hans``,
"MESSAGE_TOO_LONG" for a callback alert over 200 characters). One is stricter than the server: a button
with two kinds (``url`` and ``callback_data``) breaks the documented "exactly one of the optional fields",
but the server keeps the url and drops the callback_data without a word (the press never reaches the
bot); the fake refuses it."""

from __future__ import annotations

import json
import math
import re
import struct
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

SPEC = json.loads((Path(__file__).parent / "spec" / "telegram_bot_api_subset.json").read_text(encoding="utf-8"))
MAX_TEXT, MAX_CAPTION, MAX_CALLBACK_DATA = 4096, 1024, 64
MAX_PHOTO_BYTES, MAX_PHOTO_SIDES, MAX_PHOTO_RATIO = 10 * 1024 * 1024, 10000, 20
COMMAND = re.compile(r"[a-z0-9_]{1,32}")
MAX_BUTTONS, MAX_CALLBACK_ANSWER = 100, 200  # an inline keyboard's buttons; answerCallbackQuery's text
PARSE_MODES = ("html", "markdown", "markdownv2", "none")  # as the Bot API server reads them (lowercased)
# what an inline keyboard button does: exactly one of these (core.telegram.org/bots/api#inlinekeyboardbutton)
BUTTON_KINDS = ("url", "callback_data", "web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
                "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay")  # fmt: skip
START_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a deep link's start parameter
USERNAME = re.compile(r"[A-Za-z0-9_]{5,32}")
# the tags Telegram's HTML parse mode accepts (core.telegram.org/bots/api#html-style) and their attributes
TAGS = {
    "b": (), "strong": (), "i": (), "em": (), "u": (), "ins": (), "s": (), "strike": (), "del": (),
    "span": ("class",), "tg-spoiler": (), "a": ("href",), "tg-emoji": ("emoji-id",), "code": ("class",),
    "pre": (), "blockquote": ("expandable",), "tg-time": ("unix", "format"),
}  # fmt: skip
ENTITY = re.compile(r"&(lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);")
TAG = re.compile(r"<(/?)([a-z-]+)((?:\s+[a-z-]+(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]*))?)*)\s*>")
SPOILER = re.compile(r"class=(\"tg-spoiler\"|'tg-spoiler'|tg-spoiler(?=\s|$))")
ATTRIBUTE = re.compile(r"([a-z-]+)(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]*))?")


class Refused(Exception):
    """A request the real server refuses: the rule it broke."""


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def html_text(text: str) -> str:
    """The text Telegram shows for an HTML message, or Refused as its parser ("can't parse entities")."""
    out: list[str] = []
    stack: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "<":
            match = TAG.match(text, i)
            if match is None:
                raise Refused(f"HTML: unescaped '<' at {i} (can't parse entities)")
            closing, name, attributes = match.groups()
            if name not in TAGS:
                raise Refused(f"HTML: unsupported tag <{name}> at {i}")
            if closing:
                if not stack or stack[-1] != name:
                    raise Refused(f"HTML: </{name}> at {i} closes {stack[-1] if stack else 'nothing'}")
                stack.pop()
            else:
                bad = [a for a in ATTRIBUTE.findall(attributes) if a not in TAGS[name]]
                if bad:
                    raise Refused(f"HTML: attribute {bad[0]} not allowed on <{name}>")
                if name == "span" and not SPOILER.search(attributes):
                    raise Refused(f'can\'t parse entities: Tag "span" must have class "tg-spoiler" at byte offset {len(text[:i].encode())}')
                stack.append(name)
            i = match.end()
        elif char == "&":
            match = ENTITY.match(text, i)
            if match is None:
                raise Refused(f"HTML: unescaped '&' at {i} (can't parse entities)")
            out.append({"lt": "<", "gt": ">", "amp": "&", "quot": '"'}.get(match.group(1), "?"))
            i = match.end()
        elif char == ">":
            raise Refused(f"HTML: unescaped '>' at {i}")
        else:
            out.append(char)
            i += 1
    if stack:
        raise Refused(f"HTML: <{stack[-1]}> not closed")
    return "".join(out)


def _shown(params: dict[str, Any], key: str) -> str:
    text = str(params[key])
    return html_text(text) if str(params.get("parse_mode", "")).upper() == "HTML" else text


def _type_ok(value: Any, kinds: list[str]) -> bool:
    for kind in kinds:
        if kind.startswith("Array of "):
            if isinstance(value, list) and all(_type_ok(v, [kind[9:]]) for v in value):
                return True
        elif kind == "Integer":
            if isinstance(value, int) and not isinstance(value, bool) or isinstance(value, str) and re.fullmatch(r"-?\d+", value):
                return True
        elif kind == "String":
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return True
        elif kind == "Boolean":
            if isinstance(value, bool) or value in ("true", "false"):
                return True
        elif kind in ("Float", "Float number"):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True
        elif kind == "InputFile":
            if isinstance(value, str) and value.startswith("attach://"):
                return True
        elif isinstance(value, dict):  # an object type
            fields = SPEC["types"].get(kind, {}).get("fields")
            if fields is None or all(f["name"] in value for f in fields if f["required"]):
                return True
    return False


def png_size(content: bytes) -> tuple[int, int] | None:
    if content[:8] == b"\x89PNG\r\n\x1a\n" and len(content) >= 24:
        width, height = struct.unpack(">II", content[16:24])
        return width, height
    return None


def check_request(method: str, params: dict[str, Any], files: dict[str, tuple[str, bytes]]) -> None:
    """Raise Refused with the rule a request breaks."""
    spec = SPEC["methods"].get(method)
    if spec is None:
        raise Refused(f"{method}: no such method in Bot API {SPEC['version']} (or not in the fake's subset)")
    given = {**params, **{k: f"attach://{k}" for k in files}}
    for field in spec["fields"]:
        name = field["name"]
        if name not in given:
            if field["required"]:
                raise Refused(f"{method}: required parameter {name} missing")
            continue
        if not _type_ok(given[name], field["types"]):
            raise Refused(f"{method}: {name} is not {' or '.join(field['types'])}: {str(given[name])[:80]!r}")
    if "text" in params:
        length = units(_shown(params, "text").strip())
        if not 1 <= length <= MAX_TEXT:
            raise Refused(f"{method}: text is {length} characters after entity parsing (1-{MAX_TEXT})")
    if params.get("caption"):
        length = units(_shown(params, "caption"))
        if length > MAX_CAPTION:
            raise Refused(f"{method}: caption is {length} characters after entity parsing (<= {MAX_CAPTION})")
    for row in (params.get("reply_markup") or {}).get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode("utf-8")) <= MAX_CALLBACK_DATA:
                raise Refused(f"{method}: callback_data of {len(str(data).encode())} bytes (1-{MAX_CALLBACK_DATA})")
            if button.get("url") is not None:
                check_button_url(method, str(button["url"]))
    check_markup_and_options(method, params)
    if method == "setMyCommands":
        commands = params["commands"]
        if len(commands) > 100:
            raise Refused(f"setMyCommands: {len(commands)} commands (<= 100)")
        for command in commands:
            if not COMMAND.fullmatch(str(command.get("command", ""))):
                raise Refused(f"setMyCommands: command {command.get('command')!r} is not 1-32 of a-z, 0-9, _")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise Refused(f"setMyCommands: description of /{command['command']} is not 1-256 characters")
    if method == "sendPhoto" and "photo" in files:
        content = files["photo"][1]
        size = png_size(content)
        if len(content) > MAX_PHOTO_BYTES:
            raise Refused(f"sendPhoto: photo of {len(content)} bytes (<= 10 MB)")
        if size is not None:
            width, height = size
            if width + height > MAX_PHOTO_SIDES or max(width, height) > MAX_PHOTO_RATIO * min(width, height):
                raise Refused(f"sendPhoto: photo {width}x{height} (width + height <= 10000, ratio <= 20)")


def check_markup_and_options(method: str, params: dict[str, Any]) -> None:
    """An inline keyboard of at most 100 buttons, each of exactly one kind; a parse mode Telegram knows; a
    language code of two letters; a callback query's notification of at most 200 characters. Telegram's
    words (the Bot API server, tdlib/telegram-bot-api ``Client.cpp``, and its answers as bots met them)."""
    keyboard = [b for row in (params.get("reply_markup") or {}).get("inline_keyboard", []) for b in row]
    if len(keyboard) > MAX_BUTTONS:
        raise Refused(f"reply markup is too long ({method}: {len(keyboard)} inline buttons, at most {MAX_BUTTONS})")
    for button in keyboard:
        kinds = [k for k in BUTTON_KINDS if k in button and (button[k] != "" or k not in ("url", "callback_data"))]
        if not kinds:
            raise Refused("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
        if len(kinds) > 1:  # the server keeps the first (a url) and drops the rest without a word: refused here
            raise Refused(f"can't parse inline keyboard button: InlineKeyboardButton must have exactly one optional field ({', '.join(kinds)})")
    mode = str(params.get("parse_mode") or "")
    if mode and mode.lower() not in PARSE_MODES and (params.get("text") or params.get("caption")):
        raise Refused(f"Unsupported parse_mode ({mode!r})")
    language = params.get("language_code")
    if language and not re.fullmatch(r"[a-z]{2}", str(language)):
        raise Refused(f"invalid language code specified ({language!r}: two letters of ISO 639-1, or none)")
    if method == "answerCallbackQuery" and len(str(params.get("text") or "")) > MAX_CALLBACK_ANSWER:
        raise Refused(f"MESSAGE_TOO_LONG (a callback query's text of {len(str(params['text']))} characters, at most {MAX_CALLBACK_ANSWER})")


def check_button_url(method: str, url: str) -> None:
    """A URL button: http(s) or tg: (BUTTON_URL_INVALID otherwise). A deep link to a bot
    (``t.me/<bot>?start=<payload>``, core.telegram.org/bots/features#deep-linking) names a username of 5-32
    characters ``A-Z a-z 0-9 _`` and a payload of 1-64 characters ``A-Z a-z 0-9 _ -``; Telegram's apps open
    any other as a chat without the payload, so the fake refuses it."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "tg") or parts.scheme != "tg" and not parts.netloc:
        raise Refused(f"{method}: BUTTON_URL_INVALID {url[:80]!r}")
    if parts.netloc.lower() not in ("t.me", "telegram.me"):
        return
    query = parse_qs(parts.query, keep_blank_values=True)
    for key in ("start", "startgroup"):
        if key in query:
            if not USERNAME.fullmatch(parts.path.strip("/")):
                raise Refused(f"{method}: deep link to {parts.path!r}, not a bot's username")
            if len(query[key]) != 1 or not START_PAYLOAD.fullmatch(query[key][0]):
                raise Refused(f"{method}: deep link {key}={query[key]!r} is not 1-64 of A-Z a-z 0-9 _ -")


def check_answer(method: str, result: Any) -> None:
    """The fake's own answer carries every field the description requires of the method's return type."""
    returns = SPEC["methods"][method]["returns"]
    if returns == ["Array of ChatMember"]:
        for member in result:
            kind = "ChatMemberOwner" if member["status"] == "creator" else "ChatMemberAdministrator"
            if not _type_ok(member, [kind]):
                raise Refused(f"the fake's {method} answer lacks a field {kind} requires: {member}")
        return
    if returns == ["Array of Update"]:
        return
    if not _type_ok(result, returns):
        raise Refused(f"the fake's {method} answer is not {returns}: {str(result)[:200]}")


class GroupLimit:
    """Telegram's limit of a bot's messages to one group: ``limit`` in ``window`` seconds (about 20 a
    minute); above it 429 with ``retry_after``, the seconds until the oldest leaves the window."""

    def __init__(self, limit: int = 20, window: float = 60.0) -> None:
        self.limit, self.window = limit, window
        self.clock: Callable[[], float] = time.monotonic
        self._sent: dict[str, deque[float]] = {}

    def reset(self, window: float, clock: Callable[[], float]) -> None:
        self.window, self.clock = window, clock
        self._sent.clear()

    def refuse(self, chat_id: str) -> dict[str, Any] | None:
        """The 429 answer when the bot is over the limit in this group (a negative chat id); else None,
        and this message counts."""
        if not chat_id.lstrip("-").isdigit() or int(chat_id) > 0:
            return None
        now = self.clock()
        sent = self._sent.setdefault(chat_id, deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.limit:
            retry_after = max(1, math.ceil(sent[0] + self.window - now))
            return {"ok": False, "error_code": 429, "description": f"Too Many Requests: retry after {retry_after}",
                    "parameters": {"retry_after": retry_after}}  # fmt: skip
        sent.append(now)
        return None
