"""``/club`` (director): what a rating office's TRF file says of the club beyond its name (issue 34 §1):
``/club plaats=Utrecht federatie=NED arbiter="Jan Arbiter" hulparbiter="Piet Hulp"`` sets them (``-``
clears one), ``/club`` shows them. The TRF export (``/exporteer trf``) writes them in its header lines
022 (city), 032 (federation), 102 (chief arbiter) and 112 (deputy arbiter); a city or a name may be typed
without quotes (the words up to the next ``key=``); the federation is also each
player's whose own is not known (``bot/ratings``)."""

from __future__ import annotations

from bot.core.commands.command_line import keyed_values
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.federation import CLUB_WORDS, club_value
from bot.core.commands.registry import KEYED, Command, Param, Registry
from bot.core.commands.replies import Reply


SPOKEN = frozenset({"city", "arbiter", "deputy_arbiter"})  # "plaats=Den Haag", "arbiter=Jan de Vries" unquoted


def register(registry: Registry) -> None:
    registry.add(Command("club", cmd_club, director=True, english="club",
                         params=tuple(Param(n, style=KEYED) for n in ("plaats", "federatie", "arbiter", "hulparbiter"))))  # fmt: skip


async def cmd_club(core: Core, ctx: Context) -> Reply:
    given = keyed_values(ctx.args, CLUB_WORDS, SPOKEN)  # arbiter=Jan de Vries: a name as typed, unquoted
    if given is None:
        raise UserError("error_usage", usage=ctx.t("usage_club"))
    changes = {field: club_value(field, value) for field, value in given.items()}
    if changes:
        async with core.store.transaction():
            for field, value in changes.items():
                await core.store.set_club_federation(ctx.club.id, field, value)
    now = await core.store.club_federation(ctx.club.id)
    none = ctx.t("club_detail_none")
    return Reply(lines=(ctx.t("club_details", city=now.city or none, federation=now.federation or none,
                              arbiter=now.arbiter or none, deputy=now.deputy_arbiter or none),))  # fmt: skip
