"""Pictures: a real PNG whose size follows the table, with every row drawn."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.output.pictures import table_png
from bot.core.commands.replies import Table


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


def test_no_picture_is_longer_than_a_phone_shows() -> None:
    """Telegram shrinks a photo to 1280 px on its long side: a 150-member table (397x4290 px before) shows
    40 rows and says how many more; a wide cross table is scaled to fit."""
    import io as _io

    from PIL import Image as _Image

    from bot.core.output.pictures import MAX_ROWS, MAX_SIDE, table_png
    from bot.core.commands.replies import Table as _Table

    tall = _Table(headers=("#", "Naam", "Punten"), rows=tuple((str(i), f"Speler {i:03d}", str(1000 - i)) for i in range(150)))
    image = _Image.open(_io.BytesIO(table_png("Stand", tall)))
    assert max(image.size) <= MAX_SIDE
    assert image.size[1] < 50 * (MAX_ROWS + 6)
    wide = _Table(headers=("#", "Naam", *(str(r) for r in range(1, 29))), rows=tuple((str(i), f"Speler {i}", *("12w1",) * 28) for i in range(40)))
    image = _Image.open(_io.BytesIO(table_png("Kruistabel", wide)))
    assert max(image.size) <= MAX_SIDE


def test_a_wide_table_stays_readable_at_a_phones_width() -> None:
    """A phone's chat bubble shows a picture about 600 px of text wide: an NK round table of 12 columns
    (1,280 px wide before, its text about 3 px tall on a phone) is drawn at most PHONE_WIDTH wide at its
    full font size, its columns in blocks under each other (each with the place and the name), never
    scaled down."""
    import io as _io

    from PIL import Image as _Image

    from bot.core.output.pictures import MAX_SIDE, PHONE_WIDTH, table_png
    from bot.core.commands.replies import Table as _Table

    headers = ("#", "Naam", "Club", "Rating", "Groep", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "Punten", "SOS")
    rows = tuple(
        (str(i), f"Speler met een lange naam {i:03d}", "Amstelveen GC", "2150", "1", *("12+/w",) * 7, "3", "18")
        for i in range(1, 76)
    )  # fmt: skip
    image = _Image.open(_io.BytesIO(table_png("NK ronde 7", _Table(headers=headers, rows=rows))))
    assert image.size[0] <= PHONE_WIDTH and image.size[1] <= MAX_SIDE, image.size
    # drawn, not scaled: the header row's text is as tall as on a narrow table
    assert image.size[0] >= PHONE_WIDTH // 2


def test_half_points_are_numbers_right_aligned_like_whole_ones() -> None:
    """A go score after a jigo (``3½``, ``½``) lines up under the whole numbers in the chat's text table
    (found in a month run through the console: ``Jan de Vries  ½  ½  ½  2190`` sat left, under the wrong
    columns); the picture's columns follow the same rule."""
    from bot.core.commands.replies import numeric

    assert all(numeric(c) for c in ("3", "-1", "+2", "24.5", "3,5", "½", "3½", "-1½", "-½"))
    assert not any(numeric(c) for c in ("", "-", "½½", "²", "1-0", "Jan", "1.2.3"))
    text = Table(headers=("Naam", "Pnt", "SOS"), rows=(("Anna", "12", "30"), ("Jan", "½", "3½"))).as_text()
    anna, jan = text.splitlines()[2:]
    assert anna.index("12") + 2 == jan.index("½") + 1 and anna.endswith("30") and jan.endswith("3½")
