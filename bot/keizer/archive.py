"""Finished Keizer seasons on the club's website (issue 45 §1): a season stays readable when the next
one is made (``/seizoen`` ends the running one). The archive (``/c/<club>/archief``) lists them by the
year of their first round; their pages, read only, under ``/c/<club>/archief/keizer/<id>/``: ``stand``
(as ``/stand seizoen=Naam``), ``kruistabel`` (as ``/kruistabel seizoen=Naam``) and ``indeling/<round>``."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.commands.context import UserError, parse_id
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import ArchiveEntry, WebContent
from bot.core.commands.replies import Reply
from bot.core.storage.store import Club
from bot.keizer import competition
from bot.keizer.lookups import keizer_store
from bot.keizer.reports import cross_table
from bot.keizer.rows import Season
from bot.keizer.views import pairing_reply, standings_table
from bot.keizer.web_details import season_dates


async def _finished(core: Core, club: Club) -> list[Season]:
    return [s for s in await keizer_store(core).seasons(club.id) if s.status == "finished"]


async def entries(core: Core, club: Club) -> list[ArchiveEntry]:
    found = []
    for season in await _finished(core, club):
        rounds = await keizer_store(core).rounds(season.id)
        year = int(rounds[0].play_date[:4]) if rounds else 0
        kind = "web_archive_rapid" if season.kind == "rapid" else "web_archive_keizer"
        found.append(ArchiveEntry(year, season.name, kind, f"keizer/{season.id}/stand"))
    return found


async def view(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    """``<id>/stand``, ``<id>/kruistabel`` and ``<id>/indeling/<round>`` of a finished season."""
    words = rest.split("/")
    number = parse_id(words[0])
    season = next((s for s in await _finished(core, club) if s.id == number), None)
    if season is None or len(words) < 2:
        return None
    ctx = core.context_at(club, core.clock.now())
    base = f"archief/keizer/{season.id}/"
    rounds = await keizer_store(core).rounds(season.id)
    paired = [r for r in rounds if r.status == "paired"]
    dates = season_dates(club.language, rounds)  # under each page's title, as the running season's pages
    round_links = tuple((ctx.t("web_archive_round", round=r.number), f"{base}indeling/{r.number}") for r in paired)
    standings = (ctx.t("web_archive_standings"), f"{base}stand")
    crossed = (ctx.t("web_archive_crosstable"), f"{base}kruistabel")
    try:
        if words[1:] == ["stand"]:
            title, table = await standings_table(core, ctx, absences=True, season=season)
            return WebContent(title, Reply(lines=dates, table=table), links=(crossed, *round_links))
        if words[1:] == ["kruistabel"]:
            title, table, _ = await cross_table(core, ctx.with_args([]), season=season)
            return WebContent(title, Reply(lines=dates, table=table), links=(standings, *round_links),
                              legend=ctx.t("web_legend_kruistabel"))  # fmt: skip
        row = next((r for r in paired if len(words) == 3 and words[1] == "indeling" and str(r.number) == words[2]), None)
        if row is None:
            return None
        reply = await pairing_reply(core, ctx, await competition.load(core.store, season), row, full=True)
    except UserError:
        return None
    others = tuple(link for link in round_links if not link[1].endswith(f"/{row.number}"))
    title = f"{season.name}: {reply.lines[0]}" if reply.lines else season.name
    return WebContent(title, Reply(lines=(*dates, *reply.lines[1:]), table=reply.table),
                      links=(standings, crossed, *others))  # fmt: skip


async def any_finished(core: Core, club: Club) -> bool:
    return await keizer_store(core).has_finished(club.id)
