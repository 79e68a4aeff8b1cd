"""``/exporteer csv`` opens in a Dutch Excel as a table (semicolons, UTF-8 with a byte order mark) and a
cell that Excel would run as a formula (a name starting with ``=``, ``+``, ``-`` or ``@``) is text."""

from __future__ import annotations

import csv
import io

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, ok

HOSTILE = ['=HYPERLINK("http://evil.example","klik")', "@SUM(1+1)", "+31 6 1234", "-Anna", "Bert; Jansen"]


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '\\"') + '"'


async def _season(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for rating, name in enumerate(HOSTILE):
        await ok(commands, DIRECTOR, f"/speler {_quoted(name)} {1500 + rating}")


async def test_csv_for_a_dutch_excel_with_formulas_made_text(commands: Core) -> None:
    await _season(commands)
    reply = await commands.handle(DIRECTOR, "/exporteer csv")
    assert reply.ok and reply.attachment is not None
    name, content = reply.attachment
    assert name == "S.csv" and content.startswith(b"\xef\xbb\xbf")  # UTF-8 with a byte order mark
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    assert rows[1] == ["#", "Naam", "Punten", "Waarde", "Gesp."]
    names = {row[1] for row in rows[2:7]}
    assert names == {"'" + HOSTILE[0], "'@SUM(1+1)", "'+31 6 1234", "'-Anna", "Bert; Jansen"}, rows
    cells = [cell for row in rows for cell in row]
    assert not any(cell[:1] in ("=", "+", "-", "@") for cell in cells), cells


async def test_csv_with_commas_on_request(commands: Core) -> None:
    await _season(commands)
    reply = await commands.handle(DIRECTOR, "/exporteer csv komma")
    assert reply.ok and reply.attachment is not None
    rows = list(csv.reader(io.StringIO(reply.attachment[1].decode("utf-8-sig")), delimiter=","))
    assert rows[1] == ["#", "Naam", "Punten", "Waarde", "Gesp."]
    assert {row[1] for row in rows[2:7]} >= {"'-Anna", "Bert; Jansen"}
