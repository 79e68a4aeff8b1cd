"""A round played on lichess (issue 43 §2), against the strict fake with the real alarm and a real SQLite file:
the challenges made at publication (colours, clock, rated, expiry, name), their links in the announcement and
the private notices, a board without an account, lichess down at publication, /publiceer ongedaan, and a
season played at the club that asks lichess nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta, timezone


from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, ok, rows
from tests.bot.online.fake_lichess import FakeLichess, with_lichess
from tests.bot.online.round_setup import core, lichess  # noqa: F401 - fixtures
from tests.bot.online.round_setup import PUBLISHED, SEASON, Posted, at, online_club

LATEST = datetime(2026, 12, 3, 22, 30, tzinfo=timezone.utc)  # the end of the playing evening, 23:30 in Amsterdam
STARTS = datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)  # its start, 20:00


def challenges(lichess: FakeLichess) -> list[tuple]:
    return [(c.white, c.black, c.limit, c.increment, c.rated, c.expires_ms, c.name, c.status)
            for c in lichess.world.challenges.values()]  # fmt: skip


def boards(config) -> list[tuple[int, str, str]]:
    return [(b, w.lower(), k.lower()) for b, w, k in rows(config, "SELECT g.board, w.name, k.name FROM games g JOIN members w"
                                                             " ON w.id = g.white_id JOIN members k ON k.id = g.black_id ORDER BY g.board")]  # fmt: skip


async def test_twelve_players_at_18_00_hold_six_challenges_with_their_links_announced(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    paired = boards(config)
    assert len(paired) == 6
    expiry = int(LATEST.timestamp() * 1000)
    assert sorted(challenges(lichess)) == sorted(
        (white, black, 900, 10, True, expiry, f"Test club R1 B{board}", "created") for board, white, black in paired
    )
    (announcement,) = posted.channel("pairing")
    made = {(c.white, c.black): c for c in lichess.world.challenges.values()}
    lines = announcement.splitlines()
    for board, white, black in paired:
        url = f"{lichess.url}/{made[(white, black)].id}"
        assert lines[board] == f"Bord {board}: {white.capitalize()} - {black.capitalize()} lichess: {url}"
        assert posted.private(white)[-1].endswith(f"\nJe partij op lichess: {url}?color=white")
        assert posted.private(black)[-1].endswith(f"\nJe partij op lichess: {url}?color=black")
        assert posted.buttons[white][-1] == ("Naar je partij op lichess", f"{url}?color=white")  # a button that opens it
        assert posted.buttons[black][-1] == ("Naar je partij op lichess", f"{url}?color=black")
    assert len(lichess.requests("/api/challenge/open")) == 6
    await at(core, clock, lichess, PUBLISHED + timedelta(minutes=10), Alarm(core, posted.send))  # a later pass makes none again
    assert len(lichess.requests("/api/challenge/open")) == 6 and len(posted.channel("pairing")) == 1


async def test_a_board_with_a_player_without_an_account_is_played_at_the_club_and_the_director_told_at_the_deadline(
    core: Core, config, clock, lichess
) -> None:
    await online_club(core, lichess, without=("Lies",))
    posted = Posted()
    deadline = PUBLISHED - timedelta(hours=1)  # 17:00 in Amsterdam: sign-offs close
    await at(core, clock, lichess, deadline, Alarm(core, posted.send))
    (told,) = posted.private("leider")
    assert told == "Ronde 1 wordt op lichess gespeeld, maar 1 speler heeft geen lichess-account: Lies. Hun partijen krijgen " \
                   "geen uitdaging; koppelen kan met /koppel lichess of /speler Naam lichess=gebruikersnaam."  # fmt: skip
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    paired = boards(config)
    lies = next(b for b, w, k in paired if "lies" in (w, k))
    assert len(lichess.world.challenges) == 5
    assert all("lies" not in (c.white, c.black) for c in lichess.world.challenges.values())
    (announcement,) = posted.channel("pairing")
    assert "lichess" not in announcement.splitlines()[lies] and "lichess: " in announcement.splitlines()[1 + (lies % 6)]
    assert "lichess" not in posted.private("lies")[-1]


async def test_lichess_down_at_publication_the_round_is_announced_and_the_links_follow(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    lichess.fail_next(1000, 503)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    assert posted.channel("pairing") == [] and lichess.world.challenges == {}  # held a few minutes
    assert len(lichess.requests("/api/challenge/open")) == 1  # the rest of the pass waits for the retry
    await at(core, clock, lichess, PUBLISHED + timedelta(minutes=3), Alarm(core, posted.send))
    (announcement,) = posted.channel("pairing")  # not held longer: without the links
    assert all(line.endswith("(lichess-link volgt)") for line in announcement.splitlines()[1:7])
    assert posted.private("anna")[-1].endswith("De link naar je partij op lichess volgt zodra lichess bereikbaar is.")
    assert posted.private("leider") == []  # not yet the start of play: the director is not told
    lichess.rules.failures.clear()
    await at(core, clock, lichess, PUBLISHED + timedelta(minutes=5), Alarm(core, posted.send))
    assert len(lichess.world.challenges) == 6
    late = posted.channel()[1:]
    assert len(late) == 6 and all(" op lichess: " + lichess.url in body for body in late)
    assert posted.buttons["anna"][-1] is not None and posted.buttons["anna"][-1][1].startswith(lichess.url)  # the late link's button
    assert posted.private("leider") == []


async def test_challenges_not_made_by_the_start_of_play_are_reported_to_the_director_once(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    lichess.fail_next(100000, 502)
    for minutes in (0, 5, 60, 119):
        await at(core, clock, lichess, PUBLISHED + timedelta(minutes=minutes), Alarm(core, posted.send))
    assert posted.private("leider") == []
    await at(core, clock, lichess, STARTS, Alarm(core, posted.send))
    await at(core, clock, lichess, STARTS + timedelta(minutes=5), Alarm(core, posted.send))
    (told,) = posted.private("leider")
    assert told.startswith("Ronde 1: 6 partijen konden bij het begin van de speelavond niet op lichess worden aangemaakt")
    lichess.rules.failures.clear()


async def test_publiceer_ongedaan_cancels_the_challenges(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    assert len(lichess.world.challenges) == 6
    alarm = Alarm(core, posted.send)
    await ok(core, DIRECTOR, "/publiceer ongedaan")
    await alarm.run_due()
    assert sorted(c.status for c in lichess.world.challenges.values()) == ["canceled"] * 6
    assert len([s for s in lichess.requests() if s.path.endswith("/cancel")]) == 6


async def test_a_season_played_at_the_club_asks_lichess_nothing(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess, season=SEASON)
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    await ok(core, DIRECTOR, "/publiceer ongedaan")
    await Alarm(core, posted.send).run_due()
    assert len(boards(config)) == 0 and len(posted.channel("pairing")) == 1
    assert lichess.requests() == [] and rows(config, "SELECT COUNT(*) FROM online_games") == [(0,)]


async def test_after_a_429_the_pass_waits_lichess_s_minute_and_then_makes_them_all(core: Core, config, clock, lichess) -> None:
    await online_club(core, lichess)
    posted = Posted()
    lichess.fail_next(1, 429)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    await at(core, clock, lichess, PUBLISHED + timedelta(seconds=30), Alarm(core, posted.send))
    assert [s.status for s in lichess.requests()] == [429]  # nothing asked within the minute
    await at(core, clock, lichess, PUBLISHED + timedelta(seconds=61), Alarm(core, posted.send))
    made = lichess.requests("/api/challenge/open")
    assert [s.status for s in made] == [429] + [200] * 6 and made[1].at - made[0].at >= 60
    (announcement,) = posted.channel("pairing")  # within the hold: with every link
    assert all(" lichess: " in line for line in announcement.splitlines()[1:7])


@asynccontextmanager
async def published_on_postgresql(pg_url: str, config, clock, lichess: FakeLichess) -> AsyncIterator[tuple[Core, Posted]]:
    """A Core on PostgreSQL playing on ``lichess``, its club's round published at 18:00 (what was posted)."""
    from bot.core.storage.store import open_store

    pg = await open_store(pg_url)
    core = make_core(pg, with_lichess(config, lichess), clock)
    core.online.timing = lichess.clock
    try:
        await online_club(core, lichess)
        posted = Posted()
        await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
        yield core, posted
    finally:
        await core.online.close()
        await pg.close()


