"""``KeizerStore.season_at_hand``: the active season, its coming round, a member's place and their word for
the coming round, in one query."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.core.storage.store import Store
from bot.keizer.store import KeizerStore, MemberWeek, Season, SeasonPlayer
from bot.keizer.week_store import WeekStore

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
THURSDAY = datetime(2026, 12, 3, 16, 0, tzinfo=timezone.utc)


def calendar(weeks: int) -> list[tuple[int, str, datetime, datetime]]:
    """Round n on the n-th Thursday from 3 December 2026: deadline 16:00 UTC, publication 17:00 UTC."""
    return [
        (n, (THURSDAY + timedelta(weeks=n - 1)).date().isoformat(),
         THURSDAY + timedelta(weeks=n - 1), THURSDAY + timedelta(weeks=n - 1, hours=1))
        for n in range(1, weeks + 1)
    ]  # fmt: skip


async def new_season(store: Store, club_id: int, name: str, kind: str = "main", weeks: int = 3) -> Season:
    return await KeizerStore(store).create_season(club_id, name, kind, calendar(weeks), "17:00", "18:00", "Europe/Amsterdam", "{}", NOW)


async def test_the_season_its_coming_round_and_the_members_place(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.sqlite3")
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        other = await store.get_or_create_club("console", "y", "Other", "nl", "Europe/Amsterdam", NOW)
        anna = await store.add_member(club.id, "Anna", 1800, NOW)
        bert = await store.add_member(club.id, "Bert", 1700, NOW)
        assert await KeizerStore(store).season_at_hand(club.id, anna.id) is None  # no season yet

        await new_season(store, other.id, "elsewhere")
        assert await KeizerStore(store).season_at_hand(club.id, anna.id) is None  # another club's season is not ours

        first = await new_season(store, club.id, "2026-27")
        await KeizerStore(store).upsert_season_player(first.id, anna.id, 1810, 2, group_name="A")
        at_hand = await KeizerStore(store).season_at_hand(club.id, anna.id)
        assert at_hand is not None
        season, coming, place, week = at_hand
        assert week == MemberWeek(None, False, "present")
        assert (season.id, season.name, season.kind, season.rounds_count, season.status) == (
            first.id, "2026-27", "main", 3, "active",
        )  # fmt: skip
        assert coming is not None
        assert (coming.season_id, coming.number, coming.play_date, coming.deadline_at, coming.status) == (
            first.id, 1, "2026-12-03", THURSDAY, "open",
        )  # fmt: skip
        assert place == SeasonPlayer(anna.id, "Anna", 1810, "A", 2, None, False)
        assert (await KeizerStore(store).season_at_hand(club.id, bert.id))[1:3] == (coming, None)  # Bert is not in the season
        assert (await KeizerStore(store).season_at_hand(club.id, None))[1:] == (coming, None, MemberWeek(None, False, "present"))

        await KeizerStore(store).set_auto_signed_off(first.id, anna.id, True)
        await KeizerStore(store).set_start_points(first.id, anna.id, "3/2")
        assert (await KeizerStore(store).season_at_hand(club.id, anna.id))[2] == SeasonPlayer(anna.id, "Anna", 1810, "A", 2, "3/2", True)

        assert await KeizerStore(store).mark_paired(coming.id, NOW)
        assert (await KeizerStore(store).season_at_hand(club.id, anna.id))[1].number == 2  # round 1 is paired now
        for number in (2, 3):
            row = await KeizerStore(store).round_by_number(first.id, number)
            assert await KeizerStore(store).mark_paired(row.id, NOW)
        assert (await KeizerStore(store).season_at_hand(club.id, anna.id))[1] is None  # every round paired

        rapid = await new_season(store, club.id, "rapid", kind="rapid", weeks=2)
        assert (await KeizerStore(store).season_at_hand(club.id, anna.id))[0].id == first.id
        rapid_at_hand = await KeizerStore(store).season_at_hand(club.id, anna.id, "rapid")
        assert (rapid_at_hand[0].id, rapid_at_hand[1].number, rapid_at_hand[2]) == (rapid.id, 1, None)

        second = await new_season(store, club.id, "2027-28")  # the first one is finished by this
        season, coming, place, _ = await KeizerStore(store).season_at_hand(club.id, anna.id)
        assert (season.id, coming.season_id, coming.number, place) == (second.id, second.id, 1, None)
    finally:
        await store.close()


async def test_the_members_word_for_the_coming_round_on_both_databases(any_store) -> None:
    """The sign-off, the sign-on and the attendance mode ``season_at_hand`` reads with the season are the
    member's for the coming round only (what /aanmelden and /afmelden then need not read again)."""
    keizer, week = KeizerStore(any_store), WeekStore(any_store)
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    bert = await any_store.add_member(club.id, "Bert", 1700, NOW)
    season = await new_season(any_store, club.id, "2026-27")
    first, second, _ = await keizer.rounds(season.id)
    await keizer.set_signoff(second.id, anna.id, "notice", None, NOW)  # another round's: not the coming one
    await week.sign_on(second.id, bert.id, NOW)
    assert (await keizer.season_at_hand(club.id, anna.id))[3] == MemberWeek(None, False, "present")
    await keizer.set_signoff(first.id, anna.id, "team", None, NOW)
    await week.sign_on(first.id, bert.id, NOW)
    await week.set_mode(bert.id, "absent")
    assert (await keizer.season_at_hand(club.id, anna.id))[3] == MemberWeek("team", False, "present")
    assert (await keizer.season_at_hand(club.id, bert.id))[3] == MemberWeek(None, True, "absent")
    await week.drop_signon(first.id, bert.id)
    assert (await keizer.season_at_hand(club.id, bert.id))[3] == MemberWeek(None, False, "absent")
    assert await keizer.mark_paired(first.id, NOW)
    assert (await keizer.season_at_hand(club.id, anna.id))[3] == MemberWeek("notice", False, "present")  # round 2 now
    assert (await keizer.season_at_hand(club.id, bert.id))[3] == MemberWeek(None, True, "absent")
