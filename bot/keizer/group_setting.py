"""The director puts players in groups by hand (issue 44 §2): many at once with ``/groepen A: Anna, Bert;
B: Carla de Vries`` (``/groups A: ...``), or the same from a file or pasted under the command (a line
``A: Anna, Bert`` or ``Naam;A``, ``Naam,A``, ``Naam<tab>A``; a first line of column names is skipped), one with ``/speler Naam groep=A`` without typing the rating again.
Both act on the running season (the rapid one with ``rapid``); every reply names each change, old group
and new. Next season's proposal from the final ranking stays ``/groepen`` and ``/groepen toepassen``
(``bot/keizer/groups.py``)."""

from __future__ import annotations

import csv
import re

from engine.keizer.season import GROUPS

from bot.core.club.name_key import name_key
from bot.core.commands.context import Context, UserError, keyword
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.output.spreadsheet import file_text
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, competition_of, keizer_store

_HEADER = frozenset({"naam", "name", "speler", "player"})  # a first line of column names
_LIST = re.compile(r"\s*([^\s:;,]+)\s*:(.*)", re.DOTALL)  # "A: Anna, Bert"


def group_lists(ctx: Context) -> dict[str, str] | None:
    """``A: Anna, Bert; B: Carla`` as {name: group}; None when the words are not in this form (no ``:``).
    A group that is none of A-D, a part without ``Group:``, or a name given twice is refused."""
    if ctx.attachment:
        return _group_file(ctx, ctx.attachment)
    text = " ".join(a for a in ctx.args if keyword(a) != "rapid")  # /groepen rapid A: ...: set_groups reads it
    if ":" not in text:
        return None
    wanted: dict[str, str] = {}
    for part in text.split(";"):
        _add_list(ctx, part, wanted)
    if not wanted:
        raise UserError("error_usage", usage=ctx.t("groups_usage"))
    return wanted


def _add_list(ctx: Context, part: str, wanted: dict[str, str]) -> None:
    """``A: Anna, Bert`` into ``wanted`` ({name: group}); an empty part adds nothing."""
    if not part.strip():
        return
    match = _LIST.fullmatch(part)
    if match is None:
        raise UserError("error_usage", usage=ctx.t("groups_usage"))
    for name in match.group(2).split(","):
        _add(ctx, name, match.group(1), wanted)


def _add(ctx: Context, name: str, group: str, wanted: dict[str, str]) -> None:
    """One player's group into ``wanted``: a group that is none of A-D, or a name given twice, is refused."""
    name, letter = " ".join(name.split()), group.strip().upper()
    if letter not in GROUPS:
        raise UserError("groups_bad_group", group=group.strip()[:10], groups=", ".join(GROUPS))
    if not name:
        return
    first = next((g for n, g in wanted.items() if name_key(n) == name_key(name)), None)
    if first is not None:
        raise UserError("groups_named_twice", name=name[:60], first=first, second=letter)
    wanted[name] = letter


def _group_file(ctx: Context, content: bytes) -> dict[str, str]:
    """A file (or a list pasted under the command) of groups: per line ``A: Anna, Bert`` or a name and its
    group in two cells (``;``, a tab or ``,`` between); a first line of column names is skipped."""
    text = file_text(content)
    if text is None:
        raise UserError("groups_file_not_text")
    wanted: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if ":" in line:
            _add_list(ctx, line, wanted)
            continue
        if not line.strip():
            continue
        separator = next((s for s in (";", "\t", ",") if s in line), None)
        cells = next(csv.reader([line], delimiter=separator)) if separator else []
        if number == 1 and cells and name_key(cells[0]) in _HEADER:
            continue
        if len(cells) != 2:
            raise UserError("groups_file_line", line=number, text=line.strip()[:60])
        _add(ctx, cells[0], cells[1], wanted)
    if not wanted:
        raise UserError("groups_file_empty")
    return wanted


async def set_groups(core: Core, ctx: Context, wanted: dict[str, str], kind: str | None = None) -> Reply:
    """Put each named player of the running season (``kind``: "main" or "rapid"; None: as the words say)
    in their group; refused as a whole (before any write) when a name is nobody's or no player of the
    season."""
    if not ctx.is_director:
        raise UserError("error_director_only", command=ctx.t("groups_set_command"))
    if kind is None:
        kind, ctx = competition_of(ctx)
    season = await active_season(core, ctx, kind)
    store = keizer_store(core)
    changes = []
    for name, group in wanted.items():
        member = await ctx.find_member(name)
        place = await store.season_player(season.id, member.id)
        if place is None:
            raise UserError("groups_not_in_season", name=member.name, season=season.name)
        changes.append((place, group))
    lines = [for_competition(ctx.lang, kind, ctx.t("groups_set_title", season=season.name))]
    async with core.store.transaction():
        for place, group in changes:
            if place.group_name != group:
                await store.upsert_season_player(season.id, place.member_id, place.rating, place.joined_round, group)
                lines.append(ctx.t("groups_set_line", name=place.name, old=place.group_name or "-", new=group))
            else:
                lines.append(ctx.t("groups_set_same", name=place.name, group=group))
    return Reply(lines=tuple(lines))