async def test_on_postgresql_the_round_s_challenges_are_made_announced_and_cancelled(pg_url, config, clock, lichess) -> None:
    async with published_on_postgresql(pg_url, config, clock, lichess) as (core, posted):
        made = {c.id: c for c in lichess.world.challenges.values()}
        assert len(made) == 6 and all((c.limit, c.increment, c.rated) == (900, 10, True) for c in made.values())
        (announcement,) = posted.channel("pairing")
        assert sorted(line.rsplit("/", 1)[1] for line in announcement.splitlines()[1:7]) == sorted(made)
        await ok(core, DIRECTOR, "/publiceer ongedaan")
        await Alarm(core, posted.send).run_due()
        assert sorted(c.status for c in made.values()) == ["canceled"] * 6


async def test_a_process_without_lichess_s_turn_announces_the_links_that_another_process_will_make(pg_url, config, clock,
                                                                                                  lichess) -> None:  # fmt: skip
    """Two processes on PostgreSQL, the other holding lichess's turn (and down for now): this one's pass
    announces the round after the hold with "link follows" on every board, as the holder makes them later."""
    from bot.core.online.challenges import ANNOUNCE_HOLD
    from bot.core.online.settings import LichessTurn
    from bot.core.storage.store import open_store

    other = await open_store(pg_url)
    holder = LichessTurn(other)
    assert await holder.mine()
    try:
        async with published_on_postgresql(pg_url, config, clock, lichess) as (core, posted):
            assert lichess.world.challenges == {} and posted.channel("pairing") == []  # not this process's to make
            await at(core, clock, lichess, PUBLISHED + ANNOUNCE_HOLD + timedelta(minutes=1), Alarm(core, posted.send))
            (announcement,) = posted.channel("pairing")
            assert all("lichess-link volgt" in line for line in announcement.splitlines()[1:7]), announcement
    finally:
        await holder.release()
        await other.close()


