"""Pictures of what the bot shows: a table (standings, pairings) as a PNG, drawn with Pillow in the
fonts of ``bot/core/fonts.py`` (every script a member's name can have; the same files on every machine
the install step sets up)."""

from __future__ import annotations

import functools
import io
import json

from PIL import Image, ImageDraw

from bot.core.fonts import text_mask

from bot.core.replies import Table

FONT_SIZE = 18
PAD = 14
GAP = 22
LINE = FONT_SIZE + 10
# Shades of grey: the picture is drawn in Pillow's "L" mode, a third of the bytes of RGB to draw and to
# compress, with the same anti-aliased text.
BACKGROUND = 255
INK = 25
HEADER = 236
STRIPE = 247
MAX_ROWS = 40  # rows a picture shows: a phone shows it whole (longer tables: pages, or the text/file)
MAX_SIDE = 1280  # Telegram shrinks a photo to 1280 px on its long side: never draw a longer one


@functools.lru_cache(maxsize=4096)  # names and numbers come back in every picture of a season
def _text(text: str, size: int) -> tuple[Image.Image, int]:
    """``text`` drawn once as a mask (white on black, from the origin), and its width."""
    return text_mask(text, size)


def _width(text: str, size: int = FONT_SIZE) -> int:
    return _text(text, size)[1]


def _draw(image: Image.Image, xy: tuple[int, int], text: str, size: int = FONT_SIZE) -> None:
    if text:
        image.paste(INK, xy, _text(text, size)[0])


def table_png(title: str, table: Table, notes: tuple[str, ...] = ()) -> bytes:
    """The table under its title (and notes below it) as PNG bytes; numbers are right-aligned. At most
    ``MAX_ROWS`` rows (a note says how many more the text holds), and never longer than ``MAX_SIDE`` on
    its long side (a wide table is scaled down to fit)."""
    rows = table.rows[:MAX_ROWS]
    if len(table.rows) > MAX_ROWS:
        notes = (*notes, f"+{len(table.rows) - MAX_ROWS} …")
    title_size = FONT_SIZE + 4
    cells = [table.headers, *rows]
    widths = [max(_width(row[i]) for row in cells) for i in range(len(table.headers))]
    numeric = [all(_is_number(row[i]) for row in rows if row[i]) and any(row[i] for row in rows) for i in range(len(widths))]
    width = max(
        sum(widths) + GAP * (len(widths) - 1) + 2 * PAD,
        _width(title, title_size) + 2 * PAD,
        *(_width(note) + 2 * PAD for note in notes),
    )
    height = PAD + LINE + 6 + LINE * len(cells) + LINE * len(notes) + PAD
    image = Image.new("L", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw(image, (PAD, PAD), title, title_size)
    top = PAD + LINE + 6
    for r, row in enumerate(cells):
        y = top + r * LINE
        if r == 0:
            draw.rectangle((0, y - 3, width, y + LINE - 5), fill=HEADER)
        elif r % 2 == 0:
            draw.rectangle((0, y - 3, width, y + LINE - 5), fill=STRIPE)
        x = PAD
        for i, cell in enumerate(row):
            offset = widths[i] - _width(cell) if numeric[i] and r > 0 else 0
            _draw(image, (x + offset, y), cell)
            x += widths[i] + GAP
    for n, note in enumerate(notes):
        _draw(image, (PAD, top + LINE * (len(cells) + n)), note)
    if max(image.size) > MAX_SIDE:
        scale = MAX_SIDE / max(image.size)
        image = image.resize((max(1, round(image.size[0] * scale)), max(1, round(image.size[1] * scale))), Image.LANCZOS)
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

