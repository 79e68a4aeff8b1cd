"""How two names are the same name, on every database: case, accents and spacing aside.

The store keeps each member's key beside the name (``members.name_key``) and looks names up by it, so
``/speler émile 1400`` after ``/speler Émile 1300`` changes Émile's rating on SQLite as on PostgreSQL
(SQLite's ``NOCASE`` knew only ASCII, PostgreSQL's ``lower()`` no accents).
"""

from __future__ import annotations

import unicodedata


# letters with a stroke that Unicode does not split into a letter and an accent
_STROKES = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ı": "i", "ŧ": "t"})


def name_key(name: str) -> str:
    """``"  Émile  de  Vries "`` -> ``"emile de vries"``; ``Straße`` -> ``strasse``, ``Ørjan`` ->
    ``orjan``: casefolded, accents and strokes stripped, spaces tidied."""
    plain = unicodedata.normalize("NFKD", name.casefold().translate(_STROKES))
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())
