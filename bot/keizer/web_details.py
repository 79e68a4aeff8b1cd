"""What a Keizer page of the club's website says under its title (issue 45 §1, as chess-results has it):
the season's dates (its first and last round), the club's venue and time control (``/speelavond``), and
when what the page shows last changed (its latest publication or result), in the club's time zone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import date

from bot.core.commands.context import parse_id
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.output.calendar import dates_text, moment_text
from bot.core.storage.store import Club
from bot.keizer.calendar_store import VenueStore
from bot.keizer.changes_store import ChangesStore
from bot.keizer.lookups import keizer_store
from bot.keizer.store import RoundRow

Details = Callable[[Core, Club, str], Awaitable[tuple[str, ...]]]


def season_dates(lang: str, rounds: Sequence[RoundRow]) -> tuple[str, ...]:
    """A season's dates under a page's title: its first and last round's (the archive's pages say them too)."""
    if not rounds:
        return ()
    return (dates_text(lang, date.fromisoformat(rounds[0].play_date), date.fromisoformat(rounds[-1].play_date)),)


def details(kind: str, pairing: bool) -> Details:
    """The lines of a standings page (``pairing`` False: the rounds up to the one shown, all without one)
    or a pairing page (the round shown, the last published without one) of the ``kind`` competition."""

    async def lines(core: Core, club: Club, rest: str) -> tuple[str, ...]:
        store = keizer_store(core)
        season = await store.active_season(club.id, kind)
        if season is None:
            return ()
        lang = club.language
        rounds = await store.rounds(season.id)
        said = list(season_dates(lang, rounds))
        venue = await VenueStore(core.store).venue(club.id)
        if venue.location:
            said.append(t(lang, "web_detail_venue", location=venue.location))
        if venue.time_control:
            said.append(t(lang, "web_detail_time_control", time_control=venue.time_control))
        shown = parse_id(rest, 3)
        if shown is None and pairing:
            published = [r.number for r in rounds if r.status == "paired"]
            shown = published[-1] if published else None
        upto = shown if shown is not None else len(rounds)
        changed = await ChangesStore(core.store).last_change(season.id, upto if pairing else 1, upto)
        if changed is not None:
            said.append(t(lang, "web_detail_updated", moment=moment_text(lang, changed, club.timezone)))
        return tuple(said)

    return lines
