"""This installation's id (migration 0050): made once in the database, so that what the bot hands out to
the world (the calendar's event UIDs) is unique across installations; a database that moves (``clubbot
migrate-db``, a restore) keeps it. Issue 33 §6."""

from __future__ import annotations

from bot.core.storage.store_part import StorePart


class Installation(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def installation_id(self) -> str:
        row = await self.fetch_one("SELECT uid FROM installation")
        assert row is not None  # migration 0050 made its one row
        return str(row[0])
