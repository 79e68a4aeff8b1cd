"""The club's calendar moved (issue 44 §1): free evenings (``/seizoen vrij 2026-12-24 2026-12-31``: a
holiday, a club event) and one round on another evening (``/ronde 5 datum=2027-01-14``).

A free evening moves the rounds not yet paired: from the first that falls on a free evening, they take the
next playing evenings, a week apart on that round's weekday, the free ones skipped (so the season ends
later). ``/seizoen vrij DATUM ongedaan`` makes an evening a playing evening again and moves them back.
Every moved round gets the deadline and publication its new evening has, from the season's local times,
as a new season does (``bot/keizer/calendar.py``); everything that shows or uses a date reads the
round's row (reminders, the pairing, the website, the calendar feeds, the season file, TRF), so it follows.
Each competition has its own: ``rapid`` (or ``soort=rapid``) addresses the rapid competition's."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

from bot.core.commands.context import Context, UserError, keyword
from bot.core.commands.dispatch import Core
from bot.core.commands.limits import MAX_ROUNDS
from bot.core.commands.replies import Reply
from bot.core.output.calendar import FIRST_YEAR, LAST_YEAR, local_text, parse_day, parse_hhmm, parse_zone
from bot.keizer.calendar import playing_evenings, round_moments
from bot.keizer.calendar_store import FreeEveningStore
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, keizer_store, round_by_number
from bot.keizer.rows import RoundRow, Season

FREE_WORDS = ("vrij", "free")
UNDO_WORDS = frozenset({"ongedaan", "undo"})
LIST_WORDS = frozenset({"lijst", "list"})  # Discord's option needs a value: vrij: lijst
DATE_KEYS = frozenset({"datum", "date"})
_RAPID = frozenset({"rapid", "soort=rapid", "kind=rapid"})
_MAIN = frozenset({"soort=hoofd", "soort=main", "kind=main"})
_NEW_SEASON = frozenset({"naam", "name", "start"})

Move = tuple[RoundRow, date, datetime, datetime]  # the round, its new evening, deadline and publication (UTC)


def _competition(ctx: Context) -> tuple[str, Context]:
    """``rapid`` (or Discord's ``soort=rapid``) names the rapid competition; the other words stay."""
    words = [keyword(a) for a in ctx.args]
    rest = [a for a, w in zip(ctx.args, words) if w not in _RAPID | _MAIN]
    return ("rapid" if _RAPID & set(words) else "main"), replace(ctx, args=rest)


def _day(text: str) -> date:
    day = parse_day(text)
    if day is None:
        raise UserError("error_bad_date", value=text[:20], first=FIRST_YEAR, last=LAST_YEAR)
    return day


def _today(ctx: Context, season: Season) -> date:
    return date.fromisoformat(local_text(ctx.now, season.timezone)[:10])


def _moments(ctx: Context, season: Season, moves: list[tuple[RoundRow, date]]) -> list[Move]:
    """The new deadline and publication of each moved round, from the season's local times; refused when
    one is past already, or when daylight saving puts the deadline at or after the publication."""
    zone = parse_zone(season.timezone) or parse_zone("UTC")
    deadline, publish = parse_hhmm(season.deadline_time), parse_hhmm(season.publish_time)
    assert zone is not None and deadline is not None and publish is not None  # checked when the season was made
    out: list[Move] = []
    for row, day in moves:
        deadline_at, publish_at = round_moments(day, deadline, publish, zone)
        if publish_at <= ctx.now:
            raise UserError("error_move_past", date=day.isoformat())
        if deadline_at >= publish_at:
            raise UserError("error_deadline_after_publication_dst", date=day.isoformat(), deadline=season.deadline_time,
                            moved=local_text(deadline_at, season.timezone)[-5:], publish=season.publish_time)  # fmt: skip
        out.append((row, day, deadline_at, publish_at))
    return out


def _reflow(rows: list[RoundRow], first: RoundRow, start: date, free: set[date]) -> list[tuple[RoundRow, date]]:
    """``first`` and the rounds after it not yet paired on the playing evenings from ``start`` on, a week
    apart, the free ones skipped: the rounds whose evening changes."""
    rest = [r for r in rows if r.number >= first.number and r.status != "paired"]
    days = playing_evenings(start, len(rest), free)
    return [(r, day) for r, day in zip(rest, days) if day.isoformat() != r.play_date]


async def _save(core: Core, moves: list[Move]) -> None:
    for row, day, deadline_at, publish_at in moves:
        await FreeEveningStore(core.store).move_round(row.id, day, deadline_at, publish_at)


def _moved_lines(ctx: Context, moves: list[Move]) -> list[str]:
    return [ctx.t("round_moved_line", round=row.number, old=row.play_date, new=day.isoformat()) for row, day, _, _ in moves]


async def cmd_free(core: Core, ctx: Context) -> Reply:
    """``/seizoen vrij [DATUM ...] [ongedaan] [rapid]``: the free evenings listed, given, or one taken back.
    With a new season's options (Discord's line: ``/seizoen vrij 2026-12-24 naam=... start=...``) they are
    that season's: ``/seizoen naam=... start=... vrij=2026-12-24``."""
    if any(a.partition("=")[0].lower() in _NEW_SEASON for a in ctx.args):
        from bot.keizer.seasons import cmd_seizoen

        dates = [a for a in ctx.args if "=" not in a]
        return await cmd_seizoen(core, ctx.with_args([*(a for a in ctx.args if "=" in a), "vrij=" + ",".join(dates)]))
    kind, ctx = _competition(ctx)
    season = await active_season(core, ctx, kind)
    undo = any(keyword(a) in UNDO_WORDS for a in ctx.args)
    words = [a for a in ctx.args if keyword(a) not in UNDO_WORDS]
    if [keyword(w) for w in words] in ([w] for w in LIST_WORDS):
        words = []
    store = FreeEveningStore(core.store)
    free = await store.free_evenings(season.id)
    if not words:
        if undo:
            raise UserError("error_usage", usage=ctx.t("usage_seizoen_vrij"))
        key = "free_listed" if free else "free_none"
        return Reply(lines=(for_competition(ctx.lang, kind, ctx.t(key, season=season.name, days=", ".join(d.isoformat() for d in free))),))
    if len(words) > MAX_ROUNDS or (undo and len(words) != 1):
        raise UserError("error_usage", usage=ctx.t("usage_seizoen_vrij"))
    days = sorted({_day(w) for w in words})
    today = _today(ctx, season)
    past = next((d for d in days if d < today), None)
    if past is not None:
        raise UserError("error_free_past", date=past.isoformat())
    rows = await keizer_store(core).rounds(season.id)
    if undo:
        return await _undo(core, ctx, kind, season, rows, days[0], free)
    given = {d.isoformat() for d in days}
    paired = next((r for r in rows if r.status == "paired" and r.play_date in given), None)
    if paired is not None:
        raise UserError("error_free_paired", round=paired.number, date=paired.play_date)
    now_free = set(free) | set(days)
    first = next((r for r in rows if r.status != "paired" and date.fromisoformat(r.play_date) in now_free), None)
    moves = [] if first is None else _moments(ctx, season, _reflow(rows, first, date.fromisoformat(first.play_date), now_free))
    async with core.store.transaction():
        await store.add_free_evenings(season.id, days)
        await _save(core, moves)
    said = ctx.t("free_added", count=len(days), season=season.name, days=", ".join(d.isoformat() for d in days))
    lines = [said, *(_moved_lines(ctx, moves) or [ctx.t("free_nothing_moved")])]
    return Reply(lines=(for_competition(ctx.lang, kind, "\n".join(lines)),))


async def _undo(core: Core, ctx: Context, kind: str, season: Season, rows: list[RoundRow], day: date,
                free: list[date]) -> Reply:  # fmt: skip
    """``/seizoen vrij DATUM ongedaan``: a playing evening again; the first round not yet paired after it,
    when it plays on that weekday, comes back to it and the later ones follow."""
    if day not in free:
        raise UserError("error_not_free", date=day.isoformat(), season=season.name)
    still_free = {d for d in free if d != day}
    after = next((r for r in rows if r.status != "paired" and r.play_date > day.isoformat()), None)
    before = [r for r in rows if r.play_date >= day.isoformat() and after is not None and r.number < after.number]
    moves: list[Move] = []
    if after is not None and not before and date.fromisoformat(after.play_date).weekday() == day.weekday():
        moves = _moments(ctx, season, _reflow(rows, after, day, still_free))
    async with core.store.transaction():
        await FreeEveningStore(core.store).remove_free_evening(season.id, day)
        await _save(core, moves)
    lines = [ctx.t("free_undone", date=day.isoformat(), season=season.name), *_moved_lines(ctx, moves)]
    return Reply(lines=(for_competition(ctx.lang, kind, "\n".join(lines)),))


async def cmd_ronde(core: Core, ctx: Context) -> Reply:
    """``/ronde N [datum=JJJJ-MM-DD] [rapid]``: the round's evening, deadline and publication; with a date,
    the round moves there (not yet paired, not before the round before it nor after the round after it,
    not on a free evening, not in the past)."""
    kind, ctx = _competition(ctx)
    dated = [a.partition("=")[2] for a in ctx.args if keyword(a).partition("=")[0] in DATE_KEYS and "=" in a]
    rest = [a for a in ctx.args if not (keyword(a).partition("=")[0] in DATE_KEYS and "=" in a)]
    if len(rest) != 1 or len(dated) > 1:
        raise UserError("error_usage", usage=ctx.t("usage_ronde"))
    season = await active_season(core, ctx, kind)
    row = await round_by_number(core, season, rest[0])
    if not dated:
        return Reply(lines=(for_competition(ctx.lang, kind, ctx.t(
            "round_shown", round=row.number, date=row.play_date, deadline=local_text(row.deadline_at, season.timezone),
            publish=local_text(row.publish_at, season.timezone))),))  # fmt: skip
    day = _day(dated[0])
    if row.status == "paired":
        raise UserError("error_round_move_paired", round=row.number)
    if day < _today(ctx, season):
        raise UserError("error_move_past", date=day.isoformat())
    rows = {r.number: r for r in await keizer_store(core).rounds(season.id)}
    previous, following = rows.get(row.number - 1), rows.get(row.number + 1)
    if previous is not None and day.isoformat() < previous.play_date:
        raise UserError("error_round_before_previous", round=row.number, date=day.isoformat(), other=previous.number,
                        other_date=previous.play_date)  # fmt: skip
    if following is not None and day.isoformat() > following.play_date:
        raise UserError("error_round_after_next", round=row.number, date=day.isoformat(), other=following.number,
                        other_date=following.play_date)  # fmt: skip
    if day in await FreeEveningStore(core.store).free_evenings(season.id):
        raise UserError("error_round_on_free", date=day.isoformat(), season=season.name)
    moves = _moments(ctx, season, [(row, day)])
    async with core.store.transaction():
        await _save(core, moves)
    _, _, deadline_at, publish_at = moves[0]
    said = ctx.t("round_moved", round=row.number, old=row.play_date, new=day.isoformat(),
                 deadline=local_text(deadline_at, season.timezone), publish=local_text(publish_at, season.timezone))  # fmt: skip
    return Reply(lines=(for_competition(ctx.lang, kind, said),))