async def test_a_pass_makes_challenges_for_its_time_budget_and_the_next_passes_the_rest(core: Core, config, clock, lichess,
                                                                                      monkeypatch) -> None:  # fmt: skip
    """The alarm posts every club's announcements after its timed work: a pass's requests stop at its budget
    (here: one request a pass), so a publication minute's thousands of challenges never hold the posts up."""
    monkeypatch.setattr("bot.core.online.challenges.PASS_BUDGET", 0.0)
    await online_club(core, lichess)
    posted = Posted()
    alarm = Alarm(core, posted.send)
    await at(core, clock, lichess, PUBLISHED, alarm)
    assert len(lichess.world.challenges) == 1 and posted.channel("pairing") == []
    for _ in range(5):
        await alarm.run_due()
    assert len(lichess.world.challenges) == 6
    (announcement,) = posted.channel("pairing")
    assert all(" lichess: " in line for line in announcement.splitlines()[1:7])
    alarm.shutdown()


async def test_a_round_queued_before_online_play_went_off_is_announced_without_links_and_lichess_asked_nothing(
    core: Core, store, config, clock, lichess
) -> None:
    await online_club(core, lichess)
    posted = Posted()
    lichess.fail_next(1, 503)
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))  # queued, not made: lichess down
    asked = len(lichess.requests())
    off = make_core(store, config, clock)  # restarted without the token: online play off
    assert not off.online.on
    await at(off, clock, lichess, PUBLISHED + timedelta(minutes=3), Alarm(off, posted.send))
    (announcement,) = posted.channel("pairing")
    assert "lichess" not in announcement and len(announcement.splitlines()) >= 7
    await at(off, clock, lichess, STARTS, Alarm(off, posted.send))
    (told,) = posted.private("leider")
    assert told.startswith("Ronde 1: 6 partijen konden bij het begin van de speelavond niet op lichess worden aangemaakt")
    assert len(lichess.requests()) == asked and lichess.world.challenges == {}


async def test_a_challenge_lichess_refuses_is_reported_to_the_director_at_once_with_lichess_s_reason(core: Core, config, clock,
                                                                                                   lichess) -> None:  # fmt: skip
    await online_club(core, lichess)
    lichess.close_account("Anna")
    posted = Posted()
    await at(core, clock, lichess, PUBLISHED, Alarm(core, posted.send))
    anna = next(b for b, w, k in boards(config) if "anna" in (w, k))
    assert len(lichess.world.challenges) == 5 and len(lichess.requests("/api/challenge/open")) == 6
    (told,) = posted.private("leider")
    assert told.startswith("Ronde 1: lichess weigerde 1 uitdaging: Bord ") and "(het lichess-account anna is gesloten)" in told and "account closed" not in told, told
    (announcement,) = posted.channel("pairing")  # the others with their links, Anna's board without
    assert "lichess" not in announcement.splitlines()[anna]
    await at(core, clock, lichess, STARTS + timedelta(minutes=1), Alarm(core, posted.send))
    assert len(posted.private("leider")) == 1 and len(lichess.requests("/api/challenge/open")) == 6  # told once, not retried
