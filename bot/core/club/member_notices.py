"""Which members allow the bot's private messages, and the chat account each goes to: the pairing notices
(``/mijn meldingen aan``, migration 0028: off by default) and the reminders (migration 0066, issue 34 §2: on
unless the member turns them off); and the accounts the platform will not let the bot write to privately
(migration 0073, issue 46 §4: Discord's closed direct messages, a Telegram member who never started a chat
with the bot), which the directors learn of once and ``/leden`` shows."""

from __future__ import annotations

from datetime import datetime

from bot.core.club.name_key import name_key
from bot.core.storage.database import iso
from bot.core.storage.store_part import StorePart


class MemberNotices(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def set_member_notify(self, member_id: int, notify: bool) -> None:
        await self.write("UPDATE members SET notify = ? WHERE id = ?", (int(notify), member_id))

    async def member_notify(self, member_id: int) -> bool:
        row = await self.fetch_one("SELECT notify FROM members WHERE id = ?", (member_id,))
        return bool(row and row[0])

    async def member_notices(self, member_id: int) -> tuple[bool, bool]:
        """(pairing notices on, reminders on) of a member: what ``/mijn meldingen`` shows."""
        row = await self.fetch_one("SELECT notify, reminders FROM members WHERE id = ?", (member_id,))
        return (bool(row[0]), bool(row[1])) if row else (False, True)

    async def set_member_reminders(self, member_id: int, on: bool) -> None:
        await self.write("UPDATE members SET reminders = ? WHERE id = ?", (int(on), member_id))

    async def accounts_to_notify(self, club_id: int, member_ids: list[int], reminders: bool = False) -> dict[int, str]:
        """Member id -> the chat account to send a private notice to, for those who allow it: the pairing
        notices (``/mijn meldingen aan``, off by default), or with ``reminders`` the reminders (migration
        0066: on unless turned off)."""
        if not member_ids:
            return {}
        marks = ",".join("?" * len(member_ids))
        allows = "m.reminders = 1" if reminders else "m.notify = 1"
        rows = await self.fetch_all(
            f"SELECT m.id, MIN(i.user_id) AS user_id FROM members m JOIN identities i ON i.member_id = m.id"
            f" WHERE m.club_id = ? AND {allows} AND m.id IN ({marks}) GROUP BY m.id",
            (club_id, *member_ids),
        )
        return {int(r["id"]): str(r["user_id"]) for r in rows}

    async def private_closed(self, club_id: int, user_id: str, now: datetime) -> None:
        """The platform refused a private message to this account: mark it (since the first refusal)."""
        await self.write(
            "UPDATE identities SET private_closed_at = ? WHERE club_id = ? AND user_id = ? AND private_closed_at IS NULL",
            (iso(now), club_id, user_id),
        )

    async def private_open(self, club_id: int, user_id: str) -> None:
        """A private message went to this account: no longer marked (read first: a write empties the cache)."""
        marked = await self.fetch_one(
            "SELECT 1 FROM identities WHERE club_id = ? AND user_id = ? AND private_closed_at IS NOT NULL", (club_id, user_id)
        )
        if marked is not None:
            await self.write(
                "UPDATE identities SET private_closed_at = NULL, private_closed_told = 0 WHERE club_id = ? AND user_id = ?",
                (club_id, user_id),
            )

    async def private_closed_untold(self, club_id: int) -> list[tuple[str, str]]:
        """(account, member name) of the club's accounts marked and not yet told to a director, by name."""
        rows = await self.fetch_all(
            "SELECT i.user_id, m.name FROM identities i JOIN members m ON m.id = i.member_id"
            " WHERE i.club_id = ? AND i.private_closed_at IS NOT NULL AND i.private_closed_told = 0",
            (club_id,),
        )
        return sorted(((str(r["user_id"]), str(r["name"])) for r in rows), key=lambda row: name_key(row[1]))

    async def private_closed_told(self, club_id: int, user_ids: list[str]) -> None:
        if user_ids:
            marks = ",".join("?" * len(user_ids))
            await self.write(
                f"UPDATE identities SET private_closed_told = 1 WHERE club_id = ? AND user_id IN ({marks})",
                (club_id, *user_ids),
            )

    async def linked_accounts(self, club_id: int) -> dict[int, bool]:
        """Member id -> whether the bot cannot write to them privately, for the club's members with a chat
        account (what ``/leden`` shows)."""
        rows = await self.fetch_all(
            "SELECT member_id, MAX(CASE WHEN private_closed_at IS NULL THEN 0 ELSE 1 END) AS closed"
            " FROM identities WHERE club_id = ? GROUP BY member_id",
            (club_id,),
        )
        return {int(r["member_id"]): bool(r["closed"]) for r in rows}
