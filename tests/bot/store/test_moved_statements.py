"""The statements that moved to their tables' owners (issue 42): the shared forbidden pairs in the core's
store, the calendar feeds and the playing evening in the Keizer system's, on both databases (the
``database`` fixture in tests/bot/conftest.py)."""

from __future__ import annotations

from datetime import datetime, time, timezone

from bot.keizer.calendar_store import FeedStore, Venue, VenueStore, new_feed_token

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
ZONE = "Europe/Amsterdam"


async def test_forbidden_pairs_are_set_listed_and_lifted_in_either_order(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    other = await any_store.get_or_create_club("console", "y", "Other", "nl", ZONE, NOW)
    a = await any_store.add_member(club.id, "A", 1500, NOW)
    b = await any_store.add_member(club.id, "B", 1500, NOW)
    c = await any_store.add_member(club.id, "C", 1500, NOW)
    await any_store.forbid_pair(club.id, b.id, c.id, NOW)
    await any_store.forbid_pair(club.id, a.id, b.id, NOW)
    assert await any_store.forbidden_pairs(club.id) == [(a.id, b.id), (b.id, c.id)]
    assert await any_store.forbidden_pairs(other.id) == []
    await any_store.allow_pair(club.id, c.id, b.id)  # the other order lifts it too
    assert await any_store.forbidden_pairs(club.id) == [(a.id, b.id)]


async def test_a_feed_token_finds_its_member_in_its_own_club_only(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    other = await any_store.get_or_create_club("console", "y", "Other", "nl", ZONE, NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    feeds = FeedStore(any_store)
    assert await feeds.calendar_feed(anna.id) is None
    first, second = new_feed_token(), new_feed_token()
    await feeds.set_calendar_feed(club.id, anna.id, first, NOW)
    assert await feeds.calendar_feed(anna.id) == first
    assert await feeds.member_of_calendar_feed(club.id, first) == anna
    assert await feeds.member_of_calendar_feed(other.id, first) is None
    await feeds.set_calendar_feed(club.id, anna.id, second, NOW)  # a new address: the old one stops working
    assert await feeds.member_of_calendar_feed(club.id, first) is None
    assert await feeds.member_of_calendar_feed(club.id, second) == anna
    assert await feeds.member_of_calendar_feed(club.id, "not a token") is None


async def test_the_playing_evening_is_kept_per_club(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    venues = VenueStore(any_store)
    assert await venues.venue(club.id) == Venue()  # none set: 20:00-23:30, no location
    await venues.set_venue(club.id, Venue("Buurthuis De Ster", time(19, 30), time(0, 30)))
    await venues.set_venue(club.id, Venue("De Ster", time(19, 30), time(0, 30)))  # replaced, not added
    assert await venues.venue(club.id) == Venue("De Ster", time(19, 30), time(0, 30))
