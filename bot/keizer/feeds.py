"""The season's calendar as an iCalendar file (RFC 5545): ``/kalender [rapid]`` (the club's feed, also
``/c/<club>/kalender.ics``) and ``/kalender mijn`` (a member's own: also at the secret address ``/mijn
kalender`` gives, ``/c/<club>/kalender/<token>.ics``, for members-only clubs too).

Each round is a timed event: the club's playing evening (``/speelavond tijd=...``, ``bot/keizer/venue.py``)
at its location (``LOCATION``), with an alarm (``VALARM``) ``reminder_hours`` before the sign-off deadline
(one hour when the channel's reminder is off). In a member's own feed a paired round says their opponent,
colour and board (or the bye), a round they are signed off for says so (and has no alarm). Times are UTC
(``Z``), lines end in CRLF and are folded at 75 octets, TEXT is escaped; each event's UID names the
installation (migration 0050), the season, the round (and the member), so it stays the same as the feed
changes and two bots' calendars never share one; a round moved to another evening keeps its UID and its
event counts the moves in ``SEQUENCE`` (migration 0080), so a calendar app moves it."""

from __future__ import annotations

import re
from collections.abc import Hashable
from datetime import datetime, timedelta, timezone

from bot.core.output.calendar import local_text
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member
from bot.core.club.web_links import site_url
from bot.keizer import competition
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, competition_of, keizer_store
from bot.keizer.store import RoundRow, Season
from bot.keizer.calendar_store import FeedStore, FreeEveningStore, Venue, VenueStore, new_feed_token
from bot.keizer.versions import season_key

MINE_WORDS = {"mijn", "mine"}
RENEW_WORDS = {"nieuw", "new"}


def ics_text(text: str) -> str:
    """RFC 5545 TEXT: backslash, semicolon, comma and line breaks escaped."""
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def ics_fold(line: str) -> str:
    """Lines of at most 75 octets, continued with a space (RFC 5545 3.1); a character is never split."""
    out, current = [], ""
    for char in line:
        if len((current + char).encode("utf-8")) > 75:
            out.append(current)
            current = " "
        current += char
    out.append(current)
    return "\r\n".join(out)


def utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _alarm_lead(core: Core) -> timedelta:
    return timedelta(hours=core.config.reminder_hours if core.config.reminder_hours > 0 else 1)


def _event(uid: str, stamp: str, row: RoundRow, season: Season, venue: Venue, summary: str, about: str,
           alarm: tuple[datetime, str] | None, moved: int = 0) -> list[str]:  # fmt: skip
    """One round's event; ``moved``: how many times the round moved to another evening (``/seizoen vrij``,
    ``/ronde N datum=``), its SEQUENCE: the same UID, a newer version of the event."""
    start, end = venue.evening(datetime.strptime(row.play_date, "%Y-%m-%d").date(), season.timezone)
    lines = ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp}", *([f"SEQUENCE:{moved}"] if moved else []),
             f"DTSTART:{utc(start)}", f"DTEND:{utc(end)}", f"SUMMARY:{ics_text(summary)}", f"DESCRIPTION:{ics_text(about)}"]  # fmt: skip
    if venue.location:
        lines.append(f"LOCATION:{ics_text(venue.location)}")
    if alarm is not None:
        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", f"TRIGGER;VALUE=DATE-TIME:{utc(alarm[0])}",
                  f"DESCRIPTION:{ics_text(alarm[1])}", "END:VALARM"]  # fmt: skip
    return lines + ["END:VEVENT"]


def _file(name: str, events: list[str]) -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//clubbot//Keizer//NL", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{ics_text(name)}", *events, "END:VCALENDAR"]  # fmt: skip
    return "".join(ics_fold(line) + "\r\n" for line in lines).encode("utf-8")


async def calendar_key(core: Core, ctx: Context) -> Hashable | None:
    """The club's feed: its season's version (the main feed holds the rapid season's evenings too), the
    words and the language, and the playing evening; a member's own feed is not cached (it is theirs alone)."""
    if {a.lower() for a in ctx.args} & MINE_WORDS:
        return None
    key = await season_key(core, ctx)
    if key is None:
        return None
    rapid = await keizer_store(core).season_version(ctx.club.id, "rapid")
    return (key, rapid, await VenueStore(core.store).venue(ctx.club.id))


async def cmd_kalender(core: Core, ctx: Context) -> Reply:
    """``/kalender [rapid]``: the season's rounds as an iCalendar file, the club's feed: without ``rapid``
    the main season's evenings and the rapid season's together (issue 45 §1), with it the rapid ones
    alone; ``/kalender mijn``: the asker's own."""
    if {a.lower() for a in ctx.args} & MINE_WORDS:
        return await _own_calendar(core, ctx)
    kind, ctx = competition_of(ctx)
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_kalender"))
    first = await active_season(core, ctx, kind)
    rapid = await keizer_store(core).active_season(ctx.club.id, "rapid") if kind == "main" else None
    stamp, installation = utc(ctx.now), await core.store.installation_id()
    venue = await VenueStore(core.store).venue(ctx.club.id)
    events: list[str] = []
    counts: list[str] = []
    for season in (first, rapid):
        if season is None:
            continue
        data = await competition.load(core.store, season)
        moves = await FreeEveningStore(core.store).moves(season.id)
        for row in data.round_rows:
            summary = for_competition(ctx.lang, season.kind, ctx.t("calendar_round", club=ctx.club.name, round=row.number))
            events += _event(f"clubbot-{season.id}-{row.number}@{installation}.clubbot", stamp, row, season, venue, summary,
                             _about(ctx, season, row), _alarm(core, ctx, season, row), moves.get(row.number, 0))  # fmt: skip
        counts.append(for_competition(ctx.lang, season.kind, ctx.t("calendar_ready", name=season.name, rounds=len(data.round_rows))))
    content = _file(f"{ctx.club.name} {first.name}", events)
    return Reply(lines=tuple(counts), attachment=(f"{_base(first.name)}.ics", content))


