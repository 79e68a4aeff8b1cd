"""Pairs the director keeps apart in the Keizer pairing (a parent and child, family members), for every
season of the club: ``/indeling verbied A B`` (``/pairings forbid A B``), ``... uit`` lifts it,
``/indeling verboden`` (``/pairings forbidden``) lists them. The pairing counts such a pair as a repeat
(``engine.keizer.pairing.pair_round``'s ``forbidden``); the NK pairing keeps them apart too (``NkStore.forbidden``).
The pairs live in the shared tables (``bot/core/club/forbidden_pairs.py``)."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.names import members_named
from bot.core.commands.replies import Reply

FORBID_WORDS = ("verbied", "forbid")
LIST_WORDS = ("verboden", "forbidden")
_OFF_WORDS = {"uit", "off"}


async def cmd_forbid(core: Core, ctx: Context) -> Reply:
    """``/indeling verbied A B [uit]``: the director keeps A and B apart (or no longer)."""
    if not ctx.is_director:
        raise UserError("error_director_only", command="indeling")
    words = list(ctx.args)
    lift = bool(words) and words[-1].lower() in _OFF_WORDS
    if lift:
        words = words[:-1]
    if len(words) < 2:
        raise UserError("error_usage", usage=ctx.t("usage_indeling_forbid"))
    one, other = await members_named(ctx, words, 2)
    if one.id == other.id:
        raise UserError("error_forbid_same", name=one.name)
    pair = (min(one.id, other.id), max(one.id, other.id))
    known = {(min(a, b), max(a, b)) for a, b in await core.store.forbidden_pairs(ctx.club.id)}
    if lift:
        if pair not in known:
            raise UserError("error_forbid_not_set", one=one.name, other=other.name)
        await core.store.allow_pair(ctx.club.id, pair[0], pair[1])
        return Reply(lines=(ctx.t("forbid_lifted", one=one.name, other=other.name),))
    if pair in known:
        raise UserError("error_forbid_already", one=one.name, other=other.name)
    await core.store.forbid_pair(ctx.club.id, pair[0], pair[1], ctx.now)
    return Reply(lines=(ctx.t("forbid_set", one=one.name, other=other.name),))


async def cmd_forbidden(core: Core, ctx: Context) -> Reply:
    """``/indeling verboden``: the club's forbidden pairs."""
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_indeling_forbid"))
    names = {m.id: m.name for m in await ctx.store.members(ctx.club.id)}
    pairs = sorted(sorted((names.get(a, str(a)), names.get(b, str(b)))) for a, b in await core.store.forbidden_pairs(ctx.club.id))
    if not pairs:
        return Reply(lines=(ctx.t("forbidden_none"),))
    return Reply(lines=(ctx.t("forbidden_title", count=len(pairs)), *(ctx.t("forbidden_line", one=a, other=b) for a, b in pairs)))
