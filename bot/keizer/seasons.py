"""Seasons and players, the director's side: ``/seizoen`` (a new season), ``/speler`` (add a player or
change their rating), ``/exporteer`` and ``/importeer`` (the season file, docs/season-file.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from fractions import Fraction
from zoneinfo import ZoneInfo

from engine.keizer import KeizerSettings, season_file

from bot.core.output.calendar import FIRST_YEAR, LAST_YEAR, local_text, parse_day, parse_hhmm, parse_zone
from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError, parse_int
from bot.core.commands.dispatch import Core
from bot.core.club.federation import holder_of, identity_args
from bot.core.club.lichess_accounts import lichess_arg, refuse_taken
from bot.core.club.lichess_tables import BY_DIRECTOR, BY_LOGIN
from bot.core.commands.limits import MAX_FILE_BYTES, MAX_IMPORT_PLAYERS, MAX_ROUNDS
from bot.core.club.member_admin import admin_words, run_admin
from bot.core.club.name_rules import check_name, look_alikes, merge_hint
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member
from bot.keizer import competition, director_games, season_io
from bot.keizer.calendar import playing_evenings, season_rounds
from bot.keizer.estimates import estimate_arg, estimate_shown, set_estimate
from bot.keizer.join_approval import APPROVAL_KEYS, APPROVAL_VALUES, APPROVAL_WORDS, with_approval_setting
from bot.keizer.late_joiners import late_joiner_line
from bot.keizer.group_setting import set_groups
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, competition_of, keizer_store
from bot.keizer.online_settings import (
    cmd_online, cmd_show_season, describe, new_season_online, only_online, save_new_season_online, split_online,
)
from bot.keizer.calendar_store import FreeEveningStore, VenueStore
from bot.keizer.open_results import MISSING_VALUES, open_store, with_missing_setting
from bot.keizer.reminders import REMINDER_KEYS, REMINDER_VALUES, with_reminder_setting
from bot.keizer.reports import EXPORT_FORMATS, export
from bot.keizer.rows import Season



@dataclass(frozen=True)
class SeasonOptions:
    name: str
    first_day: date
    rounds: int
    deadline: time
    publish: time
    zone_name: str
    zone: ZoneInfo
    kind: str
    rounds_given: bool
    start_order: str = "rating"  # "list": last season's final ranking (seed 004 Keizer rule a)
    club_rules: dict[str, object] = field(default_factory=dict)  # KeizerSettings given: riser_from, auto_signoff_fraction
    missing: str = "pair"  # ontbrekend=: pair anyway while earlier results are open, or "wait" (bot/keizer/open_results.py)
    reminder: str = "off"  # herinnering=: the private reminders before the deadline (bot/keizer/reminders.py)
    free: tuple[date, ...] = ()  # vrij=2026-12-24,2026-12-31: the free evenings (bot/keizer/free_evenings.py)


async def cmd_seizoen(core: Core, ctx: Context) -> Reply:
    """Create a season: ``/seizoen naam=2026-27 start=2026-12-03 rondes=28 deadline=17:00
    publicatie=18:00 tijdzone=Europe/Amsterdam soort=rapid``. One round a week from the start date."""
    for keys, known, stored, reply in _SETTINGS:
        if _only_setting(ctx, keys):
            return await _set_setting(core, ctx, keys, known, stored, reply)
    if only_online(ctx):  # online=lichess|uit tempo=...: the running season's, from its coming round
        return await cmd_online(core, ctx)
    if all("=" in a and a.partition("=")[0].lower() in _KIND_KEYS for a in ctx.args):  # /seizoen [soort=rapid]
        return await cmd_show_season(core, ctx)
    anyway, ctx = director_games.anyway(ctx)  # toch: the director knows a running season ends
    online, args = split_online(ctx.args)  # online=lichess tempo=15+10 ... (bot/keizer/online_settings.py)
    ctx = ctx.with_args(args)
    opts = await season_options(core, ctx, "usage_seizoen", need_name=True)
    playing_online = new_season_online(core, ctx, online, opts.publish.strftime("%H:%M"))
    calendar = season_rounds(opts.first_day, opts.rounds, opts.deadline, opts.publish, opts.zone, opts.free)
    if calendar[0][2] <= ctx.now:
        raise UserError("error_start_in_past", date=opts.first_day.isoformat())
    previous = await keizer_store(core).active_season(ctx.club.id, opts.kind)
    await _not_while_running(core, previous, anyway)
    # Everyone who played last season (or, for a first season, every member) is in the new one;
    # with startvolgorde=eindstand in the order of last season's final ranking.
    positions: dict[int, int] = {}
    if previous is not None:
        last = await competition.load(core.store, previous)
        carried = [(sp.member_id, sp.rating, sp.group_name) for sp in last.season_players]
        if opts.start_order == "list":
            final = competition.standings(last)
            positions = {int(s.player.id): s.rank for s in final}
    else:
        if opts.start_order == "list":
            raise UserError("error_no_previous_season")
        carried = [(m.id, m.rating, None) for m in await core.store.members(ctx.club.id) if not m.is_director]
        if opts.kind == "rapid":  # its own roster: members join with /aanmelden rapid, or /speler ... rapid
            carried = []
    settings = season_io.settings_json(KeizerSettings(start_order=opts.start_order, **opts.club_rules))  # type: ignore[arg-type]  # fields by name
    settings = with_reminder_setting(with_missing_setting(settings, opts.missing), opts.reminder)
    async with core.store.transaction():
        season = await keizer_store(core).create_season(
            ctx.club.id, opts.name, opts.kind, calendar, opts.deadline.strftime("%H:%M"),
            opts.publish.strftime("%H:%M"), opts.zone_name, settings, ctx.now,
        )  # fmt: skip
        for member_id, rating, group in carried:
            await keizer_store(core).upsert_season_player(season.id, member_id, rating, 1, group, positions.get(member_id))
        await save_new_season_online(core, season, playing_online)
        await FreeEveningStore(core.store).add_free_evenings(season.id, list(opts.free))
    lines = [season_created(ctx, opts, calendar, len(carried))]
    if opts.free:
        lines.append(ctx.t("free_added", count=len(opts.free), season=opts.name, days=", ".join(d.isoformat() for d in opts.free)))
    if playing_online is not None:
        lines.append(describe(ctx, playing_online, (await VenueStore(core.store).venue(ctx.club.id)).ends))
    if opts.kind == "rapid" and previous is None:
        lines.append(ctx.t("rapid_roster_empty"))
    return Reply(lines=tuple(lines))


async def _not_while_running(core: Core, previous: Season | None, anyway: bool) -> None:
    """A new season (``/seizoen naam=...``, ``/importeer``) ends the running one of its kind: refused, with
    how to go on, while that one still has rounds to play, unless the director said ``toch``."""
    if previous is None or anyway:
        return
    left = sum(1 for r in await keizer_store(core).rounds(previous.id) if r.status != "paired")
    if left:
        raise UserError("error_season_running", name=previous.name, left=left)


def season_created(
    ctx: Context, opts: SeasonOptions, calendar: list[tuple[int, str, datetime, datetime]], players: int
) -> str:
    return ctx.t(
        "season_created", name=opts.name, rounds=opts.rounds, first=calendar[0][1],
        weekday=ctx.t(f"weekday_{opts.first_day.weekday()}"), deadline=opts.deadline.strftime("%H:%M"),
        publish=opts.publish.strftime("%H:%M"), timezone=opts.zone_name, players=players,
    )  # fmt: skip


async def season_options(core: Core, ctx: Context, usage: str, need_name: bool) -> SeasonOptions:
    """The key=value options of /seizoen and /importeer, checked."""
    keys = {
        "naam": "name", "name": "name", "start": "start", "rondes": "rounds", "rounds": "rounds",
        "deadline": "deadline", "publicatie": "publish", "publish": "publish", "tijdzone": "timezone",
        "timezone": "timezone", "soort": "kind", "kind": "kind", "startvolgorde": "start_order",
        "start_order": "start_order", "stijgprijs": "riser", "riser": "riser", "noshow": "noshow",
        "ontbrekend": "missing", "missing": "missing", "herinnering": "reminder", "reminder": "reminder",
        "vrij": "free", "free": "free",
    }  # fmt: skip
    values: dict[str, str] = {}
    for arg in ctx.args:
        key, sep, value = arg.partition("=")
        if not sep or key.lower() not in keys or not value:
            raise UserError("error_usage", usage=ctx.t(usage))
        values[keys[key.lower()]] = value
    if (need_name and "name" not in values) or "start" not in values:
        raise UserError("error_usage", usage=ctx.t(usage))
    name = values.get("name", "")[:MAX_NAME_LENGTH]
    first_day = parse_day(values["start"])
    if first_day is None:
        raise UserError("error_bad_date", value=values["start"][:20], first=FIRST_YEAR, last=LAST_YEAR)
    rounds = parse_int(values.get("rounds", str(core.config.season_rounds)))
    if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
        raise UserError("error_bad_number", value=values.get("rounds", "")[:20], low=1, high=MAX_ROUNDS)
    deadline = parse_hhmm(values.get("deadline", core.config.season_deadline))
    publish = parse_hhmm(values.get("publish", core.config.season_publish))
    if deadline is None or publish is None:
        raise UserError("error_bad_time")
    if publish <= deadline:
        raise UserError("error_publish_before_deadline")
    zone_name = values.get("timezone", ctx.club.timezone)
    zone = parse_zone(zone_name)
    if zone is None:
        raise UserError("error_bad_timezone", value=zone_name[:40])
    free = tuple(sorted({_free_day(text) for text in values.get("free", "").split(",") if text}))
    for _, day, deadline_at, publish_at in season_rounds(first_day, rounds, deadline, publish, zone, free):
        if deadline_at >= publish_at:  # daylight saving: a deadline in the skipped hour moves forward by it
            raise UserError("error_deadline_after_publication_dst", date=day, deadline=deadline.strftime("%H:%M"),
                            moved=local_text(deadline_at, zone_name)[-5:], publish=publish.strftime("%H:%M"))  # fmt: skip
    kind = {"rapid": "rapid", "main": "main", "hoofd": "main"}.get(values.get("kind", "main").lower())
    if kind is None:
        raise UserError("error_usage", usage=ctx.t(usage))
    start_order = {"rating": "rating", "eindstand": "list", "ranking": "list"}.get(
        values.get("start_order", "rating").lower()
    )
    if start_order is None:
        raise UserError("error_usage", usage=ctx.t(usage))
    club_rules: dict[str, object] = {}
    if "riser" in values:  # the riser prize counts from the start order, or from the list after round 1
        riser_from = {"start": "start", "ronde1": "round1", "round1": "round1"}.get(values["riser"].lower())
        if riser_from is None:
            raise UserError("error_usage", usage=ctx.t(usage))
        club_rules["riser_from"] = riser_from
    if "noshow" in values:  # what an automatic sign-off after the no-shows earns: 1/3 (seed 004 j) or 0
        earns = {"1/3": Fraction(1, 3), "0": Fraction(0)}.get(values["noshow"])
        if earns is None:
            raise UserError("error_usage", usage=ctx.t(usage))
        club_rules["auto_signoff_fraction"] = earns
    missing = MISSING_VALUES.get(values.get("missing", "pair").lower())
    reminder = REMINDER_VALUES.get(values.get("reminder", "off").lower())
    if missing is None or reminder is None:
        raise UserError("error_usage", usage=ctx.t(usage))
    if name and await keizer_store(core).season_by_name(ctx.club.id, name) is not None:
        raise UserError("error_season_exists", name=name)
    return SeasonOptions(
        name, first_day, rounds, deadline, publish, zone_name, zone, kind, "rounds" in values, start_order, club_rules,
        missing, reminder, free,
    )


def _free_day(text: str) -> date:
    day = parse_day(text)
    if day is None:
        raise UserError("error_bad_date", value=text[:20], first=FIRST_YEAR, last=LAST_YEAR)
    return day


_MISSING_KEYS = {"ontbrekend", "missing"}
_KIND_KEYS = {"soort", "kind"}
# The running season's club settings that are no Keizer rules: (its keys, its values, how it is stored, the
# reply's key): ``ontbrekend`` (bot/keizer/open_results.py) and ``herinnering`` (bot/keizer/reminders.py).
_SETTINGS = (
    (_MISSING_KEYS, MISSING_VALUES, with_missing_setting, "season_missing"),
    (REMINDER_KEYS, REMINDER_VALUES, with_reminder_setting, "season_reminder"),
    (APPROVAL_KEYS, APPROVAL_VALUES, with_approval_setting, "season_joining"),
)


def _only_setting(ctx: Context, keys: set[str]) -> bool:
    """``/seizoen ontbrekend=wachten [soort=rapid]``: a running season's setting, no new season."""
    typed = {a.partition("=")[0].lower() for a in ctx.args}
    return bool(typed & keys) and typed <= keys | _KIND_KEYS


