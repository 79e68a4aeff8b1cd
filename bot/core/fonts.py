"""The fonts the pictures draw names with: every name a member can have.

DejaVu Sans (Latin with every accent, Greek, Cyrillic, Hebrew, Arabic, ...) first, Droid Sans Fallback
for what it lacks (Chinese, Japanese, Korean): Debian's ``fonts-dejavu-core`` and ``fonts-droid-fallback``,
which ``scripts/install.sh`` installs; nothing is downloaded while the bot runs. ``CLUBBOT_FONTS`` (paths
separated by ``:``) puts other font files first. A character no font has becomes a plain mark (□), so an
emoji never breaks a row. Without any of these files the bot falls back to Pillow's own font (Latin
only) and says so once in the log.

A text is cut into runs that one font draws; with Pillow's Raqm layout (libraqm with FriBiDi) each run
is shaped and ordered (Arabic joined, Hebrew right to left), and a text whose first strong character is
right-to-left puts its runs right to left too.
"""

from __future__ import annotations

import functools
import logging
import os
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

log = logging.getLogger(__name__)

FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)
MISSING_MARK = "\u25a1"  # □
_NOWHERE = "\U000f0000"  # a private-use code point no font draws: its mask is the font's "missing" box
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def font_paths() -> list[str]:
    extra = [p for p in os.environ.get("CLUBBOT_FONTS", "").split(":") if p]
    return [p for p in (*extra, *FONT_FILES) if Path(p).is_file()]


@functools.lru_cache(maxsize=16)
def fonts(size: int) -> tuple[Font, ...]:
    """The fonts to draw with at ``size``, best first (Pillow's own when none is installed)."""
    layout = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    found: list[Font] = [ImageFont.truetype(p, size, layout_engine=layout) for p in font_paths()]
    if not found:
        log.warning("no font files found (%s): pictures use Pillow's own font, Latin only", ", ".join(FONT_FILES))
        found = [ImageFont.load_default(size=size)]
    return tuple(found)


@functools.lru_cache(maxsize=65536)
def _has(font_index: int, size: int, char: str) -> bool:
    font = fonts(size)[font_index]
    if not isinstance(font, ImageFont.FreeTypeFont):
        return char.isascii()
    mask = font.getmask(char)
    if mask.size[0] == 0:  # a space, a combining mark: nothing of its own to draw
        return True
    missing_size, missing = _missing(font_index, size)
    return mask.size != missing_size or bytes(mask) != missing


@functools.lru_cache(maxsize=64)
def _missing(font_index: int, size: int) -> tuple[tuple[int, int], bytes]:
    """The font's "missing" box at ``size`` (drawn once, not for every character asked about)."""
    mask = fonts(size)[font_index].getmask(_NOWHERE)
    return mask.size, bytes(mask)


def runs(text: str, size: int) -> list[tuple[int, str]]:
    """``text`` cut into (font index, piece) runs in reading order; unknown characters marked."""
    count = len(fonts(size))
    out: list[tuple[int, str]] = []
    for char in text:
        if unicodedata.combining(char) or char.isspace():
            index = out[-1][0] if out else 0  # stays with what it belongs to
        else:
            index = next((i for i in range(count) if _has(i, size, char)), -1)
            if index < 0:
                index, char = 0, MISSING_MARK
        if out and out[-1][0] == index:
            out[-1] = (index, out[-1][1] + char)
        else:
            out.append((index, char))
    return out


def right_to_left(text: str) -> bool:
    """Does the text read right to left (its first strong character is Hebrew, Arabic, ...)?"""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def text_mask(text: str, size: int) -> tuple[Image.Image, int]:
    """``text`` drawn as a mask (white on black) and its width, each run in the font that has it."""
    pieces = []
    for index, piece in runs(text, size):
        font = fonts(size)[index]
        left, _, right, bottom = font.getbbox(piece)
        mask = Image.new("L", (max(1, int(right)), max(1, int(bottom), size + size // 3)), 0)
        ImageDraw.Draw(mask).text((0, 0), piece, font=font, fill=255)
        pieces.append((mask, max(0, int(right - min(left, 0)))))
    if right_to_left(text):
        pieces.reverse()
    width = sum(w for _, w in pieces)
    height = max((m.size[1] for m, _ in pieces), default=1)
    whole = Image.new("L", (max(1, width), height), 0)
    x = 0
    for mask, w in pieces:
        whole.paste(mask, (x, 0))
        x += w
    return whole, width
