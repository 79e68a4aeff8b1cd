"""What the Keizer read commands' replies depend on, for the core's reply cache: the season (main or
rapid) with its change version (``seasons.version``, kept by triggers: migrations/0020), the words typed,
and the language. Any result, sign-off, pairing, player or settings change bumps the version, so a cached
/stand, /indeling or /prijzen is never stale."""

from __future__ import annotations

from collections.abc import Hashable

from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.keizer.lookups import competition_of, keizer_store


async def season_key(core: Core, ctx: Context) -> Hashable | None:
    """/stand and /indeling: the addressed season's id and version, the other words, the language."""
    kind, rest = competition_of(ctx)
    found = await keizer_store(core).season_version(ctx.club.id, kind)
    if found is None:
        return None
    return (found, tuple(a.lower() for a in rest.args), ctx.lang)


async def prizes_key(core: Core, ctx: Context) -> Hashable | None:
    """/prijzen: the main season and the rapid one (the rapid champion), each with its version."""
    store = keizer_store(core)
    main = await store.season_version(ctx.club.id, "main")
    if main is None:
        return None
    return (main, await store.season_version(ctx.club.id, "rapid"), tuple(ctx.args), ctx.lang)