async def _set_setting(core: Core, ctx: Context, keys: set[str], known: dict[str, str],
                       stored: Callable[[str, str], str], reply: str) -> Reply:  # fmt: skip
    values = {k.lower(): v.lower() for k, _, v in (a.partition("=") for a in ctx.args)}
    typed = next((k for k in keys if k in values), "")
    mode = known.get(values.get(typed, ""))
    kind = {"rapid": "rapid", "main": "main", "hoofd": "main"}.get(values.get("soort", values.get("kind", "main")))
    if mode is None and typed and len(ctx.args) == len(values):  # herinnering=soms: say what it takes
        dutch = typed in {"herinnering", "ontbrekend"}  # the values come as Dutch, English pairs
        words = APPROVAL_WORDS.get(typed) or "|".join(list(known)[0 if dutch else 1 :: 2])
        raise UserError("error_setting_choice", setting=typed, choices=words)
    if mode is None or kind is None or len(ctx.args) != len(values):
        raise UserError("error_usage", usage=ctx.t("usage_seizoen"))
    season = await active_season(core, ctx, kind)
    async with core.store.transaction():
        await open_store(core).set_settings_json(season.id, stored(season.settings_json, mode))
    return Reply(lines=(ctx.t(f"{reply}_{mode}", season=season.name),))


