"""How wide a text is on a fixed-width screen (a terminal, a Discord or Telegram code block), for the
text tables (``Table.as_text``, Discord's narrowing): a CJK or other East Asian wide or full-width
character takes two columns, a combining mark or a format character (a zero-width joiner, a direction
mark) none, every other character one (issue 44 §3). A cell with right-to-left letters (Arabic,
Hebrew) ends in a left-to-right mark, so that the spaces and the number after it stay in their columns
instead of joining the right-to-left run (the Unicode bidirectional algorithm, rules W2, W7 and N1)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

LRM = "\u200e"  # LEFT-TO-RIGHT MARK: zero width; not an embedding, override or isolate (Discord drops those)


@lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    """The columns ``text`` takes."""
    if text.isascii():  # every ASCII character takes one column: most names and numbers
        return len(text)
    return sum(char_width(c) for c in text)


def has_right_to_left(text: str) -> bool:
    return not text.isascii() and any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def pad(cell: str, columns: int, right: bool = False) -> str:
    """``cell`` filled with spaces to ``columns`` (on the left when ``right``-aligned), a left-to-right
    mark after right-to-left letters."""
    cell = cell.rstrip(LRM)
    if has_right_to_left(cell):
        cell += LRM
    fill = " " * max(0, columns - width(cell))
    return fill + cell if right else cell + fill


def between(line: str, start: int, stop: int) -> str:
    """The characters of ``line`` that begin in columns ``start`` up to ``stop`` (a zero-width character
    goes with the one before it)."""
    out, column, kept = [], 0, False
    for char in line:
        w = char_width(char)
        kept = kept if w == 0 and column > 0 else start <= column < stop
        if kept:
            out.append(char)
        column += w
    return "".join(out)


def clip(cell: str, columns: int) -> str:
    """``cell`` within ``columns``: cut, ending in "…", when it is wider."""
    if width(cell) <= columns:
        return cell
    out, used = [], 0
    for char in cell:
        w = char_width(char)
        if used + w > columns - 1:
            break
        out.append(char)
        used += w
    return "".join(out) + "…"
