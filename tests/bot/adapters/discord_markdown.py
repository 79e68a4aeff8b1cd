"""What Discord's client would make of a message's text: the Markdown that would be live in it.

Discord formats a message with its own Markdown dialect: ``*`` ``_`` ``~~`` ``||`` emphasis, strike-through
and spoilers, backticks, masked links ``[text](url)``, headings ``#``, ``-#``, quotes ``>`` and lists ``-``
at a line's start, ``<@id>`` ``<#id>`` ``<t:...>`` ``<:emoji:id>`` tags, ``@everyone``. A backslash before
ASCII punctuation shows the character itself; inside a code block nothing is formatted; a bare URL is a
link the reader sees whole. ``live_markdown`` lists the constructs that would be formatted; ``shown`` is
the text the reader sees (escapes removed), to find a name in.
"""

from __future__ import annotations

import re

CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
URL = re.compile(r"https?://[^\s<]+[^\s<.,:;\"'\]]")
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
SPECIAL = set("*_~|`[]<>")
LINE_START = re.compile(r"^\s*(#{1,3}\s|-#\s|>\s|>>>|[-*+]\s|\d+\.\s)")
MENTION = re.compile(r"@(everyone|here)\b")


def prose(content: str) -> str:
    """The text outside code blocks, with bare URLs taken out (they are shown whole)."""
    return URL.sub(" ", CODE.sub(" ", content))


def live_markdown(content: str) -> list[str]:
    """The Markdown that Discord would format in ``content`` outside code blocks: empty when inert."""
    live = []
    for line in prose(content).splitlines():
        bare = ESCAPED.sub("", line)
        live += [f"{c!r} in {line!r}" for c in sorted(SPECIAL & set(bare))]
        if LINE_START.match(line):
            live.append(f"line start in {line!r}")
        live += [f"@{m} in {line!r}" for m in MENTION.findall(line)]
    return live


def shown(content: str) -> str:
    """What the reader sees: escapes and zero-width spaces removed."""
    return ESCAPED.sub(r"\1", content).replace("\u200b", "")
