"""The board picture: a PNG that grows with the board, stones where they are, the last move ringed,
dead stones crossed in red, and the text board for text-only chats."""

from __future__ import annotations

import io

from PIL import Image

from bot.go.pictures import CELL, board_png, board_text
from engine.go import BLACK, WHITE, parse_point


def test_board_picture_marks_the_last_move_and_dead_stones() -> None:
    cells = bytearray(81)
    e5, c3, g7 = parse_point("E5", 9), parse_point("C3", 9), parse_point("G7", 9)
    cells[e5] = BLACK
    cells[c3] = BLACK
    cells[g7] = WHITE
    image = Image.open(io.BytesIO(board_png(9, cells, last=e5, dead=frozenset({g7}), caption=("Zwart - Wit",))))
    assert image.format == "PNG"
    rgb = image.convert("RGB")
    margin = CELL[9] + CELL[9] // 3 + 6

    def at(point: int, dx: int = 0) -> tuple[int, int, int]:
        y, x = divmod(point, 9)
        return rgb.getpixel((margin + x * CELL[9] + dx, margin + y * CELL[9]))

    assert sum(at(c3)) < 100  # a black stone
    ring = CELL[9] // 4  # the last move's ring is light on the black stone
    assert any(sum(at(e5, dx)) > 600 for dx in range(ring - 3, ring + 3))
    assert at(g7)[0] > 150 and at(g7)[1] < 80  # the red cross through the dead white stone
    big = Image.open(io.BytesIO(board_png(19, bytearray(361))))
    assert big.width > image.width


def test_board_text() -> None:
    cells = bytearray(81)
    cells[parse_point("A1", 9)] = BLACK
    cells[parse_point("J9", 9)] = WHITE
    text = board_text(9, cells, last=parse_point("J9", 9))
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHJ")
    assert lines[1].endswith("(O)") and lines[9].startswith(" 1  X")
