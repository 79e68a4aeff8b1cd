"""Members' personal calendar feeds (migration 0067, issue 34 §2): a random token per member in the feed's
address ``/c/<club>/kalender/<token>.ics``, which the website serves to a calendar app without a cookie
(members-only clubs too). The token is stored as it is, so ``/mijn kalender`` gives the same address again;
``/mijn kalender nieuw`` replaces it and the old one stops working."""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from typing import Any

from bot.core.database import iso
from bot.core.store_part import StorePart

FEED_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def new_feed_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


class CalendarFeeds(StorePart):
    """Part of the shared tables' store (``bot/core/store.py``)."""

    async def calendar_feed(self, member_id: int) -> str | None:
        row = await self.fetch_one("SELECT token FROM calendar_feeds WHERE member_id = ?", (member_id,))
        return str(row[0]) if row else None

    async def set_calendar_feed(self, club_id: int, member_id: int, token: str, now: datetime) -> None:
        """The member's feed token, replacing the one they had."""
        await self.write(
            "INSERT INTO calendar_feeds (member_id, club_id, token, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (member_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at",
            (member_id, club_id, token, iso(now)),
        )

    async def member_of_calendar_feed(self, club_id: int, token: str) -> Any:
        """The club's member whose feed this is, or None."""
        if not FEED_TOKEN.match(token):
            return None
        row = await self.fetch_one(
            "SELECT m.* FROM calendar_feeds f JOIN members m ON m.id = f.member_id WHERE f.club_id = ? AND f.token = ?",
            (club_id, token),
        )
        return self._member_row(row) if row else None
