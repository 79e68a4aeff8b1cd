"""The games of a round made online (migration 0075, ``online_games``; issue 43 §2), on SQLite and on
PostgreSQL: a row queued is made once (attempted, then recorded), a round is announced once its rows are
settled or the hold has passed, a late link once, a stale row cancelled here or at lichess."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from bot.core.online.games_store import CANCEL, CANCELLED, CREATED, FAILED, PENDING, WantedGame
from bot.core.online.lichess_answers import Challenge, TimeControl

NOW = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)
HOLD = timedelta(minutes=3)


def wanted(club_id: int, white: int, black: int, board: int, round_ref: int = 7) -> WantedGame:
    return WantedGame(club_id, "keizer", round_ref, 100 + board, board, white, black, f"w{board}", f"b{board}",
                      TimeControl(900, 10), True, f"Club r1 b{board}", NOW + timedelta(hours=1, minutes=30),
                      NOW + timedelta(hours=5))  # fmt: skip


def challenge(cid: str) -> Challenge:
    url = f"https://lichess.test/{cid}"
    return Challenge(cid, url, url + "?color=white", url + "?color=black", "w", "b", True, TimeControl(900, 10), "created")


async def test_a_round_s_rows_are_made_once_and_announced_when_settled(any_store) -> None:
    store = any_store
    club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    ids = [(await store.add_member(club.id, n, 1500, NOW)).id for n in ("A", "B", "C", "D")]
    async with store.transaction():
        await store.queue_online_games([wanted(club.id, ids[0], ids[1], 1), wanted(club.id, ids[2], ids[3], 2)], NOW)
    rows = await store.online_games_to_make(NOW)
    assert [(r.board, r.status, r.attempted, r.clock, r.rated) for r in rows] == [(1, PENDING, False, TimeControl(900, 10), True),
                                                                                 (2, PENDING, False, TimeControl(900, 10), True)]  # fmt: skip
    assert await store.next_online_moment(HOLD) == NOW  # rows to make: now
    assert await store.online_rounds_to_announce(NOW - HOLD) == []  # still being made
    assert await store.mark_online_attempted(rows[0].id, NOW)
    assert await store.record_online_challenge(rows[0].id, challenge("abcd1234"), NOW)
    await store.online_try_later(rows[1].id, NOW + timedelta(minutes=1), "lichess answered 503")
    assert [r.board for r in await store.online_games_to_make(NOW)] == []  # put off
    assert await store.online_rounds_to_announce(NOW - HOLD) == []
    assert await store.online_rounds_to_announce(NOW) == [(club.id, "keizer", 7)]  # held long enough: announced without it
    assert await store.mark_online_announced(club.id, "keizer", 7, NOW) == [rows[0].id]
    assert await store.online_rounds_to_announce(NOW + HOLD) == []  # once
    # the second made later: its link is late, once
    assert await store.mark_online_attempted(rows[1].id, NOW + timedelta(minutes=1))
    assert await store.record_online_challenge(rows[1].id, challenge("efgh5678"), NOW + timedelta(minutes=1))
    assert [g.board for g in await store.online_links_late()] == [2]
    assert await store.mark_online_links_sent(rows[1].id, NOW)
    assert await store.online_links_late() == []
    made = await store.online_games_of_round(club.id, "keizer", 7)
    assert [(g.status, g.lichess_id, g.attempts, g.url_white) for g in made] == [
        (CREATED, "abcd1234", 1, "https://lichess.test/abcd1234?color=white"),
        (CREATED, "efgh5678", 1, "https://lichess.test/efgh5678?color=white"),
    ]
    assert await store.next_online_moment(HOLD) is None  # nothing left to do


async def test_stale_rows_are_cancelled_here_or_at_lichess(any_store) -> None:
    store = any_store
    club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    ids = [(await store.add_member(club.id, n, 1500, NOW)).id for n in ("A", "B", "C", "D", "E", "F")]
    await store.queue_online_games([wanted(club.id, ids[0], ids[1], 1), wanted(club.id, ids[2], ids[3], 2),
                                    wanted(club.id, ids[4], ids[5], 3)], NOW)  # fmt: skip
    first, second, third = await store.online_games_to_make(NOW)
    await store.mark_online_attempted(first.id, NOW)
    await store.record_online_challenge(first.id, challenge("made0001"), NOW)
    await store.mark_online_attempted(third.id, NOW)  # the request is out when the pairing is taken back
    await store.cancel_online_games([first.id, second.id, third.id], NOW)
    assert not await store.mark_online_attempted(second.id, NOW)  # cancelled: no request goes out
    assert not await store.record_online_challenge(third.id, challenge("late0003"), NOW)  # made meanwhile: to cancel
    assert [g.lichess_id for g in await store.online_games_to_cancel(NOW)] == ["made0001", "late0003"]
    await store.mark_online_cancelled(first.id, NOW)
    statuses = [(g.board, g.status) for g in await store.online_games_of_round(club.id, "keizer", 7)]
    assert statuses == [(1, CANCELLED), (2, CANCELLED), (3, CANCEL)]


async def test_a_row_not_made_by_the_start_of_play_is_reported_once_and_fails_at_its_latest_start(any_store) -> None:
    store = any_store
    club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    a, b = [(await store.add_member(club.id, n, 1500, NOW)).id for n in ("A", "B")]
    await store.queue_online_games([wanted(club.id, a, b, 1)], NOW)
    start = NOW + timedelta(hours=1, minutes=30)
    assert await store.online_games_not_made(start - timedelta(seconds=1)) == []
    (row,) = await store.online_games_not_made(start)
    await store.mark_online_reported([row.id], start)
    assert await store.online_games_not_made(start) == []
    assert await store.online_unmade_expired(NOW + timedelta(hours=5)) == 1
    assert [g.status for g in await store.online_games_of_round(club.id, "keizer", 7)] == [FAILED]
