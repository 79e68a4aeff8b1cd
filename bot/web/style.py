"""The club's own look on its pages (issue 35 §4): its colour and logo (``/website stijl``,
``bot/core/club/club_style.py``), with every text kept AA (WCAG 2.2, 1.4.3: 4.5:1) whatever colour was chosen.

- The header is a band in the club's colour; its text is white, or near-black where white does not reach
  4.5:1 (black where neither does).
- Links and the marked menu item use the club's colour too, on the page's backgrounds: its lightness
  (HLS, the hue and saturation kept) is lowered for the light pages and raised for the dark ones
  (``prefers-color-scheme: dark``) until it reaches 4.5:1 against every background of that mode.

Contrast is WCAG's: (L1 + 0.05) / (L2 + 0.05) of the relative luminances. Only a colour the core checked
(``#rrggbb``) and numbers go into the CSS.
"""

from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass
from functools import lru_cache

from bot.core.storage.store import Club
from bot.core.club.web_links import club_path

AA = 4.5
WHITE, NEAR_BLACK, BLACK = "#ffffff", "#111111", "#000000"
# The backgrounds text and links stand on (base.html): the page and a table's shaded rows, light and dark.
LIGHT_BACKGROUNDS = ("#ffffff", "#f6f6f6")
DARK_BACKGROUNDS = ("#121212", "#1e1e1e")
_HEX = re.compile(r"#[0-9a-f]{6}")


@dataclass(frozen=True)
class Look:
    """What base.html needs of the club's look: ``css`` (custom properties; "" for the standard look) and
    the logo's address ("" for none)."""

    css: str = ""
    logo: str = ""


PLAIN = Look()


def _channel(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


_CHANNELS = tuple(_channel(c) for c in range(256))  # each of a colour's bytes, linearized once


def _luminance(r: int, g: int, b: int) -> float:
    return 0.2126 * _CHANNELS[r] + 0.7152 * _CHANNELS[g] + 0.0722 * _CHANNELS[b]


def luminance(colour: str) -> float:
    """WCAG 2.2's relative luminance of ``#rrggbb``."""
    return _luminance(int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _ratio(la: float, lb: float) -> float:
    """WCAG's contrast ratio of two relative luminances."""
    la, lb = (la, lb) if la >= lb else (lb, la)
    return (la + 0.05) / (lb + 0.05)


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21."""
    return _ratio(luminance(a), luminance(b))


def text_on(colour: str) -> str:
    """The text colour for a band of ``colour``: white, else near-black, else black (one always reaches AA)."""
    return next((c for c in (WHITE, NEAR_BLACK) if contrast(colour, c) >= AA), BLACK)


def readable(colour: str, backgrounds: tuple[str, ...]) -> str:
    """``colour`` with its lightness moved (down against light backgrounds, up against dark ones) just
    until it reaches AA against every one of ``backgrounds``; unchanged when it already does."""
    behind = [luminance(b) for b in backgrounds]
    darker = behind[0] > 0.18
    hue, light, saturation = colorsys.rgb_to_hls(*(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)))
    for step in range(101):
        moved = min(1.0, max(0.0, light - step / 100 if darker else light + step / 100))
        r, g, b = (round(v * 255) for v in colorsys.hls_to_rgb(hue, moved, saturation))  # each 0-255
        shade = _luminance(r, g, b)  # once a step, not once for each background
        if all(_ratio(shade, lum) >= AA for lum in behind):
            return f"#{r:02x}{g:02x}{b:02x}"
    return BLACK if darker else WHITE  # not reached: black and white pass against these backgrounds


@lru_cache(maxsize=1024)
def _css(colour: str) -> str:
    if not _HEX.fullmatch(colour):
        return ""
    return (
        f":root{{--brand:{colour};--brand-text:{text_on(colour)};"
        f"--link:{readable(colour, LIGHT_BACKGROUNDS)};--link-dark:{readable(colour, DARK_BACKGROUNDS)}}}"
    )


def look(club: Club) -> Look:
    """The club's look on its pages: its colours as CSS, its logo's address (with its stamp, so a browser
    that keeps the old logo asks again once it changed)."""
    if club.colour is None and club.logo is None:
        return PLAIN
    css = _css(club.colour) if club.colour else ""
    logo = f"{club_path(club.id)}logo.png?v={club.logo}" if club.logo else ""
    return Look(css, logo)


def logo_caching(club: Club) -> str:
    """The logo's Cache-Control: a year, as its address names its stamp; shared caches only for a public site."""
    return ("public" if club.website == "on" else "private") + ", max-age=31536000, immutable"
