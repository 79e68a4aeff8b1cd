"""Which members allow the bot's private messages, and the chat account each goes to: the pairing notices
(``/mijn meldingen aan``, migration 0028: off by default) and the reminders (migration 0066, issue 34 §2: on
unless the member turns them off)."""

from __future__ import annotations

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