async def cmd_exporteer(core: Core, ctx: Context) -> Reply:
    """The season as a season file (docs/season-file.md): ``/exporteer [rapid]``."""
    if any(a.lower() == "pgn" for a in ctx.args):  # a round's games played on lichess (issue 43 §3)
        from bot.keizer.online_pgn import cmd_export_pgn

        return await cmd_export_pgn(core, ctx.with_args([a for a in ctx.args if a.lower() != "pgn"]))
    formats = [a.lower() for a in ctx.args if a.lower() in EXPORT_FORMATS]
    if formats:  # the standings and cross table as CSV or a web page, or TRF-16 for the rating office
        return await export(core, ctx.with_args([a for a in ctx.args if a.lower() not in EXPORT_FORMATS]), formats[0])
    ctx = ctx.with_args([a for a in ctx.args if a.lower() != "json"])  # the season file is the default
    kind = "rapid" if [a.lower() for a in ctx.args] == ["rapid"] else "main"
    if ctx.args and kind == "main":
        raise UserError("error_usage", usage=ctx.t("usage_exporteer"))
    season = await active_season(core, ctx, kind)
    text = await season_io.export_text(core.store, season)
    filename = re.sub(r"[^A-Za-z0-9._-]+", "_", season.name).strip("_") + ".json"
    return Reply(lines=(ctx.t("exported", name=season.name),), attachment=(filename, text.encode("utf-8")))


