"""What grades show: ``/graad`` (a member's card), ``/graden`` (the committee's list) and ``/graadzetten``
(the committee sets a grade and its flags)."""



from __future__ import annotations

import re
from datetime import date

from engine import promotion as rules

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply, Table
from bot.grades.store import Flags, GradeStore


from bot.grades.club_grades import Info, load, record_promotions
from bot.grades.parsing import CLOSE, _RELIABLE_WORDS, member_named, parse_date, today

# --------------------------------------------------------------------------- /graad


def reason(ctx: Context, scored: rules.Scored) -> str:
    if scored.points is not None:
        return f"{scored.points:+d}"
    return ctx.t(f"grade_reason_{scored.reason}")


def result_word(ctx: Context, result: str) -> str:
    return ctx.t(f"grade_result_{result}")


def games_table(ctx: Context, scored: list[rules.Scored], info: dict[str, Info], numbers: bool = False) -> Table:
    headers: tuple[str, ...] = (ctx.t("grade_col_date"), ctx.t("grade_col_opponent"), ctx.t("grade_col_grade"),
               ctx.t("grade_col_result"), ctx.t("grade_col_points"), ctx.t("grade_col_event"))  # fmt: skip
    rows: list[tuple[str, ...]] = []
    for s in scored:
        i = info[s.game.key]
        grade = "?" if s.game.opponent_grade is None else rules.grade_name(s.game.opponent_grade)
        row: tuple[str, ...] = (s.game.played_on.isoformat(), i.opponent, grade, result_word(ctx, s.game.result), reason(ctx, s), i.event)
        if numbers:
            row = ("" if i.number is None else f"#{i.number}", *row)
        rows.append(row)
    if numbers:
        headers = (ctx.t("grade_col_number"), *headers)
    return Table(headers=headers, rows=tuple(rows))


def series_lines(ctx: Context, status: rules.SeriesStatus, next_grade: str) -> list[str]:
    """The card's series as the promotion rule reads it (as of the last game) and what it still needs:
    points while it is short of 125, else the games it lacks, never "0 points needed" alone (issue 45 §3)."""
    if status.as_of is None:
        return [ctx.t("grade_series_empty"), ctx.t("grade_needed", points=status.points_needed, grade=next_grade)]
    lines = [ctx.t("grade_series", points=status.points, games=len(status.games), date=status.as_of.isoformat())]
    if status.points_needed:
        lines.append(ctx.t("grade_needed", points=status.points_needed, grade=next_grade))
        if status.games_needed:
            lines.append(ctx.t("grade_games_needed", games=status.games_needed))
    else:  # 125 points, fewer than 12 games: not promoted yet
        lines.append(ctx.t("grade_needed_games_only", points=status.points, games=status.games_needed, grade=next_grade))
    if status.dropping:
        since = rules.months_before(today(ctx), rules.PromotionSettings().months)
        lines.append(ctx.t("grade_dropping", count=status.dropping, date=since.isoformat()))
    return lines


async def cmd_graad(core: Core, ctx: Context) -> Reply:
    """A grade card: ``/graad`` (one's own) or ``/graad Naam``."""
    if ctx.args:
        member = await member_named(core, ctx, " ".join(ctx.args))
    else:
        member = ctx.require_member()
    lines = await record_promotions(core, ctx.club, ctx.now)
    view = await load(core, ctx.club)
    exam = view.examine(member.id)
    if exam is None:
        return Reply(lines=(*lines, ctx.t("grade_none", name=member.name)), private=True)
    flags = view.flags.get(member.id, Flags())
    head = ctx.t("grade_card_title", name=member.name, grade=rules.grade_name(exam.grade))
    if flags.estimated:
        head += " " + ctx.t("grade_estimated_suffix")
    if flags.unreliable:
        head += " " + ctx.t("grade_unreliable_suffix")
    lines.append(head)
    promotions = [e for e in view.events[member.id] if e.kind == "promotion"]
    if promotions:
        last = promotions[-1]
        lines.append(ctx.t("grade_last_promotion", grade=rules.grade_name(last.grade), date=last.anchor_date))
    if exam.grade < rules.LOWEST_TRACKED:
        lines.append(ctx.t("grade_not_tracked"))
        return Reply(lines=tuple(lines), private=True)
    if exam.grade >= rules.HIGHEST:
        lines.append(ctx.t("grade_top"))
        return Reply(lines=tuple(lines), private=True)
    status = rules.series_now(exam, today(ctx))
    lines.extend(series_lines(ctx, status, rules.grade_name(exam.grade + 1)))
    if not status.games:
        return Reply(lines=tuple(lines), private=True)
    _, info = view.games_of(member.id)
    return Reply(lines=tuple(lines), table=games_table(ctx, list(status.games), info), private=True)


# --------------------------------------------------------------------------- /graden


