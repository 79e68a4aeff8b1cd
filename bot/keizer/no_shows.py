"""The no-show rule as the bot keeps it: counted again by the engine from the stored rounds after every
result (``engine.keizer.season.signed_off_after``), so a forfeit entered as a result signs a player off
and a corrected no-show lifts the sign-off; the stored flag is what the pairing and the replies read.
A player the rule signs off is told so at once, privately, with the command that brings them back
(issue 44 §3)."""

from __future__ import annotations

from engine.keizer import season as season_rules

from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.keizer import competition
from bot.keizer.formatting import for_competition, rapid_word
from bot.keizer.lookups import keizer_store
from bot.keizer.store import Season


async def recount_no_shows(core: Core, ctx: Context, season: Season) -> tuple[str, ...]:
    """Store each player's automatic sign-off as the rounds now say; a line for each one that changed."""
    data = await competition.load(core.store, season)
    lines: list[str] = []
    signed_off: list[int] = []
    for sp in data.season_players:
        pid = competition.player_id(sp.member_id)
        now_off = season_rules.signed_off_after(pid, data.rounds, data.settings, sp.signed_on_after) is not None
        if now_off != sp.auto_signed_off:
            await keizer_store(core).set_auto_signed_off(season.id, sp.member_id, now_off)
            lines.append(ctx.t("auto_signed_off" if now_off else "auto_signoff_corrected", name=sp.name))
            if now_off:
                signed_off.append(sp.member_id)
    await _tell_the_signed_off(core, ctx, season, signed_off, data.settings.no_show_limit)
    return tuple(lines)


async def _tell_the_signed_off(core: Core, ctx: Context, season: Season, members: list[int], limit: int) -> None:
    """A private notice, in the club's language, to each member the rule just signed off whose chat account
    the bot knows and who has not turned reminders off (``/mijn meldingen herinneringen uit``): signed off
    for the coming rounds, and ``/aanmelden`` to play again. Sent with the command's announcements."""
    accounts = await core.store.accounts_to_notify(ctx.club.id, members, reminders=True)
    for member_id, account in accounts.items():
        said = ctx.t("notice_auto_signed_off", limit=limit, season=season.name, rapid=rapid_word(season.kind))
        body = for_competition(ctx.lang, season.kind, said)
        kind = f"auto-signoff:{season.id}:{member_id}:{ctx.now.isoformat()}"  # each time the rule signs them off
        await core.store.queue_announcement(ctx.club.id, None, kind, body, ctx.now, recipient=account)
