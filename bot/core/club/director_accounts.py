"""Where the director's private notices go (migration 0060, issue 30 §4): the chat account of each member
marked director (the console's director), and each account that acted as the club's director: a Discord
role, a Telegram group administrator, who have no member record that says so."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.core.storage.database import iso
from bot.core.storage.store_part import StorePart


class DirectorAccounts(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``). A club is read with the accounts in its
    director_accounts (``Club.director_users``), so that a command of anyone else deletes nothing."""

    async def migrate(self, *args: Any, **kwargs: Any) -> int:
        applied = await super(DirectorAccounts, self).migrate(*args, **kwargs)
        await self._see_tables()
        return int(applied)

    async def _see_tables(self) -> None:
        self._director_accounts_kept = "director_accounts" in await self.tables()  # migration 0060
        self._forget()

    def _club_sql(self, where: str) -> str:
        """A club's row with the accounts in its director_accounts (``Club.director_users``)."""
        if not getattr(self, "_director_accounts_kept", False):  # a database from before migration 0060
            return f"SELECT * FROM clubs WHERE {where}"
        joined = "string_agg(d.user_id, chr(10))" if self.dialect == "postgresql" else "group_concat(d.user_id, char(10))"
        return (f"SELECT clubs.*, (SELECT {joined} FROM director_accounts d WHERE d.club_id = clubs.id) AS director_users"
                f" FROM clubs WHERE {where}")

    async def director_accounts(self, club_id: int) -> list[str]:
        """Where a notice for the director goes privately: the chat account of each member marked director
        (the console's director), and each account that acted as the club's director (a Discord role, a
        Telegram group administrator: ``remember_director``)."""
        rows = await self.fetch_all(
            "SELECT MIN(i.user_id) AS user_id FROM members m JOIN identities i ON i.member_id = m.id"
            " WHERE m.club_id = ? AND m.is_director = 1 GROUP BY m.id ORDER BY m.id",
            (club_id,),
        )
        seen = await self.fetch_all("SELECT user_id FROM director_accounts WHERE club_id = ? ORDER BY seen_at, user_id", (club_id,))
        accounts = [str(r["user_id"]) for r in rows]
        return accounts + [str(r["user_id"]) for r in seen if str(r["user_id"]) not in accounts]

    async def remember_director(self, club_id: int, user_id: str, is_director: bool, now: datetime) -> None:
        """An account acted in the club: as its director it is one of the director's accounts from now
        on; without the rights (the role taken away) it is no longer."""
        if is_director:
            await self.write_later(
                "INSERT INTO director_accounts (club_id, user_id, seen_at) VALUES (?, ?, ?)"
                " ON CONFLICT (club_id, user_id) DO UPDATE SET seen_at = excluded.seen_at",
                (club_id, user_id, iso(now)),
            )
        else:
            club = await self.club(club_id)  # cached, with its director accounts: usually none to delete
            if club is None or user_id in club.director_users:
                await self.write_later("DELETE FROM director_accounts WHERE club_id = ? AND user_id = ?", (club_id, user_id))
