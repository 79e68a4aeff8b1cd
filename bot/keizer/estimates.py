"""An unrated player's estimated rating (issue 44 §2): ``/speler Naam schatting=1500`` (``estimate=``; ``-``
removes it). An unrated player (rating 0) starts below the rated players; with an estimate the start order
(and a late joiner's start points) places them as that rating would (``engine.keizer.model.Player.estimate``).
Nothing else reads it: ties after a round, performance ratings and the TRF file see them unrated. It is
shown marked as an estimate (``/speler Naam``, the reply). Set before the player's first round is paired:
after that it would rewrite standings already published."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError, parse_int
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member
from bot.keizer.estimate_store import EstimateStore
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, keizer_store

ESTIMATE_KEYS = {"schatting", "estimate"}
MAX_ESTIMATE = 4000  # as a rating (/speler)


def estimate_arg(args: list[str]) -> tuple[str | None, list[str]]:
    """The value of ``schatting=...`` (None: not given) and the other words."""
    value: str | None = None
    rest: list[str] = []
    for arg in args:
        key, sep, typed = arg.partition("=")
        if sep and key.lower() in ESTIMATE_KEYS:
            value = typed
        else:
            rest.append(arg)
    return value, rest


async def set_estimate(core: Core, ctx: Context, kind: str, name: str, typed: str) -> Reply:
    """The estimate of the player called ``name`` in the running season of ``kind``; refused (nothing
    written) for a rated player, a player not in the season, or once their first round is paired."""
    estimate = None if typed == "-" else parse_int(typed)
    if typed != "-" and (estimate is None or not 1 <= estimate <= MAX_ESTIMATE):
        raise UserError("error_bad_number", value=typed[:20], low=1, high=MAX_ESTIMATE)
    if not name:
        raise UserError("error_usage", usage=ctx.t("usage_speler"))
    member = await ctx.find_member(name)
    season = await active_season(core, ctx, kind)
    store = keizer_store(core)
    place = await store.season_player(season.id, member.id)
    if place is None:
        raise UserError("groups_not_in_season", name=member.name, season=season.name)
    if place.rating > 0:
        raise UserError("estimate_rated", name=member.name, rating=place.rating)
    first = await store.round_by_number(season.id, place.joined_round)
    if first is not None and first.status == "paired":
        raise UserError("estimate_too_late", name=member.name, round=first.number)
    async with core.store.transaction():
        await EstimateStore(core.store).set_estimate(season.id, member.id, estimate)
    said = ctx.t("estimate_set", name=member.name, estimate=estimate) if estimate else ctx.t("estimate_removed", name=member.name)
    return Reply(lines=(for_competition(ctx.lang, kind, said),))


async def estimate_shown(core: Core, ctx: Context, member: Member) -> str | None:
    """``/speler Naam``'s line for an unrated member's estimate in the running main season, if any."""
    season = await keizer_store(core).active_season(ctx.club.id)
    place = await keizer_store(core).season_player(season.id, member.id) if season is not None else None
    if place is None or place.estimate is None or place.rating > 0:
        return None
    return ctx.t("estimate_shown", name=member.name, estimate=place.estimate, season=season.name if season else "")