def _parse_season_file(content: bytes) -> season_file.Season:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("error_season_file_text")
    try:
        return season_file.parse_season(text)
    except season_file.SeasonFileError as err:
        raise UserError("error_season_file", detail=str(err)[:500])


async def cmd_importeer(core: Core, ctx: Context) -> Reply:
    """A new season from a season file sent with the command: ``/importeer start=2027-01-07
    [naam=...] [rondes=28] ...``; start is the date of the first round still to play."""
    if ctx.attachment is None:
        raise UserError("error_no_attachment")
    if len(ctx.attachment) > MAX_FILE_BYTES:
        raise UserError("error_season_file_size", mb=MAX_FILE_BYTES // (1024 * 1024))
    # parsed and checked off the event loop: a big file never holds up the other clubs' commands
    file = await asyncio.to_thread(_parse_season_file, ctx.attachment)
    if len(file.players) > MAX_IMPORT_PLAYERS:
        raise UserError("error_season_file_players", count=len(file.players), most=MAX_IMPORT_PLAYERS)
    if len(file.rounds) >= MAX_ROUNDS:
        raise UserError("error_season_file_rounds", count=len(file.rounds), most=MAX_ROUNDS - 1)
    anyway, ctx = director_games.anyway(ctx)  # toch: the director knows a running season ends
    opts = await season_options(core, ctx, "usage_importeer", need_name=False)
    await _not_while_running(core, await keizer_store(core).active_season(ctx.club.id, opts.kind), anyway)
    if opts.free:  # vrij= with the command: free evenings beside the file's
        file = dataclasses.replace(file, free_evenings=tuple(sorted(set(file.free_evenings) | {d.isoformat() for d in opts.free})))
    if opts.club_rules:  # given with the command: they win over the file's settings
        file = dataclasses.replace(file, settings=dataclasses.replace(file.settings, **opts.club_rules))  # type: ignore[arg-type]  # fields by name
    name = opts.name or (file.name or "")[:MAX_NAME_LENGTH]
    if not name:
        raise UserError("error_usage", usage=ctx.t("usage_importeer"))
    if await keizer_store(core).season_by_name(ctx.club.id, name) is not None:
        raise UserError("error_season_exists", name=name)
    for player in file.players:  # a new member's name: not a mention, a number or a command's word
        if await core.store.member_by_name(ctx.club.id, player.name) is None:
            check_name(ctx, player.name)
    played = len(file.rounds)
    rounds = opts.rounds if opts.rounds_given else max(file.settings.cycles * file.settings.cycle_length, played + 1)
    if rounds <= played:
        raise UserError("error_bad_number", value=rounds, low=played + 1, high=MAX_ROUNDS)
    first_day = playing_evenings(opts.first_day, 1, season_io.free_days(file))[0]  # the file's free evenings skipped
    if season_rounds(first_day, 1, opts.deadline, opts.publish, opts.zone)[0][2] <= ctx.now:
        raise UserError("error_start_in_past", date=first_day.isoformat())
    # the played rounds on the file's dates, or (a file without dates) weekly before start
    last_played = season_io.played_days(file, opts.first_day)[-1] if played else None
    if last_played is not None and file.dates and last_played >= first_day:
        raise UserError("error_import_dates_after_start", last=last_played.isoformat(), start=first_day.isoformat())
    if last_played is not None and last_played.isoformat() > local_text(ctx.now, opts.zone_name)[:10]:
        key = "error_import_played_later" if file.dates else "error_import_start_far"
        raise UserError(key, start=opts.first_day.isoformat(), last=last_played.isoformat())
    season = await season_io.import_file(
        core.store, ctx.club.id, file, name, opts.kind, opts.first_day, rounds, opts.deadline, opts.publish,
        opts.zone_name, ctx.now,
    )  # fmt: skip
    if opts.missing == "wait" or opts.reminder != "off":  # ontbrekend=, herinnering=: the club's, not the file's
        settings = with_reminder_setting(with_missing_setting(season.settings_json, opts.missing), opts.reminder)
        await open_store(core).set_settings_json(season.id, settings)
    return Reply(lines=(ctx.t("imported", name=season.name, players=len(file.players), played=played, rounds=rounds),))


WITHDRAW_WORDS = frozenset({"terugtrekken", "withdraw"})
BACK_WORDS = frozenset({"terug", "back"})


async def _withdraw(core: Core, ctx: Context, kind: str, name: str, leaving: bool) -> Reply:
    """``/speler Naam terugtrekken``: out of the pairing and the ranking from the next round to pair on
    (their games so far keep counting for their opponents, at the value they had when they left);
    ``/speler Naam terug``: back in the season, from the next round to pair on (the withdrawal stays on
    record, so the standings of the rounds between do not change)."""
    season = await active_season(core, ctx, kind)
    member = await core.store.member_by_name(ctx.club.id, name)
    sp = await keizer_store(core).season_player(season.id, member.id) if member is not None else None
    if member is None or sp is None:
        raise UserError("error_not_in_season", name=name[:MAX_NAME_LENGTH], season=season.name)
    data = await competition.load(core.store, season)
    coming = competition.coming_round(data)
    if leaving:
        if sp.withdrawn_from is not None and sp.returned_from is None:
            raise UserError("error_already_withdrawn", name=member.name, round=sp.withdrawn_from)
        if coming is None:
            raise UserError("error_season_over", season=season.name)
        if sp.returned_from is not None and sp.returned_from < coming.number:  # one withdrawal a season is kept
            raise UserError("error_withdrawn_before", name=member.name, round=sp.withdrawn_from, back=sp.returned_from)
        leaves = coming.number if sp.withdrawn_from is None else sp.withdrawn_from  # back, not yet paired: stays away
        async with core.store.transaction():
            await keizer_store(core).set_withdrawn(season.id, member.id, leaves)
        return Reply(lines=(for_competition(ctx.lang, kind, ctx.t("player_withdrawn", name=member.name, round=coming.number)),))
    if sp.withdrawn_from is None or sp.returned_from is not None:
        raise UserError("error_not_withdrawn", name=member.name)
    if coming is None:
        raise UserError("error_season_over", season=season.name)
    # back before a round was paired without them: as if never withdrawn; else from the coming round, so
    # the standings of the rounds between stay as they were published
    back = None if coming.number <= sp.withdrawn_from else coming.number
    async with core.store.transaction():
        await keizer_store(core).set_withdrawn(season.id, member.id, sp.withdrawn_from if back else None, back)
    return Reply(lines=(for_competition(ctx.lang, kind, ctx.t("player_back", name=member.name)),))


async def cmd_speler(core: Core, ctx: Context) -> Reply:
    """Add a player or change their rating: ``/speler Jan de Vries 1850 [groep=A]``; the player joins the
    main season, or with ``rapid`` the rapid competition."""
    kind, ctx = competition_of(ctx)
    group: str | None = None
    rest: list[str] = []
    ids, args = identity_args(ctx.args)  # knsb=... fide=... egd=...: the member's federation identities
    lichess, args = lichess_arg(args)  # lichess=...: the member's lichess account (issue 43 §1)
    estimate, args = estimate_arg(args)  # schatting=...: an unrated player's estimated rating (estimates.py)
    if estimate is not None:
        return await set_estimate(core, ctx, kind, " ".join(" ".join(args).split()), estimate)
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in ("groep", "group"):
            if value.upper() not in ("A", "B", "C", "D"):
                raise UserError("error_bad_group", value=value[:10])
            group = value.upper()
        else:
            rest.append(arg)
    if rest and group is not None and parse_int(rest[-1]) is None and not ids and lichess is None:  # /speler Naam groep=A
        return await set_groups(core, ctx, {" ".join(" ".join(rest).split()): group}, kind)
    if rest and group is None and parse_int(rest[-1]) is None:  # /speler Naam [knsb=...]: shown or set
        whole = " ".join(" ".join(rest).split())
        named = await core.store.member_by_name(ctx.club.id, whole)
        if named is not None:
            return await _identities(core, ctx, named, ids, lichess)
        if ids or lichess:
            raise UserError("error_unknown_player", name=whole[:MAX_NAME_LENGTH])
    admin = admin_words(" ".join(rest).split()) if group is None and not ids and lichess is None else None  # a Discord name field holds them all
    if admin is not None:  # rename, merge, remove: the core's, for every system
        reply = await run_admin(core, ctx, *admin)
        if admin[0] == "merge":  # the merged record's rounds may come before the kept record's first
            async with core.store.transaction():
                await keizer_store(core).join_where_they_appear(ctx.club.id)
        return reply
    if len(rest) >= 2 and rest[-1].lower() in WITHDRAW_WORDS | BACK_WORDS and group is None:
        return await _withdraw(core, ctx, kind, " ".join(" ".join(rest[:-1]).split()), rest[-1].lower() in WITHDRAW_WORDS)
    if rest and group is None and not ids and lichess is None and parse_int(rest[-1]) is None:  # /speler Eva, and no Eva (any more)
        raise UserError("error_unknown_player_add", name=" ".join(" ".join(rest).split())[:MAX_NAME_LENGTH])
    if len(rest) < 2 or parse_int(rest[-1]) is None:
        raise UserError("error_usage", usage=ctx.t("usage_speler"))
    rating = parse_int(rest[-1])
    assert rating is not None
    if not 0 <= rating <= 4000:
        raise UserError("error_bad_number", value=rest[-1][:20], low=0, high=4000)
    name = " ".join(" ".join(rest[:-1]).split())
    if not name or len(name) > MAX_NAME_LENGTH:
        raise UserError("error_bad_name", limit=MAX_NAME_LENGTH)
    season = await active_season(core, ctx, kind) if kind == "rapid" else await keizer_store(core).active_season(ctx.club.id)
    member = await core.store.member_by_name(ctx.club.id, name)
    if lichess is not None:
        await refuse_taken(core.store, ctx.club.id, member.id if member else None, lichess[0])
    if member is None:
        check_name(ctx, name)  # a new name: not a mention, a number or a command's word
    alike = look_alikes(name, await core.store.members(ctx.club.id)) if member is None else []
    grouped: list[str] = []  # the reply says a group it changes, and a late joiner's group, points and round
    new_in_season = repriced = False
    async with core.store.transaction():
        if member is None:
            member = await core.store.add_member(ctx.club.id, name, rating, ctx.now)
            key = "player_added"
        else:
            await core.store.update_member_rating(member.id, rating)
            key = "player_updated"
        if season is not None:
            coming = await keizer_store(core).coming_round(season.id)
            sp = await keizer_store(core).season_player(season.id, member.id)
            new_in_season = sp is None
            # a late joiner's rating changed before their first round: their start points follow it (an
            # unrated newcomer from the chat starts at the bottom until the director sets the rating)
            repriced = (sp is not None and sp.rating != rating and sp.start_points is None and coming is not None
                        and 1 < sp.joined_round and coming.number <= sp.joined_round)  # fmt: skip
            joined = sp.joined_round if sp else (coming.number if coming else season.rounds_count + 1)
            await keizer_store(core).upsert_season_player(season.id, member.id, rating, joined, group)
            if group is not None and (sp is None or sp.group_name != group):
                grouped.append(ctx.t("groups_set_line", name=member.name, old=sp.group_name if sp and sp.group_name else "-", new=group))
            # a player who already appears in an earlier round (a season the engine could not read) has
            # joined from there: /speler is the director's way to set such a season right
            await keizer_store(core).join_where_they_appear(ctx.club.id)
        await holder_of(core.store, ctx.club.id, member.id, ids)
        for column, identity in ids.items():
            await core.store.set_identity(member.id, column, identity)
        if lichess is not None:
            await core.store.set_lichess_account(ctx.club.id, member.id, lichess[0], BY_DIRECTOR, ctx.now)
    joiner = await late_joiner_line(core, ctx, season, member.id) if season is not None and (new_in_season or repriced) else None
    grouped += [joiner] if joiner else []
    # the member's name as stored: "/speler émile 1400" changes Émile's rating and says so
    said = for_competition(ctx.lang, kind, ctx.t(key, name=member.name, rating=rating))
    return Reply(lines=(said, *grouped, *(ctx.t("name_looks_like", name=member.name, member=other, merge=merge_hint(ctx, member.name, other)) for other in alike)))


async def _identities(
    core: Core, ctx: Context, member: Member, ids: dict[str, str | None], lichess: tuple[str | None] | None
) -> Reply:
    """``/speler Naam``: the member's rating, federation identities and lichess account; with ``knsb=``,
    ``fide=``, ``egd=`` or ``lichess=`` (``-`` removes one) they are set first."""
    if ids or lichess is not None:
        await holder_of(core.store, ctx.club.id, member.id, ids)
        if lichess is not None:
            await refuse_taken(core.store, ctx.club.id, member.id, lichess[0])
        async with core.store.transaction():
            for column, value in ids.items():
                await core.store.set_identity(member.id, column, value)
            if lichess is not None:
                await core.store.set_lichess_account(ctx.club.id, member.id, lichess[0], BY_DIRECTOR, ctx.now)
    have = await core.store.identities(member.id)
    account = await core.store.lichess_account(member.id)
    none = ctx.t("identity_none")
    shown = none if account is None else account.username
    if account is not None and account.linked_by == BY_LOGIN:
        shown = ctx.t("lichess_by_login", username=account.username)
    estimated = await estimate_shown(core, ctx, member)
    return Reply(lines=(ctx.t("player_identities", name=member.name, rating=member.rating, knsb=have.knsb_id or none,
                              fide=have.fide_id or none, egd=have.egd_pin or none, lichess=shown),
                        *([estimated] if estimated else [])))  # fmt: skip
