"""The SQL of each member's own week (issue 34 §2): the attendance mode (migration 0065: present unless
signed off, no row or 'present'; or absent unless signed on, 'absent'), the sign-ons, and which paired
rounds' players were reminded of a missing result (migration 0066)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.storage.database import from_iso, iso
from bot.core.storage.store import Store
from bot.keizer.rows import RoundRow, round_row, rounds_of_clubs

PRESENT, ABSENT = "present", "absent"
# a season's players (season_id) in the mode 'absent' without a sign-on for a round (round_id)
_ABSENT_UNLESS_SIGNED_ON = (
    "SELECT sp.member_id FROM season_players sp JOIN attendance_modes a ON a.member_id = sp.member_id"
    " WHERE sp.season_id = ? AND a.mode = 'absent'"
    " AND NOT EXISTS (SELECT 1 FROM signons so WHERE so.round_id = ? AND so.member_id = sp.member_id)"
)


class WeekStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def mode(self, member_id: int) -> str:
        row = await self.db.fetch_one("SELECT mode FROM attendance_modes WHERE member_id = ?", (member_id,))
        return str(row[0]) if row else PRESENT

    async def set_mode(self, member_id: int, mode: str) -> None:
        await self.db.write(
            "INSERT INTO attendance_modes (member_id, mode) VALUES (?, ?)"
            " ON CONFLICT (member_id) DO UPDATE SET mode = excluded.mode",
            (member_id, mode),
        )

    async def absent_by_default(self, season_id: int) -> set[int]:
        """The season's players in the mode 'absent'."""
        rows = await self.db.fetch_all(
            "SELECT sp.member_id FROM season_players sp JOIN attendance_modes a ON a.member_id = sp.member_id"
            " WHERE sp.season_id = ? AND a.mode = 'absent'",
            (season_id,),
        )
        return {int(r[0]) for r in rows}

    async def absent_unless_signed_on(self, season_id: int, round_id: int) -> set[int]:
        """The season's players in the mode 'absent' without a sign-on for the round: one query."""
        rows = await self.db.fetch_all(_ABSENT_UNLESS_SIGNED_ON, (season_id, round_id))
        return {int(r[0]) for r in rows}

    async def signed_off_for(self, season_id: int, round_id: int) -> set[int]:
        """The members with a sign-off for the round, and those absent unless signed on without a sign-on
        for it (``absent_unless_signed_on``): one query."""
        rows = await self.db.fetch_all(
            f"SELECT member_id FROM signoffs WHERE round_id = ? UNION {_ABSENT_UNLESS_SIGNED_ON}", (round_id, season_id, round_id)
        )
        return {int(r[0]) for r in rows}

    async def signons(self, round_id: int) -> set[int]:
        rows = await self.db.fetch_all("SELECT member_id FROM signons WHERE round_id = ?", (round_id,))
        return {int(r[0]) for r in rows}

    async def signons_of_season(self, season_id: int) -> set[tuple[int, int]]:
        """(round id, member id) of every sign-on in the season."""
        rows = await self.db.fetch_all(
            "SELECT so.round_id, so.member_id FROM signons so JOIN rounds r ON r.id = so.round_id WHERE r.season_id = ?",
            (season_id,),
        )
        return {(int(r[0]), int(r[1])) for r in rows}

    async def sign_on(self, round_id: int, member_id: int, now: datetime) -> None:
        await self.db.write(
            "INSERT OR IGNORE INTO signons (round_id, member_id, created_at) VALUES (?, ?, ?)",
            (round_id, member_id, iso(now)),
        )

    async def drop_signon(self, round_id: int, member_id: int) -> None:
        await self.db.write_later("DELETE FROM signons WHERE round_id = ? AND member_id = ?", (round_id, member_id))

    async def next_results_reminder(self, after: timedelta, club_id: int | None = None) -> datetime | None:
        """When the earliest paired round not yet looked at for missing results is due (``after`` its
        publication), over all clubs or of one."""
        rounds, params = rounds_of_clubs(club_id)
        row = await self.db.fetch_one(
            f"SELECT MIN(r.publish_at) FROM {rounds} r.status = 'paired' AND s.status = 'active'"
            " AND r.results_reminded_at IS NULL",
            params,
        )
        return from_iso(row[0]) + after if row and row[0] else None

    async def rounds_to_remind_of_results(self, now: datetime, after: timedelta) -> list[RoundRow]:
        rows = await self.db.fetch_all(
            "SELECT r.* FROM rounds r JOIN seasons s ON s.id = r.season_id WHERE r.status = 'paired'"
            " AND s.status = 'active' AND r.results_reminded_at IS NULL AND r.publish_at <= ? ORDER BY r.publish_at",
            (iso(now - after),),
        )
        return [round_row(r) for r in rows]

    async def mark_results_reminded(self, round_id: int, now: datetime) -> bool:
        """True for the one transaction that marks the round (its reminders are queued in it)."""
        rows = await self.db.returning(
            "UPDATE rounds SET results_reminded_at = ? WHERE id = ? AND results_reminded_at IS NULL RETURNING id",
            (iso(now), round_id),
        )
        return bool(rows)

    async def disputed_games(self, round_id: int) -> set[int]:
        rows = await self.db.fetch_all("SELECT id FROM games WHERE round_id = ? AND disputed_result IS NOT NULL", (round_id,))
        return {int(r[0]) for r in rows}

    async def drop_default_signoffs(self, round_id: int) -> None:
        """A pairing taken back: the sign-offs it wrote for the absent-by-default go with it (they are
        written again when the round is paired, unless the member signed on or changed mode meanwhile)."""
        await self.db.write(
            "DELETE FROM signoffs WHERE round_id = ? AND kind = 'notice' AND created_by IS NULL AND member_id IN"
            " (SELECT member_id FROM attendance_modes WHERE mode = 'absent')",
            (round_id,),
        )
