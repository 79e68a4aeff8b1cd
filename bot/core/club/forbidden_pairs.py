"""Pairs kept apart in every pairing of the club (migration 0056, issue 34 §3): a parent and child, family
members. A shared table, since two systems need it: the Keizer system's ``/indeling verbied A B`` sets and
lifts a pair (``bot/keizer/forbidden.py``), its pairing and the NK's pairing keep the pairs apart. A pair
is stored once, in either order (a merge of two members may turn it around)."""

from __future__ import annotations

from datetime import datetime

from bot.core.storage.database import iso
from bot.core.storage.store_part import StorePart


class ForbiddenPairs(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def forbidden_pairs(self, club_id: int) -> list[tuple[int, int]]:
        """The club's forbidden pairs as (member, member), as stored."""
        rows = await self.fetch_all(
            "SELECT member_a, member_b FROM forbidden_pairings WHERE club_id = ? ORDER BY member_a, member_b", (club_id,)
        )
        return [(r["member_a"], r["member_b"]) for r in rows]

    async def forbid_pair(self, club_id: int, one: int, other: int, now: datetime) -> None:
        """Keep ``one`` and ``other`` apart (the caller knows the pair is not kept apart yet)."""
        await self.write(
            "INSERT INTO forbidden_pairings (club_id, member_a, member_b, created_at) VALUES (?, ?, ?, ?)",
            (club_id, one, other, iso(now)),
        )

    async def allow_pair(self, club_id: int, one: int, other: int) -> None:
        """No longer keep ``one`` and ``other`` apart, in whichever order the pair is stored."""
        await self.write(
            "DELETE FROM forbidden_pairings WHERE club_id = ? AND ((member_a = ? AND member_b = ?) OR (member_a = ? AND member_b = ?))",
            (club_id, one, other, other, one),
        )
