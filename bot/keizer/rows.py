"""The Keizer competition's rows as the bot reads them (seasons, their players, rounds, games, sign-offs),
and how a database row becomes one."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from bot.core.storage.store import from_iso


@dataclass(frozen=True)
class Season:
    id: int
    club_id: int
    name: str
    kind: str
    rounds_count: int
    deadline_time: str
    publish_time: str
    timezone: str
    settings_json: str
    status: str


@dataclass(frozen=True)
class SeasonPlayer:
    member_id: int
    name: str
    rating: int
    group_name: str | None
    joined_round: int
    start_points: str | None
    auto_signed_off: bool
    withdrawn_from: int | None = None  # out of the pairing and the ranking from this round on
    returned_from: int | None = None  # back after the withdrawal: in the pairing and the ranking again from this round
    signed_on_after: int | None = None  # signed on again after the no-show rule: counts from the round after
    estimate: int | None = None  # an unrated player's estimated rating: for the start order only (migration 0084)


@dataclass(frozen=True)
class RoundRow:
    id: int
    season_id: int
    number: int
    play_date: str
    deadline_at: datetime
    publish_at: datetime
    status: str


@dataclass(frozen=True)
class GameRow:
    id: int
    round_id: int
    board: int
    white_id: int
    black_id: int
    result: str | None
    reported_result: str | None
    reported_by: int | None
    agreed: bool = False  # both players said this result (migration 0082), not a director's or lichess's
    disputed_result: str | None = None  # the opponent's report that disagrees with ``reported_result``


@dataclass(frozen=True)
class Signoff:
    round_id: int
    member_id: int
    kind: str


def season_player_row(r: sqlite3.Row, prefix: str = "") -> SeasonPlayer:
    return SeasonPlayer(
        member_id=r[prefix + "member_id"],
        name=r[prefix + "name"],
        rating=r[prefix + "rating"],
        group_name=r[prefix + "group_name"],
        joined_round=r[prefix + "joined_round"],
        start_points=r[prefix + "start_points"],
        auto_signed_off=bool(r[prefix + "auto_signed_off"]),
        withdrawn_from=r[prefix + "withdrawn_from"],
        returned_from=r[prefix + "returned_from"],
        signed_on_after=r[prefix + "signed_on_after"],
        estimate=r[prefix + "estimate"],
    )


def season_row(row: sqlite3.Row) -> Season:
    return Season(
        row["id"],
        row["club_id"],
        row["name"],
        row["kind"],
        row["rounds_count"],
        row["deadline_time"],
        row["publish_time"],
        row["timezone"],
        row["settings_json"],
        row["status"],
    )


def round_row(row: sqlite3.Row, prefix: str = "") -> RoundRow:
    return RoundRow(
        row[prefix + "id"],
        row[prefix + "season_id"],
        row[prefix + "number"],
        row[prefix + "play_date"],
        from_iso(row[prefix + "deadline_at"]),
        from_iso(row[prefix + "publish_at"]),
        row[prefix + "status"],
    )


def game_row(row: sqlite3.Row) -> GameRow:
    return GameRow(
        row["id"],
        row["round_id"],
        row["board"],
        row["white_id"],
        row["black_id"],
        row["result"],
        row["reported_result"],
        row["reported_by"],
        bool(row["agreed"]),
        row["disputed_result"],
    )


def rounds_of_clubs(club_id: int | None) -> tuple[str, tuple[int, ...]]:
    """``FROM`` rounds ``r`` with their seasons ``s`` for a scheduler's look-up: every club's rounds, or
    (``club_id``) one club's, what a command may have made due. One club's are found through its seasons
    (SQLite takes the tables of a CROSS JOIN in the order written), never by reading every club's open
    rounds to keep this club's; the query's ``WHERE`` follows."""
    if club_id is None:
        return "rounds r JOIN seasons s ON s.id = r.season_id WHERE", ()
    return "seasons s CROSS JOIN rounds r WHERE s.club_id = ? AND r.season_id = s.id AND", (club_id,)
