"""A round on lichess after its publication (issue 43 §2): the links in ``/indeling``, ``/mijn`` and the website's
pairing page, and the director's pairing changes cancelling the challenges they make stale and making new
ones whose links follow, against the strict fake with the real alarm."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import aiohttp

from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.web.server import start_web
from tests.bot.conftest import DIRECTOR, actor, ok, rows
from tests.bot.online.round_setup import core, lichess  # noqa: F401 - fixtures
from tests.bot.online.round_setup import PLAYERS, PUBLISHED, Posted, at, online_club


def made(config) -> dict[int, str]:
    """board -> the live challenge's url."""
    return dict(rows(config, "SELECT board, url FROM online_games WHERE status = 'created' ORDER BY board"))


def pairs(config) -> dict[int, tuple[str, str]]:
    return {b: (w, k) for b, w, k in rows(config, "SELECT g.board, w.name, k.name FROM games g JOIN members w ON w.id = g.white_id"
                                                  " JOIN members k ON k.id = g.black_id ORDER BY g.board")}  # fmt: skip


async def test_the_links_in_indeling_mijn_and_the_website(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, Posted().send))
    links = made(config)
    assert len(links) == 6
    said = await ok(core, DIRECTOR, "/indeling")
    for board, url in links.items():
        assert f"Bord {board} op lichess: {url}" in said.splitlines()
    white, black = pairs(config)[2]
    own = await ok(core, actor(white), "/mijn")
    assert f"Je partij op lichess: {links[2]}?color=white" in own.splitlines()
    assert f"Je partij op lichess: {links[2]}?color=black" in (await ok(core, actor(black), "/mijn")).splitlines()
    runner = await start_web(core, "127.0.0.1:0")
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    core.config = dataclasses.replace(core.config, web_base_url=base)
    try:
        await ok(core, DIRECTOR, "/website aan")
        club = rows(config, "SELECT id FROM clubs")[0][0]
        async with aiohttp.ClientSession() as session, session.get(f"{base}/c/{club}/indeling") as response:
            assert response.status == 200
            page = await response.text()
    finally:
        await runner.cleanup()
    for url in links.values():
        assert f'<a href="{url}">{url}</a>' in page


async def test_a_swap_cancels_the_two_stale_challenges_and_the_new_links_follow(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    before, boards = made(config), pairs(config)
    (white1, black1), (white2, _) = boards[1], boards[2]
    await ok(core, DIRECTOR, f"/indeling wissel {black1} {white2}")
    await at(core, clock, lichess, PUBLISHED + timedelta(minutes=10), Alarm(core, posted.send))
    after, boards = made(config), pairs(config)
    stale = {before[1].rsplit("/", 1)[1], before[2].rsplit("/", 1)[1]}
    assert sorted(c.status for c in lichess.world.challenges.values() if c.id in stale) == ["canceled", "canceled"]
    assert {b: after[b] for b in (3, 4, 5, 6)} == {b: before[b] for b in (3, 4, 5, 6)}  # the others stand
    fresh = {b: lichess.world.challenges[after[b].rsplit("/", 1)[1]] for b in (1, 2)}
    assert [(fresh[b].white, fresh[b].black) for b in (1, 2)] == [(w.lower(), k.lower()) for w, k in (boards[1], boards[2])]
    assert len(lichess.world.challenges) == 8
    late = [body for body in posted.channel() if "op lichess:" in body]
    assert sorted(late) == sorted(f"Ronde 1, bord {b}: {boards[b][0]} - {boards[b][1]} op lichess: {after[b]}" for b in (1, 2))
    assert posted.private(white1)[-1] == late[[after[1] in x for x in late].index(True)]


async def test_a_change_before_the_announcement_waits_for_it_and_announces_the_new_pairing(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    lichess.fail_next(1000, 503)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))  # lichess down: the announcement waits
    boards = pairs(config)
    (_, black1), (white2, _) = boards[1], boards[2]
    await ok(core, DIRECTOR, f"/indeling wissel {black1} {white2}")
    assert rows(config, "SELECT COUNT(*) FROM announcements WHERE kind LIKE 'pairing%'") == [(0,)]
    lichess.rules.failures.clear()
    await at(core, clock, lichess, PUBLISHED + timedelta(minutes=2), Alarm(core, posted.send))
    (announcement,) = posted.channel("pairing")
    boards, links = pairs(config), made(config)
    assert announcement.splitlines()[1:7] == [f"Bord {b}: {w} - {k} lichess: {links[b]}" for b, (w, k) in sorted(boards.items())]
    assert len([c for c in lichess.world.challenges.values() if c.status == "created"]) == 6


