"""A page asked again (issue 36, the website): sent from memory without a query while nothing was
written, compressed once and by the browser's Accept-Encoding, answered 304 for the ETag the browser
holds; and never stale: a command of this process shows on the next request, another process's change
within ``OTHERS_EVERY`` seconds."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Mapping
from datetime import datetime, timezone

import aiohttp

from bot.core.commands.dispatch import Core
from bot.core.storage.store import Store
from bot.systems import make_core
from bot.web.freshness import OTHERS_EVERY, Freshness
from bot.web.kept import takes_gzip
from tests.bot.conftest import DIRECTOR, ok
from tests.bot.web.test_pages import club_with_a_season
from tests.bot.web.test_signoff_form import a_club, browser, personal_link


async def get(url: str, **headers: str) -> tuple[int, bytes, Mapping[str, str]]:
    """The status, the body as sent (not decompressed) and the headers."""
    async with aiohttp.ClientSession(auto_decompress=False, skip_auto_headers=("Accept-Encoding",)) as session:
        async with session.get(url, headers=headers) as response:
            return response.status, await response.read(), response.headers.copy()  # names in any case


async def statements(commands: Core, url: str) -> list[str]:
    """The SQL the store runs, on its writer and on its read path, while ``url`` is asked."""
    store = commands.store
    assert isinstance(store, Store) and store._reader is not None
    ran: list[str] = []
    store._conn.set_trace_callback(ran.append)
    await store._reader.set_trace_callback(ran.append)
    try:
        assert (await get(url))[0] == 200
    finally:
        store._conn.set_trace_callback(None)
        await store._reader.set_trace_callback(None)
    return ran


async def test_a_page_asked_again_asks_the_database_nothing_until_a_command_changes_it(commands: Core, site: str) -> None:
    club = await club_with_a_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    url = f"{site}/c/{club}/stand"
    first = await statements(commands, url)
    assert first  # made: the season, the menu, the table
    await get(url)
    assert await statements(commands, url) == []  # nothing written since: the same bytes from memory
    await ok(commands, DIRECTOR, "/speler Zed 1500")  # a command of this process: shows at once
    assert await statements(commands, url)
    status, body, _ = await get(url)
    assert status == 200 and b"Zed" in body
    await ok(commands, DIRECTOR, "/website uit")  # switched off: gone at once, however often it was asked
    assert (await get(url))[0] == 404


async def test_gzip_by_accept_encoding_and_304_for_the_etag_the_browser_holds(commands: Core, site: str) -> None:
    club = await club_with_a_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    url = f"{site}/c/{club}/stand"
    status, plain, headers = await get(url)
    assert status == 200 and b"Stand 2026-27" in plain and "Content-Encoding" not in headers
    assert headers["Vary"] == "Accept-Encoding" and headers["Cache-Control"] == "no-cache"
    etag = headers["ETag"]
    status, packed, headers = await get(url, **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(packed) == plain
    assert len(packed) < len(plain) / 2 and headers["ETag"] == etag
    assert "Content-Encoding" not in (await get(url, **{"Accept-Encoding": "gzip;q=0, identity"}))[2]
    status, body, headers = await get(url, **{"If-None-Match": etag})  # the browser holds this page
    assert status == 304 and body == b"" and headers["ETag"] == etag
    assert headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert (await get(url, **{"If-None-Match": '"another"'}))[0] == 200
    await ok(commands, DIRECTOR, "/speler Zed 1500")
    status, body, headers = await get(url, **{"If-None-Match": etag})  # changed: the new page, a new tag
    assert status == 200 and b"Zed" in body and headers["ETag"] != etag


async def test_a_members_only_page_kept_in_memory_still_asks_for_the_link(commands: Core, site: str) -> None:
    club = await a_club(commands)
    await ok(commands, DIRECTOR, "/website besloten")
    url = await personal_link(commands)
    async with browser() as member:
        await member.get(url)
        for _ in range(3):  # kept in memory from the second time on
            async with member.get(f"{site}/c/{club}/stand") as response:
                assert response.status == 200 and "Stand 2026-27" in await response.text()
                assert response.headers["Cache-Control"] == "private, no-cache"  # no shared cache keeps it
            status, body, _ = await get(f"{site}/c/{club}/stand")  # a browser without the link
            assert status == 403 and b"Stand 2026-27" not in body


async def test_another_process_change_shows_within_the_bound(commands: Core, config, clock, site: str) -> None:
    club = await club_with_a_season(commands)
    await ok(commands, DIRECTOR, "/website aan")
    url = f"{site}/c/{club}/stand"
    for _ in range(3):
        await get(url)
    other = await Store.open(config.db_path)  # another bot process's connection to the same file
    try:
        await ok(make_core(other, config, clock), DIRECTOR, "/speler Zed 1500")
    finally:
        await other.close()
    start = asyncio.get_running_loop().time()  # within OTHERS_EVERY seconds on the real clock, never later
    while b"Zed" not in (await get(url))[1]:
        assert asyncio.get_running_loop().time() - start < OTHERS_EVERY + 1.0, "another process's change did not show"
        await asyncio.sleep(0.05)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_the_stamp_moves_with_this_process_at_once_and_with_another_within_its_time(config, store: Store) -> None:
    clock = Clock()
    fresh = Freshness(store, every=0.5, clock=clock)
    first = await fresh.stamp()
    assert await fresh.stamp() == first  # nothing written
    club = await store.get_or_create_club("console", "club-1", "Club", "nl", "Europe/Amsterdam", datetime.now(timezone.utc))
    second = await fresh.stamp()
    assert second != first  # this process's commit: at once
    other = await Store.open(config.db_path)
    try:
        await other.set_club_language(club.id, "en")
    finally:
        await other.close()
    clock.now += 0.4
    assert await fresh.stamp() == second  # not asked again yet
    clock.now += 0.1
    assert await fresh.stamp() != second  # asked: the other connection's commit is seen


def test_gzip_is_sent_to_who_takes_it() -> None:
    assert takes_gzip("gzip, deflate, br") and takes_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1") and takes_gzip("*")
    assert takes_gzip("x-gzip") and takes_gzip("GZIP")
    assert not takes_gzip("") and not takes_gzip("identity") and not takes_gzip("br, deflate")
    assert not takes_gzip("gzip;q=0") and not takes_gzip("*, gzip;q=0") and not takes_gzip("gzip;q=x")
