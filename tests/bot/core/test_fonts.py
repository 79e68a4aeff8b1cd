"""Every name a member can have is drawn (issue 21, item 1): accents, Greek, Cyrillic, CJK, right-to-left
names in the right order, and an emoji as a plain mark that never breaks the row."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from bot.core.output.fonts import FONT_FILES, MISSING_MARK, fonts, right_to_left, runs, text_mask
from bot.core.output.pictures import table_png
from bot.core.commands.replies import Table


def test_the_fonts_are_installed() -> None:
    missing = [f for f in FONT_FILES if not Path(f).is_file()]
    assert not missing, f"missing {missing}: scripts/install.sh installs fonts-dejavu-core and fonts-droid-fallback"
    assert features.check("raqm"), "Pillow has no Raqm layout (libraqm/FriBiDi): right-to-left names would be reversed"


def same(a: str, b: str) -> bool:
    ma, mb = text_mask(a, 18)[0], text_mask(b, 18)[0]
    return ma.size == mb.size and ImageChops.difference(ma, mb).getbbox() is None


def test_accented_names_are_told_apart_and_are_not_boxes() -> None:
    assert not same("Zoë", "Zoé") and not same("Zoë", "Zoe")
    for name in ("Zoë", "Łukasz", "Şükrü", "Ødegaard", "Nguyễn"):
        assert [index for index, _ in runs(name, 18)] == [0] and MISSING_MARK not in name
        assert not same(name, MISSING_MARK * len(name))


def test_greek_cyrillic_and_cjk_names_are_drawn_from_a_font_that_has_them() -> None:
    for name in ("Σωκράτης", "Дмитрий"):
        assert runs(name, 18) == [(0, name)]
    cjk = "王小明"
    assert runs(cjk, 18) == [(1, cjk)]  # the fallback font: DejaVu has no Chinese
    assert not same(cjk, "王小王") and not same(cjk, MISSING_MARK * 3)
    assert [i for i, _ in runs("Anna 王", 18)] == [0, 1]


@pytest.mark.skipif(not features.check("raqm"), reason="needs Pillow's Raqm layout (checked by test_the_fonts_are_installed)")
def test_right_to_left_names_read_right_to_left() -> None:
    assert right_to_left("דוד כהן") and right_to_left("محمد") and not right_to_left("Anna")
    # "אב" is shown with א on the right: the same picture as "בא" drawn left to right, letter by letter
    font = fonts(18)[0]
    plain = ImageFont.truetype(FONT_FILES[0], 18, layout_engine=ImageFont.Layout.BASIC)
    mask = Image.new("L", (60, 30), 0)
    ImageDraw.Draw(mask).text((0, 0), "בא", font=plain, fill=255)
    drawn = text_mask("אב", 18)[0]
    assert isinstance(font, ImageFont.FreeTypeFont)
    assert ImageChops.difference(drawn.crop((0, 0, 20, 20)), mask.crop((0, 0, 20, 20))).getbbox() is None


def test_an_emoji_becomes_a_plain_mark_and_the_row_stays_whole() -> None:
    assert runs("Anna 🙂", 18)[-1][1].endswith(MISSING_MARK)
    mask, width = text_mask("Anna 🙂 de Vries", 18)
    assert width > text_mask("Anna  de Vries", 18)[1]
    table = Table(headers=("#", "Naam"), rows=(("1", "Zoë"), ("2", "王小明"), ("3", "דוד כהן"), ("4", "Anna 🙂")))
    image = Image.open(io.BytesIO(table_png("Stand", table)))
    assert image.size[0] > 100 and image.size[1] > 100


# one name in each script a member's name may be written in (issue 32, item 6)
NAMES_BY_SCRIPT = {
    "Latin": "Anna de Vries", "Greek": "Σωκράτης", "Cyrillic": "Дмитрий", "Armenian": "Արամ Խաչատրյան",
    "Georgian": "გიორგი", "Hebrew": "דוד כהן", "Arabic": "محمد علي", "Devanagari": "अर्जुन शर्मा",
    "Bengali": "রবীন্দ্রনাথ", "Gurmukhi": "ਗੁਰਪ੍ਰੀਤ", "Gujarati": "ગાંધી", "Tamil": "முருகன்", "Telugu": "వెంకట",
    "Kannada": "ಕೃಷ್ಣ", "Malayalam": "മോഹൻ", "Sinhala": "සුනිල්", "Thai": "สมชาย", "Lao": "ສົມພອນ",
    "Tibetan": "བསྟན་འཛིན", "Ethiopic": "አበበ ቢቂላ", "Khmer": "សុខា", "Han": "王小明", "Hangul": "김민준 이서연 박지훈",
    "Kana": "さくら サトウ",
}  # fmt: skip


@pytest.mark.parametrize("script", sorted(NAMES_BY_SCRIPT))
def test_a_name_in_every_script_is_drawn_not_boxed(script: str) -> None:
    """No character of the name is left to the missing-glyph box: each is drawn by a font whose glyph for
    it differs from that font's .notdef box (fonts found through fontconfig: Debian's Noto fonts)."""
    name = NAMES_BY_SCRIPT[script]
    drawn = "".join(piece for _, piece in runs(name, 18))
    assert MISSING_MARK not in drawn, f"{script}: {name!r} drawn as {drawn!r}"
