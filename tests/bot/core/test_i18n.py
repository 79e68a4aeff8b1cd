"""The catalogues: both languages have the same keys and the same placeholders, and every key the code
uses exists."""

from __future__ import annotations

from tests.paths import REPO

import re
import string

from bot.core.i18n import LANGUAGES, catalogue

ROOT = REPO


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    nl = catalogue("nl")
    for language in LANGUAGES:
        other = catalogue(language)
        assert other.keys() == nl.keys(), language
        for key in nl:
            assert placeholders(other[key]) == placeholders(nl[key]), (language, key)


def test_every_key_used_in_the_code_exists() -> None:
    used: set[str] = set()
    pattern = re.compile(r"""(?:\bt\([^,()]+,\s*|ctx\.t\(|UserError\()\s*["']([a-z0-9_]+)["']""")
    for path in (ROOT / "bot").rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert used, "the pattern found no keys at all"
    missing = used - catalogue("nl").keys()
    assert not missing, sorted(missing)