def _base(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "seizoen"


def _about(ctx: Context, season: Season, row: RoundRow) -> str:
    return ctx.t("calendar_about", deadline=local_text(row.deadline_at, season.timezone)[-5:],
                 publish=local_text(row.publish_at, season.timezone)[-5:])  # fmt: skip


def _alarm(core: Core, ctx: Context, season: Season, row: RoundRow) -> tuple[datetime, str]:
    said = ctx.t("calendar_alarm", round=row.number, deadline=local_text(row.deadline_at, season.timezone)[-5:])
    return row.deadline_at - _alarm_lead(core), for_competition(ctx.lang, season.kind, said)


async def _own_calendar(core: Core, ctx: Context) -> Reply:
    """A member's rounds in every competition they play: their game, bye or sign-off once known."""
    member = ctx.require_member()
    if {a.lower() for a in ctx.args} - MINE_WORDS:
        raise UserError("error_usage", usage=ctx.t("usage_kalender"))
    store = keizer_store(core)
    stamp, installation = utc(ctx.now), await core.store.installation_id()
    venue = await VenueStore(core.store).venue(ctx.club.id)
    names = {m.id: m.name for m in await core.store.members(ctx.club.id)}
    events: list[str] = []
    for kind in ("main", "rapid"):
        season = await store.active_season(ctx.club.id, kind)
        place = await store.season_player(season.id, member.id) if season is not None else None
        if season is None or place is None:
            continue
        byes = {number for number, who in await store.byes_of_season(season.id) if who == member.id}
        moves = await FreeEveningStore(core.store).moves(season.id)
        for row in await store.rounds(season.id):
            if row.number < place.joined_round or competition.withdrawn(place, row.number):
                continue
            state, alarm = await _state(core, ctx, season, row, member, names, row.number in byes)
            summary = for_competition(ctx.lang, season.kind, ctx.t("calendar_round", club=ctx.club.name, round=row.number))
            if state:
                summary = f"{summary}: {state}"
            events += _event(f"clubbot-{season.id}-{row.number}-{member.id}@{installation}.clubbot", stamp, row, season,
                             venue, summary, _about(ctx, season, row), alarm, moves.get(row.number, 0))  # fmt: skip
    if not events:
        raise UserError("error_calendar_not_playing", name=member.name)
    content = _file(ctx.t("calendar_mine_name", club=ctx.club.name, name=member.name), events)
    return Reply(lines=(ctx.t("calendar_mine_ready", name=member.name),), attachment=(f"{_base(member.name)}.ics", content),
                 private=True)  # fmt: skip


async def _state(core: Core, ctx: Context, season: Season, row: RoundRow, member: Member, names: dict[int, str],
                 bye: bool) -> tuple[str, tuple[datetime, str] | None]:  # fmt: skip
    """The member's state in a round, in words ("" while nothing is known), and the alarm it keeps."""
    if row.status == "paired":
        if bye:
            return ctx.t("calendar_mine_bye"), None
        for game in await keizer_store(core).games_of_round(row.id):
            if member.id in (game.white_id, game.black_id):
                white = game.white_id == member.id
                other = names.get(game.black_id if white else game.white_id, "?")
                colour = ctx.t("colour_white" if white else "colour_black")
                return ctx.t("calendar_mine_game", colour=colour, name=other, board=game.board), None
        return ctx.t("calendar_mine_off"), None
    if member.id in await competition.signed_off_for(core.store, season.id, row.id):
        return ctx.t("calendar_mine_off"), None
    return "", _alarm(core, ctx, season, row)


async def cmd_my_calendar(core: Core, ctx: Context) -> Reply:
    """``/mijn kalender``: the address of the member's own calendar feed; ``/mijn kalender nieuw``: a new one
    (the old address stops working)."""
    member = ctx.require_member()
    words = {a.lower() for a in ctx.args}
    if len(ctx.args) > 1 or not words <= RENEW_WORDS | {"link"}:
        raise UserError("error_usage", usage=ctx.t("usage_mijn"))
    address = site_url(core, ctx.club.id)
    if ctx.club.website == "off" or address is None:
        raise UserError("website_off")
    token = await FeedStore(core.store).calendar_feed(member.id)
    renew = bool(words & RENEW_WORDS)
    if token is None or renew:
        token = new_feed_token()
        async with core.store.transaction():
            await FeedStore(core.store).set_calendar_feed(ctx.club.id, member.id, token, ctx.now)
    key = "calendar_feed_renewed" if renew else "calendar_feed"
    return Reply(lines=(ctx.t(key, url=f"{address}kalender/{token}.ics"),), private=True, secret=True)


async def cmd_my_calendar_new(core: Core, ctx: Context) -> Reply:
    return await cmd_my_calendar(core, ctx.with_args(["nieuw", *ctx.args]))
