"""How clubbot's text looks on Telegram: HTML with tables in ``<pre>`` blocks, split at Telegram's message
limit (counted in UTF-16 code units as Telegram counts), and where an announcement goes (a chat, or a
forum topic of it)."""

from __future__ import annotations

import html
from datetime import timedelta
from typing import Sequence

from telegram import User
from telegram.error import RetryAfter

from bot.adapters.chunks import pack, segments
from bot.core.commands.replies import Reply
from bot.core.storage.store import Announcement

MAX_TEXT = 4096  # characters (UTF-16 code units) of a message, after the HTML is parsed
MAX_CAPTION = 1024


def units(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def html_chunks(lines: Sequence[str], table_rows: Sequence[str] = (), limit: int = MAX_TEXT) -> list[str]:
    """HTML messages within ``limit``: the lines escaped, the table rows in ``<pre>`` blocks that are
    closed at the end of each message and opened again in the next."""
    pieces = [(False, html.escape(s, quote=False), None) for line in lines for s in segments(line, limit // 6)]
    pieces += [(True, html.escape(s, quote=False), None) for row in table_rows for s in segments(row, limit // 6)]
    return pack(pieces, limit, "<pre>", "</pre>", units)


def reply_chunks(reply: Reply, limit: int = MAX_TEXT) -> list[str]:
    rows = reply.table.as_text().splitlines() if reply.table is not None else []
    return html_chunks(reply.lines, rows, limit)


def announcement_chunks(announcement: Announcement, limit: int = MAX_TEXT) -> list[str]:
    """A standings announcement is a title and a table; every other one is lines of text."""
    lines = announcement.body.splitlines()
    if announcement.kind == "standings" and len(lines) > 1:
        return html_chunks(lines[:1], lines[1:], limit)
    return html_chunks(lines, (), limit)


def channel_target(channel: str) -> tuple[int | str, int | None]:
    """``-100123`` (a group or channel), ``-100123/45`` (a forum topic), ``@name`` (a public channel)."""
    chat, _, topic = channel.strip().partition("/")
    try:
        chat_id: int | str = int(chat)
    except ValueError:
        chat_id = chat
    try:
        thread = int(topic) if topic else None
    except ValueError:
        thread = None
    return chat_id, thread


def language_of(user: User | None, default: str) -> str:
    code = (user.language_code or "") if user is not None else ""
    return "en" if code.startswith("en") else "nl" if code.startswith("nl") else default


def retry_seconds(err: RetryAfter) -> float:
    value = getattr(err, "_retry_after", None)
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value) if isinstance(value, (int, float)) else 60.0


