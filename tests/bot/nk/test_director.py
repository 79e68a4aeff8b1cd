"""The NK as a tournament director runs it, through the commands (issue 20): corrections after the end,
the rights earned for next year, the words of the table while a round is played, and the messages a
director gets when entering someone else's result."""

from __future__ import annotations

import random
import re

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows


async def tournament(commands: Core, players: int, name: str = "NK 2027") -> list[str]:
    await ok(commands, DIRECTOR, f"/nk nieuw {name}")
    names = [f"Speler {i:02d}" for i in range(1, players + 1)]
    for i, who in enumerate(names):
        await ok(commands, DIRECTOR, f'/nk inschrijven "{who}" {2600 - 20 * i}')
    return names


def games_of(config, number: int) -> list[tuple[str, str, str | None]]:
    return rows(
        config,
        "SELECT mb.name, mw.name, mx.name FROM nk_games g JOIN nk_rounds r ON r.id = g.round_id"
        " JOIN members mb ON mb.id = g.black_id JOIN members mw ON mw.id = g.white_id"
        " LEFT JOIN members mx ON mx.id = g.winner_id WHERE r.number = ?"
        " AND r.tournament_id = (SELECT MAX(id) FROM nk_tournaments) ORDER BY g.board",
        number,
    )


async def play_out(commands: Core, config, rng: random.Random, number: int = 0) -> int:
    """Pair and play every round after ``number`` with random results (the director enters them); the
    rounds played."""
    while (await commands.handle(DIRECTOR, "/nk ronde")).ok:
        number += 1
        for black, white, _ in games_of(config, number):
            await ok(commands, DIRECTOR, f'/nk uitslag "{rng.choice([black, white])}" gewonnen {number}')
    return number


async def test_the_table_while_round_one_is_played_and_a_directors_wrong_name(commands: Core, config) -> None:
    await tournament(commands, 20)
    await ok(commands, DIRECTOR, "/speler Zoë 1500")  # a member who does not play the NK
    await ok(commands, DIRECTOR, "/nk ronde")
    black, white, _ = games_of(config, 1)[0]
    await ok(commands, DIRECTOR, f'/nk uitslag "{black}" gewonnen')
    stand = await ok(commands, DIRECTOR, "/nk stand")
    assert "stand voor ronde 1 (ronde 1 wordt gespeeld)" in stand and "na ronde 0" not in stand
    # the table counts only complete rounds: the winner of board 1 has no point yet
    table = (await commands.handle(DIRECTOR, "/nk stand")).table
    assert table is not None and {row[2] for row in table.rows if row[1] == black} == {"0"}
    said = await refused(commands, DIRECTOR, "/nk uitslag Zoë gewonnen", config)
    assert "Zoë heeft geen partij in ronde 1" in said and "Je hebt" not in said


async def test_rights_for_next_year_are_in_the_final_table(commands: Core, config) -> None:
    await tournament(commands, 24)
    await play_out(commands, config, random.Random(3))
    stand = await ok(commands, DIRECTOR, "/nk stand")
    assert "Verdiende rechten voor volgend jaar" in stand
    table = (await commands.handle(DIRECTOR, "/nk stand")).table
    assert table is not None and table.headers[-1] == "Recht volgend jaar"
    assert any(row[-1] == "topgroep" for row in table.rows)


async def test_a_correction_after_the_end_reevaluates_and_is_announced(commands: Core, config) -> None:
    """Correcting the game that decided the title: the champion changes (a correction announcement) or is
    not known any more (an announcement, and the tournament runs again so the director pairs the round
    it needs). Before, it was left with no champion, unable to go on or end."""
    found = opened = 0
    for seed in range(40):
        name = f"NK {seed}"
        await tournament(commands, 6, name)
        rounds = await play_out(commands, config, random.Random(seed))
        (tid,) = rows(config, "SELECT id FROM nk_tournaments WHERE name = ?", name)[0]
        (champion,) = rows(config, "SELECT kind FROM announcements WHERE kind LIKE ?", f"nk:{tid}:champion%")[0]
        body = rows(config, "SELECT body FROM announcements WHERE kind = ?", champion)[0][0]
        decided = int(re.search(r"ronde (\d+)", body).group(1))  # type: ignore[union-attr]
        for black, white, winner in games_of_tournament(config, tid, decided):  # every game of that round the other way
            loser = white if winner == black else black
            await ok(commands, DIRECTOR, f'/nk uitslag "{loser}" gewonnen {decided}')
        made = [k for (k,) in rows(config, "SELECT kind FROM announcements WHERE kind LIKE ? ORDER BY id", f"nk:{tid}:champion%")]
        (status,) = rows(config, "SELECT status FROM nk_tournaments WHERE id = ?", tid)[0]
        if len(made) > 1:
            found += 1
            bodies = [b for (b,) in rows(config, "SELECT body FROM announcements WHERE kind = ?", made[-1])]
            assert bodies[0].startswith("Correctie")
            if made[-1].endswith(":open"):
                opened += 1
                assert status == "running"
                assert "Correctie" in bodies[0] and "ronde" in bodies[0]
                await play_out(commands, config, random.Random(seed), rounds)  # the round(s) the correction needs
                last = rows(config, "SELECT kind FROM announcements WHERE kind LIKE ? ORDER BY id DESC", f"nk:{tid}:champion%")[0][0]
                assert not last.endswith(":open")
                assert rows(config, "SELECT status FROM nk_tournaments WHERE id = ?", tid)[0][0] == "finished"
            else:
                assert status == "finished"
        else:
            assert made == [champion]
        if rows(config, "SELECT status FROM nk_tournaments WHERE id = ?", tid)[0][0] != "finished":
            break
        if found >= 40:
            break
    assert found >= 1 and opened >= 1  # both ways of a correction were met


