"""The member's links: the one-time code a director gives a member to link a chat account (``/koppel``),
and the member's personal website links (``web_links``). Part of the shared tables' store
(``bot/core/storage/store.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bot.core.storage.database import iso
from bot.core.storage.store_part import StorePart

if TYPE_CHECKING:
    from bot.core.storage.store import Member


class MemberLinks(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def set_link_code(self, club_id: int, member_id: int, code_hash: str, expires_at: datetime, by: str) -> None:
        await self.write(
            "INSERT INTO link_codes (member_id, club_id, code_hash, expires_at, created_by) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (member_id) DO UPDATE SET code_hash = excluded.code_hash,"
            " expires_at = excluded.expires_at, created_by = excluded.created_by",
            (member_id, club_id, code_hash, iso(expires_at), by),
        )

    async def member_of_link_code(self, club_id: int, code_hash: str, now: datetime) -> Member | None:
        """The member a code is for, while it is good."""
        row = await self.fetch_one(
            "SELECT m.* FROM link_codes c JOIN members m ON m.id = c.member_id"
            " WHERE c.club_id = ? AND c.code_hash = ? AND c.expires_at > ?",
            (club_id, code_hash, iso(now)),
        )
        return self._member_row(row) if row else None

    async def add_web_link(self, club_id: int, member_id: int, token_hash: str, now: datetime, keep: int) -> None:
        """A new personal link of the member's; their oldest beyond ``keep`` stop working."""
        await self.write(
            "INSERT INTO web_links (token_hash, member_id, club_id, created_at, seq)"
            " VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM web_links))",
            (token_hash, member_id, club_id, iso(now)),
        )
        await self.write(  # made in the order of seq (rowid, ctid are not, after a VACUUM)
            "DELETE FROM web_links WHERE member_id = ? AND token_hash NOT IN"
            " (SELECT token_hash FROM web_links WHERE member_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?)",
            (member_id, member_id, keep),
        )

    async def drop_web_links(self, member_id: int) -> None:
        await self.write("DELETE FROM web_links WHERE member_id = ?", (member_id,))

    async def member_of_web_link(self, club_id: int, token_hash: str) -> Member | None:
        row = await self.fetch_one(
            "SELECT m.* FROM web_links w JOIN members m ON m.id = w.member_id WHERE w.club_id = ? AND w.token_hash = ?",
            (club_id, token_hash),
        )
        return self._member_row(row) if row else None

