"""The shared tables' store on both databases: every test here runs on a SQLite file and on a real
PostgreSQL server (the ``database`` fixture in tests/bot/conftest.py)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from bot.core.storage.migrations import migration_files
from bot.core.storage.store import iso, open_store
from bot.systems import build_registry

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
ZONE = "Europe/Amsterdam"


async def test_a_fresh_database_has_every_migration_and_is_whole(any_store) -> None:
    assert await any_store.schema_version() == len(migration_files())
    assert await any_store.applied_migrations() == sorted(p.name for _, p in migration_files())
    assert await any_store.integrity_check() == "ok"


async def test_reopening_applies_nothing_twice_and_keeps_the_data(database: str) -> None:
    store = await open_store(database)
    club = await store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    await store.close()
    store = await open_store(database)
    try:
        assert await store.club_by_external("console", "x") == club
        assert await store.schema_version() == len(migration_files())
    finally:
        await store.close()


async def test_a_club_is_made_once_and_found_by_platform_and_id(any_store) -> None:
    a = await any_store.get_or_create_club("discord", "g1", "A", "nl", ZONE, NOW)
    again = await any_store.get_or_create_club("discord", "g1", "A renamed", "en", ZONE, NOW)
    assert again == a
    assert await any_store.club(a.id) == a
    assert await any_store.club(a.id + 1000) is None
    await any_store.set_club_website(a.id, "members")
    assert (await any_store.club(a.id)).website == "members"


async def test_foreign_keys_are_enforced(any_store) -> None:
    with pytest.raises(Exception) as caught:
        await any_store.link_identity(club_id=999, user_id="u", member_id=999)
    assert "foreign key" in str(caught.value).lower()


async def test_a_transaction_rolls_back_everything_on_error(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    with pytest.raises(RuntimeError):
        async with any_store.transaction():
            await any_store.add_member(club.id, "Anna", 1800, NOW)
            raise RuntimeError("boom")
    assert await any_store.members(club.id) == []


async def test_a_write_that_would_not_open_the_transaction_is_refused(any_store) -> None:
    with pytest.raises(ValueError):
        await any_store.write("CREATE TABLE nope (x INTEGER)")


async def test_members_by_name_without_regard_to_case_and_in_name_order(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    for name, rating in (("bert", 1700), ("Anna", 1800), ("Carla", 1600)):
        await any_store.add_member(club.id, name, rating, NOW)
    assert (await any_store.member_by_name(club.id, "ANNA")).name == "Anna"
    assert await any_store.member_by_name(club.id, "Daan") is None
    assert [m.name for m in await any_store.members(club.id)] == ["Anna", "bert", "Carla"]
    with pytest.raises(Exception):  # one name per club, whatever its case
        await any_store.add_member(club.id, "BERT", 1500, NOW)


async def test_clubs_of_an_identity(any_store) -> None:
    a = await any_store.get_or_create_club("discord", "g1", "A", "nl", ZONE, NOW)
    b = await any_store.get_or_create_club("discord", "g2", "B", "nl", ZONE, NOW)
    t = await any_store.get_or_create_club("telegram", "g1", "T", "nl", ZONE, NOW)
    for club in (a, b, t):
        member = await any_store.add_member(club.id, "Anna", 1800, NOW)
        await any_store.link_identity(club.id, "u1", member.id)
    assert [c.name for c in await any_store.clubs_of_identity("discord", "u1")] == ["A", "B"]
    assert [c.name for c in await any_store.clubs_of_identity("telegram", "u1")] == ["T"]
    assert await any_store.clubs_of_identity("discord", "u2") == []


async def test_a_club_and_a_member_read_again_after_a_change_are_the_changed_ones(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    assert (await any_store.club_by_external("console", "x")).language == "nl"
    await any_store.set_club_language(club.id, "en")
    assert (await any_store.club_by_external("console", "x")).language == "en"
    with pytest.raises(RuntimeError):
        async with any_store.transaction():
            await any_store.set_club_channel(club.id, "news")
            assert (await any_store.club_by_external("console", "x")).channel_id == "news"
            raise RuntimeError("undo")
    assert (await any_store.club_by_external("console", "x")).channel_id is None
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    await any_store.link_identity(club.id, "u1", anna.id)
    assert (await any_store.member_by_identity(club.id, "u1")).rating == 1800
    await any_store.update_member_rating(anna.id, 1900)
    assert (await any_store.member_by_identity(club.id, "u1")).rating == 1900
    bert = await any_store.add_member(club.id, "Bert", 1700, NOW)
    await any_store.link_identity(club.id, "u1", bert.id)  # the account moves to another member
    assert (await any_store.member_by_identity(club.id, "u1")).name == "Bert"
    assert await any_store.identities_of(bert.id) == ["u1"]
    with pytest.raises(RuntimeError):
        async with any_store.transaction():
            await any_store.set_member_director(bert.id, True)
            assert (await any_store.member_by_identity(club.id, "u1")).is_director
            raise RuntimeError("undo")
    assert not (await any_store.member_by_identity(club.id, "u1")).is_director


async def test_merging_a_member_moves_every_reference_and_keeps_the_targets_own(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    twin = await any_store.add_member(club.id, "Anna B", 1800, NOW)
    await any_store.link_identity(club.id, "u1", anna.id)
    await any_store.link_identity(club.id, "u2", twin.id)
    await any_store.set_link_code(club.id, anna.id, "h1", NOW + timedelta(days=7), "dir")
    await any_store.set_link_code(club.id, twin.id, "h2", NOW + timedelta(days=7), "dir")  # anna keeps her own
    async with any_store.transaction():
        await any_store.merge_member_into(twin.id, anna.id)
    assert await any_store.member(twin.id) is None
    assert await any_store.identities_of(anna.id) == ["u1", "u2"]
    assert (await any_store.member_of_link_code(club.id, "h1", NOW)).id == anna.id
    assert await any_store.member_of_link_code(club.id, "h2", NOW) is None
    refs = await any_store.member_references()
    assert ("identities", "member_id", None) in refs and ("games", "white_id", "rounds") in refs
    assert not await any_store.has_history(anna.id, build_registry().removed_with_member())


async def test_a_members_newest_web_links_are_kept(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    for i in range(4):
        await any_store.add_web_link(club.id, anna.id, f"t{i}", NOW + timedelta(minutes=i), keep=2)
    assert await any_store.member_of_web_link(club.id, "t0") is None
    assert await any_store.member_of_web_link(club.id, "t1") is None
    assert (await any_store.member_of_web_link(club.id, "t3")).id == anna.id
    await any_store.drop_web_links(anna.id)
    assert await any_store.member_of_web_link(club.id, "t3") is None


async def test_private_notices_go_to_members_who_allow_them(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    bert = await any_store.add_member(club.id, "Bert", 1700, NOW)
    for who, account in ((anna, "u1"), (bert, "u2")):
        await any_store.link_identity(club.id, account, who.id)
    await any_store.set_member_notify(anna.id, True)
    assert await any_store.member_notify(anna.id) and not await any_store.member_notify(bert.id)
    assert await any_store.accounts_to_notify(club.id, [anna.id, bert.id]) == {anna.id: "u1"}


async def test_the_outbox_queues_once_rewrites_unsent_and_corrects_sent(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
    await any_store.queue_announcement(club.id, None, "hello", "Hallo", NOW, image=b"\x89PNG")
    await any_store.queue_announcement(club.id, None, "pairing", "v1", NOW)
    [hello, pairing] = await any_store.pending_announcements()
    assert hello.image == b"\x89PNG" and pairing.body == "v1"
    assert not await any_store.rewrite_or_correct(club.id, None, "pairing", "correction-", "v2", None, NOW)
    assert (await any_store.pending_announcements())[1].body == "v2"
    tried = await any_store.mark_announcement_attempted(pairing, NOW)
    assert tried.attempted and tried.after_ref is None
    assert await any_store.mark_announcement_sent(pairing.id, NOW, "m1")
    assert not await any_store.mark_announcement_sent(pairing.id, NOW, "m1")  # once
    assert await any_store.rewrite_or_correct(club.id, None, "pairing", "correction-", "v3", None, NOW)
    pending = await any_store.pending_announcements()
    assert [a.kind for a in pending] == ["hello", "correction-1"]
    after = await any_store.mark_announcement_attempted(pending[1], NOW)
    assert after.after_ref == "m1"  # the club's latest post before this one
    sent = [a for a, at in await any_store.announcements(club.id) if at is not None]
    assert [a.kind for a in sent] == ["pairing"] and sent[0].image is None


async def _heard_own_changes(store) -> None:
    """On PostgreSQL: the cache listener has heard the NOTIFYs of the changes made so far (each would empty
    the caches when it arrives; on a busy machine one arrived after ``read_clubs`` filled them). The
    server sends a listening connection its notifications before answering its next query, and asyncpg
    calls the listener soon after."""
    listener = getattr(store, "_listener", None)
    if listener is not None:
        await listener.execute("SELECT 1")
        await asyncio.sleep(0)


async def test_clubs_read_together_are_the_clubs_read_one_by_one(any_store) -> None:
    """``read_clubs`` (a publication minute's share): the clubs not in the cache read in one query, as
    ``club`` reads them; an id without a club is left out."""
    clubs = [await any_store.get_or_create_club("console", f"c{i}", f"Club {i}", "nl", ZONE, NOW) for i in range(3)]
    await any_store.remember_director(clubs[1].id, "u-director", True, NOW)
    apart = [await any_store.club(c.id) for c in clubs]
    await _heard_own_changes(any_store)
    any_store._forget()  # as another process's change would
    await any_store.read_clubs([c.id for c in clubs] + [10**6])
    assert sorted(any_store._clubs_by_id) == sorted(c.id for c in clubs)
    assert [any_store._clubs_by_id[c.id] for c in clubs] == apart and apart[1].director_users
    await any_store.read_clubs([])


async def test_several_clubs_posts_are_recorded_in_one_statement_as_one_by_one(any_store) -> None:
    """``mark_announcements_attempted`` and ``mark_announcements_sent`` (the clubs served side by side,
    ``bot/core/running/scheduler.py``): each announcement gets its own club's latest post as ``after_ref`` and its
    own reference, as the one-by-one records give them; one marked already is left as it is."""
    clubs = [await any_store.get_or_create_club("console", f"c{i}", f"Club {i}", "nl", ZONE, NOW) for i in range(3)]
    for club in clubs:
        for kind in ("first", "second"):
            await any_store.queue_announcement(club.id, None, kind, f"{kind} of {club.id}", NOW)
    firsts = [a for a in await any_store.pending_announcements() if a.kind == "first"]
    earlier = await any_store.mark_announcement_attempted(firsts[0], NOW)  # tried before, by itself
    tried = await any_store.mark_announcements_attempted([earlier, *firsts[1:]], NOW + timedelta(minutes=1))
    assert [a.id for a in tried] == [a.id for a in firsts] and all(a.attempted and a.after_ref is None for a in tried)
    assert await any_store.mark_announcements_sent([(firsts[0].id, "ref-0"), (firsts[1].id, None), (firsts[2].id, "ref-2")], NOW) == 3
    assert await any_store.mark_announcements_sent([(firsts[0].id, "again"), (firsts[1].id, "again")], NOW) == 0  # once
    seconds = await any_store.pending_announcements()
    assert [a.kind for a in seconds] == ["second"] * 3
    tried = await any_store.mark_announcements_attempted(seconds, NOW)
    assert [a.after_ref for a in tried] == ["ref-0", None, "ref-2"]  # each its own club's latest post
    for club, ref in zip(clubs, ("ref-0", None, "ref-2")):
        row = await any_store.fetch_one("SELECT message_ref, sent_at FROM announcements WHERE club_id = ? AND kind = 'first'", (club.id,))
        assert (row[0], row[1]) == (ref, iso(NOW))
    tried_at = await any_store.fetch_all("SELECT attempted_at FROM announcements WHERE kind = 'first' ORDER BY id")
    assert [r[0] for r in tried_at] == [iso(NOW), iso(NOW + timedelta(minutes=1)), iso(NOW + timedelta(minutes=1))]  # the earlier record stands


async def test_commands_of_one_club_take_turns_and_other_clubs_do_not_wait(any_store) -> None:
    """Two transactions with the same key never overlap; with another key they may."""
    inside: list[str] = []
    overlaps: list[tuple[str, str]] = []

    async def command(key: str, name: str) -> None:
        async with any_store.transaction(key=key):
            await any_store.get_or_create_club("console", name, name, "nl", ZONE, NOW)
            overlaps.extend((name, other) for other in inside if other.split("-")[0] == name.split("-")[0])
            inside.append(name)
            await asyncio.sleep(0.02)
            inside.remove(name)

    await asyncio.gather(*(command(f"club-{name[0]}", name) for name in ("a-1", "a-2", "a-3", "b-1", "b-2")))
    assert overlaps == []
    assert len(await any_store.fetch_all("SELECT id FROM clubs")) == 5


async def test_the_change_stamp_moves_with_every_commit_here_and_elsewhere(database: str) -> None:
    """What the website keeps pages by (``bot/web/freshness.py``): this process's COMMITs counted at once,
    another connection's (another process's) seen in ``data_version``; a read moves neither."""
    store, other = await open_store(database), await open_store(database)
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", ZONE, NOW)
        commits, version = store.commits, await store.data_version()
        await store.club_by_external("console", "y")  # a read
        async with store.reading():
            await store.fetch_all("SELECT * FROM clubs")
        assert (store.commits, await store.data_version()) == (commits, version)
        await store.set_club_language(club.id, "en")  # a cached table's row
        assert store.commits == commits + 1
        await store.queue_announcement(club.id, None, "notice", "Hallo", NOW)  # one statement of another table
        assert store.commits == commits + 2
        async with store.transaction():  # a command's two changes: one COMMIT
            await store.set_club_channel(club.id, "c1")
            await store.queue_announcement(club.id, None, "other", "Hallo", NOW)
        assert store.commits == commits + 3
        async with store.transaction(key="console:x"):  # a club's command: on PostgreSQL a lane's group COMMIT
            await store.queue_announcement(club.id, None, "third", "Hallo", NOW)
        assert store.commits == commits + 4
        version = await store.data_version()
        await other.set_club_website(club.id, "on")  # another process's change
        assert store.commits == commits + 4 and await store.data_version() != version
    finally:
        await other.close()
        await store.close()


async def test_a_long_in_list_is_read_in_parts(any_store) -> None:
    """``fetch_all_in``: a list longer than one statement takes (``IN_LIST_SIZE``) is read in parts and
    every row comes back once, the clubs' pending announcements among them."""
    from bot.core.storage.database import IN_LIST_SIZE

    clubs = [await any_store.get_or_create_club("console", f"c{i}", "Club", "nl", ZONE, NOW) for i in range(3)]
    for club in clubs:
        await any_store.queue_announcement(club.id, None, "k", f"{club.id}", NOW)
    ids = list(range(10**6, 10**6 + 2 * IN_LIST_SIZE + 7))  # no such clubs
    ids[IN_LIST_SIZE - 1], ids[IN_LIST_SIZE], ids[-1] = clubs[0].id, clubs[2].id, clubs[1].id  # on the parts' edges
    pending = await any_store.pending_announcements(clubs=ids)
    assert [a.club_id for a in pending] == [c.id for c in clubs]  # in the order they were queued
    assert await any_store.pending_announcements(clubs=[]) == []
