"""Message catalogues: one key per message, Dutch (default) and English. No sentences live in code."""

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
    with open(_DIR / f"{language}.json", encoding="utf-8") as fh:
        data: dict[str, str] = json.load(fh)
    return data


def t(language: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``language`` (falling back to Dutch), with ``values`` filled in."""
    lang = language if language in LANGUAGES else DEFAULT_LANGUAGE
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue(DEFAULT_LANGUAGE)[key]
    return template.format(**values)
