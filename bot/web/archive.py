"""The website's archive (issue 45 §1): ``/c/<club>/archief`` lists the club's past competitions (each
system's ``Registry.web_archive``: past NK tournaments, finished Keizer seasons) by year, newest first,
each linking to its read-only standings; ``/c/<club>/archief/<word>/...`` is that system's page of it. The
menu links the archive while there is something in it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from bot.core.commands.dispatch import Core
from bot.core.commands.registry import ArchiveEntry, WebContent, WebPage
from bot.core.commands.replies import Reply, Table
from bot.core.i18n import t
from bot.core.storage.store import Club

PATH = "archief"


async def _entries(core: Core, club: Club) -> list[ArchiveEntry]:
    found = [entry for archive in core.registry.web_archive for entry in await archive.entries(core, club)]
    return sorted(found, key=lambda e: (-e.year, e.name.casefold()))


Shown = Callable[[Core, Club], Awaitable[bool]]


async def has_any(core: Core, club: Club, answer: Callable[[Shown], Awaitable[bool]]) -> bool:
    """Is there something in the archive? ``answer``: the menu's answers to its questions (each asked once
    a page), so a system the club does not use (no NK, no season) costs nothing more."""
    for archive in core.registry.web_archive:
        in_use = False
        for question in archive.in_use:
            in_use = in_use or await answer(question)
        if in_use and await archive.any(core, club):
            return True
    return False


async def view(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    """The list (no ``rest``), or the page of the system whose word ``rest`` starts with."""
    lang = club.language
    if rest:
        word, _, more = rest.partition("/")
        archive = next((a for a in core.registry.web_archive if a.word == word), None)
        return await archive.view(core, club, more, query, site) if archive is not None and more else None
    entries = await _entries(core, club)
    if not entries:
        return WebContent(t(lang, "web_archive_title"), Reply(lines=(t(lang, "web_archive_empty"),)))
    table = Table(
        headers=(t(lang, "web_archive_col_year"), t(lang, "web_archive_col_name"), t(lang, "web_archive_col_kind")),
        rows=tuple((str(e.year), e.name, t(lang, e.kind)) for e in entries),
    )
    return WebContent(t(lang, "web_archive_title"), Reply(lines=(t(lang, "web_archive_intro"),), table=table),
                      links=tuple((e.name, f"{PATH}/{e.path}") for e in entries))  # fmt: skip


PAGE = WebPage(PATH, "", "web_link_archief", view=view)  # in the menu while ``has_any``
