"""The store's part for federation identities and the club's TRF details (migrations 0061 and 0062,
issue 34 §1): a member's KNSB relatienummer, FIDE ID and EGD PIN; the club's city, federation and
arbiters. What a director types is read in ``bot/core/club/federation.py``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.storage.store_part import StorePart

COLUMNS = ("knsb_id", "fide_id", "egd_pin")
CLUB_FIELDS = ("city", "federation", "arbiter", "deputy_arbiter")


@dataclass(frozen=True)
class Identities:
    knsb_id: str | None = None
    fide_id: str | None = None
    egd_pin: str | None = None


@dataclass(frozen=True)
class ClubFederation:
    """The TRF file's header lines 022 (city), 032 (federation), 102 and 112 (the arbiters)."""

    city: str = ""
    federation: str = ""
    arbiter: str = ""
    deputy_arbiter: str = ""


class FederationTables(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def identities(self, member_id: int) -> Identities:
        row = await self.fetch_one("SELECT knsb_id, fide_id, egd_pin FROM members WHERE id = ?", (member_id,))
        return Identities(row["knsb_id"], row["fide_id"], row["egd_pin"]) if row else Identities()

    async def club_identities(self, club_id: int) -> dict[int, Identities]:
        rows = await self.fetch_all(
            "SELECT id, knsb_id, fide_id, egd_pin FROM members WHERE club_id = ?"
            " AND (knsb_id IS NOT NULL OR fide_id IS NOT NULL OR egd_pin IS NOT NULL) ORDER BY id",
            (club_id,),
        )
        return {r["id"]: Identities(r["knsb_id"], r["fide_id"], r["egd_pin"]) for r in rows}

    async def member_by_federation_id(self, club_id: int, column: str, value: str) -> int | None:
        assert column in COLUMNS
        row = await self.fetch_one(f"SELECT id FROM members WHERE club_id = ? AND {column} = ?", (club_id, value))
        return int(row["id"]) if row else None

    async def set_identity(self, member_id: int, column: str, value: str | None) -> None:
        assert column in COLUMNS
        await self.write(f"UPDATE members SET {column} = ? WHERE id = ?", (value, member_id))

    async def carry_identities(self, source: int, target: int) -> None:
        """A merge (``/speler A samenvoegen B``): B keeps its own identities and gets those only A had."""
        row = await self.fetch_one("SELECT knsb_id, fide_id, egd_pin, federation FROM members WHERE id = ?", (source,))
        if row is None:
            return
        await self.write("UPDATE members SET knsb_id = NULL, fide_id = NULL, egd_pin = NULL WHERE id = ?", (source,))
        await self.write(
            "UPDATE members SET knsb_id = COALESCE(knsb_id, ?), fide_id = COALESCE(fide_id, ?), egd_pin = COALESCE(egd_pin, ?),"
            " federation = COALESCE(federation, ?) WHERE id = ?",
            (row["knsb_id"], row["fide_id"], row["egd_pin"], row["federation"], target),
        )

    async def set_member_federation(self, member_id: int, federation: str) -> None:
        await self.write("UPDATE members SET federation = ? WHERE id = ?", (federation, member_id))

    async def trf_identities(self, club_id: int) -> dict[int, tuple[str, str]]:
        """member -> (FIDE ID, federation) of the members with either."""
        rows = await self.fetch_all(
            "SELECT id, fide_id, federation FROM members WHERE club_id = ? AND (fide_id IS NOT NULL OR federation IS NOT NULL)",
            (club_id,),
        )
        return {r["id"]: (r["fide_id"] or "", r["federation"] or "") for r in rows}

    async def club_federation(self, club_id: int) -> ClubFederation:
        row = await self.fetch_one(
            "SELECT city, federation, arbiter, deputy_arbiter FROM club_federation WHERE club_id = ?", (club_id,)
        )
        if row is None:
            return ClubFederation()
        return ClubFederation(row["city"] or "", row["federation"] or "", row["arbiter"] or "", row["deputy_arbiter"] or "")

    async def set_club_federation(self, club_id: int, field: str, value: str | None) -> None:
        assert field in CLUB_FIELDS
        await self.write(
            f"INSERT INTO club_federation (club_id, {field}) VALUES (?, ?)"
            f" ON CONFLICT (club_id) DO UPDATE SET {field} = excluded.{field}",
            (club_id, value),
        )
