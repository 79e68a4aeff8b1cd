"""The no-show rule as the bot keeps it: counted again by the engine from the stored rounds after every
result (``engine.keizer.season.signed_off_after``), so a forfeit entered as a result signs a player off
and a corrected no-show lifts the sign-off; the stored flag is what the pairing and the replies read."""

from __future__ import annotations

from engine.keizer import season as season_rules

from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.keizer import competition
from bot.keizer.lookups import keizer_store
from bot.keizer.store import Season


async def recount_no_shows(core: Core, ctx: Context, season: Season) -> tuple[str, ...]:
    """Store each player's automatic sign-off as the rounds now say; a line for each one that changed."""
    data = await competition.load(core.store, season)
    lines: list[str] = []
    for sp in data.season_players:
        pid = competition.player_id(sp.member_id)
        now_off = season_rules.signed_off_after(pid, data.rounds, data.settings, sp.signed_on_after) is not None
        if now_off != sp.auto_signed_off:
            await keizer_store(core).set_auto_signed_off(season.id, sp.member_id, now_off)
            lines.append(ctx.t("auto_signed_off" if now_off else "auto_signoff_corrected", name=sp.name))
    return tuple(lines)
