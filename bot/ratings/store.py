"""The ratings system's SQL: the proposals of ``/ratings importeer`` waiting for the director
(migration 0063). Identities and ratings themselves are the shared members table's (``bot/core``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.core.storage.store import Store


@dataclass(frozen=True)
class Proposal:
    member_id: int
    name: str  # the member's
    source: str
    identity: str
    listed: str  # the name as the list writes it
    rating: int | None
    list_day: str
    federation: str | None = None


class RatingsStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def replace_proposals(self, club_id: int, source: str, day: date, found: list[tuple[int, str, str, int | None, str]]) -> None:
        await self.store.write("DELETE FROM rating_proposals WHERE club_id = ? AND source = ?", (club_id, source))
        await self.store.execute_many(
            "INSERT INTO rating_proposals (club_id, member_id, source, identity, listed, rating, list_day, federation)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(club_id, member_id, source, identity, listed, rating, day.isoformat(), federation or None)
             for member_id, identity, listed, rating, federation in found],  # fmt: skip
        )

    async def proposals(self, club_id: int) -> list[Proposal]:
        rows = await self.store.fetch_all(
            "SELECT p.*, m.name FROM rating_proposals p JOIN members m ON m.id = p.member_id WHERE p.club_id = ?"
            " ORDER BY m.name_key, p.source",
            (club_id,),
        )
        return [Proposal(r["member_id"], r["name"], r["source"], r["identity"], r["listed"], r["rating"], r["list_day"], r["federation"]) for r in rows]

    async def drop_proposal(self, club_id: int, member_id: int, source: str) -> None:
        await self.store.write(
            "DELETE FROM rating_proposals WHERE club_id = ? AND member_id = ? AND source = ?", (club_id, member_id, source)
        )
