"""Pictures of what the bot shows: a table (standings, pairings) as a PNG, drawn with Pillow in the
fonts of ``bot/core/output/fonts.py`` (every script a member's name can have; the same files on every machine
the install step sets up)."""

from __future__ import annotations

import io
import json

from PIL import Image, ImageDraw

from bot.core.output.fonts import drawn_text

from bot.core.commands.replies import Table, numeric

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
PHONE_WIDTH = 640  # a phone's chat bubble shows about 600 px of text: wider pictures shrink their text
MAX_CELL = 260  # px: a longer cell (a name) is clipped with "…" (the text beside the picture has it whole)
KEY_COLUMNS = 2  # place and name: repeated in every block of a table too wide for a phone


def _text(text: str, size: int) -> tuple[Image.Image, int]:
    """``text`` drawn once as a mask (white on black, from the origin), and its width."""
    return drawn_text(text, size)


def _width(text: str, size: int = FONT_SIZE) -> int:
    return _text(text, size)[1]


def _draw(image: Image.Image, xy: tuple[int, int], text: str, size: int = FONT_SIZE) -> None:
    if text:
        image.paste(INK, xy, _text(text, size)[0])


def table_png(title: str, table: Table, notes: tuple[str, ...] = ()) -> bytes:
    """The table under its title (and notes below it) as PNG bytes; numbers are right-aligned. At most
    ``PHONE_WIDTH`` wide at the full font size, as a phone's chat bubble shows it: a long cell (a name) is
    clipped, and a table still wider shows its columns in blocks under each other, each block with the
    first columns (place, name) again. At most ``MAX_ROWS`` rows, fewer when the blocks would make it
    longer than ``MAX_SIDE`` (a note says how many more the text holds); only a picture that still does
    not fit is scaled down."""
    title_size = FONT_SIZE + 4
    text_width = PHONE_WIDTH - 2 * PAD
    headers = tuple(_clip(h) for h in table.headers)
    all_rows = [tuple(_clip(c) for c in row) for row in table.rows]
    widths = [max(_width(row[i]) for row in (headers, *all_rows)) for i in range(len(headers))]
    numbers = [all(numeric(row[i]) for row in all_rows if row[i]) and any(row[i] for row in all_rows) for i in range(len(widths))]
    blocks = _column_blocks(widths)
    fixed = 2 * PAD + LINE + 6 + LINE * (len(notes) + 1) + len(blocks) * (LINE + LINE // 2)
    fit = max(1, (MAX_SIDE - fixed) // (LINE * len(blocks)))
    rows = all_rows[: min(MAX_ROWS, fit)]
    if len(all_rows) > len(rows):
        notes = (*notes, f"+{len(all_rows) - len(rows)} …")
    title = _clip(title, text_width, title_size)
    notes = tuple(_clip(note, text_width) for note in notes)
    width = max(
        *(sum(widths[i] for i in block) + GAP * (len(block) - 1) + 2 * PAD for block in blocks),
        _width(title, title_size) + 2 * PAD,
        *(_width(note) + 2 * PAD for note in notes),
    )
    block_height = LINE * (len(rows) + 1) + LINE // 2
    top = PAD + LINE + 6
    height = top + block_height * len(blocks) + LINE * len(notes) + PAD
    image = Image.new("L", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw(image, (PAD, PAD), title, title_size)
    for b, block in enumerate(blocks):
        for r, row in enumerate([headers, *rows]):
            y = top + b * block_height + r * LINE
            if r == 0:
                draw.rectangle((0, y - 3, width, y + LINE - 5), fill=HEADER)
            elif r % 2 == 0:
                draw.rectangle((0, y - 3, width, y + LINE - 5), fill=STRIPE)
            x = PAD
            for i in block:
                offset = widths[i] - _width(row[i]) if numbers[i] and r > 0 else 0
                _draw(image, (x + offset, y), row[i])
                x += widths[i] + GAP
    for n, note in enumerate(notes):
        _draw(image, (PAD, top + block_height * len(blocks) + LINE * n), note)
    if max(image.size) > MAX_SIDE:
        scale = MAX_SIDE / max(image.size)
        image = image.resize((max(1, round(image.size[0] * scale)), max(1, round(image.size[1] * scale))), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # fast; hardly larger for a table
    return out.getvalue()


def _clip(text: str, limit: int = MAX_CELL, size: int = FONT_SIZE) -> str:
    """``text`` cut with "…" to at most ``limit`` px wide."""
    if _width(text, size) <= limit:
        return text
    while text and _width(text + "…", size) > limit:
        text = text[:-1]
    return text + "…"


def _column_blocks(widths: list[int]) -> list[list[int]]:
    """The columns of each block: all in one when they fit ``PHONE_WIDTH``; else the first
    ``KEY_COLUMNS`` in every block with as many of the others as fit beside them."""
    if sum(widths) + GAP * (len(widths) - 1) + 2 * PAD <= PHONE_WIDTH or len(widths) <= KEY_COLUMNS:
        return [list(range(len(widths)))]
    key = list(range(KEY_COLUMNS))
    used = 2 * PAD + sum(widths[i] for i in key) + GAP * (len(key) - 1)
    blocks: list[list[int]] = []
    current: list[int] = []
    for i in range(KEY_COLUMNS, len(widths)):
        extra = sum(widths[j] + GAP for j in current) + widths[i] + GAP
        if current and used + extra > PHONE_WIDTH:
            blocks.append(key + current)
            current = []
        current.append(i)
    blocks.append(key + current)
    return blocks


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

