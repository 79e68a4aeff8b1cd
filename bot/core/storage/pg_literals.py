"""Values written into a statement as literals, for the PostgreSQL store's kept writes (``write_later`` in
``bot/core/storage/postgres.py``: several changes sent as one simple query)."""

from __future__ import annotations

import math
import re
from typing import Any

_PLACEHOLDER = re.compile(r"\$(\d+)")


def literal_sql(sql: str, params: tuple[Any, ...]) -> str | None:
    """``sql`` (with ``$1``...) with its values written in as literals, for a simple query; None when a
    value has no literal that says it exactly (bytes, a bool, a NUL character, an infinite number): that
    statement goes with its parameters. Text is an escape string (``E'...'``, its backslashes and quotes
    doubled), whatever ``standard_conforming_strings`` says."""
    literals: list[str] = []
    for value in params:
        if value is None:
            literals.append("NULL")
        elif type(value) is int:
            literals.append(str(value))
        elif type(value) is float and math.isfinite(value):
            literals.append(repr(value))
        elif type(value) is str and "\x00" not in value:
            literals.append("E'" + value.replace("\\", "\\\\").replace("'", "''") + "'")
        else:
            return None
    numbers = [int(n) for n in _PLACEHOLDER.findall(sql)]
    if sorted(set(numbers)) != list(range(1, len(params) + 1)):
        return None
    return _PLACEHOLDER.sub(lambda m: literals[int(m.group(1)) - 1], sql)
