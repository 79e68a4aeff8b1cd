"""The Keizer store's reads that gather in one query what a command or the pairing would otherwise read in
several (one round trip on PostgreSQL): ``KeizerStore`` has them (``bot/keizer/store.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from bot.keizer.rows import RoundRow, Season, SeasonPlayer, Signoff
from bot.keizer.rows import round_row as _round
from bot.keizer.rows import season_player_row as _season_player
from bot.keizer.rows import season_row as _season
from bot.keizer.week_store import ABSENT, PRESENT

if TYPE_CHECKING:
    from bot.core.storage.store import Store


# ``season_at_hand``'s query (parameters: the member four times, the club, the competition's kind); the
# benchmark's bare loop of the same statements sends it too (benchmarks/postgres_bench.py).
SEASON_AT_HAND = (
    "SELECT s.*,"
    " r.id AS r_id, r.season_id AS r_season_id, r.number AS r_number, r.play_date AS r_play_date,"
    " r.deadline_at AS r_deadline_at, r.publish_at AS r_publish_at, r.status AS r_status,"
    " sp.member_id AS sp_member_id, m.name AS sp_name, sp.rating AS sp_rating,"
    " sp.group_name AS sp_group_name, sp.joined_round AS sp_joined_round,"
    " sp.start_points AS sp_start_points, sp.auto_signed_off AS sp_auto_signed_off,"
    " sp.withdrawn_from AS sp_withdrawn_from, sp.returned_from AS sp_returned_from,"
    " sp.signed_on_after AS sp_signed_on_after, sp.estimate AS sp_estimate,"
    " (SELECT so.kind FROM signoffs so WHERE so.round_id = r.id AND so.member_id = ?) AS w_signoff,"
    " EXISTS (SELECT 1 FROM signons sn WHERE sn.round_id = r.id AND sn.member_id = ?) AS w_signed_on,"
    " (SELECT a.mode FROM attendance_modes a WHERE a.member_id = ?) AS w_mode"
    " FROM seasons s"
    " LEFT JOIN rounds r ON r.id ="
    "  (SELECT id FROM rounds WHERE season_id = s.id AND status != 'paired' ORDER BY number LIMIT 1)"
    " LEFT JOIN season_players sp ON sp.season_id = s.id AND sp.member_id = ?"
    " LEFT JOIN members m ON m.id = sp.member_id"
    " WHERE s.club_id = ? AND s.kind = ? AND s.status = 'active' ORDER BY s.id DESC LIMIT 1"
)


class MemberWeek(NamedTuple):
    """A member's word for the coming round (``season_at_hand``): the kind of their sign-off (None: none),
    whether they signed on, and their attendance mode (``/mijn aanwezig``: 'present' or 'absent')."""

    signoff: str | None
    signed_on: bool
    mode: str

    @property
    def not_paired(self) -> bool:
        """Left out of the coming round by their own word, as ``competition.signed_off_for`` counts a season
        player: a sign-off, or absent by default without a sign-on."""
        return self.signoff is not None or (self.mode == ABSENT and not self.signed_on)


class PairingConstraints(NamedTuple):
    """What ``pairing_constraints`` reads: the forbidden pairs (each with the lower member id first), who is
    absent by default without a sign-on, and member id -> chat account of who allows pairing notices."""

    forbidden: list[tuple[int, int]]
    absent_by_default: set[int]
    notice_accounts: dict[int, str]


class SeasonReads:
    """``season_at_hand``, ``records_of_season``, ``pairing_constraints``: on ``KeizerStore``."""

    db: Store  # KeizerStore's

    async def season_at_hand(
        self, club_id: int, member_id: int | None, kind: str = "main"
    ) -> tuple[Season, RoundRow | None, SeasonPlayer | None, MemberWeek] | None:
        """What a sign-off or sign-on needs, in one trip: the active season (as ``active_season``), its
        coming round (as ``coming_round``, None when every round is paired), the member's place in it
        (as ``season_player``, None when the member is not in the season or not given) and the member's
        word for the coming round (``MemberWeek``: sign-off, sign-on, attendance mode)."""
        row = await self.db.fetch_one(
            SEASON_AT_HAND,
            (member_id, member_id, member_id, member_id, club_id, kind),
        )
        if row is None:
            return None
        coming = _round(row, "r_") if row["r_id"] is not None else None
        player = _season_player(row, "sp_") if row["sp_member_id"] is not None else None
        week = MemberWeek(row["w_signoff"], bool(row["w_signed_on"]), row["w_mode"] or PRESENT)
        return _season(row), coming, player, week

    async def records_of_season(
        self, season_id: int
    ) -> tuple[list[tuple[int, int, int, str | None]], list[tuple[int, int]], list[tuple[int, Signoff]]]:
        """(round number, white, black, result) of every game by round and board (what the standings need
        and no more), ``byes_of_season`` and ``signoffs_of_season``, in one query (one round trip on
        PostgreSQL, where the pairing of a publication minute counts them)."""
        rows = await self.db.fetch_all(
            "SELECT 'g' AS what, r.number, g.white_id AS a, g.black_id AS b, g.result AS c, g.board, r.id AS round_id"
            " FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.season_id = ?"
            " UNION ALL SELECT 'b', r.number, b.member_id, NULL, NULL, NULL, r.id"
            " FROM byes b JOIN rounds r ON r.id = b.round_id WHERE r.season_id = ?"
            " UNION ALL SELECT 's', r.number, so.member_id, NULL, so.kind, NULL, r.id"
            " FROM signoffs so JOIN rounds r ON r.id = so.round_id WHERE r.season_id = ?"
            " ORDER BY 1, 2, 6",
            (season_id, season_id, season_id),
        )
        games = [(r[1], r[2], r[3], r[4]) for r in rows if r[0] == "g"]
        byes = [(r[1], r[2]) for r in rows if r[0] == "b"]
        signoffs = [(r[1], Signoff(r[6], r[2], r[4])) for r in rows if r[0] == "s"]
        return games, byes, signoffs

    async def pairing_constraints(self, club_id: int, season_id: int, round_id: int) -> PairingConstraints:
        """What pairing a round needs besides the season's standings, in one query: the club's forbidden
        pairs (as ``forbidden_pairs``), the season's players absent by default who did not sign on for the
        round (as ``competition.absent_unless_signed_on``) and the chat accounts of the season's players who
        allow pairing notices (as ``accounts_to_notify``)."""
        rows = await self.db.fetch_all(
            "SELECT 'f' AS what, member_a AS a, CAST(member_b AS TEXT) AS b FROM forbidden_pairings WHERE club_id = ?"
            " UNION ALL SELECT 'a', sp.member_id, NULL FROM season_players sp"
            " JOIN attendance_modes m ON m.member_id = sp.member_id WHERE sp.season_id = ? AND m.mode = 'absent'"
            " AND NOT EXISTS (SELECT 1 FROM signons so WHERE so.round_id = ? AND so.member_id = sp.member_id)"
            " UNION ALL SELECT 'n', m.id, MIN(i.user_id) FROM season_players sp JOIN members m ON m.id = sp.member_id"
            " JOIN identities i ON i.member_id = m.id WHERE sp.season_id = ? AND m.club_id = ? AND m.notify = 1 GROUP BY m.id",
            (club_id, season_id, round_id, season_id, club_id),
        )
        forbidden = sorted((int(r[1]), int(r[2])) for r in rows if r[0] == "f")
        accounts = {int(r[1]): str(r[2]) for r in rows if r[0] == "n"}
        return PairingConstraints(forbidden, {int(r[1]) for r in rows if r[0] == "a"}, accounts)
