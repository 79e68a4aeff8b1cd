"""The EGD's rating list (the European Go Database, europeangodatabase.eu, "Download": ``all.hst`` and
the page ``allworld_lp.html`` that shows the same text in a ``<pre>``): one player a line, the PIN first
(8 digits), then the name (surname first, with spaces), then the columns the list's heading line names.
The heading is read for which columns follow the name and in what order (``Country Club Grade Grade_n
GoR Tot_Tournaments Last_Appearance`` in the published list: ``Grade_n`` is the grade the player is
proposed for, ``--`` for none); a column the reader does not know is passed over as one word, so a list
that adds or moves a column is still read. Of the columns the reader takes the country (two letters),
the club (at most four characters, ``xxxx`` for none), the grade (``5k``, ``2d``, ``1p``) and the GoR (a
whole number); what follows the GoR is not read. A list without a heading line it recognises is read in
the published order. Anything else (other heading lines, the page's HTML) is passed over. The list's
date is in its heading where the file has one (``2026-11-01``, or as the page writes it in English above
its list, ``(27 Nov 2026)``: what pairgoth's EGF reader reads it by), else the director gives ``datum=``."""

from __future__ import annotations

import html
import re
from datetime import date

from bot.core.output.calendar import FIRST_YEAR, LAST_YEAR
from bot.ratings.lists import MAX_LISTED, Listed, RatingList, clean_name, day_in

# A column's name in a heading (lower case, ``_`` and ``-`` as spaces) -> what the reader calls it.
_NAMES = {
    "pin": "pin", "pin player": "pin", "egd pin": "pin",
    "name": "name", "surname": "name", "last name": "name", "first name": "name", "surname name": "name",
    "co": "country", "cc": "country", "country": "country", "country code": "country",
    "club": "club", "grade": "grade", "rank": "grade", "gor": "gor", "rating": "gor",
}  # fmt: skip
# What each known column's cell looks like; any other column is one word.
_CELL = {
    "country": r"(?P<country>[A-Z]{2})", "club": r"(?P<club>\S{1,4})",
    "grade": r"(?P<grade>\d{1,2}[kdpKDP])", "gor": r"(?P<gor>-?\d{1,4})",
}  # fmt: skip
PUBLISHED = ("country", "club", "grade", "grade_n", "gor")  # all.hst's order after the name
_TAG = re.compile(r"<[^>]{0,500}>")
_WRITTEN_DAY = re.compile(r"\b(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{4})\b")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _day_written(heading: str) -> date | None:
    """The page's date in English words (``27 Nov 2026``), within the years a list may have."""
    match = _WRITTEN_DAY.search(heading)
    if match is None:
        return None
    try:
        day = date(int(match[3]), _MONTHS.index(match[2]) + 1, int(match[1]))
    except ValueError:
        return None
    return day if FIRST_YEAR <= day.year <= LAST_YEAR else None


def _line_pattern(after_name: tuple[str, ...]) -> re.Pattern[str]:
    """A player's line whose columns after the name are ``after_name`` (up to the GoR)."""
    cells = [_CELL.get(column, r"\S+") for column in after_name[: after_name.index("gor") + 1]]
    return re.compile(r"^\s*(?P<pin>\d{8})\s+(?P<name>\S.*?)\s+" + r"\s+".join(cells) + r"(?:\s|$)")


def heading_columns(line: str) -> tuple[str, ...] | None:
    """The columns after the name that a heading line names, in its order, or None when the line is no
    heading of a player list (it names no PIN, name, grade and GoR, or names a column twice)."""
    words = [w.strip(".:").lower().replace("_", " ").replace("-", " ") for w in line.split()]
    columns = [_NAMES.get(w, w) for w in words]
    if not {"pin", "name", "country", "club", "grade", "gor"} <= set(columns) or columns[0] != "pin":
        return None
    first = min(columns.index(c) for c in ("country", "club", "grade", "gor"))
    if "name" not in columns[1:first]:
        return None  # the name is not between the PIN and the other columns
    after = tuple(columns[first:])  # the words between the PIN and these are the name's (``Pin Player Name``)
    if "name" in after or after.index("gor") < after.index("grade") or len(set(after)) != len(after):
        return None
    return after


_PUBLISHED_LINE = _line_pattern(PUBLISHED)


def _plain(raw: str) -> str:
    return html.unescape(_TAG.sub("", raw)) if "<" in raw or "&" in raw else raw


def looks_like(text: str) -> bool:
    return any(heading_columns(_plain(line)) is not None or _PUBLISHED_LINE.match(_plain(line))
               for line in text.splitlines()[:200])  # fmt: skip


def parse(text: str) -> RatingList:
    players: list[Listed] = []
    heading: list[str] = []
    line_pattern = _PUBLISHED_LINE
    for raw in text.splitlines():
        line = _plain(raw)
        match = line_pattern.match(line)
        if match is None:
            if not players and len(heading) < 50:
                heading.append(line)
                columns = heading_columns(line)
                if columns is not None:
                    line_pattern = _line_pattern(columns)
            continue
        gor = int(match["gor"])
        players.append(Listed(match["pin"], clean_name(match["name"]), gor if gor > 0 else None, match["country"]))
        if len(players) > MAX_LISTED:
            break
    said = "\n".join(heading)
    return RatingList("egd", tuple(players), day_in(said) or _day_written(said))
