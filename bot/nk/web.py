"""The NK tournament on the club's website (``bot/web``): its standings and its rounds' pairings, the
replies of ``/stand nk`` and ``/nk indeling [ronde]`` asked as nobody; listed while the club has one."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Registry, WebPage
from bot.core.storage.store import Club
from bot.nk.store import NkStore


async def _has_tournament(core: Core, club: Club) -> bool:
    return await NkStore(core.store).latest(club.id) is not None


async def _rounds(core: Core, club: Club) -> list[int]:
    """The tournament's paired rounds, in order: its pairing pages link to each."""
    store = NkStore(core.store)
    tournament = await store.latest(club.id)
    return [number for _, number, _ in await store.rounds(tournament.id)] if tournament is not None else []


def register(registry: Registry) -> None:
    registry.web_pages.extend((
        WebPage("nk", "/stand nk", "web_link_nk", shown=_has_tournament, legend="web_legend_nk"),
        WebPage("nk-indeling", "/nk indeling", "web_link_nk_indeling", numbered=True, shown=_has_tournament,
                rounds=_rounds),
    ))  # fmt: skip
    registry.used_when(_has_tournament)  # /help lists the NK's commands once the club has a tournament
