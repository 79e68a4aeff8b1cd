"""The club's colour and logo in the shared tables (migration 0070): what ``/website stijl``
(``bot/core/club/club_style.py``) writes and the website (``bot/web/style.py``) reads."""

from __future__ import annotations

import hashlib
from datetime import datetime

from bot.core.storage.database import iso
from bot.core.storage.store_part import StorePart


class ClubStyles(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``): the club's colour and logo."""

    async def set_club_colour(self, club_id: int, colour: str | None) -> None:
        await self.write("UPDATE clubs SET colour = ? WHERE id = ?", (colour, club_id))

    async def set_club_logo(self, club_id: int, image: bytes | None, now: datetime) -> None:
        """The club's logo (a PNG the bot made), or none; its stamp goes into the club's record."""
        if image is None:
            await self.write("DELETE FROM club_logos WHERE club_id = ?", (club_id,))
            await self.write("UPDATE clubs SET logo = NULL WHERE id = ?", (club_id,))
            return
        stamp = hashlib.sha256(image).hexdigest()[:16]
        await self.write(
            "INSERT INTO club_logos (club_id, image, stamp, set_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (club_id) DO UPDATE SET image = excluded.image, stamp = excluded.stamp, set_at = excluded.set_at",
            (club_id, image, stamp, iso(now)),
        )
        await self.write("UPDATE clubs SET logo = ? WHERE id = ?", (stamp, club_id))

    async def club_logo(self, club_id: int) -> bytes | None:
        row = await self.fetch_one("SELECT image FROM club_logos WHERE club_id = ?", (club_id,))
        return bytes(row["image"]) if row is not None else None
