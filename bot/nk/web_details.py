"""What an NK page of the club's website says under its title of the tournament itself (issue 45 §1, as
chess-results has it): the days it was played (its rounds' pairing days, in the club's time zone) and its
time control (``/nk nieuw ... tempo=``); the NK pages of the tournament shown now and the archive's of a
past one say them alike."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.core.i18n import t
from bot.core.output.calendar import dates_text, parse_zone
from bot.core.storage.store import Club
from bot.nk.store import NkStore, NkTournament


async def tournament_dates(store: NkStore, club: Club, tournament: NkTournament) -> tuple[str, ...]:
    """The first and last day a round was paired (one day alone when they are the same); none before round 1."""
    zone = parse_zone(club.timezone) or ZoneInfo("UTC")
    days = [moment.astimezone(zone).date() for moment in await store.paired_moments(tournament.id)]
    return (dates_text(club.language, days[0], days[-1]),) if days else ()


def time_control(club: Club, tournament: NkTournament) -> tuple[str, ...]:
    if not tournament.time_control:
        return ()
    return (t(club.language, "web_detail_time_control", time_control=tournament.time_control),)
