"""The store's part for members' lichess accounts (migration 0074, issue 43 §1): what a director or a
member's login sets is read and checked in ``bot/core/club/lichess_accounts.py``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.storage.database import from_iso, iso
from bot.core.storage.store_part import StorePart

BY_DIRECTOR, BY_LOGIN = "director", "lichess"


@dataclass(frozen=True)
class LichessAccount:
    member_id: int
    username: str  # as lichess writes it
    linked_by: str  # BY_DIRECTOR or BY_LOGIN


def user_id(username: str) -> str:
    """Lichess's id of an account: its username in lower case (usernames are ASCII)."""
    return username.lower()



class LichessAccounts(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def lichess_account(self, member_id: int) -> LichessAccount | None:
        row = await self.fetch_one("SELECT member_id, username, linked_by FROM lichess_accounts WHERE member_id = ?", (member_id,))
        return LichessAccount(row["member_id"], row["username"], row["linked_by"]) if row else None

    async def lichess_accounts(self, club_id: int) -> dict[int, LichessAccount]:
        """member -> account, of every member of the club with one."""
        rows = await self.fetch_all(
            "SELECT member_id, username, linked_by FROM lichess_accounts WHERE club_id = ? ORDER BY member_id", (club_id,)
        )
        return {r["member_id"]: LichessAccount(r["member_id"], r["username"], r["linked_by"]) for r in rows}

    async def lichess_holder(self, club_id: int, username: str) -> tuple[int, str] | None:
        """(member id, name) of the member of the club who holds this lichess account, case aside."""
        row = await self.fetch_one(
            "SELECT m.id, m.name FROM lichess_accounts a JOIN members m ON m.id = a.member_id"
            " WHERE a.club_id = ? AND a.user_id = ?",
            (club_id, user_id(username)),
        )
        return (int(row["id"]), str(row["name"])) if row else None

    async def set_lichess_account(self, club_id: int, member_id: int, username: str | None, by: str, now: datetime) -> None:
        """The member's lichess account (None: none any more); the caller asked ``refuse_taken`` first."""
        if username is None:
            await self.write("DELETE FROM lichess_accounts WHERE member_id = ?", (member_id,))
            return
        await self.write(
            "INSERT INTO lichess_accounts (member_id, club_id, username, user_id, linked_by, linked_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (member_id) DO UPDATE SET username = excluded.username,"
            " user_id = excluded.user_id, linked_by = excluded.linked_by, linked_at = excluded.linked_at",
            (member_id, club_id, username, user_id(username), by, iso(now)),
        )

    # /koppel lichess: the member's personal link to "log in with lichess" (bot/core/club/lichess_link.py)
    async def set_lichess_login(self, club_id: int, member_id: int, token_hash: str, expires_at: datetime) -> None:
        """The member's new link (their earlier one, and any login it began, stops working)."""
        await self.write(
            "INSERT INTO lichess_logins (member_id, club_id, token_hash, expires_at, state_hash, verifier)"
            " VALUES (?, ?, ?, ?, NULL, NULL) ON CONFLICT (member_id) DO UPDATE SET token_hash = excluded.token_hash,"
            " expires_at = excluded.expires_at, state_hash = NULL, verifier = NULL",
            (member_id, club_id, token_hash, iso(expires_at)),
        )

    async def lichess_login_of_link(self, club_id: int, token_hash: str) -> tuple[int, datetime] | None:
        """(member, until when) of the club's link with this hash."""
        row = await self.fetch_one(
            "SELECT member_id, expires_at FROM lichess_logins WHERE club_id = ? AND token_hash = ?", (club_id, token_hash)
        )
        return (int(row["member_id"]), from_iso(row["expires_at"])) if row else None

    async def begin_lichess_login(self, member_id: int, state_hash: str, verifier: str) -> None:
        """A login under way from the member's link (one at a time: a new one replaces it)."""
        await self.write(
            "UPDATE lichess_logins SET state_hash = ?, verifier = ? WHERE member_id = ?", (state_hash, verifier, member_id)
        )

    async def lichess_login_club(self, state_hash: str) -> int | None:
        """The club of the login under way with this state."""
        row = await self.fetch_one("SELECT club_id FROM lichess_logins WHERE state_hash = ?", (state_hash,))
        return int(row["club_id"]) if row else None

    async def take_lichess_login(self, state_hash: str) -> tuple[int, int, datetime, str] | None:
        """(club, member, until when, the PKCE verifier) of the login with this state, which is over: its
        state and verifier are cleared at once, so the same answer from lichess is never taken twice."""
        row = await self.fetch_one(
            "SELECT club_id, member_id, expires_at, verifier FROM lichess_logins WHERE state_hash = ?", (state_hash,)
        )
        if row is None or row["verifier"] is None:
            return None
        await self.write("UPDATE lichess_logins SET state_hash = NULL, verifier = NULL WHERE member_id = ?", (row["member_id"],))
        return int(row["club_id"]), int(row["member_id"]), from_iso(row["expires_at"]), str(row["verifier"])

    async def drop_lichess_login(self, member_id: int) -> None:
        """The link is used up (or expired)."""
        await self.write("DELETE FROM lichess_logins WHERE member_id = ?", (member_id,))
