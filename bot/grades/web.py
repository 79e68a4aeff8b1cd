"""Grades on the club's website (``bot/web``): the club's grade list, every member with a grade, highest
first, with the points and games of their current series (read only: promotions are recorded by the
commands and the scheduler, never by a page being read)."""

from __future__ import annotations

from collections.abc import Mapping

from engine import promotion as rules

from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Registry, WebContent, WebPage
from bot.core.commands.replies import Reply, Table
from bot.core.storage.store import Club
from bot.grades.club_grades import load
from bot.grades.parsing import today
from bot.grades.store import GradeStore


def register(registry: Registry) -> None:
    registry.web_pages.append(WebPage("graden", "", "web_link_graden", view=grade_list, shown=_has_grades))
    registry.used_when(_has_grades)  # /help lists the grades' commands once a member has a grade


async def _has_grades(core: Core, club: Club) -> bool:
    return await GradeStore(core.store).has_grades(club.id)  # the menu asks on every page: one row at most


async def grade_list(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    if rest:
        return None
    ctx = core.context_at(club, core.clock.now())
    view = await load(core, club)
    rows = []
    for member_id, history in view.events.items():
        exam = view.examine(member_id)
        if not history or exam is None:
            continue
        status = rules.series_now(exam, today(ctx))
        name = view.names.get(member_id, "?")
        rows.append((-exam.grade, name.casefold(), name, exam.grade, status))
    rows.sort(key=lambda r: (r[0], r[1]))
    table = Table(
        headers=(
            ctx.t("grade_col_name"),
            ctx.t("grade_col_grade"),
            ctx.t("grade_col_games"),
            ctx.t("grade_col_points"),
        ),
        rows=tuple(
            (name, rules.grade_name(grade), str(len(s.games)), str(s.points)) for _, _, name, grade, s in rows
        ),
    )
    return WebContent(ctx.t("grade_web_title"), Reply(table=table))
