"""How two names are the same name, on every database: case, accents and spacing aside.

The store keeps each member's key beside the name (``members.name_key``) and looks names up by it, so
``/speler émile 1400`` after ``/speler Émile 1300`` changes Émile's rating on SQLite as on PostgreSQL
(SQLite's ``NOCASE`` knew only ASCII, PostgreSQL's ``lower()`` no accents). ``skeleton``: how a name looks
(letters of other scripts that look Latin made Latin); ``partly_named``: the members a part of a name may mean.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from bot.core.storage.store import Member


# letters with a stroke that Unicode does not split into a letter and an accent
_STROKES = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ı": "i", "ŧ": "t"})


# Letters of other scripts that look like Latin ones (lower case: a name is casefolded first): Cyrillic
# and Greek, as a chat keyboard or a copied list brings them in.
_LOOK_ALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ӏ": "l", "һ": "h",
    "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ζ": "z",
})  # fmt: skip


@functools.lru_cache(maxsize=8192)  # the same members' names on every /speler, /leden and look-up: worked out once
def name_key(name: str) -> str:
    """``"  Émile  de  Vries "`` -> ``"emile de vries"``; ``Straße`` -> ``strasse``, ``Ørjan`` ->
    ``orjan``: casefolded, accents and strokes stripped, spaces tidied."""
    plain = unicodedata.normalize("NFKD", name.casefold().translate(_STROKES))
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


@functools.lru_cache(maxsize=8192)  # every member's name again for each new name (``look_alikes``)
def skeleton(name: str) -> str:
    """``name`` as it looks: ``name_key`` with letters of other scripts that look like Latin ones made
    Latin (``Vrieѕ`` -> ``vries``)."""
    return name_key(name.casefold().translate(_LOOK_ALIKE))


def partly_named(name: str, members: Iterable[Member]) -> list[str]:
    """The members whose name holds the words of ``name`` in a row (``jan``: Jan de Boer, Jan Smit;
    ``smit``: Jan Smit), case and accents aside; for a name nobody has."""
    wanted = name_key(name).split()
    if not wanted:
        return []
    found = []
    for m in members:
        words = name_key(m.name).split()
        if any(words[i : i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
            found.append(m.name)
    return sorted(found, key=name_key)
