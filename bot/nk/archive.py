"""Past NK tournaments on the club's website (issue 45 §1): a tournament stays readable when the next
one is made. The archive (``/c/<club>/archief``) lists every tournament but the one the NK pages show (the
running one, else the latest); its pages, read only, under ``/c/<club>/archief/nk/<id>/``: ``stand``,
``indeling/<round>`` and ``speler/<member id>``."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.commands.context import UserError, parse_id
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import ArchiveEntry, WebContent
from bot.core.commands.replies import Reply
from bot.core.storage.store import Club
from bot.nk.pairings import pairing_of
from bot.nk.player_page import player_content
from bot.nk.store import NkStore, NkTournament
from bot.nk.tables import standings_of
from bot.nk.web_details import time_control, tournament_dates


async def shown_now(nk: NkStore, club_id: int) -> NkTournament | None:
    """The tournament the NK pages and ``/nk stand`` show: the running one, else the latest; the running one
    is always the latest (``/nk nieuw`` is refused while one runs)."""
    return await nk.latest(club_id)


async def past(core: Core, club: Club) -> list[NkTournament]:
    nk = NkStore(core.store)
    now = await shown_now(nk, club.id)
    return [tour for tour in await nk.tournaments(club.id) if now is None or tour.id != now.id]


async def entries(core: Core, club: Club) -> list[ArchiveEntry]:
    years = await NkStore(core.store).years(club.id)
    return [ArchiveEntry(years[tour.id], tour.name, "web_archive_nk", f"nk/{tour.id}/stand") for tour in await past(core, club)]


async def view(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    """``<id>/stand``, ``<id>/indeling/<round>``, ``<id>/speler/<member id>`` of a past tournament."""
    words = rest.split("/")
    number = parse_id(words[0])
    tour = next((t for t in await past(core, club) if t.id == number), None)
    if tour is None or len(words) < 2:
        return None
    nk = NkStore(core.store)
    ctx = core.context_at(club, core.clock.now())
    base = f"archief/nk/{tour.id}/"
    players = {p.name: f"{base}speler/{p.member_id}" for p in await nk.players(tour.id)}
    rounds = [number for _, number, _ in await nk.rounds(tour.id)]
    round_links = tuple((ctx.t("nk_web_archive_round", round=n), f"{base}indeling/{n}") for n in rounds)
    stand_link = ((ctx.t("nk_web_archive_standings"), f"{base}stand"),)
    said = (*await tournament_dates(nk, club, tour), *time_control(club, tour))  # as the NK pages say them
    try:
        if words[1:] == ["stand"]:
            reply = await standings_of(nk, ctx, tour, full=True)
            return WebContent(reply.lines[0], Reply(lines=(*said, *reply.lines[1:]), table=reply.table),
                              links=(*players.items(), *round_links), legend=ctx.t("web_legend_nk"))  # its rounds' cells, as the NK page's
        if len(words) == 3 and words[1] == "indeling" and parse_id(words[2], 3) in rounds:
            reply = await pairing_of(nk, ctx, tour, words[2], full=True)
            others = tuple(link for link in round_links if not link[1].endswith(f"/{words[2]}"))
            return WebContent(reply.lines[0], Reply(lines=(*said, *reply.lines[1:]), table=reply.table),
                              links=(*players.items(), *stand_link, *others))  # fmt: skip
    except UserError:
        return None
    if len(words) == 3 and words[1] == "speler":
        content = await player_content(core, club, tour, words[2], f"{base}speler/")
        return None if content is None else WebContent(content.title, content.reply, links=(*content.links, *stand_link))
    return None


async def any_past(core: Core, club: Club) -> bool:
    return await NkStore(core.store).has_two(club.id)  # the one shown now, and one before it
