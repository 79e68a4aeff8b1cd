"""The member list's group column (issue 44 §2): ``/leden importeer`` reads column 8 as the member's group
(``A``-``D``) in the running main season, a hook the Keizer system registers with the core
(``bot/core/club/member_columns.py``). A member not in the season joins it as ``/speler Naam rating
groep=A`` would make them (from the coming round); the reply says every group it changes, and a late
joiner's group, start points and first round."""

from __future__ import annotations

from engine.keizer.season import GROUPS

from bot.core.club.member_columns import MemberColumn
from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.storage.store import Member
from bot.keizer.late_joiners import late_joiner_line
from bot.keizer.lookups import keizer_store


async def _check(core: Core, ctx: Context, cell: str) -> str | None:
    if cell.upper() not in GROUPS:
        return ctx.t("groups_bad_group", group=cell[:10], groups=", ".join(GROUPS))
    if await keizer_store(core).active_season(ctx.club.id) is None:
        return ctx.t("members_import_group_no_season")
    return None


async def _write(core: Core, ctx: Context, member: Member, cell: str) -> list[str]:
    store = keizer_store(core)
    season = await store.active_season(ctx.club.id)
    assert season is not None  # _check refused the list without one
    group = cell.upper()
    place = await store.season_player(season.id, member.id)
    if place is not None and place.group_name == group:
        return []
    if place is None:
        coming = await store.coming_round(season.id)
        joined = coming.number if coming else season.rounds_count + 1
        rating = (await core.store.member(member.id) or member).rating  # as the list may have changed it
        await store.upsert_season_player(season.id, member.id, rating, joined, group)
    else:
        await store.upsert_season_player(season.id, member.id, place.rating, place.joined_round, group)
    lines = [ctx.t("groups_set_line", name=member.name, old=place.group_name if place and place.group_name else "-", new=group)]
    joiner = await late_joiner_line(core, ctx, season, member.id) if place is None else None
    return [*lines, *([joiner] if joiner else [])]


GROUP_COLUMN = MemberColumn(label="members_import_group_column", check=_check, write=_write)
