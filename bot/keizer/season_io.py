"""The bot's season as a season file (docs/season-file.md), and a season file as a bot season.

Export writes the players (their names are the ids), every paired round with its games, byes and
absences and its date, who is present for the coming round, and the season's free evenings (``/seizoen
vrij``), so `clubbot keizer pair` on the exported file makes the pairing the bot would make. Import creates
a new season from a file: its rounds become the season's played rounds on their dates (a file without
dates: weekly before the start date), and the rounds still to play follow weekly from the given start
date, the file's free evenings skipped.
"""

from __future__ import annotations

import asyncio

import json
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.keizer import season_file
from engine.keizer import Game, KeizerSettings, Round

from bot.core.storage.store import Store
from bot.keizer import competition
from bot.keizer.calendar import playing_evenings, round_moments
from bot.keizer.calendar_store import FreeEveningStore
from bot.keizer.store import KeizerStore, Season


async def export_text(store: Store, season: Season) -> str:
    data = await competition.load(store, season)
    name_of = {p.id: p.name for p in data.players}
    players = tuple(replace(p, id=p.name) for p in data.players)
    rounds = tuple(
        Round(
            number=r.number,
            games=tuple(Game(name_of[g.white], name_of[g.black], g.result) for g in r.games),
            byes=tuple(name_of[b] for b in r.byes),
            absent={name_of[pid]: kind for pid, kind in r.absent.items()},
        )
        for r in data.rounds
    )
    present: tuple[str, ...] | None = None
    coming = competition.coming_round(data)
    if coming is not None:
        signed_off = await competition.signed_off_for(store, season.id, coming.id)
        present = tuple(name_of[pid] for pid in competition.present_players(data, coming.number, signed_off))
    date_of = {r.number: r.play_date for r in data.round_rows}
    dates = tuple(date_of[r.number] for r in data.rounds)
    free = tuple(d.isoformat() for d in await FreeEveningStore(store).free_evenings(season.id))
    file = season_file.Season(settings=data.settings, players=players, rounds=rounds, present=present, name=season.name,
                              dates=dates, free_evenings=free)  # fmt: skip
    return await asyncio.to_thread(season_file.export_season, file)  # a big season: off the event loop


def settings_json(settings: KeizerSettings) -> str:
    """Only what differs from the defaults, in the season file's notation (fractions as "1/3")."""
    return json.dumps(season_file.settings_json(settings), sort_keys=True)


async def import_file(
    store: Store,
    club_id: int,
    file: season_file.Season,
    name: str,
    kind: str,
    first_unplayed: date,
    rounds_count: int,
    deadline: time,
    publish: time,
    zone_name: str,
    now: datetime,
) -> Season:
    """A new season from a parsed season file; members are found (or made) by name."""
    zone = ZoneInfo(zone_name)
    days = played_days(file, first_unplayed) + playing_evenings(first_unplayed, rounds_count - len(file.rounds), free_days(file))
    calendar = [(n, day.isoformat(), *round_moments(day, deadline, publish, zone)) for n, day in enumerate(days, start=1)]
    async with store.transaction():
        season = await KeizerStore(store).create_season(
            club_id, name, kind, calendar, deadline.strftime("%H:%M"), publish.strftime("%H:%M"), zone_name,
            settings_json(file.settings), now,
        )  # fmt: skip
        await FreeEveningStore(store).add_free_evenings(season.id, sorted(free_days(file)))
        member_of: dict[str, int] = {}
        for position, player in enumerate(file.players, start=1):
            member = await store.member_by_name(club_id, player.name)
            if member is None:
                member = await store.add_member(club_id, player.name, player.rating, now)
            member_of[player.id] = member.id
            await KeizerStore(store).upsert_season_player(
                season.id, member.id, player.rating, player.joined_round, player.group, position
            )
            if player.start_points is not None:
                await KeizerStore(store).set_start_points(season.id, member.id, str(player.start_points))
            if player.withdrawn_from is not None:
                await KeizerStore(store).set_withdrawn(season.id, member.id, player.withdrawn_from, player.returned_from)
        rows = await KeizerStore(store).rounds(season.id)
        for row, rnd in zip(rows, file.rounds):
            games = [
                (board, member_of[g.white], member_of[g.black], g.result.value if g.result else None)
                for board, g in enumerate(rnd.games, start=1)
            ]
            await KeizerStore(store).store_played_round(
                row.id,
                games,
                [member_of[b] for b in rnd.byes],
                {member_of[pid]: absence.value for pid, absence in rnd.absent.items()},
                now,
            )
    return season


def played_days(file: season_file.Season, first_unplayed: date) -> list[date]:
    """The played rounds' dates: the file's, or (a file without dates) a week apart before ``first_unplayed``."""
    if file.dates:
        return [date.fromisoformat(d) for d in file.dates]
    played = len(file.rounds)
    return [first_unplayed - timedelta(weeks=played - i) for i in range(played)]


def free_days(file: season_file.Season) -> set[date]:
    return {date.fromisoformat(d) for d in file.free_evenings}