def games_of_tournament(config, tid: int, number: int) -> list[tuple[str, str, str]]:
    return rows(
        config,
        "SELECT mb.name, mw.name, mx.name FROM nk_games g JOIN nk_rounds r ON r.id = g.round_id"
        " JOIN members mb ON mb.id = g.black_id JOIN members mw ON mw.id = g.white_id"
        " JOIN members mx ON mx.id = g.winner_id WHERE r.tournament_id = ? AND r.number = ? ORDER BY g.board",
        tid, number,
    )  # fmt: skip


async def test_the_egf_file_from_the_chat_takes_place_dates_and_time_and_refuses_a_broken_header(commands: Core, config) -> None:
    await tournament(commands, 16)
    await play_out(commands, config, random.Random(1))
    reply = await commands.handle(DIRECTOR, "/nk egf plaats=Utrecht,_NL datum=2027-05-01,2027-05-02 tijd=120 komi=7")
    assert reply.ok and reply.attachment is not None
    text = reply.attachment[1].decode()
    assert "; PC[Utrecht,_NL]" in text and "; DT[2027-05-01,2027-05-02]" in text and "; TM[120]" in text
    assert "; HA[h9]" in text and "?" not in text
    for bad in ("plaats=X];CL[D", "tijd=veel", "klasse=Z", "onzin"):
        await refused(commands, DIRECTOR, f"/nk egf {bad}", config)


async def test_next_year_the_rights_are_taken_over_at_registration(commands: Core, config) -> None:
    await tournament(commands, 24, "NK 2026")
    await play_out(commands, config, random.Random(3))
    table = (await commands.handle(DIRECTOR, "/nk stand")).table
    assert table is not None
    earned = {row[1]: row[-1] for row in table.rows if row[-1]}
    assert earned
    said = await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    assert f"{len(earned)} spelers hebben vorig jaar een recht verdiend" in said
    name, right = next(iter(earned.items()))
    await ok(commands, DIRECTOR, f'/nk inschrijven "{name}" 2300')
    stored = rows(config, "SELECT p.earned FROM nk_players p JOIN members m ON m.id = p.member_id"
                          " JOIN nk_tournaments t ON t.id = p.tournament_id WHERE t.name = 'NK 2027' AND m.name = ?", name)  # fmt: skip
    assert stored == [("top" if right == "topgroep" else "group1",)]


async def test_a_withdrawal_and_a_double_forfeit_from_the_chat(commands: Core, config) -> None:
    names = await tournament(commands, 10)
    await ok(commands, DIRECTOR, "/nk ronde")
    (black, white, _), *rest = games_of(config, 1)
    said = await ok(commands, DIRECTOR, f'/nk uitslag "{black}" dubbel')
    assert "beide spelers reglementair verloren" in said
    assert rows(config, "SELECT winner_id, forfeit FROM nk_games WHERE board = 1") == [(None, 1)]
    for b, w, _ in rest:
        await ok(commands, DIRECTOR, f'/nk uitslag "{b}" gewonnen')
    said = await ok(commands, DIRECTOR, f'/nk terugtrekken "{names[0]}"')
    assert "vanaf ronde 2" in said
    assert "al teruggetrokken" in await refused(commands, DIRECTOR, f'/nk terugtrekken "{names[0]}"', config)
    await refused(commands, DIRECTOR, "/nk terugtrekken Niemand", config)
    await ok(commands, DIRECTOR, "/nk ronde")
    second = games_of(config, 2)
    assert all(names[0] not in (b, w) for b, w, _ in second)
    byes = rows(config, "SELECT m.name FROM nk_rounds r JOIN members m ON m.id = r.bye_id WHERE r.number = 2")
    assert len(second) == 4 and byes and byes[0][0] != names[0]  # 9 left: 4 games and a bye, never to him


