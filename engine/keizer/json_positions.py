"""Where each value of a JSON text is: every JSON path (``rounds[2].games[1].white``) mapped to the offset
where its value (and, inside an object, its key) starts, so a file's errors can name line and column."""

from __future__ import annotations

import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]

JsonPath = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?[0-9][0-9.eE+-]*|true|false|null|NaN|-?Infinity")


@dataclass
class JsonPositions:
    values: dict[JsonPath, int]  # path -> offset where its value starts
    keys: dict[JsonPath, int]  # path of an object member -> offset where its key starts
    duplicates: list[JsonPath]  # object members whose key appeared before in the same object


def json_positions(text: str) -> JsonPositions:
    """Map every JSON path in ``text`` to the offset of its value, and (for object members)
    of its key. ``text`` must be valid JSON (run ``json.loads`` first). With duplicate
    keys the last one wins, as in ``json.loads``, and the path is listed in ``duplicates``.

    >>> pos = json_positions('{"a": [1, {"b": 2}]}')
    >>> pos.values[("a", 1, "b")], pos.keys[("a", 1, "b")]
    (16, 11)
    """
    values: dict[JsonPath, int] = {}
    keys: dict[JsonPath, int] = {}
    duplicates: list[JsonPath] = []

    def skip(i: int) -> int:
        match = _WS.match(text, i)
        assert match is not None
        return match.end()

    def value(i: int, path: JsonPath) -> int:
        i = skip(i)
        values[path] = i
        c = text[i]
        if c == "{":
            i = skip(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                i = skip(i)
                start = i
                key, i = scanstring(text, i + 1)
                if path + (key,) in keys:
                    duplicates.append(path + (key,))
                keys[path + (key,)] = start
                i = skip(i)  # at ':'
                i = skip(value(i + 1, path + (key,)))
                if text[i] == "}":
                    return i + 1
                i += 1  # ','
        if c == "[":
            i = skip(i + 1)
            if text[i] == "]":
                return i + 1
            index = 0
            while True:
                i = skip(value(i, path + (index,)))
                if text[i] == "]":
                    return i + 1
                i += 1
                index += 1
        if c == '"':
            return int(scanstring(text, i + 1)[1])
        match = _SCALAR.match(text, i)
        if match is None:  # pragma: no cover - text was valid JSON
            raise ValueError(f"not JSON at offset {i}")
        return match.end()

    value(0, ())
    return JsonPositions(values, keys, duplicates)


def format_path(path: JsonPath) -> str:
    """``("rounds", 2, "games", 1, "white")`` -> ``rounds[2].games[1].white``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column
