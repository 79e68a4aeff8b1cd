"""Issue 44 §3: text tables align CJK and Arabic names. A CJK character takes two columns on a fixed-width
screen and a combining mark none, so a table pads by display width (East Asian width W/F: 2); a cell with
Arabic letters ends in a left-to-right mark, so the number after it keeps its column. The console's
/stand through the real Core, and Discord's narrowing of a table for a phone."""

from __future__ import annotations

import unicodedata

from bot.adapters.discord.render import narrow
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Table
from tests.bot.conftest import DIRECTOR, ok

LRM = "\u200e"


def columns(text: str) -> int:
    """Display columns, counted here by hand from the Unicode tables: W and F are 2, marks and format 0."""
    total = 0
    for c in text:
        if unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return total


async def test_the_standings_align_cjk_and_arabic_names(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    for line in ("王小明 2100", '"محمد علي" 2000', "Anna 1900", "Zoë 1800", "Jose\u0301 1700"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    reply = await commands.handle(DIRECTOR, "/stand")
    assert reply.table is not None
    header, rule, *lines = reply.table.as_text().splitlines()
    assert len(lines) == 5
    assert {columns(line) for line in lines} == {columns(rule)}, reply.table.as_text()  # the last column is a number
    (wang,) = [line for line in lines if "王小明" in line]
    (anna,) = [line for line in lines if "Anna" in line]
    assert columns(wang[: wang.index("王小明") + 3]) == columns(anna[: anna.index("Anna") + 4]) + 2  # 6 columns, not 3
    (arabic,) = [line for line in lines if "محمد" in line]
    assert "محمد علي" + LRM in arabic  # the spaces and digits after it stay left to right


def test_discord_narrows_a_table_with_wide_names_by_columns() -> None:
    table = Table(headers=("#", "Naam", "Punten"), rows=(("1", "王小明王小明王小明王小明", "12"), ("2", "Anna", "7½"),
                                                      ("3", "Abdul محمد علي عبد الله", "3")))  # fmt: skip
    header, rule, *body = table.as_text().splitlines()
    header, rule, *rows = narrow(header, rule, body)
    assert columns(rule) == 1 + 2 + 18 + 2 + 6
    assert {columns(line) for line in (header, *rows)} == {columns(rule)}, "\n".join((header, rule, *rows))
    assert "王小明王小明王小…" in rows[0]  # cut at 17 columns: 8 wide characters, then "…"
    assert rows[0].endswith("    12") and rows[1].endswith("    7½")
    assert LRM in rows[2]
