"""The fonts the pictures draw names with: every name a member can have.

Found through fontconfig (``fc-list``), not at fixed paths: DejaVu Sans (Latin with every accent, Greek,
Cyrillic, Hebrew, Arabic, ...) first, then Noto Sans CJK (Chinese, Japanese, every Korean syllable), then
every regular Noto Sans font of a script (Indic scripts, Thai, Lao, Khmer, Ethiopic, Armenian, Georgian,
Sinhala, ...; Noto Serif where a script has no Sans, as Tibetan), Droid Sans Fallback last: Debian's
``fonts-dejavu-core``, ``fonts-noto-core``, ``fonts-noto-cjk`` and ``fonts-droid-fallback``, which
``scripts/install.sh`` installs; nothing is downloaded while the bot runs. Without fontconfig the fixed
``FONT_FILES`` are used. ``CLUBBOT_FONTS`` (paths separated by ``:``) puts other font files first. A character no font has becomes a plain mark (□), so an
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
import re
import shutil
import subprocess
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


CJK_FAMILY = "Noto Sans CJK JP"  # every CJK family of the collection has all Han, Kana and Hangul
NOTO_SCRIPT = re.compile(r"Noto (Sans|Serif) (?!CJK|Mono|Display|Symbols)(\S.*)")


@functools.lru_cache(maxsize=1)
def installed_fonts() -> list[tuple[str, int]]:
    """The fonts fontconfig knows, (file, index in the file) in the order names are drawn with; the
    fixed ``FONT_FILES`` without fontconfig."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return [(p, 0) for p in FONT_FILES]
    listing = subprocess.run(
        [fc_list, "--format", "%{family[0]}\t%{style[0]}\t%{file}\t%{index}\n"],
        capture_output=True, text=True, timeout=30, check=False,
    ).stdout  # fmt: skip
    regular: dict[str, tuple[str, int]] = {}
    for line in listing.splitlines():
        family, style, file, index = (line.split("\t") + ["", "", "", "0"])[:4]
        if style in ("Regular", "Book") and family not in regular:  # DejaVu calls its regular "Book"
            regular[family] = (file, int(index or 0))
    sans = {m.group(2) for f in regular if (m := NOTO_SCRIPT.fullmatch(f)) and m.group(1) == "Sans"}
    scripts = sorted(
        f for f in regular
        if (m := NOTO_SCRIPT.fullmatch(f)) and (m.group(1) == "Sans" or m.group(2) not in sans)
        and "UI" not in f.split()
    )  # fmt: skip
    order = ["DejaVu Sans", CJK_FAMILY, "Noto Sans", *scripts, "Droid Sans Fallback"]
    found = [regular[f] for f in dict.fromkeys(order) if f in regular]
    return found or [(p, 0) for p in FONT_FILES]


def font_paths() -> list[tuple[str, int]]:
    extra = [(p, 0) for p in os.environ.get("CLUBBOT_FONTS", "").split(":") if p]
    return [(p, i) for p, i in (*extra, *installed_fonts()) if Path(p).is_file()]


@functools.lru_cache(maxsize=16)
def fonts(size: int) -> tuple[Font, ...]:
    """The fonts to draw with at ``size``, best first (Pillow's own when none is installed)."""
    layout = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    found: list[Font] = [ImageFont.truetype(p, size, index=i, layout_engine=layout) for p, i in font_paths()]
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


@functools.lru_cache(maxsize=4096)  # names and numbers come back in every picture of a season, a game's players on every move
def drawn_text(text: str, size: int) -> tuple[Image.Image, int]:
    """``text_mask``, drawn once per text and size: the mask is only pasted through, never drawn on."""
    return text_mask(text, size)
