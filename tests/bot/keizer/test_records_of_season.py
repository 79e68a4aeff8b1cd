"""``KeizerStore.records_of_season``: a season's games, byes and sign-offs in one query (the pairing's
``load`` reads them so: one round trip on PostgreSQL), the same as the three queries of their own, on
both databases (the ``any_store`` fixture)."""

from __future__ import annotations

from bot.core.storage.store import iso
from bot.keizer.competition import absent_unless_signed_on
from bot.keizer.store import KeizerStore
from bot.keizer.week_store import WeekStore
from tests.bot.keizer.test_season_at_hand import NOW, new_season


async def test_games_byes_and_signoffs_read_together_are_the_ones_read_apart(any_store) -> None:
    keizer = KeizerStore(any_store)
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    other = await any_store.get_or_create_club("console", "y", "Other", "nl", "Europe/Amsterdam", NOW)
    people = [await any_store.add_member(club.id, name, 1800 - 10 * n, NOW) for n, name in enumerate("ABCDEFG")]
    stranger = await any_store.add_member(other.id, "Z", 1500, NOW)
    season = await new_season(any_store, club.id, "2026-27", weeks=3)
    elsewhere = await new_season(any_store, other.id, "elders", weeks=3)
    rounds = await keizer.rounds(season.id)
    ids = [p.id for p in people]
    async with any_store.transaction():
        await keizer.mark_paired(rounds[0].id, NOW)
        await keizer.save_pairing(rounds[0].id, [(2, ids[2], ids[3]), (1, ids[0], ids[1]), (3, ids[4], ids[5])], ids[6], NOW, None)
        await keizer.set_signoff(rounds[1].id, ids[3], "notice", ids[3], NOW)
        await keizer.set_signoff(rounds[0].id, ids[6], "team", None, NOW)
        await keizer.mark_paired(rounds[1].id, NOW)
        await keizer.save_pairing(rounds[1].id, [(1, ids[1], ids[0])], ids[2], NOW, None)
        other_round = (await keizer.rounds(elsewhere.id))[0]
        await keizer.set_signoff(other_round.id, stranger.id, "notice", None, NOW)  # another season's: not read

    first_game = (await keizer.games_of_round(rounds[0].id))[0]
    await keizer.set_result(first_game.id, "1-0", NOW)
    games, byes, signoffs = await keizer.records_of_season(season.id)
    assert games == await games_apart(any_store, season.id)  # the same order: round, then board
    assert games == [(1, ids[0], ids[1], "1-0"), (1, ids[2], ids[3], None), (1, ids[4], ids[5], None), (2, ids[1], ids[0], None)]
    assert sorted(byes) == sorted(await keizer.byes_of_season(season.id)) == [(1, ids[6]), (2, ids[2])]
    assert sorted(signoffs, key=repr) == sorted(await keizer.signoffs_of_season(season.id), key=repr)
    assert sorted((n, so.round_id, so.member_id, so.kind) for n, so in signoffs) == [
        (1, rounds[0].id, ids[6], "team"), (2, rounds[1].id, ids[3], "notice"),
    ]  # fmt: skip
    assert await keizer.records_of_season(elsewhere.id) == ([], [], [(1, (await keizer.signoffs_of_season(elsewhere.id))[0][1])])


async def test_the_pairing_constraints_read_together_are_the_ones_read_apart(any_store) -> None:
    """``pairing_constraints``: the club's forbidden pairs, the absent-by-default without a sign-on and the
    chat accounts of who allows pairing notices, in one query, as ``forbidden_pairs``,
    ``absent_unless_signed_on`` and ``accounts_to_notify`` give them."""
    keizer, week = KeizerStore(any_store), WeekStore(any_store)
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    other = await any_store.get_or_create_club("console", "y", "Other", "nl", "Europe/Amsterdam", NOW)
    a, b, c, d = [await any_store.add_member(club.id, name, 1800, NOW) for name in "ABCD"]
    y, z = [await any_store.add_member(other.id, name, 1500, NOW) for name in "YZ"]
    season = await new_season(any_store, club.id, "2026-27")
    first, second, _ = await keizer.rounds(season.id)
    for member in (a, b, c):
        await keizer.upsert_season_player(season.id, member.id, 1800, 1)
    assert await keizer.pairing_constraints(club.id, season.id, first.id) == ([], set(), {})
    await add_forbidden(any_store, club.id, c.id, a.id)
    await add_forbidden(any_store, club.id, a.id, b.id)
    await add_forbidden(any_store, other.id, y.id, z.id)  # another club's: not read
    for member in (b, c, d):  # d is not in the season
        await week.set_mode(member.id, "absent")
    await week.sign_on(first.id, c.id, NOW)
    for member, accounts in ((a, ["u-a2", "u-a1"]), (b, ["u-b"]), (d, ["u-d"]), (c, [])):  # c: no chat account
        for account in accounts:
            await any_store.link_identity(club.id, account, member.id)
        await any_store.set_member_notify(member.id, True)
    await any_store.link_identity(club.id, "u-c", c.id)  # c links after, with notices on; b turns them off
    await any_store.set_member_notify(b.id, False)
    forbidden, absent, accounts = await keizer.pairing_constraints(club.id, season.id, first.id)
    assert forbidden == sorted(await any_store.forbidden_pairs(club.id)) and len(forbidden) == 2
    assert absent == await absent_unless_signed_on(any_store, season.id, first.id) == {b.id}
    assert accounts == await any_store.accounts_to_notify(club.id, [a.id, b.id, c.id]) == {a.id: "u-a1", c.id: "u-c"}
    assert (await keizer.pairing_constraints(club.id, season.id, second.id))[1] == {b.id, c.id}


async def add_forbidden(store, club_id: int, one: int, other: int) -> None:
    """As /indeling verbied writes it (``bot/keizer/forbidden.py``)."""
    await store.write(
        "INSERT INTO forbidden_pairings (club_id, member_a, member_b, created_at) VALUES (?, ?, ?, ?)",
        (club_id, min(one, other), max(one, other), iso(NOW)),
    )


async def games_apart(store, season_id: int) -> list[tuple[int, int, int, str | None]]:
    """A season's games read alone, in round and board order: what ``records_of_season`` must give."""
    rows = await store.fetch_all(
        "SELECT r.number, g.white_id, g.black_id, g.result FROM games g JOIN rounds r ON r.id = g.round_id"
        " WHERE r.season_id = ? ORDER BY r.number, g.board",
        (season_id,),
    )
    return [(r[0], r[1], r[2], r[3]) for r in rows]
