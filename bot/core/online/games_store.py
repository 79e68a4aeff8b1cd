"""The store's part for the games of a round made online (migration 0077 ``online_games``, issue 43 §2).

A row's life, as the columns say it (the migration's comment has them all):

- ``queue_online_games``: a system publishing a round queues one row per board to be made (``pending``), in
  the transaction that pairs the round, so a paired round always has its rows and a round not paired none.
- The worker (``bot/core/online/challenges.py``) takes the due rows (``online_games_to_make``), marks each
  attempted in a transaction of its own (``mark_online_attempted``: committed before the request goes out),
  asks lichess, and records the challenge (``record_online_challenge``: ``created``, the id and the links) in
  another. A crash between the two leaves the row ``pending`` with ``attempted_at`` set and no ``lichess_id``:
  it is made again, and the challenge lichess may have made before the crash is never recorded, so never
  announced (docs/online.md, docs/reliability.md). Lichess down (a 5xx, no answer, a 429): ``online_try_later``
  (``retry_at``); lichess refusing (a closed account): ``online_failed``.
- ``cancel_online_games``: a pairing taken back or changed; a row not made yet is ``cancelled`` at once, one
  made becomes ``cancel`` and the worker cancels it at lichess (``online_games_to_cancel``, then
  ``mark_online_cancelled``).
- Announcing (``online_rounds_to_announce``, ``mark_online_announced``, ``online_links_late``,
  ``mark_online_links_sent``) and telling the director (``online_games_not_made``, ``mark_online_reported``):
  the worker calls the system's hooks (``bot/core/online/rounds.py``) in the transaction that marks the rows.

Results (issue 43 §3) follow a ``created`` row's ``lichess_id``; their columns are that part's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.core.online.lichess_answers import Challenge, TimeControl
from bot.core.storage.database import from_iso, iso
from bot.core.storage.store_part import StorePart

PENDING, CREATED, CANCEL, CANCELLED, FAILED = "pending", "created", "cancel", "cancelled", "failed"
_COLUMNS = ("club_id", "system", "round_ref", "game_ref", "board", "white_id", "black_id", "white_user", "black_user",
            "clock_limit", "clock_increment", "rated", "name", "starts_at", "expires_at")  # fmt: skip


@dataclass(frozen=True)
class WantedGame:
    """A game a system wants made online: its round and game (the system's own ids), board, the two members
    (white first) and their lichess user ids, the clock, rated or not, the challenge's name, the start of play
    and the latest start (the challenge's expiry)."""

    club_id: int
    system: str
    round_ref: int
    game_ref: int | None
    board: int
    white_id: int
    black_id: int
    white_user: str
    black_user: str
    clock: TimeControl
    rated: bool
    name: str
    starts_at: datetime
    expires_at: datetime

    def same_game(self, row: WantedGame) -> bool:
        """Whether ``row`` is this game as asked (the same players and colours, clock, rated): it can stay."""
        return (row.white_user, row.black_user, row.clock, row.rated, row.white_id, row.black_id) == (
            self.white_user, self.black_user, self.clock, self.rated, self.white_id, self.black_id)  # fmt: skip


@dataclass(frozen=True)
class OnlineGame(WantedGame):
    """A row of ``online_games``: the game as it was asked for, and where it stands."""

    id: int = 0
    status: str = PENDING
    attempted: bool = False
    attempts: int = 0
    lichess_id: str | None = None
    url: str | None = None
    url_white: str | None = None
    url_black: str | None = None
    announced: bool = False
    link_sent: bool = False
    error: str | None = None  # why it is not made (lichess's refusal, or down), when it is not
    made_at: datetime | None = None  # when lichess made the challenge (the publication), once made

    @property
    def made(self) -> bool:
        return self.lichess_id is not None


def _game(row: Any) -> OnlineGame:
    return OnlineGame(
        club_id=int(row["club_id"]), system=str(row["system"]), round_ref=int(row["round_ref"]),
        game_ref=None if row["game_ref"] is None else int(row["game_ref"]), board=int(row["board"]),
        white_id=int(row["white_id"]), black_id=int(row["black_id"]), white_user=str(row["white_user"]),
        black_user=str(row["black_user"]), clock=TimeControl(int(row["clock_limit"]), int(row["clock_increment"])),
        rated=bool(row["rated"]), name=str(row["name"]), starts_at=from_iso(row["starts_at"]), expires_at=from_iso(row["expires_at"]),
        id=int(row["id"]), status=str(row["status"]), attempted=row["attempted_at"] is not None, attempts=int(row["attempts"]),
        lichess_id=row["lichess_id"], url=row["url"], url_white=row["url_white"], url_black=row["url_black"],
        announced=row["announced_at"] is not None, link_sent=row["link_sent_at"] is not None, error=row["error"],
        made_at=from_iso(row["made_at"]) if row["made_at"] is not None else None,
    )  # fmt: skip


def _club_clause(club_id: int | None) -> tuple[str, tuple[Any, ...]]:
    return ("", ()) if club_id is None else (" AND club_id = ?", (club_id,))


class OnlineGames(StorePart):
    """Part of the shared tables' store (``bot/core/storage/store.py``)."""

    async def queue_online_games(self, games: Iterable[WantedGame], now: datetime, announced: bool = False) -> None:
        """One ``pending`` row per game (in the caller's transaction: the one that pairs the round). ``announced``:
        its round is announced already (a pairing change's new game): its link follows once made."""
        rows = [(g.club_id, g.system, g.round_ref, g.game_ref, g.board, g.white_id, g.black_id, g.white_user, g.black_user,
                 g.clock.limit, g.clock.increment, 1 if g.rated else 0, g.name, iso(g.starts_at), iso(g.expires_at), iso(now),
                 iso(now) if announced else None)
                for g in games]  # fmt: skip
        if rows:
            marks = ", ".join(["?"] * (len(_COLUMNS) + 2))
            await self.execute_many(f"INSERT INTO online_games ({', '.join(_COLUMNS)}, queued_at, announced_at) VALUES ({marks})", rows)

    async def online_games_of_round(self, club_id: int, system: str, round_ref: int) -> list[OnlineGame]:
        """The round's rows, cancelled ones too, by board and then the order they were queued."""
        rows = await self.fetch_all(
            "SELECT * FROM online_games WHERE club_id = ? AND system = ? AND round_ref = ? ORDER BY board, id",
            (club_id, system, round_ref),
        )
        return [_game(r) for r in rows]

    async def online_games_of_rounds(self, club_id: int, system: str, round_refs: Sequence[int]) -> list[OnlineGame]:
        """The rows of several rounds (``/mijn``, the website): the live ones only (not cancelled or failed)."""
        if not round_refs:
            return []
        marks = ", ".join(["?"] * len(round_refs))
        rows = await self.fetch_all(
            f"SELECT * FROM online_games WHERE club_id = ? AND system = ? AND round_ref IN ({marks})"
            f" AND status NOT IN ('{CANCEL}', '{CANCELLED}', '{FAILED}') ORDER BY round_ref, board, id",
            (club_id, system, *round_refs),
        )
        return [_game(r) for r in rows]

    # the worker: making
    async def online_games_to_make(self, now: datetime, club_id: int | None = None, limit: int = 500) -> list[OnlineGame]:
        """Rows to make now: ``pending``, not put off (``retry_at``), not yet past their latest start; the
        oldest first (a round's boards in order)."""
        return await self._online_games(f"status = '{PENDING}' AND (retry_at IS NULL OR retry_at <= ?) AND expires_at > ?",
                                        (iso(now), iso(now)), club_id, limit)  # fmt: skip

    async def mark_online_attempted(self, game_id: int, now: datetime) -> bool:
        """Before the request: the row is being made (committed first by the caller). False: it is no
        longer pending (cancelled meanwhile), and no request goes out."""
        return await self.execute_alone(
            f"UPDATE online_games SET attempted_at = ?, attempts = attempts + 1 WHERE id = ? AND status = '{PENDING}'",
            (iso(now), game_id),
        ) == 1

    async def record_online_challenge(self, game_id: int, challenge: Challenge, now: datetime) -> bool:
        """The challenge lichess made, recorded. False: the row was cancelled while the request was out
        (it is then to be cancelled at lichess too: its status becomes ``cancel``)."""
        done = await self.execute_alone(
            f"UPDATE online_games SET status = '{CREATED}', lichess_id = ?, url = ?, url_white = ?, url_black = ?,"
            f" made_at = ?, retry_at = NULL, error = NULL WHERE id = ? AND status = '{PENDING}'",
            (challenge.id, challenge.url, challenge.url_white, challenge.url_black, iso(now), game_id),
        )
        if done:
            return True
        await self.write(
            f"UPDATE online_games SET status = '{CANCEL}', lichess_id = ?, made_at = ? WHERE id = ? AND lichess_id IS NULL",
            (challenge.id, iso(now), game_id),
        )
        return False

    async def online_try_later(self, game_id: int, retry_at: datetime, error: str) -> None:
        await self.write("UPDATE online_games SET retry_at = ?, error = ? WHERE id = ?", (iso(retry_at), error[:500], game_id))

    async def online_failed(self, game_id: int, error: str) -> None:
        """Lichess refused to make it (a closed or unknown account): not tried again."""
        await self.write(f"UPDATE online_games SET status = '{FAILED}', error = ? WHERE id = ? AND status = '{PENDING}'",
                         (error[:500], game_id))  # fmt: skip

    async def online_unmade_expired(self, now: datetime) -> int:
        """Rows still pending at their latest start: never made now (``failed``), the director told."""
        return await self.execute(
            f"UPDATE online_games SET status = '{FAILED}', error = COALESCE(error, 'not made before its latest start')"
            f" WHERE status = '{PENDING}' AND expires_at <= ?", (iso(now),),
        )  # fmt: skip

    # cancelling
    async def cancel_online_games(self, game_ids: Sequence[int], now: datetime) -> None:
        """The rows a pairing change made stale: not made yet, cancelled here; made, cancelled at lichess by
        the worker (``cancel``); either way never announced or reported any more. A row attempted but not recorded is cancelled here: if lichess made it just
        before a crash, nobody ever hears of that challenge, and it expires."""
        for game_id in game_ids:
            await self.write(
                f"UPDATE online_games SET status = CASE WHEN lichess_id IS NULL THEN '{CANCELLED}' ELSE '{CANCEL}' END,"
                " cancelled_at = ?, announced_at = COALESCE(announced_at, ?), link_sent_at = COALESCE(link_sent_at, ?),"
                f" reported_at = COALESCE(reported_at, ?) WHERE id = ? AND status IN ('{PENDING}', '{CREATED}')",
                (iso(now), iso(now), iso(now), iso(now), game_id),
            )

    async def online_games_to_cancel(self, now: datetime, club_id: int | None = None, limit: int = 500) -> list[OnlineGame]:
        """Rows to cancel at lichess now (not put off: ``retry_at``)."""
        return await self._online_games(f"status = '{CANCEL}' AND (retry_at IS NULL OR retry_at <= ?)", (iso(now),), club_id, limit)

    async def mark_online_cancelled(self, game_id: int, now: datetime) -> None:
        await self.write(f"UPDATE online_games SET status = '{CANCELLED}', cancelled_at = ? WHERE id = ? AND status = '{CANCEL}'",
                         (iso(now), game_id))  # fmt: skip

    # announcing and telling
    async def online_rounds_to_announce(self, held_since: datetime, club_id: int | None = None) -> list[tuple[int, str, int]]:
        """(club, system, round) whose announcement is due: its rows not yet announced, and none of them
        still to be made, or the oldest queued at ``held_since`` or before (lichess down: announced without
        the missing links, which follow)."""
        where, values = _club_clause(club_id)
        rows = await self.fetch_all(
            "SELECT club_id, system, round_ref FROM online_games WHERE announced_at IS NULL" + where +
            f" GROUP BY club_id, system, round_ref HAVING SUM(CASE WHEN status = '{PENDING}' THEN 1 ELSE 0 END) = 0"
            " OR MIN(queued_at) <= ? ORDER BY MIN(id)",
            (*values, iso(held_since)),
        )  # fmt: skip
        return [(int(r["club_id"]), str(r["system"]), int(r["round_ref"])) for r in rows]

    async def mark_online_announced(self, club_id: int, system: str, round_ref: int, now: datetime) -> list[int]:
        """The round's rows announced (its made ones with their links); the ids of those whose link went."""
        await self.write(
            "UPDATE online_games SET announced_at = ? WHERE club_id = ? AND system = ? AND round_ref = ? AND announced_at IS NULL",
            (iso(now), club_id, system, round_ref),
        )
        linked = await self.returning(
            "UPDATE online_games SET link_sent_at = ? WHERE club_id = ? AND system = ? AND round_ref = ?"
            f" AND status = '{CREATED}' AND link_sent_at IS NULL RETURNING id",
            (iso(now), club_id, system, round_ref),
        )
        return [int(r["id"]) for r in linked]

    async def online_links_late(self, club_id: int | None = None) -> list[OnlineGame]:
        """Rows made after their round was announced: their links still to be sent."""
        return await self._online_games(f"status = '{CREATED}' AND announced_at IS NOT NULL AND link_sent_at IS NULL", (), club_id)

    async def mark_online_links_sent(self, game_id: int, now: datetime) -> bool:
        return await self.execute("UPDATE online_games SET link_sent_at = ? WHERE id = ? AND link_sent_at IS NULL", (iso(now), game_id)) == 1

    async def online_games_not_made(self, now: datetime, club_id: int | None = None) -> list[OnlineGame]:
        """Rows the director is to be told of, not yet told: refused by lichess (``failed``: at once), or still
        not made at their start of play."""
        return await self._online_games(f"reported_at IS NULL AND (status = '{FAILED}' OR (status = '{PENDING}' AND starts_at <= ?))",
                                        (iso(now),), club_id)  # fmt: skip

    async def _online_games(self, condition: str, params: tuple[Any, ...], club_id: int | None, limit: int | None = None
                            ) -> list[OnlineGame]:  # fmt: skip
        """The rows that meet ``condition`` (of the club, when given), in the order they were queued."""
        where, values = _club_clause(club_id)
        tail = f" LIMIT {int(limit)}" if limit is not None else ""
        rows = await self.fetch_all(f"SELECT * FROM online_games WHERE {condition}{where} ORDER BY id{tail}", (*params, *values))
        return [_game(r) for r in rows]

    async def mark_online_reported(self, game_ids: Sequence[int], now: datetime) -> None:
        for game_id in game_ids:
            await self.write("UPDATE online_games SET reported_at = ? WHERE id = ?", (iso(now), game_id))

    async def next_online_moment(self, hold: timedelta, club_id: int | None = None, making: bool = True) -> datetime | None:
        """The earliest moment the worker has something to do: a row to make (now, or at its retry), one to
        cancel or a late link (now), a round to announce (when its last row is settled, else ``hold`` after it
        was queued), a start of play to report on. Not ``making`` (online play off): the last two only."""
        where, values = _club_clause(club_id)
        row = None if not making else await self.fetch_one(
            f"SELECT MIN(CASE WHEN status IN ('{PENDING}', '{CANCEL}') THEN COALESCE(retry_at, queued_at) ELSE queued_at END) AS due"
            f" FROM online_games WHERE (status = '{CANCEL}' OR status = '{PENDING}'"
            f" OR (status = '{CREATED}' AND announced_at IS NOT NULL AND link_sent_at IS NULL)){where}",
            values,
        )  # fmt: skip
        report = await self.fetch_one(
            f"SELECT MIN(CASE WHEN status = '{FAILED}' THEN queued_at ELSE starts_at END) AS due FROM online_games"
            f" WHERE status IN ('{PENDING}', '{FAILED}') AND reported_at IS NULL{where}",
            values,
        )  # fmt: skip
        rounds = await self.fetch_all(
            f"SELECT MIN(queued_at) AS queued, SUM(CASE WHEN status = '{PENDING}' THEN 1 ELSE 0 END) AS pending"
            f" FROM online_games WHERE announced_at IS NULL{where} GROUP BY club_id, system, round_ref",
            values,
        )  # fmt: skip
        moments = [from_iso(r["due"]) for r in (row, report) if r is not None and r["due"] is not None]
        moments += [from_iso(r["queued"]) + (hold if r["pending"] else timedelta(0)) for r in rounds]
        return min(moments, default=None)
