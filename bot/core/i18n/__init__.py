"""Message catalogues: one key per message, Dutch (default) and English. No sentences live in code.

Every package keeps its own sentences in an ``i18n/<language>/`` folder of JSON files beside its code
(``bot/core/i18n/nl/core.json``, ``bot/keizer/i18n/nl/keizer.json``, ``bot/adapters/i18n/en/discord.json``,
...), so a new system brings its texts along and the core needs to know none of them. All the files of
one language are merged when first used; a key defined in two files of one language is an error.

Counts take the form of their number: ``{games:# partij|# partijen}`` reads "1 partij", "2 partijen",
"0 partijen" (``#`` is the number; Dutch and English both use the first form for exactly 1), and with
three forms the first is for 0: ``{round:voor de eerste ronde|na ronde #|na ronde #}``. Write every
number that counts something this way (``tests/bot/core/test_plurals.py`` finds those that do not).
"""

from __future__ import annotations

import json
import string
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

LANGUAGES = ("nl", "en")
DEFAULT_LANGUAGE = "nl"
BOT_DIR = Path(__file__).resolve().parents[2]


def catalogue_files(language: str) -> list[Path]:
    """Every catalogue file of ``language`` in the bot's packages, in a fixed order."""
    return sorted(BOT_DIR.glob(f"**/i18n/{language}/*.json"))


@lru_cache(maxsize=None)
def catalogue(language: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in catalogue_files(language):
        with open(path, encoding="utf-8") as fh:
            data: dict[str, str] = json.load(fh)
        clash = merged.keys() & data.keys()
        if clash:
            raise ValueError(f"{path}: keys defined twice in {language}: {sorted(clash)}")
        merged.update(data)
    return merged


def t(language: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``language`` (falling back to Dutch), with ``values`` filled in."""
    lang = language if language in LANGUAGES else DEFAULT_LANGUAGE
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue(DEFAULT_LANGUAGE)[key]
    if "|" in template:  # may hold a count's forms
        parts = _count_parts(template)
        if parts is None:
            return _COUNTS.format(template, **values)
        return _fill(parts, values)
    return template.format(**values)


def plural_form(value: object, forms: str) -> str:
    """The form of ``forms`` (``one|other`` or ``zero|one|other``) for the number ``value``, with ``#``
    as the number. Dutch and English: "one" is exactly 1; a number typed as text counts as its value."""
    choices = forms.split("|")
    number: object = value
    if isinstance(value, str):
        try:
            number = Fraction(value.strip().replace(",", "."))
        except (ValueError, ZeroDivisionError):
            number = None
    if len(choices) == 3 and number == 0:
        chosen = choices[0]
    elif number == 1:
        chosen = choices[-2]
    else:
        chosen = choices[-1]
    return chosen.replace("#", str(value))


class _CountFormatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            return plural_form(value, format_spec)
        return str(super().format_field(value, format_spec))


_COUNTS = _CountFormatter()


# A template with counts, read once: (text before, field name or None, format spec, conversion) as
# ``string.Formatter.parse`` reads it; filled by ``_fill`` exactly as ``_COUNTS.format`` fills it, without
# the formatter's Python machinery on every message (a third of a standings reply's CPU).
_Parts = tuple[tuple[str, str | None, str, str | None], ...]
_CONVERT: dict[str | None, Callable[[Any], object]] = {None: lambda v: v, "s": str, "r": repr, "a": ascii}


@lru_cache(maxsize=None)
def _count_parts(template: str) -> _Parts | None:
    """None for what only the formatter itself may fill (an attribute, an index, a field inside a spec,
    a template it refuses): that goes to ``_COUNTS.format`` as before."""
    parts: list[tuple[str, str | None, str, str | None]] = []
    try:
        for literal, field, spec, conversion in _COUNTS.parse(template):
            if field is None:
                parts.append((literal, None, "", None))
            elif field.isidentifier() and "{" not in (spec or "") and conversion in _CONVERT:
                parts.append((literal, field, spec or "", conversion))
            else:
                return None
    except ValueError:
        return None
    return tuple(parts)


def _fill(parts: _Parts, values: dict[str, Any]) -> str:
    out = []
    for literal, field, spec, conversion in parts:
        out.append(literal)
        if field is not None:
            out.append(_COUNTS.format_field(_CONVERT[conversion](values[field]), spec))
    return "".join(out)
