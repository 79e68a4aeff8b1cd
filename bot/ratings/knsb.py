"""The KNSB rating list as the KNSB publishes it for download (schaakbond.nl, "Rating" > downloadpagina;
the same list ratingviewer.nl shows): a CSV file, one player a line under a line of column names, with
at least the columns ``Relatienummer`` (the KNSB relatienummer), ``Naam`` and ``Rating``; other columns
(FIDE ID, federation, title, games, birth year, club) are read where they are and otherwise passed over.
Columns are found by their names, not their places, separated by ``;`` (Dutch Excel), ``,`` or a tab.
The list's date is in a heading line above the column names when the file has one ("Ratinglijst
1 november 2026" is not read: only ``2026-11-01`` or ``1-11-2026``), else the director gives ``datum=``."""

from __future__ import annotations

import csv
import io

from bot.core.commands.context import UserError
from bot.ratings.lists import MAX_LISTED, Listed, RatingList, clean_name, day_in

_ID = ("relatienummer", "relnr", "relatienr", "knsb", "knsbnummer", "bondsnummer", "knsb nummer")
_NAME = ("naam", "name", "spelersnaam")
_RATING = ("rating", "knsb rating", "knsbrating", "elo", "knsb-rating")
_FED = ("fed", "federatie", "federation", "nat")


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    cells = [" ".join(c.strip().lower().split()) for c in header]
    for name in names:
        if name in cells:
            return cells.index(name)
    return None


def looks_like(text: str) -> bool:
    head = text[:4000].lower()
    return any(w in head for w in ("relatienummer", "relnr", "knsb")) and "naam" in head


def parse(text: str) -> RatingList:
    lines = text.splitlines()
    for at, line in enumerate(lines[:20]):  # the column names, under a heading line or two
        separator = next((s for s in (";", "\t", ",") if s in line), None)
        if separator is None:
            continue
        header = next(csv.reader([line], delimiter=separator))
        where = _column(header, _ID), _column(header, _NAME), _column(header, _RATING)
        if None not in where:
            break
    else:
        raise UserError("ratings_knsb_columns")
    ident, name, rating = where
    assert ident is not None and name is not None and rating is not None
    fed = _column(header, _FED)
    players: list[Listed] = []
    reader = csv.reader(io.StringIO("\n".join(lines[at + 1 :])), delimiter=separator)
    try:
        for cells in reader:
            if len(cells) <= max(ident, name, rating):
                continue
            number, value = cells[ident].strip(), cells[rating].strip()
            if not number.isascii() or not number.isdigit() or len(number) > 10:
                continue
            players.append(Listed(number, clean_name(cells[name]), int(value) if value.isascii() and value.isdigit() and len(value) <= 4 else None,
                                  cells[fed].strip()[:3] if fed is not None and len(cells) > fed else ""))  # fmt: skip
            if len(players) > MAX_LISTED:
                raise UserError("ratings_unknown_format")
    except csv.Error:
        raise UserError("ratings_knsb_columns") from None
    return RatingList("knsb", tuple(players), day_in("\n".join(lines[:at])))