async def cmd_graden(core: Core, ctx: Context) -> Reply:
    """The committee's list: players at most 45 points short of a promotion (``alle``: every player with
    points), fewest points short first."""
    if ctx.args and [a.lower() for a in ctx.args] not in (["alle"], ["all"]):
        raise UserError("error_usage", usage=ctx.t("grade_usage_graden"))
    everyone = bool(ctx.args)
    lines = await record_promotions(core, ctx.club, ctx.now)
    view = await load(core, ctx.club)
    rows = []
    for member_id in view.events:
        exam = view.examine(member_id)
        if exam is None:
            continue
        status = rules.series_now(exam, today(ctx))
        if not status.tracked or (not everyone and (status.points_needed > CLOSE or not status.games)):
            continue
        name = view.names.get(member_id, "?")
        rows.append((status.points_needed, name.lower(), name, exam.grade, status))
    rows.sort(key=lambda r: (r[0], r[1]))
    title = ctx.t("grade_list_title_all" if everyone else "grade_list_title", points=CLOSE)
    if not rows:
        return Reply(lines=(*lines, title, ctx.t("grade_list_empty")))
    table = Table(
        headers=(ctx.t("grade_col_name"), ctx.t("grade_col_grade"), ctx.t("grade_col_games"),
                 ctx.t("grade_col_points"), ctx.t("grade_col_needed")),  # fmt: skip
        rows=tuple(
            (name, rules.grade_name(grade), str(len(s.games)), str(s.points), _needed_cell(ctx, s))
            for _, _, name, grade, s in rows
        ),
    )
    return Reply(lines=(*lines, title), table=table)


def _needed_cell(ctx: Context, status: rules.SeriesStatus) -> str:
    """The list's "still needed": the points while the series is short of 125, else the games it lacks
    ("2 partijen"), never a bare 0 that reads as done (issue 45 §3, as the card says it)."""
    if status.points_needed or not status.games_needed:
        return str(status.points_needed)
    return ctx.t("grade_needed_cell_games", games=status.games_needed)


# --------------------------------------------------------------------------- /graadzetten


async def cmd_graadzetten(core: Core, ctx: Context) -> Reply:
    """Set a member's grade from a date on (their series starts there), and the committee's exceptions for
    them as an opponent: ``geschat`` (estimated) and ``onbetrouwbaar`` / ``betrouwbaar``."""
    grade: int | None = None
    since: date | None = None
    estimated: bool | None = None
    unreliable: bool | None = None
    words: list[str] = []
    for arg in ctx.args:
        key, sep, value = arg.partition("=")
        low = arg.lower()
        if sep and key.lower() in ("vanaf", "from", "since"):
            since = parse_date(ctx, value)
        elif sep:
            raise UserError("error_usage", usage=ctx.t("grade_usage_graadzetten"))
        elif low in ("geschat", "estimated"):
            estimated = True
        elif low in ("officieel", "official"):
            estimated = False
        elif low in ("onbetrouwbaar", "unreliable"):
            unreliable = True
        elif low in _RELIABLE_WORDS:
            unreliable = False
        elif rules.parse_grade(arg) is not None and grade is None:
            grade = rules.parse_grade(arg)
        else:
            words.append(arg)
    if len(words) >= 2 and grade is None and rules.parse_grade(" ".join(words[-2:])) is not None:
        grade = rules.parse_grade(" ".join(words[-2:]))  # "2 kyu" in two words
        words = words[:-2]
    if grade is None and words and re.fullmatch(r"[0-9]{1,3}\s*(k|d|p|kyu|dan)", words[-1].lower()):
        raise UserError("grade_error_grade", value=words[-1][:20])  # 10d, 0k: a grade that is none (30k to 9d)
    if not words or (grade is None and estimated is None and unreliable is None):
        raise UserError("error_usage", usage=ctx.t("grade_usage_graadzetten"))
    if since is not None and grade is None:
        raise UserError("error_usage", usage=ctx.t("grade_usage_graadzetten"))
    member = await member_named(core, ctx, " ".join(words))
    gs = GradeStore(core.store)
    old = (await gs.flags_of_club(ctx.club.id)).get(member.id, Flags())
    flags = Flags(
        old.unreliable if unreliable is None else unreliable, old.estimated if estimated is None else estimated
    )
    lines: list[str] = []
    if grade is not None:
        day = since or today(ctx)
        await gs.add_event(member.id, grade, "set", day.isoformat(), "", ctx.now, by=ctx.member.id if ctx.member else None)
        lines.append(ctx.t("grade_set", name=member.name, grade=rules.grade_name(grade), date=day.isoformat()))
    if flags != old:
        await gs.set_flags(member.id, flags)
    if estimated is not None or unreliable is not None:
        key = "grade_flags_unreliable" if flags.unreliable else "grade_flags_reliable"
        lines.append(ctx.t(key, name=member.name))
        if flags.estimated:
            lines.append(ctx.t("grade_flags_estimated", name=member.name))
    lines.extend(await record_promotions(core, ctx.club, ctx.now))
    return Reply(lines=tuple(lines))


