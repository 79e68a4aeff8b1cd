"""Pictures of what the bot shows: a table (standings, pairings) as a PNG, drawn with Pillow.

Only Pillow's own bundled font is used, so the picture looks the same on every machine.
"""

from __future__ import annotations

import functools
import io
import json

from PIL import Image, ImageDraw, ImageFont

from bot.core.replies import Table

FONT_SIZE = 18
PAD = 14
GAP = 22
LINE = FONT_SIZE + 10
BACKGROUND = (255, 255, 255)
INK = (25, 25, 25)
HEADER = (235, 238, 245)
STRIPE = (247, 247, 247)
MAX_ROWS = 300


@functools.lru_cache(maxsize=8)  # loading a font costs more than drawing a table with it
def _font(size: int = FONT_SIZE) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _width(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> int:
    left, _, right, _ = draw.textbbox((0, 0), text, font=font)
    return int(right - left)


def table_png(title: str, table: Table, notes: tuple[str, ...] = ()) -> bytes:
    """The table under its title (and notes below it) as PNG bytes; numbers are right-aligned."""
    rows = table.rows[:MAX_ROWS]
    font = _font()
    bold = _font(FONT_SIZE + 4)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    cells = [table.headers, *rows]
    widths = [max(_width(probe, row[i], font) for row in cells) for i in range(len(table.headers))]
    numeric = [all(_is_number(row[i]) for row in rows if row[i]) and any(row[i] for row in rows) for i in range(len(widths))]
    width = max(
        sum(widths) + GAP * (len(widths) - 1) + 2 * PAD,
        _width(probe, title, bold) + 2 * PAD,
        *(_width(probe, note, font) + 2 * PAD for note in notes),
    )
    height = PAD + LINE + 6 + LINE * len(cells) + LINE * len(notes) + PAD
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title, font=bold, fill=INK)
    top = PAD + LINE + 6
    for r, row in enumerate(cells):
        y = top + r * LINE
        if r == 0:
            draw.rectangle((0, y - 3, width, y + LINE - 5), fill=HEADER)
        elif r % 2 == 0:
            draw.rectangle((0, y - 3, width, y + LINE - 5), fill=STRIPE)
        x = PAD
        for i, cell in enumerate(row):
            offset = widths[i] - _width(draw, cell, font) if numeric[i] and r > 0 else 0
            draw.text((x + offset, y), cell, font=font, fill=INK)
            x += widths[i] + GAP
    for n, note in enumerate(notes):
        draw.text((PAD, top + LINE * (len(cells) + n)), note, font=font, fill=INK)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # fast; hardly larger for a table
    return out.getvalue()


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", "."))
    except ValueError:
        return False
    return True


def picture_spec(title: str, table: Table, notes: tuple[str, ...] = ()) -> str:
    """What a table picture shows, as JSON text to keep (an announcement's picture is drawn when sent)."""
    return json.dumps(
        {"title": title, "headers": list(table.headers), "rows": [list(r) for r in table.rows], "notes": list(notes)},
        ensure_ascii=False,
    )


def render_spec(spec: str) -> bytes:
    """Draw a picture kept by ``picture_spec``."""
    data = json.loads(spec)
    table = Table(headers=tuple(data["headers"]), rows=tuple(tuple(r) for r in data["rows"]))
    return table_png(data["title"], table, tuple(data.get("notes", ())))