async def test_the_director_changes_a_pairing_before_and_after_its_announcement(commands: Core, config) -> None:
    """/nk wissel A B: two players of the last round change places (a player and the bye too); the unsent
    announcement goes out changed, a posted one gets a correction; never once a result is in."""
    names = await tournament(commands, 5)
    await ok(commands, DIRECTOR, "/nk ronde")
    before = games_of(config, 1)
    bye = rows(config, "SELECT m.name FROM nk_rounds r JOIN members m ON m.id = r.bye_id WHERE r.number = 1")[0][0]
    first, second = before[0][0], before[1][1]  # black of board 1, white of board 2
    text = await ok(commands, DIRECTOR, f'/nk wissel "{first}" "{second}"')
    assert "nog niet verstuurd" in text
    after = games_of(config, 1)
    assert after[0][0] == second and after[1][1] == first and after[0][1] == before[0][1]
    announced = rows(config, "SELECT kind, body, sent_at FROM announcements WHERE kind LIKE 'nk:%:round:1%'")
    assert len(announced) == 1 and "Gewijzigd" in announced[0][1] and f"{second}" in announced[0][1].splitlines()[2]
    await ok(commands, DIRECTOR, f'/nk wissel "{bye}" "{first}"')  # the bye moves
    assert rows(config, "SELECT m.name FROM nk_rounds r JOIN members m ON m.id = r.bye_id WHERE r.number = 1")[0][0] == first
    await commands.store.write("UPDATE announcements SET sent_at = '2026-12-01T12:00:00+00:00'")  # it went out
    text = await ok(commands, DIRECTOR, f'/nk wissel "{first}" "{second}"')
    assert "correctie" in text
    assert [k for (k,) in rows(config, "SELECT kind FROM announcements WHERE sent_at IS NULL")] == ["nk:1:round:1:change:1"]
    # refused, changing nothing: a result is in, a name not in the round, the same name twice, a member
    black, white, _ = games_of(config, 1)[0]
    await ok(commands, DIRECTOR, f'/nk uitslag "{black}" gewonnen 1')
    await refused(commands, DIRECTOR, f'/nk wissel "{black}" "{games_of(config, 1)[1][0]}"', config)
    await refused(commands, DIRECTOR, f'/nk wissel "{names[1]}" Niemand', config)
    await refused(commands, DIRECTOR, f'/nk wissel "{names[2]}" "{names[2]}"', config)
    await refused(commands, DIRECTOR, "/nk wissel", config)
    await refused(commands, actor("Speler 03"), f'/nk wissel "{names[1]}" "{names[2]}"', config)  # the director's


async def test_with_every_player_withdrawn_no_round_is_paired_and_the_reason_is_said(commands: Core, config) -> None:
    """Issue 31: every player withdrawn used to announce empty rounds; now the round is refused with a clear
    message (never "Er ging iets mis")."""
    names = await tournament(commands, 4)
    await ok(commands, DIRECTOR, "/nk ronde")
    for black, _, _ in games_of(config, 1):
        await ok(commands, DIRECTOR, f'/nk uitslag "{black}" gewonnen')
    for who in names[:3]:
        await ok(commands, DIRECTOR, f'/nk terugtrekken "{who}"')
    said = await refused(commands, DIRECTOR, "/nk ronde", config)
    assert "Er ging iets mis" not in said and "1 speler" in said and "teruggetrokken" in said


async def test_a_double_forfeited_title_game_and_a_withdrawn_finalist_make_the_other_champion(commands: Core, config) -> None:
    """Issue 31: a title game ending in a double forfeit, then the director withdraws one finalist: the
    other is champion (before: every /nk ronde answered "Er ging iets mis")."""
    from tests.engine.mcmahon.test_ending import title_seed

    rng = random.Random(title_seed())  # the same results as the engine's to_title_round: a title round 8
    await tournament(commands, 16)
    for number in range(1, 8):
        await ok(commands, DIRECTOR, "/nk ronde")
        for black, white, _ in games_of(config, number):
            await ok(commands, DIRECTOR, f'/nk uitslag "{rng.choice([black, white])}" gewonnen {number}')
    assert "Ronde 8" in await ok(commands, DIRECTOR, "/nk ronde")
    games = games_of(config, 8)
    (black, white, _), = games
    await ok(commands, DIRECTOR, f'/nk uitslag "{black}" dubbel')
    await ok(commands, DIRECTOR, f'/nk terugtrekken "{black}"')
    said = await refused(commands, DIRECTOR, "/nk ronde", config)
    assert "Er ging iets mis" not in said and "afgelopen" in said
    assert white in await ok(commands, DIRECTOR, "/nk stand")