async def test_publiceer_makes_the_challenges_and_announces_them_right_after_the_command(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    alarm = Alarm(core, posted.send)
    clock.set(PUBLISHED - timedelta(minutes=30))  # past the deadline, before the publication time
    lichess.clock.set(clock.now().timestamp())
    await ok(core, DIRECTOR, "/publiceer")
    await alarm.after_command(DIRECTOR)  # what an adapter does once the reply is out
    links = made(config)
    assert len(links) == 6 and len(lichess.world.challenges) == 6
    (announcement,) = posted.channel("pairing")
    assert [line.rsplit(" ", 1)[1] for line in announcement.splitlines()[1:7]] == [links[b] for b in range(1, 7)]
    alarm.shutdown()


async def test_in_english_the_links_and_the_button_are_in_english(core: Core, config, clock, lichess) -> None:
    await ok(core, DIRECTOR, "/taal en")
    await online_club(core, lichess)
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    links, boards = made(config), pairs(config)
    (announcement,) = posted.channel("pairing")
    assert announcement.splitlines()[1] == f"Board 1: {boards[1][0]} - {boards[1][1]} lichess: {links[1]}"
    white = boards[1][0]
    assert posted.private(white)[-1].endswith(f"\nYour game on lichess: {links[1]}?color=white")
    assert posted.buttons[white.lower()][-1] == ("Open your game on lichess", f"{links[1]}?color=white")
    assert f"Board 1 on lichess: {links[1]}" in (await ok(core, DIRECTOR, "/pairings")).splitlines()


async def test_the_standby_paired_in_a_missing_player_s_place_gets_a_new_challenge(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess, players=PLAYERS[:11])  # eleven: one has the bye, the standby
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    before, boards = made(config), pairs(config)
    (standby,) = rows(config, "SELECT m.name FROM byes b JOIN members m ON m.id = b.member_id")[0]
    gone = boards[3][0]
    await ok(core, DIRECTOR, f"/invaller {gone}")
    await at(core, clock, lichess, PUBLISHED + timedelta(minutes=20), Alarm(core, posted.send))
    after, boards = made(config), pairs(config)
    assert standby in boards[3] and lichess.world.challenges[before[3].rsplit("/", 1)[1]].status == "canceled"
    fresh = lichess.world.challenges[after[3].rsplit("/", 1)[1]]
    assert (fresh.white, fresh.black) == (boards[3][0].lower(), boards[3][1].lower())
    assert {b: after[b] for b in after if b != 3} == {b: before[b] for b in before if b != 3}
    assert posted.private(standby)[-1].startswith("Ronde 1, bord 3: ")


async def test_publiceer_before_the_deadline_tells_the_director_who_has_no_lichess_account_once(core: Core, config, clock,
                                                                                                lichess) -> None:  # fmt: skip
    await online_club(core, lichess, without=("Lies", "Kees"))
    posted = Posted()
    alarm = Alarm(core, posted.send)
    clock.set(PUBLISHED - timedelta(hours=3))  # before the sign-off deadline
    lichess.clock.set(clock.now().timestamp())
    await ok(core, DIRECTOR, "/publiceer")
    await alarm.after_command(DIRECTOR)
    (told,) = posted.private("leider")
    assert told.startswith("Ronde 1 wordt op lichess gespeeld, maar 2 spelers hebben geen lichess-account: Kees, Lies.")
    await at(core, clock, lichess, PUBLISHED, alarm)  # the deadline and the publication time pass: not told again
    assert len(posted.private("leider")) == 1
    alarm.shutdown()
