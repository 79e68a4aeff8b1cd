"""The EGD's rating list (the European Go Database, europeangodatabase.eu, "Download": ``all.hst`` and
the page ``allworld_lp.html`` that shows the same text in a ``<pre>``): one player a line in fixed
columns, ``PIN  Surname Name  Country  Club  Grade  GoR`` and after them the number of tournaments and
the last one's code (``T261101A``). The PIN is 8 digits; the country two letters; the club at most four
characters (``xxxx`` for none); the grade as ``5k``, ``2d`` or ``1p``; the GoR a whole number. A line is
read by that order, so the widths of each edition do not matter; anything else (a heading, the page's
HTML) is passed over. The list's date is in its heading where the file has one (``2026-11-01``), else
the director gives ``datum=``."""

from __future__ import annotations

import html
import re

from bot.ratings.lists import MAX_LISTED, Listed, RatingList, clean_name, day_in

_LINE = re.compile(
    r"^\s*(?P<pin>\d{8})\s+(?P<name>\S.*?)\s+(?P<country>[A-Z]{2})\s+(?P<club>\S{1,4})\s+"
    r"(?P<grade>\d{1,2}[kdpKDP])\s+(?P<gor>-?\d{1,4})(?:\s|$)"
)
_TAG = re.compile(r"<[^>]{0,500}>")


def looks_like(text: str) -> bool:
    return sum(1 for line in text.splitlines()[:200] if _LINE.match(html.unescape(_TAG.sub("", line)))) >= 1


def parse(text: str) -> RatingList:
    players: list[Listed] = []
    heading: list[str] = []
    for raw in text.splitlines():
        line = html.unescape(_TAG.sub("", raw)) if "<" in raw or "&" in raw else raw
        match = _LINE.match(line)
        if match is None:
            if not players and len(heading) < 50:
                heading.append(line)
            continue
        gor = int(match["gor"])
        players.append(Listed(match["pin"], clean_name(match["name"]), gor if gor > 0 else None, match["country"]))
        if len(players) > MAX_LISTED:
            break
    return RatingList("egd", tuple(players), day_in("\n".join(heading)))
