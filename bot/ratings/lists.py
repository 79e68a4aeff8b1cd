"""What every rating list reads into, and what the readers share: the file as text (UTF-8, else
Windows-1252, never a binary file), the list's date where the file says it, and the keys a listed name
is compared with a member's name by (``Vries, Jan de`` is Jan de Vries; an EGD name is surname first).

Each format has its own reader: ``knsb.py`` (the KNSB rating list's CSV), ``fide.py`` (FIDE's TXT and
XML rating lists), ``egd.py`` (the EGD's rating list). A reader refuses with ``UserError`` a file that is
not its format; it never writes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from bot.core.output.calendar import FIRST_YEAR, LAST_YEAR
from bot.core.commands.context import UserError
from bot.core.club.name_key import name_key
from bot.core.output.spreadsheet import file_text

MAX_LISTED = 2_000_000  # more players than any published list holds: a file of junk lines
MAX_NAME = 120


@dataclass(frozen=True)
class Listed:
    """One player of a list: the identity in the list's federation, the name as the list writes it, the
    rating (None: listed without one) and the federation (FIDE's three letters, the EGD's two)."""

    identity: str
    name: str
    rating: int | None
    federation: str = ""


@dataclass(frozen=True)
class RatingList:
    source: str  # "knsb", "fide" or "egd": which identity of a member it goes by
    players: tuple[Listed, ...]
    day: date | None = None  # the list's date where the file says it


def text_of(content: bytes) -> str:
    """The file as text (``spreadsheet.file_text``: UTF-8, else Windows-1252, what FIDE's and Dutch Excel's
    files are); a file with NUL bytes is no text."""
    text = file_text(content)
    if text is None:
        raise UserError("ratings_not_text")
    return text


_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DMY = re.compile(r"\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b")


def day_in(text: str) -> date | None:
    """A date written in a list's heading: ``2026-11-01`` or ``1-11-2026`` / ``01.11.2026``."""
    for pattern, order in ((_ISO, (0, 1, 2)), (_DMY, (2, 1, 0))):
        match = pattern.search(text)
        if match:
            parts = [int(g) for g in match.groups()]
            try:
                day = date(parts[order[0]], parts[order[1]], parts[order[2]])
            except ValueError:
                continue
            if FIRST_YEAR <= day.year <= LAST_YEAR:
                return day
    return None


def clean_name(text: str) -> str:
    """A listed name as shown: spaces collapsed, control characters out, at most ``MAX_NAME`` long."""
    return " ".join("".join(c for c in text if c.isprintable()).split())[:MAX_NAME]


def name_keys(listed: str) -> set[str]:
    """The keys a member's name may match a listed name by: as written; ``Last, First`` turned round
    (``Vries, Jan de`` is ``Jan de Vries``, and ``de Vries, Jan`` too); a two-part name without comma
    turned round (the EGD writes the surname first)."""
    keys = {name_key(listed)}
    if "," in listed:
        last, _, first = listed.partition(",")
        words = first.split()
        particles = [w for w in words if w.islower()]  # "Vries, Jan de": the particle after the first name
        given = [w for w in words if not w.islower()]
        keys.add(name_key(" ".join([*given, *particles, last])))
        keys.add(name_key(f"{first} {last}"))
    else:
        words = listed.split()
        if len(words) >= 2:
            keys.add(name_key(" ".join([*words[1:], words[0]])))
    return {k for k in keys if k}
