"""Pictures: a real PNG whose size follows the table, with every row drawn."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.pictures import table_png
from bot.core.replies import Table


def test_standings_picture_is_a_png_that_grows_with_the_table() -> None:
    small = Table(("#", "Naam", "Punten"), (("1", "Anna", "48"), ("2", "Bert", "16.33")))
    big = Table(small.headers, tuple((str(i), f"Speler {i} met een lange naam", str(100 - i)) for i in range(1, 41)))
    a = Image.open(io.BytesIO(table_png("Stand na ronde 1", small)))
    b = Image.open(io.BytesIO(table_png("Stand na ronde 1", big, notes=("Vrij: Eva",))))
    assert a.format == "PNG" and b.format == "PNG"
    assert b.height > a.height * 5 and b.width > a.width
    # something is drawn on every row band: dark pixels in each line of the big table
    pixels = b.convert("L").load()
    for row in range(42):
        y0 = 14 + 28 + 6 + row * 28
        assert any(pixels[x, y] < 100 for x in range(b.width) for y in range(y0, min(y0 + 20, b.height))), row
