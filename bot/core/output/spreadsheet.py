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

from bot.core.commands.replies import Table

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


def file_text(content: bytes) -> str | None:
    """A file people send as text: UTF-8 (with or without Excel's byte order mark), else Windows-1252 (what a
    Dutch Excel saves as "CSV", and FIDE's lists are); None for a file with NUL bytes or that is neither."""
    if b"\x00" in content:
        return None
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return content.decode("cp1252")
    except UnicodeDecodeError:
        return None
