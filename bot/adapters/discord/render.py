"""How clubbot's text looks on Discord: every text a member could have typed (names above all) escaped so that
Discord shows it as typed and formats none of it, tables in code blocks, and messages within Discord's
2,000 characters.

Escaping: Discord's Markdown has emphasis (``*`` ``_``), strike-through (``~~``), spoilers (``||``), code
(backticks), masked links (``[text](url)``), headings, quotes and lists at a line's start, and ``<...>`` tags
(mentions, channels, times, custom emoji). A backslash before any ASCII punctuation shows the character
itself, so each of those characters is escaped outside code blocks (``discord.utils.escape_markdown``
leaves the second of two masked links live). A bare URL stays as it is (Discord shows it whole, and an
escape would break it); ``@everyone`` and ``@here`` get a zero-width space; the invisible right-to-left
overrides and isolates (U+202A-U+202E, U+2066-U+2069) are dropped, so a name cannot turn the rest of its
line around (right-to-left letters themselves are shown as they are). The bot's own texts hold no
Markdown, so a reply's lines are escaped whole; nothing pings anyone anyway (``allowed_mentions`` none).
"""

from __future__ import annotations

import io
import re

import discord

from bot.adapters.chunks import pack, segments
from bot.core.i18n import t
from bot.core.output import text_width

MAX_CONTENT = 2000  # characters in a message

URL = re.compile(r"https?://[^\s<>]+")
SPECIAL = re.compile(r"([\\*_~|`\[\]<>])")
LINE_START = re.compile(r"^(\s*)(#|-|>|\+)")
NUMBERED = re.compile(r"^(\s*\d+)\.(?=\s)")
MENTION = re.compile(r"@(everyone|here)")
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")  # embeddings, overrides, isolates


def escape(text: str) -> str:
    """``text`` as Discord should show it, formatting nothing: Markdown characters escaped outside URLs."""
    lines = []
    for line in BIDI_CONTROLS.sub("", text).split("\n"):
        pieces, last = [], 0
        for url in URL.finditer(line):
            pieces += [_escape_plain(line[last : url.start()]), url.group()]
            last = url.end()
        pieces.append(_escape_plain(line[last:]))
        lines.append(NUMBERED.sub(r"\1\\.", LINE_START.sub(r"\1\\\2", "".join(pieces))))
    return "\n".join(lines)


def _escape_plain(text: str) -> str:
    return MENTION.sub("@\u200b\\1", SPECIAL.sub(r"\\\1", text))


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


# ---------------------------------------------------------------------------------------------- long texts
NAME_COLUMN = 18  # characters of a text column (a name) in a table: the table stays on a phone's screen
MAX_PARTS = 10  # messages of one reply (an interaction's answer and its follow-ups); the rest as a file
RULE = re.compile(r"-+(  -+)*")


def narrow(header: str, rule: str, rows: list[str], cap: int = NAME_COLUMN) -> list[str]:
    """A table as ``Table.as_text`` wrote it (header, rule of dashes, rows), with every column wider than
    ``cap`` cut to it (a cell that loses characters ends in "…"); the column positions come from the
    rule."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", rule)]
    if all(end - start <= cap for start, end in spans):
        return [header, rule, *rows]
    out = []
    for line in [header, rule, *rows]:
        cells = []
        for i, (start, end) in enumerate(spans):  # columns as the screen shows them (text_width): CJK is 2
            stop = spans[i + 1][0] if i + 1 < len(spans) else text_width.width(line)
            width = min(end - start, cap)
            cell = text_width.between(line, start, stop).rstrip() if line is not rule else "-" * width
            cells.append(text_width.pad(text_width.clip(cell, width), width, _right_aligned(line, start, end)))
        out.append("  ".join(cells).rstrip())
    return out


def _right_aligned(line: str, start: int, end: int) -> bool:
    cell = text_width.between(line, start, end).rstrip(text_width.LRM)
    return bool(cell.strip()) and cell[0] == " " and cell[-1] != " "


def blocks(text: str) -> list[tuple[str | None, str]]:
    """The lines of a text, each with the head of its table (``Table.as_text``: a header line, a rule of
    dashes, the rows up to an empty line) or None for prose; tables are narrowed for a phone."""
    lines = text.split("\n")
    out: list[tuple[str | None, str]] = []
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and RULE.fullmatch(lines[i + 1]) and lines[i].strip():
            end = i + 2
            while end < len(lines) and lines[end].strip():
                end += 1
            table = narrow(lines[i], lines[i + 1], lines[i + 2 : end])
            head = "\n".join(table[:2])
            out += [(head, row) for row in table]
            i = end
        else:
            out.append((None, lines[i]))
            i += 1
    return out


def messages(pieces: list[tuple[str | None, str]], limit: int = MAX_CONTENT) -> list[str]:
    """Messages within ``limit``: prose escaped, table rows in code blocks that are closed at the end of each
    message and opened again, under the table's header, in the next; a line longer than a message is cut."""
    shown: list[tuple[bool, str, str | None]] = []
    for head, raw in pieces:
        is_code = head is not None
        text = BIDI_CONTROLS.sub("", raw).replace("```", "'''") if is_code else escape(raw)
        header = head.replace("```", "'''") if head is not None else None
        shown += [(is_code, segment, header) for segment in segments(text, limit // 4)]
    return pack(shown, limit, "```\n", "\n```")


def text_messages(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """A text (an announcement's body) as Discord messages: its tables as code blocks, split at ``limit``."""
    return messages(blocks(text), limit)


# ---------------------------------------------------------------------------------------------- file names
UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def safe_file_name(name: str) -> str:
    """A file name Discord keeps as it is: only ``[A-Za-z0-9_.-]`` (Discord renames the rest away the way
    werkzeug's ``secure_filename`` does, ``nk:1:round:1-7.png`` becomes ``nk1round1-7.png``)."""
    return UNSAFE.sub("_", name).strip("._") or "file"
