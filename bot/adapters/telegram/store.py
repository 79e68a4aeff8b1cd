"""SQL the Telegram adapter needs (``migrations/0007_telegram.sql``): a ``TelegramStore`` wraps the club
``Store``: the directors' allow-list, and moving a club to its new chat id when a group becomes a supergroup."""

from __future__ import annotations

import logging
from datetime import datetime

from bot.core.storage.store import Store, iso

log = logging.getLogger(__name__)

PLATFORM = "telegram"


class TelegramStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def is_listed_director(self, club_id: int, user_id: str) -> bool:
        row = await self.store.fetch_one(
            "SELECT 1 FROM telegram_directors WHERE club_id = ? AND user_id = ?", (club_id, user_id)
        )
        return row is not None

    async def listed_directors(self, club_id: int) -> list[tuple[str, str]]:
        """(user id, name) of the allow-listed directors, by name."""
        rows = await self.store.fetch_all(
            "SELECT user_id, name FROM telegram_directors WHERE club_id = ? ORDER BY name COLLATE NOCASE", (club_id,)
        )
        return [(r["user_id"], r["name"]) for r in rows]

    async def add_director(self, club_id: int, user_id: str, name: str, added_by: str, now: datetime) -> None:
        await self.store.write(
            "INSERT INTO telegram_directors (club_id, user_id, name, added_by, added_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (club_id, user_id) DO UPDATE SET name = excluded.name",
            (club_id, user_id, name, added_by, iso(now)),
        )

    async def remove_director(self, club_id: int, user_id: str) -> bool:
        async with self.store.transaction():
            before = await self.is_listed_director(club_id, user_id)
            await self.store.write(
                "DELETE FROM telegram_directors WHERE club_id = ? AND user_id = ?", (club_id, user_id)
            )
        return before

    async def migrate_chat(self, old_chat_id: str, new_chat_id: str) -> bool:
        """A group became a supergroup and has a new chat id: the club moves with it (and its channel,
        when announcements went to the group itself). False when there was nothing to move or the new
        chat is already a club of its own."""
        async with self.store.transaction():
            old = await self.store.club_by_external(PLATFORM, old_chat_id)
            if old is None:
                return False
            if await self.store.club_by_external(PLATFORM, new_chat_id) is not None:
                log.warning("group %s moved to %s, which is already a club; left as it is", old_chat_id, new_chat_id)
                return False
            await self.store.write("UPDATE clubs SET external_id = ? WHERE id = ?", (new_chat_id, old.id))
            if old.channel_id is not None and old.channel_id.split("/")[0] == old_chat_id:
                channel = new_chat_id + old.channel_id[len(old_chat_id):]
                await self.store.write("UPDATE clubs SET channel_id = ? WHERE id = ?", (channel, old.id))
        return True
