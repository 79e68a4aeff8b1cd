"""One step of a migration climb, shared by the SQLite and PostgreSQL migration tests: the store is at
``level``; every earlier level's club kept its member through this level's migration; this level adds a
club and a member as every level's schema holds one (no name_key before 0041)."""

from __future__ import annotations

from datetime import datetime

from bot.core.storage.store import Store


async def climbed(store: Store, level: int, clubs: list[int], now: datetime) -> None:
    """Check the step to ``level`` and add this level's club to ``clubs``."""
    assert await store.schema_version() == level
    for earlier in clubs:  # every earlier level's rows came through this level's migration
        names = [r[0] for r in await store.fetch_all("SELECT name FROM members WHERE club_id = ?", (earlier,))]
        assert names == ["Ánna"], f"level {level}: club {earlier}'s members are {names}"
    club = await store.get_or_create_club("console", f"x{level}", "Club", "nl", "Europe/Amsterdam", now)
    async with store.transaction():
        await store.write(
            "INSERT INTO members (club_id, name, rating, is_director, created_at) VALUES (?, 'Ánna', 1800, 0, ?)",
            (club.id, now.isoformat()),
        )
    clubs.append(club.id)
