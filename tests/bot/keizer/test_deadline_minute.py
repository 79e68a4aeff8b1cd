"""A deadline minute of many clubs in a few queries (issue 36): ``close_due_rounds`` closes every active
season's open rounds whose deadline has come in one statement, and ``open_games_of`` reads the results still
open of several seasons at once, as ``open_games`` reads them one season at a time. On both databases."""

from __future__ import annotations

from datetime import timedelta

from bot.keizer.open_results_store import OpenResultsStore
from bot.keizer.store import KeizerStore
from tests.bot.keizer.test_season_at_hand import NOW, THURSDAY, new_season


async def test_a_deadline_minute_closes_every_due_round_and_reads_the_open_results_together(any_store) -> None:
    keizer, open_results = KeizerStore(any_store), OpenResultsStore(any_store)
    clubs = [await any_store.get_or_create_club("console", name, name, "nl", "Europe/Amsterdam", NOW) for name in "ABC"]
    seasons = []
    for club, players in zip(clubs[:2], (4, 2)):
        season = await new_season(any_store, club.id, "2026-27", weeks=4)
        members = [await any_store.add_member(club.id, f"Lid {i}", 1800 - i, NOW) for i in range(players)]
        first = (await keizer.rounds(season.id))[0]
        assert await keizer.mark_paired(first.id, NOW)
        pairs = [(board, members[2 * board - 2].id, members[2 * board - 1].id) for board in range(1, players // 2 + 1)]
        await keizer.save_pairing(first.id, pairs, None, NOW, announcement=None)
        seasons.append(season)
    played = (await any_store.fetch_one("SELECT id FROM games WHERE board = 1 AND round_id = ?", ((await keizer.rounds(seasons[0].id))[0].id,)))[0]
    await keizer.set_result(played, "1-0", NOW)
    await new_season(any_store, clubs[2].id, "old", weeks=4)
    await new_season(any_store, clubs[2].id, "new", weeks=4)  # "old" is finished: its rounds stay as they are

    assert await keizer.close_due_rounds(THURSDAY - timedelta(minutes=1)) == []  # no deadline yet
    # the bot was down: the deadlines of rounds 2 and 3 have both passed
    closed = await keizer.close_due_rounds(THURSDAY + timedelta(weeks=2))
    new = (await keizer.season_by_name(clubs[2].id, "new")).id
    a, b = (s.id for s in seasons)
    assert [(r.season_id, r.number) for r in closed] == [(new, 1), (a, 2), (b, 2), (new, 2), (a, 3), (b, 3), (new, 3)]  # by deadline
    assert all(r.status == "closed" for r in closed)
    statuses = await any_store.fetch_all(
        "SELECT s.name, r.number, r.status FROM rounds r JOIN seasons s ON s.id = r.season_id WHERE s.club_id = ? ORDER BY s.id, r.number",
        (clubs[2].id,),
    )
    assert [tuple(r) for r in statuses] == [("old", n, "open") for n in range(1, 5)] + [("new", 1, "closed"), ("new", 2, "closed"), ("new", 3, "closed"), ("new", 4, "open")]
    assert await keizer.close_due_rounds(THURSDAY + timedelta(weeks=2)) == []  # closed once

    ids = [s.id for s in seasons] + [new]
    together = await open_results.open_games_of(ids)
    assert together == {s.id: await open_results.open_games(s.id) for s in seasons if await open_results.open_games(s.id)}
    assert [g.board for g in together[seasons[0].id]] == [2] and [g.board for g in together[seasons[1].id]] == [1]
    for row in closed:  # what each round's notice lists: the games of the rounds before it
        before = [g for g in together.get(row.season_id, []) if g.round_number < row.number]
        assert before == await open_results.open_games(row.season_id, before=row.number)
    assert await keizer.seasons_by_id(ids) == {i: await keizer.season(i) for i in ids}