async def test_a_new_tournament_has_komi_six_and_a_half_and_one_from_before_keeps_seven(commands: Core, config) -> None:
    """Issue 31: the NK's default komi is not an integer (no jigo); tournaments from before keep 7."""
    await tournament(commands, 4)
    await ok(commands, DIRECTOR, "/nk ronde")
    reply = await commands.handle(DIRECTOR, "/nk egf")
    assert reply.ok and reply.attachment is not None and b"; KM[6.5]" in reply.attachment[1]
    assert rows(config, "SELECT komi FROM nk_tournaments") == [("6.5",)]
    assert rows(config, "SELECT dflt_value FROM pragma_table_info('nk_tournaments') WHERE name = 'komi'") == [("'7'",)]


async def test_last_years_points_with_a_half(commands: Core, config) -> None:
    """Issue 31: `punten=3.5` (after a jigo) is accepted at registration: at least group 1."""
    await ok(commands, DIRECTOR, "/nk nieuw NK 2027")
    await ok(commands, DIRECTOR, '/nk inschrijven "Anna" 2000 punten=3.5')
    await ok(commands, DIRECTOR, '/nk inschrijven "Bert" 2000 punten=4,5')
    await ok(commands, DIRECTOR, '/nk inschrijven "Cor" 2000 punten=2½')
    earned = dict(rows(config, "SELECT m.name, p.earned FROM nk_players p JOIN members m ON m.id = p.member_id"))
    assert earned == {"Anna": "group1", "Bert": "top", "Cor": None}
    for bad in ("punten=3.3", "punten=drie", "punten=3.5.5", "punten=30"):
        said = await refused(commands, DIRECTOR, f'/nk inschrijven "Dirk" 2000 {bad}', config)
        assert "Er ging iets mis" not in said


async def test_a_withdrawal_is_undone_before_the_next_round_is_paired(commands: Core, config) -> None:
    """Issue 31: `/nk terugtrekken Naam ongedaan` undoes a withdrawal while the round it starts from is not
    paired yet; once it is, it is refused (the player returns with no games missing in between)."""
    names = await tournament(commands, 6)
    await ok(commands, DIRECTOR, "/nk ronde")
    for black, _, _ in games_of(config, 1):
        await ok(commands, DIRECTOR, f'/nk uitslag "{black}" gewonnen')
    await ok(commands, DIRECTOR, f'/nk terugtrekken "{names[0]}"')
    said = await ok(commands, DIRECTOR, f'/nk terugtrekken "{names[0]}" ongedaan')
    assert names[0] in said and "weer" in said
    assert rows(config, "SELECT withdrawn_from FROM nk_players WHERE withdrawn_from IS NOT NULL") == []
    assert "niet teruggetrokken" in await refused(commands, DIRECTOR, f'/nk terugtrekken "{names[0]}" ongedaan', config)
    await ok(commands, DIRECTOR, f'/nk terugtrekken "{names[1]}"')
    await ok(commands, DIRECTOR, "/nk ronde")
    assert all(names[1] not in (b, w) for b, w, _ in games_of(config, 2))
    assert any(names[0] in (b, w) for b, w, _ in games_of(config, 2))
    said = await refused(commands, DIRECTOR, f'/nk terugtrekken "{names[1]}" ongedaan', config)
    assert "ronde 2" in said
    member = actor("Speler 03")
    await refused(commands, member, f'/nk terugtrekken "{names[1]}" ongedaan', config)


async def test_a_pair_the_director_keeps_apart_does_not_meet_in_the_nk(commands: Core, config) -> None:
    """Issue 34 section 3: ``/indeling verbied A B`` keeps A and B apart in the NK pairing too (a parent and
    child): round 1's slide would pair Speler 01 with Speler 05; kept apart, each meets someone else."""
    await tournament(commands, 8)
    await ok(commands, DIRECTOR, '/indeling verbied "Speler 01" "Speler 05"')
    await ok(commands, DIRECTOR, "/nk ronde")
    games = {frozenset((b, w)) for b, w, _ in games_of(config, 1)}
    assert frozenset(("Speler 01", "Speler 05")) not in games and len(games) == 4
    assert frozenset(("Speler 01", "Speler 06")) in games and frozenset(("Speler 02", "Speler 05")) in games
