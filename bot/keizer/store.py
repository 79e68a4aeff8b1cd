"""The Keizer competition's SQL: seasons, their players and rounds, sign-offs, games and byes.

``KeizerStore(store)`` runs its statements through the bot's one database connection (``bot/core/``);
it owns no connection and no transaction of its own: a command's transaction covers what it writes.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Iterable

from bot.core.storage.store import Store, from_iso, iso
from bot.keizer.rows import GameRow, RoundRow, Season, SeasonPlayer, Signoff, rounds_of_clubs
from bot.keizer.season_reads import MemberWeek, SeasonReads
from bot.keizer.rows import game_row as _game
from bot.keizer.rows import round_row as _round
from bot.keizer.rows import season_player_row as _season_player
from bot.keizer.rows import season_row as _season

# A round whose pairing failed is not due again until its season changed (issue 30)
_NOT_FAILED = (
    "NOT EXISTS (SELECT 1 FROM pairing_failures f WHERE f.round_id = r.id AND f.season_version = s.version)"
)

__all__ = ["GameRow", "KeizerStore", "MemberWeek", "Notice", "RoundRow", "Season", "SeasonPlayer", "Signoff"]

Notice = tuple[str, str, str]  # a private message queued with a pairing: (kind, body, the member's chat account)
# A member's sign-off for a round (``set_signoff``: round, member, kind, when, by whom); the benchmark's bare
# loop of the same statements sends it too (benchmarks/postgres_bench.py).
SET_SIGNOFF = (
    "INSERT INTO signoffs (round_id, member_id, kind, created_at, created_by) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (round_id, member_id) DO UPDATE SET kind = excluded.kind,"
    " created_at = excluded.created_at, created_by = excluded.created_by"
)


class KeizerStore(SeasonReads):
    def __init__(self, store: Store) -> None:
        self.db = store

    # ------------------------------------------------------------------ seasons
    async def create_season(
        self,
        club_id: int,
        name: str,
        kind: str,
        rounds: list[tuple[int, str, datetime, datetime]],
        deadline_time: str,
        publish_time: str,
        timezone: str,
        settings_json: str,
        now: datetime,
    ) -> Season:
        """A season with all its rounds: (number, local play date, deadline UTC, publish UTC)."""
        async with self.db.transaction():
            await self.db.execute(
                "UPDATE seasons SET status = 'finished' WHERE club_id = ? AND kind = ? AND status = 'active'",
                (club_id, kind),
            )
            season_id = await self.db.write(
                "INSERT INTO seasons (club_id, name, kind, rounds_count, deadline_time, publish_time, timezone,"
                " settings_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (club_id, name, kind, len(rounds), deadline_time, publish_time, timezone, settings_json, iso(now)),
            )
            await self.db.execute_many(
                "INSERT INTO rounds (season_id, number, play_date, deadline_at, publish_at) VALUES (?, ?, ?, ?, ?)",
                [(season_id, n, d, iso(dl), iso(pub)) for n, d, dl, pub in rounds],
            )
        season = await self.season(season_id)
        assert season is not None
        return season

    async def season(self, season_id: int) -> Season | None:
        row = await self.db.fetch_one("SELECT * FROM seasons WHERE id = ?", (season_id,))
        return _season(row) if row else None

    async def season_by_name(self, club_id: int, name: str) -> Season | None:
        row = await self.db.fetch_one("SELECT * FROM seasons WHERE club_id = ? AND name = ?", (club_id, name))
        return _season(row) if row else None

    async def seasons_by_id(self, season_ids: list[int]) -> dict[int, Season]:
        rows = await self.db.fetch_all_in("SELECT * FROM seasons WHERE id IN ({marks})", season_ids)
        return {int(r["id"]): _season(r) for r in rows}

    async def seasons(self, club_id: int) -> list[Season]:
        rows = await self.db.fetch_all("SELECT * FROM seasons WHERE club_id = ? ORDER BY id", (club_id,))
        return [_season(r) for r in rows]

    async def played_games(self, club_id: int, results: tuple[str, ...]) -> list[sqlite3.Row]:
        """The club's games with one of ``results``, with their season and round."""
        marks = ",".join("?" * len(results))
        return await self.db.fetch_all(
            "SELECT g.*, r.number, r.play_date, s.id AS season_id, s.name AS season_name FROM games g"
            " JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
            f" WHERE s.club_id = ? AND g.result IN ({marks}) ORDER BY g.id",
            (club_id, *results),
        )

    async def previous_season(self, club_id: int, current_id: int) -> Season | None:
        """The club's main season before the current one."""
        row = await self.db.fetch_one(
            "SELECT * FROM seasons WHERE club_id = ? AND kind = 'main' AND id < ? ORDER BY id DESC LIMIT 1",
            (club_id, current_id),
        )
        return _season(row) if row else None

    async def season_version(self, club_id: int, kind: str = "main") -> tuple[int, int] | None:
        """The active season's id and change version (bumped by triggers on every change that shows)."""
        row = await self.db.fetch_one(
            "SELECT id, version FROM seasons WHERE club_id = ? AND kind = ? AND status = 'active'"
            " ORDER BY id DESC LIMIT 1",
            (club_id, kind),
        )
        return (int(row["id"]), int(row["version"])) if row else None

    async def has_season(self, club_id: int, kind: str) -> bool:
        row = await self.db.fetch_one("SELECT 1 FROM seasons WHERE club_id = ? AND kind = ? LIMIT 1", (club_id, kind))
        return row is not None

    async def has_finished(self, club_id: int) -> bool:
        """Has the club a finished season (the website's archive)? One row at most."""
        row = await self.db.fetch_one("SELECT 1 FROM seasons WHERE club_id = ? AND status = 'finished' LIMIT 1", (club_id,))
        return row is not None

    async def active_season(self, club_id: int, kind: str = "main") -> Season | None:
        row = await self.db.fetch_one(
            "SELECT * FROM seasons WHERE club_id = ? AND kind = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
            (club_id, kind),
        )
        return _season(row) if row else None

    async def season_players(self, season_id: int) -> list[SeasonPlayer]:
        rows = await self.db.fetch_all(
            "SELECT sp.*, m.name FROM season_players sp JOIN members m ON m.id = sp.member_id"
            " WHERE sp.season_id = ? ORDER BY sp.position IS NULL, sp.position, sp.rating DESC, sp.member_id",
            (season_id,),
        )
        return [_season_player(r) for r in rows]

    async def season_player(self, season_id: int, member_id: int) -> SeasonPlayer | None:
        row = await self.db.fetch_one(
            "SELECT sp.*, m.name FROM season_players sp JOIN members m ON m.id = sp.member_id"
            " WHERE sp.season_id = ? AND sp.member_id = ?",
            (season_id, member_id),
        )
        return _season_player(row) if row else None

    async def upsert_season_player(
        self,
        season_id: int,
        member_id: int,
        rating: int,
        joined_round: int,
        group_name: str | None = None,
        position: int | None = None,
    ) -> None:
        """Add a player to a season, or update their rating (and group, and start position, when given).

        Players are listed in start order: by ``position`` where the season has one (last season's
        final ranking, or a season file's order), then by rating, equal ratings in joining order (the
        member id, a number: members are numbered as they join)."""
        await self.db.write(
            "INSERT INTO season_players (season_id, member_id, rating, joined_round, group_name, position)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, member_id) DO UPDATE SET rating = excluded.rating,"
            " group_name = COALESCE(excluded.group_name, season_players.group_name),"
            " position = COALESCE(excluded.position, season_players.position)",
            (season_id, member_id, rating, joined_round, group_name, position),
        )

    async def set_joined_round(self, season_id: int, member_id: int, joined_round: int) -> None:
        await self.db.write(
            "UPDATE season_players SET joined_round = ? WHERE season_id = ? AND member_id = ?",
            (joined_round, season_id, member_id),
        )

    async def join_where_they_appear(self, club_id: int) -> None:
        """Each of the club's season players who appears in a round before their first (after a merge of
        two records moved a game, a bye or a sign-off) has joined from that round (as migration 0032)."""
        first = (
            "(SELECT MIN(r.number) FROM rounds r WHERE r.season_id = season_players.season_id AND ("
            " EXISTS (SELECT 1 FROM signoffs so WHERE so.round_id = r.id AND so.member_id = season_players.member_id)"
            " OR EXISTS (SELECT 1 FROM byes b WHERE b.round_id = r.id AND b.member_id = season_players.member_id)"
            " OR EXISTS (SELECT 1 FROM games g WHERE g.round_id = r.id"
            "  AND season_players.member_id IN (g.white_id, g.black_id))))"
        )
        await self.db.write(
            f"UPDATE season_players SET joined_round = {first} WHERE joined_round > {first}"
            " AND season_id IN (SELECT id FROM seasons WHERE club_id = ?)",
            (club_id,),
        )

    async def set_start_points(self, season_id: int, member_id: int, points: str | None) -> None:
        await self.db.write(
            "UPDATE season_players SET start_points = ? WHERE season_id = ? AND member_id = ?",
            (points, season_id, member_id),
        )

    async def set_withdrawn(self, season_id: int, member_id: int, from_round: int | None, back_from: int | None = None) -> None:
        """Withdraw a player from round ``from_round`` on, back from ``back_from`` (None, None: never withdrawn)."""
        await self.db.write(
            "UPDATE season_players SET withdrawn_from = ?, returned_from = ? WHERE season_id = ? AND member_id = ?",
            (from_round, back_from, season_id, member_id),
        )

    async def set_auto_signed_off(self, season_id: int, member_id: int, value: bool) -> None:
        await self.db.write(
            "UPDATE season_players SET auto_signed_off = ? WHERE season_id = ? AND member_id = ?",
            (int(value), season_id, member_id),
        )

    async def sign_on_again(self, season_id: int, member_id: int) -> None:
        """Lift the no-show rule's sign-off (/aanmelden): it counts again after the last paired round."""
        await self.db.write(
            "UPDATE season_players SET auto_signed_off = 0, signed_on_after ="
            " (SELECT MAX(number) FROM rounds WHERE season_id = ? AND status = 'paired')"
            " WHERE season_id = ? AND member_id = ?",
            (season_id, season_id, member_id),
        )

    # ------------------------------------------------------------------ rounds
    async def rounds(self, season_id: int) -> list[RoundRow]:
        rows = await self.db.fetch_all("SELECT * FROM rounds WHERE season_id = ? ORDER BY number", (season_id,))
        return [_round(r) for r in rows]

    async def round(self, round_id: int) -> RoundRow | None:
        row = await self.db.fetch_one("SELECT * FROM rounds WHERE id = ?", (round_id,))
        return _round(row) if row else None

    async def coming_round(self, season_id: int) -> RoundRow | None:
        """The first round of the season that is not paired yet."""
        row = await self.db.fetch_one(
            "SELECT * FROM rounds WHERE season_id = ? AND status != 'paired' ORDER BY number LIMIT 1", (season_id,)
        )
        return _round(row) if row else None

    async def round_by_number(self, season_id: int, number: int) -> RoundRow | None:
        row = await self.db.fetch_one("SELECT * FROM rounds WHERE season_id = ? AND number = ?", (season_id, number))
        return _round(row) if row else None

    async def next_due_moment(self, club_id: int | None = None) -> datetime | None:
        """The earliest deadline or publication that has not been handled yet, over all clubs (or one)."""
        rounds, params = rounds_of_clubs(club_id)
        row = await self.db.fetch_one(
            "SELECT MIN(t) FROM ("
            f" SELECT MIN(r.deadline_at) AS t FROM {rounds} r.status = 'open' AND s.status = 'active'"
            " UNION ALL"
            f" SELECT MIN(r.publish_at) FROM {rounds} r.status IN ('open', 'closed') AND s.status = 'active'"
            " AND " + _NOT_FAILED + ") AS due",
            params * 2,
        )
        return from_iso(row[0]) if row and row[0] else None

    async def next_reminder_deadline(self, club_id: int | None = None) -> datetime | None:
        """The earliest deadline of an open round whose reminder has not been queued yet (of one club)."""
        rounds, params = rounds_of_clubs(club_id)
        row = await self.db.fetch_one(
            f"SELECT MIN(r.deadline_at) FROM {rounds} r.status = 'open' AND s.status = 'active' AND NOT EXISTS"
            " (SELECT 1 FROM announcements a WHERE a.round_id = r.id AND a.kind = 'reminder')",
            params,
        )
        return from_iso(row[0]) if row and row[0] else None

    async def rounds_to_remind(self, now: datetime, before: timedelta) -> list[RoundRow]:
        """Open rounds whose deadline is still ahead but within ``before``, not yet reminded of."""
        rows = await self.db.fetch_all(
            "SELECT r.* FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status = 'open' AND s.status = 'active' AND r.deadline_at > ? AND r.deadline_at <= ?"
            " AND NOT EXISTS (SELECT 1 FROM announcements a WHERE a.round_id = r.id AND a.kind = 'reminder')"
            " ORDER BY r.deadline_at",
            (iso(now), iso(now + before)),
        )
        return [_round(r) for r in rows]

    async def close_due_rounds(self, now: datetime) -> list[RoundRow]:
        """Close the sign-offs of the active seasons' open rounds whose deadline has come, in one statement
        (a deadline minute of many clubs is one round trip on PostgreSQL); the rounds closed, by deadline."""
        rows = await self.db.returning(
            "UPDATE rounds SET status = 'closed' WHERE status = 'open' AND deadline_at <= ?"
            " AND season_id IN (SELECT id FROM seasons WHERE status = 'active') RETURNING *",
            (iso(now),),
        )
        return sorted((_round(r) for r in rows), key=lambda r: (r.deadline_at, r.id))

    async def rounds_to_pair(self, now: datetime) -> list[RoundRow]:
        rows = await self.db.fetch_all(
            "SELECT r.* FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status IN ('open', 'closed') AND s.status = 'active' AND r.publish_at <= ? AND " + _NOT_FAILED +
            " ORDER BY r.publish_at, r.number",
            (iso(now),),
        )
        return [_round(r) for r in rows]

    async def seasons_to_pair(self, now: datetime) -> dict[int, Season]:
        """The seasons of ``rounds_to_pair``'s rounds, by id: read once for a publication minute."""
        rows = await self.db.fetch_all(
            "SELECT * FROM seasons WHERE id IN (SELECT r.season_id FROM rounds r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.status IN ('open', 'closed') AND s.status = 'active' AND r.publish_at <= ? AND " + _NOT_FAILED + ")",
            (iso(now),),
        )
        return {int(r["id"]): _season(r) for r in rows}

    async def unpaired(self, round_ids: list[int]) -> set[int]:
        """Which of these rounds are not paired yet (another process may have paired some meanwhile)."""
        rows = await self.db.fetch_all_in("SELECT id FROM rounds WHERE status != 'paired' AND id IN ({marks})", round_ids)
        return {int(r[0]) for r in rows}

    async def record_pairing_failure(self, round_id: int, now: datetime) -> bool:
        """Remember that pairing the round failed at the season's present version (tried again once the
        season changes); True the first time for this round."""
        first = await self.db.fetch_one("SELECT 1 FROM pairing_failures WHERE round_id = ?", (round_id,)) is None
        await self.db.write(
            "INSERT INTO pairing_failures (round_id, season_version, failed_at)"
            " SELECT r.id, s.version, ? FROM rounds r JOIN seasons s ON s.id = r.season_id WHERE r.id = ?"
            " ON CONFLICT (round_id) DO UPDATE SET season_version = excluded.season_version, failed_at = excluded.failed_at",
            (iso(now), round_id),
        )
        return first

    async def mark_paired(self, round_id: int, now: datetime) -> bool:
        """Mark a round paired, in the transaction that stores its pairing (``save_pairing``); False (and
        nothing changed) when it was paired already. Taken first, it is the round's claim: whoever pairs
        it at the same moment finds it taken."""
        changed = await self.db.execute(
            "UPDATE rounds SET status = 'paired', paired_at = ? WHERE id = ? AND status IN ('open', 'closed')",
            (iso(now), round_id),
        )
        return changed == 1

    async def save_pairing(
        self,
        round_id: int,
        games: list[tuple[int, int, int]],
        bye: int | None,
        now: datetime,
        announcement: tuple[int, str, str, str | None] | None,
        notices: Iterable[Notice] = (),
    ) -> None:
        """Store a round's games (board, white, black) and bye, queue its announcement and after it the
        private ``notices``, in the transaction that marked it paired (``mark_paired``). All kept for one
        round trip on PostgreSQL (``write_later``)."""
        async with self.db.transaction():
            if games:  # one statement for the round's games
                await self.db.write_later(
                    "INSERT INTO games (round_id, board, white_id, black_id) VALUES " + ", ".join(["(?, ?, ?, ?)"] * len(games)),
                    [v for board, white, black in games for v in (round_id, board, white, black)],
                )
            if bye is not None:
                await self.db.write_later("INSERT INTO byes (round_id, member_id) VALUES (?, ?)", (round_id, bye))
            if announcement is not None:
                club_id, kind, body, picture = announcement
                await self.db.queue_announcement(club_id, round_id, kind, body, now, picture=picture)
                for notice_kind, notice_body, recipient in notices:
                    await self.db.queue_announcement(club_id, round_id, notice_kind, notice_body, now, recipient=recipient)

    async def withdraw_pairing(self, round_id: int, status: str, club_id: int, correction: str, now: datetime) -> bool:
        """Take a round's pairing back (games, bye, paired mark, and the absences written since it was
        paired: the no-show rule's and the standby's, the bye holder's); its announcement goes from the
        outbox, or, when it may have been posted already, stays as history and ``correction`` is queued
        after it. True when a correction was queued."""
        async with self.db.transaction():
            await self.db.write("DELETE FROM games WHERE round_id = ?", (round_id,))
            await self.db.write("DELETE FROM byes WHERE round_id = ?", (round_id,))
            await self.db.write("DELETE FROM signoffs WHERE round_id = ? AND kind IN ('unexcused', 'auto')", (round_id,))
            await self.db.write("UPDATE rounds SET status = ?, paired_at = NULL WHERE id = ?", (status, round_id))
            posted = await self.db.fetch_one(
                "SELECT id FROM announcements WHERE round_id = ? AND kind = 'pairing'"
                " AND (sent_at IS NOT NULL OR attempted_at IS NOT NULL)",
                (round_id,),
            )
            if posted is None:
                await self.db.write("DELETE FROM announcements WHERE round_id = ? AND kind = 'pairing'", (round_id,))
                return False
            # the posted pairing keeps its row under another kind: the round's next pairing is a new one
            withdrawn = posted["id"]
            await self.db.write("UPDATE announcements SET kind = ? WHERE id = ?", (f"pairing-withdrawn-{withdrawn}", withdrawn))
            await self.db.queue_announcement(club_id, round_id, f"withdrawal-{withdrawn}", correction, now)
        return True

    async def change_pairing(
        self, round_id: int, games: list[tuple[int, int, int]], bye: int | None, club_id: int,
        announcement: tuple[str, str | None] | None, now: datetime,
    ) -> bool:
        """The director's change to a paired round: (board, white, black) of each game and the bye. The
        pairing announcement is rewritten while it is unsent; once it may have been posted, the new
        pairing is queued as a correction after it. True when a correction was queued. ``announcement``
        None: the round's announcement is not queued yet (held for its online challenges), nothing to rewrite."""
        async with self.db.transaction():
            await self.db.execute_many(
                "UPDATE games SET white_id = ?, black_id = ? WHERE round_id = ? AND board = ?",
                [(white, black, round_id, board) for board, white, black in games],
            )
            await self.db.write("DELETE FROM byes WHERE round_id = ?", (round_id,))
            if bye is not None:
                await self.db.write("INSERT INTO byes (round_id, member_id) VALUES (?, ?)", (round_id, bye))
            if announcement is None:
                return False
            body, picture = announcement
            return await self.db.rewrite_or_correct(club_id, round_id, "pairing", "pairing-change-", body, picture, now)

    async def store_played_round(
        self,
        round_id: int,
        games: list[tuple[int, int, int, str | None]],
        byes: list[int],
        absent: dict[int, str],
        now: datetime,
    ) -> None:
        """An imported round: games (board, white, black, result), byes and absences; marked paired."""
        async with self.db.transaction():
            await self.db.execute(
                "UPDATE rounds SET status = 'paired', paired_at = ? WHERE id = ?", (iso(now), round_id)
            )
            await self.db.execute_many(
                "INSERT INTO games (round_id, board, white_id, black_id, result, confirmed_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(round_id, b, w, k, r, iso(now) if r else None) for b, w, k, r in games],
            )
            await self.db.execute_many(
                "INSERT INTO byes (round_id, member_id) VALUES (?, ?)", [(round_id, m) for m in byes]
            )
            await self.db.execute_many(
                "INSERT INTO signoffs (round_id, member_id, kind, created_at) VALUES (?, ?, ?, ?)",
                [(round_id, m, kind, iso(now)) for m, kind in absent.items()],
            )

    # ------------------------------------------------------------------ sign-offs
    async def signoffs(self, round_id: int) -> list[Signoff]:
        rows = await self.db.fetch_all("SELECT * FROM signoffs WHERE round_id = ?", (round_id,))
        return [Signoff(r["round_id"], r["member_id"], r["kind"]) for r in rows]

    async def signoffs_of_season(self, season_id: int) -> list[tuple[int, Signoff]]:
        rows = await self.db.fetch_all(
            "SELECT r.number, so.* FROM signoffs so JOIN rounds r ON r.id = so.round_id WHERE r.season_id = ?",
            (season_id,),
        )
        return [(r["number"], Signoff(r["round_id"], r["member_id"], r["kind"])) for r in rows]

    async def signoff(self, round_id: int, member_id: int) -> Signoff | None:
        row = await self.db.fetch_one("SELECT * FROM signoffs WHERE round_id = ? AND member_id = ?", (round_id, member_id))
        return Signoff(row["round_id"], row["member_id"], row["kind"]) if row else None

    async def set_signoff(self, round_id: int, member_id: int, kind: str, by: int | None, now: datetime) -> None:
        await self.db.write_later(SET_SIGNOFF, (round_id, member_id, kind, iso(now), by))

    async def delete_signoff(self, round_id: int, member_id: int) -> bool:
        deleted = await self.db.returning(  # one trip, where a cursor's rowcount takes two
            "DELETE FROM signoffs WHERE round_id = ? AND member_id = ? RETURNING member_id", (round_id, member_id)
        )
        return len(deleted) == 1

    # ------------------------------------------------------------------ games
    async def games_of_round(self, round_id: int) -> list[GameRow]:
        rows = await self.db.fetch_all("SELECT * FROM games WHERE round_id = ? ORDER BY board", (round_id,))
        return [_game(r) for r in rows]

    async def byes_of_season(self, season_id: int) -> list[tuple[int, int]]:
        rows = await self.db.fetch_all(
            "SELECT r.number, b.member_id FROM byes b JOIN rounds r ON r.id = b.round_id WHERE r.season_id = ?",
            (season_id,),
        )
        return [(r["number"], r["member_id"]) for r in rows]

    async def bye_of_round(self, round_id: int) -> int | None:
        row = await self.db.fetch_one("SELECT member_id FROM byes WHERE round_id = ?", (round_id,))
        return int(row[0]) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def report_result(self, game_id: int, result: str, by: int) -> None:
        await self.db.write(
            "UPDATE games SET reported_result = ?, reported_by = ? WHERE id = ? AND result IS NULL",
            (result, by, game_id),
        )

    async def set_result(self, game_id: int, result: str | None, now: datetime, agreed: bool = False) -> None:
        """The game's result; ``agreed``: both players said it (a report and its confirmation)."""
        await self.db.write(
            "UPDATE games SET result = ?, confirmed_at = ?, reported_result = NULL, reported_by = NULL, agreed = ?"
            " WHERE id = ?",
            (result, iso(now) if result else None, int(agreed and result is not None), game_id),
        )

    async def bye_holder_absent(self, round_id: int, member_id: int, now: datetime) -> None:
        """The player with the bye did not come: no bye, an absence without notice instead."""
        await self.db.write("DELETE FROM byes WHERE round_id = ? AND member_id = ?", (round_id, member_id))
        await self.set_signoff(round_id, member_id, "unexcused", None, now)

    async def replace_with_standby(
            self, game_id: int, white_id: int, black_id: int, absent_id: int, round_id: int, now: datetime) -> None:
        """Seed 004 rule l: the player with the bye takes the place of a paired player who did not come;
        the game is now ``white_id`` against ``black_id`` (the standby is one of them)."""
        async with self.db.transaction():
            await self.db.execute("UPDATE games SET white_id = ?, black_id = ? WHERE id = ?", (white_id, black_id, game_id))
            await self.db.execute("DELETE FROM byes WHERE round_id = ? AND member_id IN (?, ?)", (round_id, white_id, black_id))
            await self.set_signoff(round_id, absent_id, "unexcused", None, now)
