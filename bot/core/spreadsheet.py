"""Tables as CSV files a spreadsheet opens as they are: Dutch Excel reads ``;`` as its column separator
and UTF-8 only with a byte order mark, so that is the default (``,`` on request: ``SEPARATOR_WORDS``).

A cell Excel or LibreOffice would run as a formula (one that starts with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return: a member named ``=HYPERLINK(...)``) gets a leading ``'``, which makes it text; a plain
number (``-3``, ``+1,5``) stays a number.
"""

from __future__ import annotations

import csv
import io
import re

from bot.core.replies import Table

SEPARATOR_WORDS = {"puntkomma": ";", "semicolon": ";", "komma": ",", "comma": ","}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


def safe_cell(value: object) -> str:
    """The cell's text, with a ``'`` before anything a spreadsheet would take for a formula."""
    text = str(value)
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_file(sections: list[tuple[str, Table]], separator: str = ";") -> bytes:
    """One or more tables, each under its title and an empty line apart, as a CSV file (UTF-8 with a
    byte order mark)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    for number, (title, table) in enumerate(sections):
        if number:
            writer.writerow([])
        writer.writerow([safe_cell(title)])
        writer.writerow([safe_cell(h) for h in table.headers])
        writer.writerows([safe_cell(c) for c in row] for row in table.rows)
    return "\ufeff".encode() + out.getvalue().encode("utf-8")
