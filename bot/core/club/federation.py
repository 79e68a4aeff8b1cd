"""A member's federation identities and what a rating office's file says of the club (migrations 0061
and 0062, issue 34 §1): the KNSB relatienummer, the FIDE ID and the EGD PIN of a member, each optional
and each of one member of a club; the club's city, federation and arbiters for the TRF file's header.

``identity_value`` reads what a director types (``knsb=8359087``, ``fide=1000330``, ``egd=10396133``;
``knsb=-`` removes it) for ``/speler`` and the member import alike."""

from __future__ import annotations

import re
from typing import Any

from bot.core.commands.context import UserError

# the word a director types, in both languages, and the column of members it sets
IDENTITY_WORDS = {"knsb": "knsb_id", "fide": "fide_id", "egd": "egd_pin", "pin": "egd_pin"}
_FORMATS = {
    "knsb_id": re.compile(r"[0-9]{1,10}"),  # the KNSB relatienummer: digits (7 today)
    "fide_id": re.compile(r"[0-9]{1,10}"),  # the FIDE ID: digits (up to 9 today)
    "egd_pin": re.compile(r"[0-9]{8}"),  # the EGD PIN: 8 digits
}
REMOVE_WORDS = frozenset({"-", "geen", "none"})
CLUB_WORDS = {"plaats": "city", "city": "city", "federatie": "federation", "federation": "federation",
              "arbiter": "arbiter", "hulparbiter": "deputy_arbiter", "deputy": "deputy_arbiter"}  # fmt: skip
MAX_CLUB_FIELD = 60
_FEDERATION = re.compile(r"[A-Z]{3}")


def identity_value(column: str, text: str) -> str | None:
    """The identity as stored (None: removed), or a refusal that names the format."""
    value = text.strip()
    if value.lower() in REMOVE_WORDS:
        return None
    if not _FORMATS[column].fullmatch(value):
        raise UserError(f"error_identity_{column}", value=value[:20])
    return value


def club_value(field: str, text: str) -> str | None:
    """A club setting as stored (None: cleared with ``-``); a federation is three capital letters."""
    value = " ".join(text.split())
    if value.lower() in REMOVE_WORDS or not value:
        return None
    if field == "federation":
        if not _FEDERATION.fullmatch(value.upper()):
            raise UserError("error_club_federation", value=value[:20])
        return value.upper()
    if len(value) > MAX_CLUB_FIELD or not value.isprintable():
        raise UserError("error_club_field", limit=MAX_CLUB_FIELD)
    return value




def identity_args(args: list[str]) -> tuple[dict[str, str | None], list[str]]:
    """The ``knsb=``, ``fide=`` and ``egd=`` words of a command line (column -> value, None: removed),
    and the other words."""
    found: dict[str, str | None] = {}
    rest: list[str] = []
    for arg in args:
        key, sep, value = arg.partition("=")
        column = IDENTITY_WORDS.get(key.lower()) if sep else None
        if column is None:
            rest.append(arg)
        else:
            found[column] = identity_value(column, value)
    return found, rest


async def holder_of(store: Any, club_id: int, member_id: int | None, found: dict[str, str | None]) -> None:
    """Refuses an identity another member of the club already has."""
    for column, value in found.items():
        if value is None:
            continue
        holder = await store.member_by_federation_id(club_id, column, value)
        if holder is not None and holder != member_id:
            other = await store.member(holder)
            raise UserError("error_identity_taken", value=value, name=other.name if other else "?")
