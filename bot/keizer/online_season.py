"""A season played online (migration 0075, issue 43 §1): from which round a season's games are played on
lichess, with which clock, rated or not, and until when a game may start (the challenge's expiry). What
the director types is read in ``bot/keizer/online_settings.py``.

The setting of a round is the row with the highest ``from_round`` at or below the round's number: a switch
adds a row from the first round not yet paired, so the rounds already published keep what they had."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from bot.core.online.lichess_answers import TimeControl
from bot.core.output.calendar import local_to_utc, parse_hhmm, parse_zone
from bot.core.storage.store import Store
from bot.keizer.calendar_store import Venue

LICHESS = "lichess"


@dataclass(frozen=True)
class OnlineSetting:
    platform: str | None  # LICHESS, or None: played at the club
    clock_limit: int | None = None  # seconds (lichess's clock.limit)
    clock_increment: int | None = None  # seconds (clock.increment)
    rated: bool = False
    latest_start: time | None = None  # local; None: the end of the playing evening (/speelavond)
    from_round: int = 1

    @property
    def online(self) -> bool:
        return self.platform is not None

    def clock(self) -> TimeControl | None:
        """The clock lichess's challenge gets (None: none set yet)."""
        if self.clock_limit is None or self.clock_increment is None:
            return None
        return TimeControl(self.clock_limit, self.clock_increment)

    def tempo(self) -> str:
        """As a club writes it: ``15+10`` (minutes + seconds a move)."""
        clock = self.clock()
        return str(clock) if clock is not None else ""

    def latest_start_at(self, day: date, publish_at: datetime, zone_name: str, venue: Venue) -> datetime:
        """The moment (UTC) by which a game of the round played on ``day`` must have started: the setting's
        time (after midnight when it is not after the publication), else the end of the playing evening."""
        if self.latest_start is None:
            return venue.evening(day, zone_name)[1]
        zone = parse_zone(zone_name) or parse_zone("UTC")
        assert zone is not None
        moment = local_to_utc(day, self.latest_start, zone)
        return moment if moment > publish_at else local_to_utc(day + timedelta(days=1), self.latest_start, zone)


def _setting(row: Any) -> OnlineSetting:
    latest = parse_hhmm(row["latest_start"]) if row["latest_start"] else None
    return OnlineSetting(row["platform"], row["clock_limit"], row["clock_increment"], bool(row["rated"]), latest,
                         row["from_round"])  # fmt: skip


class OnlineStore:
    def __init__(self, store: Store) -> None:
        self.db = store

    async def setting(self, season_id: int, round_number: int) -> OnlineSetting | None:
        """The setting of a round (None: the season never played online)."""
        row = await self.db.fetch_one(
            "SELECT * FROM season_online WHERE season_id = ? AND from_round <= ? ORDER BY from_round DESC LIMIT 1",
            (season_id, round_number),
        )
        return _setting(row) if row else None

    async def settings(self, season_id: int) -> list[OnlineSetting]:
        rows = await self.db.fetch_all("SELECT * FROM season_online WHERE season_id = ? ORDER BY from_round", (season_id,))
        return [_setting(r) for r in rows]

    async def set_setting(self, season_id: int, setting: OnlineSetting) -> None:
        """``setting`` from its round on: a row of that round, and of any later round (a round unpublished
        again comes before them), replaced."""
        latest = setting.latest_start.strftime("%H:%M") if setting.latest_start else None
        await self.db.write("DELETE FROM season_online WHERE season_id = ? AND from_round > ?", (season_id, setting.from_round))
        await self.db.write(
            "INSERT INTO season_online (season_id, from_round, platform, clock_limit, clock_increment, rated, latest_start)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, from_round) DO UPDATE SET platform = excluded.platform,"
            " clock_limit = excluded.clock_limit, clock_increment = excluded.clock_increment, rated = excluded.rated,"
            " latest_start = excluded.latest_start",
            (season_id, setting.from_round, setting.platform, setting.clock_limit, setting.clock_increment,
             int(setting.rated), latest),
        )  # fmt: skip
