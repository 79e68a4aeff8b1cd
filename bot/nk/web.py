"""The NK tournament on the club's website (``bot/web``): its standings and its rounds' pairings, the
replies of ``/stand nk tabel`` and ``/nk indeling tabel [ronde]`` asked as nobody (the wider tables: a
column per round, each player's score, group and strength); listed while the club has one. Every name in
them links to the player's NK page (``nk-speler/<member id>``: ``bot/nk/player_page.py``); past
tournaments stay readable in the website's archive (``bot/nk/archive.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.core.commands.context import parse_id
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Registry, WebArchive, WebContent, WebPage
from bot.core.i18n import t
from bot.core.output.calendar import moment_text
from bot.core.storage.store import Club
from bot.nk import archive
from bot.nk.archive import shown_now
from bot.nk.player_page import player_content
from bot.nk.store import NkStore
from bot.nk.web_details import time_control, tournament_dates


async def _has_tournament(core: Core, club: Club) -> bool:
    return await NkStore(core.store).latest(club.id) is not None


async def _never(core: Core, club: Club) -> bool:
    return False  # a page the names link to, not one of the menu's


async def _rounds(core: Core, club: Club) -> list[int]:
    """The tournament's paired rounds, in order: its pairing pages link to each."""
    store = NkStore(core.store)
    tournament = await shown_now(store, club.id)
    return [number for _, number, _ in await store.rounds(tournament.id)] if tournament is not None else []


async def _players(core: Core, club: Club) -> dict[str, str]:
    """The shown tournament's players' names -> their NK page: where the NK tables' names link."""
    store = NkStore(core.store)
    tournament = await shown_now(store, club.id)
    return {p.name: f"nk-speler/{p.member_id}" for p in await store.players(tournament.id)} if tournament else {}


async def player_page(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    """``/c/<club>/nk-speler/<member id>``: a player of the tournament the NK pages show; else a 404."""
    tournament = await shown_now(NkStore(core.store), club.id)
    return await player_content(core, club, tournament, rest, "nk-speler/") if tournament and rest else None


async def _standings_details(core: Core, club: Club, rest: str) -> tuple[str, ...]:
    return await _details(core, club, rest, pairing=False)


async def _pairing_details(core: Core, club: Club, rest: str) -> tuple[str, ...]:
    return await _details(core, club, rest, pairing=True)


async def _details(core: Core, club: Club, rest: str, pairing: bool) -> tuple[str, ...]:
    """Under the title (issue 45 §1): the days the tournament was played (its rounds' pairing days), the
    club's city (``/club plaats=``), its time control (``/nk nieuw ... tempo=``) and when what the page shows last changed (a pairing or a result)."""
    store = NkStore(core.store)
    tournament = await store.latest(club.id)
    if tournament is None:
        return ()
    lang = club.language
    said = list(await tournament_dates(store, club, tournament))
    city = (await core.store.club_federation(club.id)).city
    if city:
        said.append(t(lang, "web_detail_venue", location=city))
    said.extend(time_control(club, tournament))
    numbers = [number for _, number, _ in await store.rounds(tournament.id)]
    shown = parse_id(rest, 3) or (numbers[-1] if numbers else 0)
    changed: datetime | None = await store.last_change(tournament.id, shown if pairing else 1, shown)
    if changed is not None:
        said.append(t(lang, "web_detail_updated", moment=moment_text(lang, changed, club.timezone)))
    return tuple(said)


def register(registry: Registry) -> None:
    registry.web_pages.extend((
        WebPage("nk", "/stand nk tabel", "web_link_nk", shown=_has_tournament, legend="web_legend_nk",
                details=_standings_details, names=_players),
        WebPage("nk-indeling", "/nk indeling tabel", "web_link_nk_indeling", numbered=True, shown=_has_tournament,
                rounds=_rounds, details=_pairing_details, names=_players),
        WebPage("nk-speler", "", "web_link_nk_speler", view=player_page, shown=_never),
    ))  # fmt: skip
    registry.web_archive.append(WebArchive("nk", archive.entries, archive.view, archive.any_past, (_has_tournament,)))
    registry.used_when(_has_tournament)  # /help lists the NK's commands once the club has a tournament
