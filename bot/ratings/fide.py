"""FIDE's rating lists as ratings.fide.com publishes them for download, in both of its layouts:

- TXT (``players_list_foa.txt``, and the ``standard_`` / ``rapid_`` / ``blitz_`` lists): fixed-width
  columns under a heading line ``ID Number  Name  Fed Sex Tit WTit OTit FOA SRtng SGm SK RRtng RGm Rk
  BRtng BGm BK B-day Flag``; a column runs from where its name starts to where the next one starts (read
  from the heading, so the widths of each edition are the file's own). The standard rating is
  ``SRtng`` (a list of one tempo has ``Rating`` or ``MMMYY`` instead: its first rating column is read).
- XML (``players_list_xml.xml`` in ``players_list_xml.zip``): ``<playerslist>`` with a ``<player>`` per
  player: ``<fideid>``, ``<name>``, ``<country>``, ``<rating>`` (standard) and more. A document type or
  an entity is refused before the parser sees it (no entity expansion from a file a director sent).

Neither layout carries the list's date: the director gives ``datum=`` (FIDE's lists are of the 1st of
a month)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from bot.core.commands.context import UserError
from bot.ratings.lists import MAX_LISTED, Listed, RatingList, clean_name

_HEADING = re.compile(r"^ID Number\s+Name\s", re.IGNORECASE)
_COLUMN = re.compile(r"ID Number|\S+")
_RATINGS = ("srtng", "rating")  # the standard rating: the combined list's SRtng, a one-tempo list's Rating


def looks_like_txt(text: str) -> bool:
    return bool(_HEADING.match(text.lstrip("\ufeff")[:200]))


def looks_like_xml(text: str) -> bool:
    head = text.lstrip()[:300].lower()
    return head.startswith("<?xml") or head.startswith("<playerslist")


def _rating(text: str) -> int | None:
    value = text.strip()
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) <= 4 else None


def parse_txt(text: str) -> RatingList:
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not _HEADING.match(lines[0]):
        raise UserError("ratings_unknown_format")
    starts = [(m.start(), m.group().lower()) for m in _COLUMN.finditer(lines[0])]
    names = [n for _, n in starts]
    rating_name = next((n for n in _RATINGS if n in names), None)
    if "name" not in names or "fed" not in names:
        raise UserError("ratings_fide_columns")
    if rating_name is None:  # a one-tempo list names its rating column by the month (NOV26)
        after_fed = names[names.index("fed") + 1 :]
        rating_name = next((n for n in after_fed if re.fullmatch(r"[a-z]{3}\d{2}", n)), None)
        if rating_name is None:
            raise UserError("ratings_fide_columns")
    spans = {name: (start, starts[i + 1][0] if i + 1 < len(starts) else None) for i, (start, name) in enumerate(starts)}

    def cell(line: str, name: str) -> str:
        start, end = spans[name]
        return line[start:end] if end is not None else line[start:]

    players: list[Listed] = []
    for line in lines[1:]:
        number = cell(line, "id number").strip()
        if not number.isascii() or not number.isdigit() or len(number) > 10:
            continue
        players.append(Listed(number, clean_name(cell(line, "name")), _rating(cell(line, rating_name)),
                              cell(line, "fed").strip()[:3]))  # fmt: skip
        if len(players) > MAX_LISTED:
            raise UserError("ratings_unknown_format")
    return RatingList("fide", tuple(players))


def parse_xml(text: str) -> RatingList:
    head = text[:100_000].upper()
    if "<!DOCTYPE" in head or "<!ENTITY" in text.upper():
        raise UserError("ratings_xml_refused")
    try:
        root = ET.fromstring(text.lstrip("\ufeff").encode("utf-8"))
    except ET.ParseError:
        raise UserError("ratings_xml_refused") from None
    if root.tag.lower() != "playerslist":
        raise UserError("ratings_unknown_format")
    players: list[Listed] = []
    for player in root.iter("player"):
        number = (player.findtext("fideid") or "").strip()
        if not number.isascii() or not number.isdigit() or len(number) > 10:
            continue
        players.append(Listed(number, clean_name(player.findtext("name") or ""), _rating(player.findtext("rating") or ""),
                              (player.findtext("country") or "").strip()[:3]))  # fmt: skip
    return RatingList("fide", tuple(players))
