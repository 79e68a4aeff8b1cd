"""The follower's part of the store (migration 0077; issue 43 §3), on SQLite and on PostgreSQL: a made row is
due from the moment it was made, looked at again when put off, settled once (the second settling changes
nothing), and no longer followed once settled."""

from __future__ import annotations

from datetime import timedelta

from bot.core.online.results_store import EXPIRED, FINISHED
from tests.bot.online.test_online_games_store import NOW, challenge, wanted


async def test_a_made_row_is_followed_until_it_is_settled_once(any_store) -> None:
    store = any_store
    club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    other = await store.get_or_create_club("console", "y", "Other", "nl", "Europe/Amsterdam", NOW)
    ids = [(await store.add_member(club.id, n, 1500, NOW)).id for n in ("A", "B", "C", "D")]
    await store.queue_online_games([wanted(club.id, ids[0], ids[1], 1), wanted(club.id, ids[2], ids[3], 2)], NOW)
    first, second = await store.online_games_to_make(NOW)
    assert await store.online_games_to_follow(NOW) == [] and await store.next_online_follow() is None  # not made yet
    made = NOW + timedelta(seconds=5)
    for row, cid in ((first, "abcd1234"), (second, "efgh5678")):
        await store.mark_online_attempted(row.id, made)
        await store.record_online_challenge(row.id, challenge(cid), made)
    assert await store.next_online_follow() == made and await store.next_online_follow(club.id) == made
    assert await store.next_online_follow(other.id) is None
    assert [r.lichess_id for r in await store.online_games_to_follow(made)] == ["abcd1234", "efgh5678"]
    later = made + timedelta(minutes=10)
    await store.follow_online_later([(first.id, later, "started"), (second.id, later + timedelta(minutes=1), None)])
    assert await store.online_games_to_follow(made) == [] and await store.next_online_follow() == later
    assert [r.lichess_id for r in await store.online_games_to_follow(later)] == ["abcd1234"]
    assert await store.settle_online_game(first.id, FINISHED, "entered", "1-0", "mate", "mate", later)
    assert not await store.settle_online_game(first.id, FINISHED, "held", None, "timeout", "timeout", later)  # once
    assert await store.settle_online_game(second.id, EXPIRED, "noshow", None, "expired", None, later)
    await store.set_online_outcome(second.id, "gone")
    assert await store.online_games_to_follow(later + timedelta(days=1)) == [] and await store.next_online_follow() is None
    outcomes = await store.online_outcomes(club.id, "keizer", 7)
    assert outcomes == {first.id: ("entered", "mate", "mate"), second.id: ("gone", "expired", None)}
    assert [g.status for g in await store.online_games_of_round(club.id, "keizer", 7)] == [FINISHED, EXPIRED]

