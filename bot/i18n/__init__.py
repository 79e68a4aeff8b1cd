"""Message catalogues: one key per message, Dutch (default) and English. No sentences live in code.

Each language is a folder of JSON files, one per area of the bot (``nl/keizer.json``, ``nl/go.json``,
...); they are merged when first used, and a key defined in two files of one language is an error.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("nl", "en")
DEFAULT_LANGUAGE = "nl"
_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def catalogue(language: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / language).glob("*.json")):
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
    return template.format(**values)
