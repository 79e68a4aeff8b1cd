"""Long text as chat messages within a platform's limit, for every adapter: prose and table rows packed in
order, the rows inside a block (Discord's code block, Telegram's ``<pre>``) that is closed at the end of each
message and opened again in the next, with the table's header repeated at the top where one is given."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def segments(text: str, size: int) -> list[str]:
    """``text`` in pieces of at most ``size`` characters (one empty piece for an empty text)."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def pack(
    pieces: Iterable[tuple[bool, str, str | None]], limit: int, opening: str, closing: str,
    measure: Callable[[str], int] = len,
) -> list[str]:  # fmt: skip
    """Messages of at most ``limit`` (as ``measure`` counts) from ``pieces``: (inside a block?, the text as
    the platform shows it, the block's header to repeat at the top of a new message or None). A piece
    never fits only alone in a message: it starts one."""
    chunks: list[str] = []
    current, in_block = "", False
    for is_block, text, head in pieces:
        while True:
            if not current:
                glue = opening if is_block else ""
                if head is not None and not head.startswith(text):
                    glue += head + "\n"
            elif is_block == in_block:
                glue = "\n"
            else:
                glue = "\n" + opening if is_block else closing + "\n"
            candidate = current + glue + text
            if not current or measure(candidate + (closing if is_block else "")) <= limit:
                current, in_block = candidate, is_block
                break
            chunks.append(current + (closing if in_block else ""))
            current, in_block = "", False
    if current:
        chunks.append(current + (closing if in_block else ""))
    return [c for c in chunks if c.strip()]
