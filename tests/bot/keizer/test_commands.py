"""The commands layer on a real store: what each command does, and that bad input changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import UserError
from bot.core.commands.dispatch import parse_command
from bot.core.commands.dispatch import Core
from bot.core.storage.store import Store
from bot.systems import build_registry, make_core
from tests.bot.conftest import DIRECTOR, START, actor, dump, link, made_once, migrated_sqlite

ANNA, BERT, CARLA, DAAN, EVA = (actor(n) for n in ("Anna", "Bert", "Carla", "Daan", "Eva"))
PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the first playing day


async def ok(commands: Core, who, text: str) -> str:
    reply = await commands.handle(who, text)
    assert reply.ok, f"{text!r} was refused: {reply.text}"
    return reply.text


async def refused(commands: Core, who, text: str) -> str:
    reply = await commands.handle(who, text)
    assert not reply.ok, f"{text!r} was accepted: {reply.text}"
    return reply.text


async def make_season(commands: Core, players=("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700", "Eva 1600")) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=28")
    for line in players:
        await ok(commands, DIRECTOR, f"/speler {line}")
    for who in (ANNA, BERT, CARLA, DAAN, EVA)[: len(players)]:
        await link(commands, who)
        await ok(commands, who, "/aanmelden")


async def pair_round_one(commands: Core, clock: ShiftedClock) -> None:
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")


@pytest.fixture
async def round_one(config: Config, clock: ShiftedClock) -> AsyncIterator[Core]:
    """The bot on a club after ``make_season`` and ``pair_round_one`` (the clock at ``PAIRED``): those
    commands run once per test process, their database copied for each test (``made_once``)."""

    async def play(file: Path) -> None:
        store = await Store.open(migrated_sqlite(file))
        try:
            played = ShiftedClock(START)
            commands = make_core(store, Config(**{**config.__dict__, "db_path": file}), played)
            await make_season(commands)
            await pair_round_one(commands, played)
        finally:
            await store.close()

    store = await Store.open(made_once("keizer-round-one", play, config.db_path))
    clock.set(PAIRED)
    try:
        yield make_core(store, config, clock)
    finally:
        await store.close()


def test_parse_command_aliases_and_bot_suffix() -> None:
    assert parse_command("/Afmelden@clubbot 3 teamwedstrijd") == ("afmelden", ["3", "teamwedstrijd"])
    assert parse_command("/withdraw", build_registry().aliases) == ("afmelden", [])
    assert parse_command('/speler "Jan de Vries" 1800') == ("speler", ["Jan de Vries", "1800"])
    with pytest.raises(UserError):
        parse_command('/speler "Jan 1800')
    with pytest.raises(UserError):
        parse_command("afmelden")


async def test_english_club_gets_english_replies_and_aliases(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/language en")
    text = await refused(commands, ANNA, "/withdraw")
    assert text == "No season is running yet. The tournament director creates one with /season."
    await ok(commands, DIRECTOR, "/taal nl")
    assert (await refused(commands, ANNA, "/afmelden")).startswith("Er loopt nog geen seizoen")


async def test_signoff_for_a_named_round_and_team_match(commands: Core, config) -> None:
    await make_season(commands)
    text = await ok(commands, BERT, "/afmelden 3 teamwedstrijd")
    assert "ronde 3" in text and "teamwedstrijd" in text
    import sqlite3

    rows = sqlite3.connect(config.db_path).execute("SELECT kind FROM signoffs").fetchall()
    assert rows == [("team",)]
    await ok(commands, BERT, "/aanmelden 3")  # taken back before the deadline
    assert sqlite3.connect(config.db_path).execute("SELECT COUNT(*) FROM signoffs").fetchone()[0] == 0


async def test_a_member_typing_the_directors_form_is_told_it_is_the_directors(commands: Core, clock: ShiftedClock, config) -> None:
    """``/afmelden Bert`` or ``/uitslag Bert 1-0`` from a member named the director's form: the usage was the
    answer (found in a console month); now it says whose form it is, and changes nothing. A word that
    names nobody still gets the usage."""
    await make_season(commands)
    before = dump(config.db_path)
    assert await refused(commands, ANNA, "/afmelden Bert") == "/afmelden Naam is alleen voor de wedstrijdleider."
    assert (await refused(commands, ANNA, "/afmelden volgende")).startswith("Gebruik: /afmelden")
    assert dump(config.db_path) == before
    await pair_round_one(commands, clock)
    before = dump(config.db_path)
    assert await refused(commands, ANNA, "/uitslag Bert 1-0") == "/uitslag Naam 1-0 is alleen voor de wedstrijdleider."
    assert (await refused(commands, ANNA, "/uitslag Niemand 1-0")).startswith("Gebruik: /uitslag")
    assert dump(config.db_path) == before


async def test_director_overrides_the_deadline(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    clock.set(datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc))  # 17:30 local: past the deadline
    await refused(commands, CARLA, "/afmelden")
    await ok(commands, DIRECTOR, "/afmelden Carla")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    text = await ok(commands, ANNA, "/indeling")
    assert "Carla" not in text


async def test_result_needs_the_opponents_confirmation(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950"))
    await pair_round_one(commands, clock)
    text = await ok(commands, ANNA, "/uitslag 0-1")
    assert "Bert" in text
    await refused(commands, ANNA, "/bevestig")  # one cannot confirm one's own report
    conflict = await ok(commands, BERT, "/uitslag 1-0")  # the result stays open, the director is told
    assert "0-1" in conflict and "1-0" in conflict
    await ok(commands, BERT, "/bevestig")
    import sqlite3

    assert sqlite3.connect(config.db_path).execute("SELECT result FROM games").fetchone()[0] == "0-1"
    already = await refused(commands, ANNA, "/uitslag 1-0")
    assert "0-1" in already
    await refused(commands, DIRECTOR, "/uitslag Anna 1/2-1/2")  # against what both players said: toch first
    await ok(commands, DIRECTOR, "/uitslag Anna 1/2-1/2 toch")  # the director corrects a confirmed result
    assert sqlite3.connect(config.db_path).execute("SELECT result FROM games").fetchone()[0] == "1/2-1/2"


async def test_a_no_show_does_not_overwrite_a_played_result(commands: Core, clock: ShiftedClock, config) -> None:
    """``/nietverschenen Anna`` after her game's result is in turned her win into a forfeit loss without a
    word (found in a console month): refused, naming the result and how to change it; nothing changes."""
    from tests.bot.conftest import dump

    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700"))
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0")
    before = dump(config.db_path)
    said = await refused(commands, DIRECTOR, "/nietverschenen Anna")
    assert said.startswith("Anna heeft ronde 1 gespeeld: bord ") and "/uitslag Anna 1-0F" in said
    assert dump(config.db_path) == before
    await ok(commands, DIRECTOR, "/nietverschenen Carla")  # no result yet: marked
    await ok(commands, DIRECTOR, "/nietverschenen Daan")  # his opponent's forfeit in: both did not come, 0-0F


async def test_two_no_shows_sign_a_player_off_until_they_sign_on(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700"))
    await pair_round_one(commands, clock)
    first = await ok(commands, DIRECTOR, "/nietverschenen Daan")
    assert "Daan" in first and "komende rondes" not in first
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer toch")  # Anna and Bert's result is not in
    second = await ok(commands, DIRECTOR, "/nietverschenen Daan")
    assert "komende rondes" in second
    clock.advance(timedelta(weeks=1))
    await ok(commands, DIRECTOR, "/publiceer toch")
    assert "Daan" not in await ok(commands, ANNA, "/indeling")
    clock.advance(timedelta(days=6))
    lifted = await ok(commands, DAAN, "/aanmelden")
    assert "opgeheven" in lifted
    clock.advance(timedelta(days=1))
    await ok(commands, DIRECTOR, "/publiceer toch")
    assert "Daan" in await ok(commands, ANNA, "/indeling")


async def test_standby_takes_the_place_of_an_absent_player(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800"))
    await pair_round_one(commands, clock)
    pairing = await ok(commands, ANNA, "/indeling")
    assert "Carla" in pairing.splitlines()[1]  # the lowest ranked has the bye
    text = await ok(commands, DIRECTOR, "/invaller Bert")
    assert "Carla" in text and "Bert" in text
    # the bye is gone: its points go to nobody, and the reply says so and why
    assert "De punten van de bye (vrij) gaan nu naar niemand: Carla had de bye en speelt nu zelf" in text
    assert "Bert telt als afwezig zonder afmelding" in text
    after = await ok(commands, ANNA, "/indeling")
    assert "Bert" not in after and "Carla" in after.splitlines()[-1]


async def test_non_director_cannot_use_director_commands(commands: Core) -> None:
    for text in ("/seizoen naam=x start=2027-01-07", "/speler Zed 1500", "/publiceer", "/taal en", "/kanaal",
                 "/nietverschenen Anna", "/invaller Anna"):
        message = await refused(commands, ANNA, text)
        assert "wedstrijdleider" in message


BAD_INPUT = [
    (ANNA, "/onzin"),
    (ANNA, "afmelden zonder slash"),
    (ANNA, '/afmelden "ongesloten'),
    (ANNA, "/afmelden 99"),
    (ANNA, "/afmelden -3"),
    (ANNA, "/afmelden 1"),  # round 1 is paired already
    (ANNA, "/afmelden Bert"),  # only the director names someone else
    (ANNA, "/aanmelden 1"),
    (ANNA, "/aanmelden morgen"),
    (ANNA, "/uitslag"),
    (ANNA, "/uitslag 3-0"),
    (ANNA, "/uitslag 1-0 5"),  # round 5 is not paired
    (ANNA, "/uitslag 1-0F"),  # forfeits are the director's
    (ANNA, "/bevestig"),
    (ANNA, "/stand Z"),
    (ANNA, "/stand 7"),
    (ANNA, "/indeling 2"),
    (ANNA, "/indeling 999999999999"),
    (ANNA, "/afmelden " + "x" * 600),
    (actor("Vreemde"), "/afmelden"),  # not a member
    (actor("Vreemde"), "/uitslag 1-0"),
    (DIRECTOR, "/speler Niemand"),  # "/speler Anna" shows her rating and identities (issue 34)
    (DIRECTOR, "/speler Anna veel"),
    (DIRECTOR, "/speler Zed 99999"),
    (DIRECTOR, "/speler Zed 1500 groep=Q"),
    (DIRECTOR, "/speler " + "Z" * 80 + " 1500"),
    (DIRECTOR, "/uitslag Onbekend 1-0"),
    (DIRECTOR, "/uitslag Eva 1-0"),  # Eva has the bye: no game
    (DIRECTOR, "/nietverschenen"),
    (DIRECTOR, "/nietverschenen Onbekend"),
    (DIRECTOR, "/invaller Onbekend"),
    (DIRECTOR, "/seizoen soort=rapid"),  # no rapid season (/seizoen alone shows the running season)
    (DIRECTOR, "/seizoen naam=x"),
    (DIRECTOR, "/seizoen naam=x start=gisteren"),
    (DIRECTOR, "/seizoen naam=x start=2020-01-02"),
    (DIRECTOR, "/seizoen naam=x start=2027-01-07 rondes=0"),
    (DIRECTOR, "/seizoen naam=x start=2027-01-07 rondes=veel"),
    (DIRECTOR, "/seizoen naam=x start=2027-01-07 deadline=25:00"),
    (DIRECTOR, "/seizoen naam=x start=2027-01-07 deadline=19:00 publicatie=18:00"),
    (DIRECTOR, "/seizoen naam=x start=2027-01-07 tijdzone=Mars/Olympus"),
    (DIRECTOR, "/seizoen naam=2026-27 start=2027-01-07"),  # exists
    (DIRECTOR, "/seizoen naam=x start=2027-01-07 kleur=rood"),
    (DIRECTOR, "/taal fr"),
    (DIRECTOR, "/taal"),
    (DIRECTOR, "/afmelden Onbekend"),
    (DIRECTOR, "/uitslag Anna 1-0 2"),
]


@pytest.mark.parametrize("who,text", BAD_INPUT, ids=[f"{a.display_name}:{t[:40]}" for a, t in BAD_INPUT])
async def test_bad_input_is_refused_in_the_users_language_and_changes_nothing(round_one: Core, config, who, text) -> None:
    commands = round_one  # make_season, then pair_round_one
    before = dump(config.db_path)
    message = await refused(commands, who, text)
    assert message and len(message) < 2000
    assert "Traceback" not in message
    assert dump(config.db_path) == before
    # the same in English: an English message, and still nothing changed
    await ok(commands, DIRECTOR, "/taal en")
    before = dump(config.db_path)
    english = await refused(commands, who, text)
    assert english != message
    assert dump(config.db_path) == before


async def test_signoff_after_the_deadline_names_it_and_changes_nothing(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    clock.set(datetime(2026, 12, 3, 16, 1, tzinfo=timezone.utc))
    before = dump(config.db_path)
    message = await refused(commands, BERT, "/afmelden")
    assert "2026-12-03 17:00" in message
    assert dump(config.db_path) == before


async def test_won_and_lost_are_read_from_the_reporters_side(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950"))
    await pair_round_one(commands, clock)
    import sqlite3

    white = sqlite3.connect(config.db_path).execute(
        "SELECT m.name FROM games g JOIN members m ON m.id = g.white_id"
    ).fetchone()[0]
    assert white == "Bert"  # equal whites: the lower ranked gets white
    await ok(commands, ANNA, "/uitslag gewonnen")
    await ok(commands, BERT, "/uitslag verloren")
    assert sqlite3.connect(config.db_path).execute("SELECT result FROM games").fetchone()[0] == "0-1"
    # the director says it from the named player's side too (issue 44: it was refused with the usage)
    assert "0-1: Anna (zwart) wint van Bert" in await ok(commands, DIRECTOR, "/uitslag Anna gewonnen")


async def test_joining_after_the_deadline_starts_the_week_after(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950"))
    clock.set(datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc))  # 17:30: round 1's deadline has passed
    text = await ok(commands, actor("Nieuwkomer"), "/aanmelden")  # "Nieuw" is a word of /aanmelden: no name
    assert "ronde 2 (2026-12-10)" in text
    import sqlite3

    joined = sqlite3.connect(config.db_path).execute(
        "SELECT sp.joined_round FROM season_players sp JOIN members m ON m.id = sp.member_id WHERE m.name = 'Nieuwkomer'"
    ).fetchone()
    assert joined == (2,)
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    assert "Nieuw" not in await ok(commands, ANNA, "/indeling")


async def test_new_season_can_start_from_last_seasons_final_ranking(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800"))
    await pair_round_one(commands, clock)  # Anna has the top board against Bert; Carla has the bye
    assert "Bert" in (await ok(commands, ANNA, "/indeling")).splitlines()[4]  # board 1: Bert (white) - Anna
    await ok(commands, DIRECTOR, "/uitslag Anna 1-0")  # white, Bert, wins
    final = (await ok(commands, ANNA, "/stand")).splitlines()
    by_result = [row.split()[1] for row in final[3:6]]
    assert by_result[0] == "Bert"
    await refused(commands, DIRECTOR, "/seizoen naam=X start=2027-09-02 startvolgorde=leeftijd")
    await ok(commands, DIRECTOR, "/seizoen naam=2027-28 start=2027-09-02 rondes=28 startvolgorde=eindstand toch")
    start = (await ok(commands, ANNA, "/stand")).splitlines()
    assert [row.split()[1] for row in start[3:6]] == by_result
    await ok(commands, DIRECTOR, "/seizoen naam=2028-29 start=2028-09-07 rondes=28 toch")
    by_rating = (await ok(commands, ANNA, "/stand")).splitlines()
    assert [row.split()[1] for row in by_rating[3:6]] == ["Anna", "Bert", "Carla"]


async def test_a_new_season_does_not_end_a_running_one_without_toch(commands: Core, clock: ShiftedClock, config) -> None:
    """``/seizoen naam=...`` or ``/importeer`` while a season of its kind has rounds to play ended that season
    without a word (found in a console month): refused with how to go on, nothing changed; ``toch`` does it."""
    from pathlib import Path

    from tests.bot.conftest import dump

    await make_season(commands, players=("Anna 2100", "Bert 1950", "Carla 1800"))
    await pair_round_one(commands, clock)
    before = dump(config.db_path)
    said = await refused(commands, DIRECTOR, "/seizoen naam=Nieuw start=2027-01-07")
    assert said == ("Seizoen 2026-27 loopt nog (27 rondes te spelen); een nieuw seizoen beëindigt het. Is dat de"
                    " bedoeling, typ dan dezelfde opdracht met toch erachter.")  # fmt: skip
    season_file = (Path(__file__).resolve().parents[3] / "examples" / "season.json").read_bytes()
    reply = await commands.handle(DIRECTOR, "/importeer start=2027-01-07 naam=Import", attachment=season_file)
    assert not reply.ok and "loopt nog" in reply.text
    assert dump(config.db_path) == before
    assert "Nieuw" in await ok(commands, DIRECTOR, "/seizoen naam=Nieuw start=2027-01-07 toch")
    assert "Nieuw" in await ok(commands, ANNA, "/stand")
    await ok(commands, DIRECTOR, "/seizoen naam=Rapid start=2027-01-06 rondes=2 soort=rapid")  # another kind: no question


async def test_a_first_season_cannot_start_from_a_previous_ranking(commands: Core) -> None:
    await refused(commands, DIRECTOR, "/seizoen naam=S start=2027-09-02 startvolgorde=eindstand")


async def test_prizes_need_two_thirds_of_the_rounds(commands: Core, clock: ShiftedClock) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=Kort start=2026-12-03 rondes=3")
    for line in ("Anna 2100 groep=A", "Bert 1950 groep=A", "Carla 1800 groep=B"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    for who in (ANNA, BERT, CARLA):
        await link(commands, who)
        await ok(commands, who, "/aanmelden")
    early = await ok(commands, ANNA, "/prijzen")
    assert "vanaf 2 gespeelde rondes" in early and "Clubkampioen: nog niemand" in early
    clock.set(PAIRED)
    for week in range(2):
        await ok(commands, DIRECTOR, "/publiceer")
        for name in ("Anna", "Bert", "Carla"):
            await commands.handle(DIRECTOR, f"/uitslag {name} 1-0")  # the one with the bye has no game: refused
        clock.advance(timedelta(weeks=1))
    text = await ok(commands, ANNA, "/prijzen")
    standings = (await ok(commands, ANNA, "/stand")).splitlines()
    leader = standings[3].split()[1]
    assert f"Clubkampioen: {leader}" in text
    assert "Winnaar groep A:" in text and "Winnaar groep B: Carla" in text
    await refused(commands, ANNA, "/prijzen nu")


async def test_commands_at_the_same_moment_all_land(commands: Core, config) -> None:
    """Forty members sign on and off at once through the real store: nothing lost, nothing refused."""
    import asyncio
    import sqlite3

    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    people = [actor(f"Lid{i:02d}") for i in range(40)]
    replies = await asyncio.gather(*(commands.handle(p, "/aanmelden") for p in people))
    assert all(r.ok for r in replies)
    replies = await asyncio.gather(
        *(commands.handle(p, "/afmelden teamwedstrijd" if i % 2 else "/afmelden") for i, p in enumerate(people))
    )
    assert all(r.ok for r in replies), [r.text for r in replies if not r.ok]
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT kind, COUNT(*) FROM signoffs GROUP BY kind ORDER BY kind").fetchall() == [
        ("notice", 20),
        ("team", 20),
    ]
    assert db.execute("SELECT COUNT(*) FROM season_players").fetchone()[0] == 40


async def test_results_reported_and_confirmed_at_the_same_moment_all_land(commands: Core, clock: ShiftedClock, config) -> None:
    """Twenty boards: every white reports, then every black confirms, all at once; nothing is lost."""
    import asyncio
    import sqlite3

    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=5")
    people = [actor(f"Lid{i:02d}") for i in range(40)]
    for i, p in enumerate(people):
        await ok(commands, DIRECTOR, f"/speler {p.display_name} {2000 - i}")
        await link(commands, p)
        await ok(commands, p, "/aanmelden")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    db = sqlite3.connect(config.db_path)
    games = db.execute(
        "SELECT w.name, b.name FROM games g JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id"
    ).fetchall()
    assert len(games) == 20
    by_name = {p.display_name: p for p in people}
    replies = await asyncio.gather(*(commands.handle(by_name[w], "/uitslag 1-0") for w, _ in games))
    assert all(r.ok for r in replies), [r.text for r in replies if not r.ok]
    replies = await asyncio.gather(*(commands.handle(by_name[b], "/bevestig") for _, b in games))
    assert all(r.ok for r in replies), [r.text for r in replies if not r.ok]
    assert db.execute("SELECT result, COUNT(*) FROM games GROUP BY result").fetchall() == [("1-0", 20)]
    assert db.execute("SELECT COUNT(*) FROM announcements WHERE kind = 'standings'").fetchone()[0] == 1


async def test_a_season_file_that_is_no_text_is_said_in_the_clubs_language(commands: Core) -> None:
    """It said "Dat seizoensbestand klopt niet: not UTF-8 text" (found in a console month)."""
    reply = await commands.handle(DIRECTOR, "/importeer start=2027-01-07 naam=I", attachment=b"\xff\xfe\x00binary")
    assert not reply.ok and reply.text == ("Dat seizoensbestand klopt niet: het is geen tekst (UTF-8), zoals /exporteer"
                                           " het maakt.")  # fmt: skip


async def test_a_name_nobody_has_is_said_so_with_how_to_add_one(commands: Core) -> None:
    """``/speler Eva`` after Eva was removed answered with the whole usage (found in a console month)."""
    await make_season(commands)
    await ok(commands, DIRECTOR, "/speler Eva verwijder")
    assert await refused(commands, DIRECTOR, "/speler Eva") == ('Speler "Eva" ken ik niet. Een nieuw lid? Typ de naam met de'
                                                              " rating: /speler Eva 1500.")  # fmt: skip
    assert "rating 2100" in await ok(commands, DIRECTOR, "/speler Anna")
