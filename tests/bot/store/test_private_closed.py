"""The accounts the bot cannot write to privately (migration 0073, issue 46 §4), on a SQLite file and on a
real PostgreSQL server (``any_store``): marked on a refusal, told to the directors once, shown per member,
cleared when a private message goes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from bot.adapters.problems import closed_accounts_note

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


async def test_a_closed_account_is_told_once_listed_and_cleared_when_a_message_goes(any_store) -> None:
    club = await any_store.get_or_create_club("discord", "g1", "A", "nl", "Europe/Amsterdam", NOW)
    anna = await any_store.add_member(club.id, "Anna", 2000, NOW)
    bert = await any_store.add_member(club.id, "bert", 1900, NOW)
    await any_store.add_member(club.id, "Carla", 1800, NOW)  # no chat account
    await any_store.link_identity(club.id, "111", anna.id)
    await any_store.link_identity(club.id, "222", bert.id)
    assert await any_store.private_closed_untold(club.id) == []
    await any_store.private_closed(club.id, "222", NOW)
    await any_store.private_closed(club.id, "111", NOW + timedelta(minutes=1))
    assert await any_store.private_closed_untold(club.id) == [("111", "Anna"), ("222", "bert")]  # by name, case aside
    await any_store.private_closed_told(club.id, ["222"])
    assert await any_store.private_closed_untold(club.id) == [("111", "Anna")]
    await any_store.private_closed(club.id, "222", NOW + timedelta(days=1))  # refused again: not told again
    assert await any_store.private_closed_untold(club.id) == [("111", "Anna")]
    assert await any_store.linked_accounts(club.id) == {anna.id: True, bert.id: True}
    await any_store.private_open(club.id, "111")
    assert await any_store.linked_accounts(club.id) == {anna.id: False, bert.id: True}
    assert await any_store.private_closed_untold(club.id) == []
    await any_store.private_open(club.id, "222")
    await any_store.private_closed(club.id, "222", NOW + timedelta(days=2))  # closed anew: told anew
    assert await any_store.private_closed_untold(club.id) == [("222", "bert")]
    assert await any_store.private_closed_untold(club.id + 1) == []


async def test_the_directors_note_names_twenty_and_counts_them_all(any_store) -> None:
    club = await any_store.get_or_create_club("discord", "g1", "A", "nl", "Europe/Amsterdam", NOW)
    for i in range(25):
        member = await any_store.add_member(club.id, f"Lid {i:02d}", 1500, NOW)
        await any_store.link_identity(club.id, str(1000 + i), member.id)
        await any_store.private_closed(club.id, str(1000 + i), NOW)
    note = await closed_accounts_note(any_store, club, "discord_private_closed")
    assert note is not None
    text, accounts = note
    assert "deze 25 leden kunnen geen privéberichten" in text and "Lid 19, …" in text and "Lid 20" not in text
    assert sorted(accounts) == [str(1000 + i) for i in range(25)]  # all are told: the count said so
