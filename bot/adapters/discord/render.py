"""How clubbot's text looks on Discord: every text a member could have typed (names above all) escaped so that
Discord shows it as typed and formats none of it, tables in code blocks, and messages within Discord's
2,000 characters.

Escaping: Discord's Markdown has emphasis (``*`` ``_``), strike-through (``~~``), spoilers (``||``), code
(backticks), masked links (``[text](url)``), headings, quotes and lists at a line's start, and ``<...>`` tags
(mentions, channels, times, custom emoji). A backslash before any ASCII punctuation shows the character
itself, so each of those characters is escaped outside code blocks (``discord.utils.escape_markdown``
leaves the second of two masked links live). A bare URL stays as it is (Discord shows it whole, and an
escape would break it); ``@everyone`` and ``@here`` get a zero-width space. The bot's own texts hold no
Markdown, so a reply's lines are escaped whole; nothing pings anyone anyway (``allowed_mentions`` none).
"""

from __future__ import annotations

import io
import re

import discord

from bot.core.i18n import t

MAX_CONTENT = 2000  # characters in a message

URL = re.compile(r"https?://[^\s<>]+")
SPECIAL = re.compile(r"([\\*_~|`\[\]<>])")
LINE_START = re.compile(r"^(\s*)(#|-|>|\+)")
NUMBERED = re.compile(r"^(\s*\d+)\.(?=\s)")
MENTION = re.compile(r"@(everyone|here)")


def escape(text: str) -> str:
    """``text`` as Discord should show it, formatting nothing: Markdown characters escaped outside URLs."""
    lines = []
    for line in text.split("\n"):
        pieces, last = [], 0
        for url in URL.finditer(line):
            pieces += [_escape_plain(line[last : url.start()]), url.group()]
            last = url.end()
        pieces.append(_escape_plain(line[last:]))
        lines.append(NUMBERED.sub(r"\1\\.", LINE_START.sub(r"\1\\\2", "".join(pieces))))
    return "\n".join(lines)


def _escape_plain(text: str) -> str:
    return MENTION.sub("@\u200b\\1", SPECIAL.sub(r"\\\1", text))


def code_block(text: str) -> str:
    """A table (or any fixed-width text) as a code block: nothing in it is formatted."""
    return "```\n" + text.replace("```", "'''") + "\n```"


def fit(content: str, full: str, lang: str) -> tuple[str, list[discord.File]]:
    """A message text within Discord's limit; when it is too long, the beginning and the whole text as a
    file."""
    if len(content) <= MAX_CONTENT:
        return content, []
    note = "\n" + t(lang, "discord_full_text")
    head = content[: MAX_CONTENT - len(note) - 8].rsplit("\n", 1)[0]
    if head.count("```") % 2 == 1:
        head += "\n```"
    return head + note, [discord.File(io.BytesIO(full.encode("utf-8")), filename="clubbot.txt")]
