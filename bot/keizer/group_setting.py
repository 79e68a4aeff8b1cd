"""The director puts players in groups by hand (issue 44 §2): many at once with ``/groepen A: Anna, Bert;
B: Carla de Vries`` (``/groups A: ...``), one with ``/speler Naam groep=A`` without typing the rating again.
Both act on the running season (the rapid one with ``rapid``); every reply names each change, old group
and new. Next season's proposal from the final ranking stays ``/groepen`` and ``/groepen toepassen``
(``bot/keizer/groups.py``)."""

from __future__ import annotations

import re

from engine.keizer.season import GROUPS

from bot.core.club.name_key import name_key
from bot.core.commands.context import Context, UserError, keyword
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, competition_of, keizer_store

_LIST = re.compile(r"\s*([^\s:;,]+)\s*:(.*)", re.DOTALL)  # "A: Anna, Bert"


def group_lists(ctx: Context) -> dict[str, str] | None:
    """``A: Anna, Bert; B: Carla`` as {name: group}; None when the words are not in this form (no ``:``).
    A group that is none of A-D, a part without ``Group:``, or a name given twice is refused."""
    text = " ".join(a for a in ctx.args if keyword(a) != "rapid")  # /groepen rapid A: ...: set_groups reads it
    if ":" not in text:
        return None
    wanted: dict[str, str] = {}
    seen: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        match = _LIST.fullmatch(part)
        if match is None:
            raise UserError("error_usage", usage=ctx.t("groups_usage"))
        group = match.group(1).upper()
        if group not in GROUPS:
            raise UserError("groups_bad_group", group=match.group(1)[:10], groups=", ".join(GROUPS))
        for name in (" ".join(n.split()) for n in match.group(2).split(",")):
            if not name:
                continue
            if name_key(name) in seen:
                raise UserError("groups_named_twice", name=name[:60], first=seen[name_key(name)], second=group)
            seen[name_key(name)] = group
            wanted[name] = group
    if not wanted:
        raise UserError("error_usage", usage=ctx.t("groups_usage"))
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
