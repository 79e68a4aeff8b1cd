"""Publication a director can trust (issue 30 §4), on a real store with the real scheduler: the director's
private notice at the deadline of the open and disputed results, ``/uitslagen``, ``ontbrekend=wachten``
holding the pairing, and standings marked provisional while results of paired rounds are open.

Round 1 of the five players (by rating): board 1 Bert (white) - Anna, board 2 Daan (white) - Carla, Eva
has the bye.
"""

from __future__ import annotations

from dataclasses import replace

import sqlite3

from datetime import datetime, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.core.output.pictures import table_png
from bot.core.running.scheduler import Alarm
from tests.bot.conftest import DIRECTOR, refused as refused_unchanged, rows
from tests.bot.keizer.test_commands import ANNA, BERT, CARLA, make_season, ok, pair_round_one
from tests.bot.keizer.test_results import director_member
from tests.bot.keizer.test_season_io import EXAMPLE

ROUND_TWO_DEADLINE = datetime(2026, 12, 10, 16, 0, tzinfo=timezone.utc)  # 17:00 in Amsterdam
ROUND_TWO_PUBLISHED = datetime(2026, 12, 10, 17, 0, tzinfo=timezone.utc)  # 18:00


async def run_scheduler(commands: Core) -> None:
    async def send(club, announcement) -> str:
        return f"m{announcement.id}"

    await Alarm(commands, send).run_due()


def private(config, account: str) -> list[str]:
    return [r[0] for r in rows(config, "SELECT body FROM announcements WHERE recipient = ? ORDER BY id", account)]


def paired(config) -> list[int]:
    return [r[0] for r in rows(config, "SELECT number FROM rounds WHERE status = 'paired' ORDER BY number")]


async def test_the_director_is_told_at_the_deadline_of_missing_and_disputed_results(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, ANNA, "/uitslag gewonnen")  # 0-1
    await ok(commands, BERT, "/uitslag gewonnen")  # 1-0: disputed
    notices_before = private(config, account)
    clock.set(ROUND_TWO_DEADLINE)
    await run_scheduler(commands)
    (notice,) = [n for n in private(config, account) if n not in notices_before]
    assert "ronde 2" in notice and "2 uitslagen" in notice
    assert "bord 1: Bert - Anna: betwist, Anna meldt 0-1 en Bert meldt 1-0" in notice
    assert "/uitslag Bert 0-1 1 of /uitslag Bert 1-0 1" in notice
    assert "bord 2: Daan - Carla: geen uitslag. Zet hem met /uitslag Daan 1-0 1" in notice
    await run_scheduler(commands)  # once per round
    assert len(private(config, account)) == len(notices_before) + 1


async def test_no_notice_at_the_deadline_when_every_result_is_in(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(ROUND_TWO_DEADLINE)
    await run_scheduler(commands)
    assert private(config, account) == []


async def test_uitslagen_lists_open_and_disputed_results_for_the_director_only(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, ANNA, "/uitslag gewonnen")
    text = await ok(commands, DIRECTOR, "/uitslagen")
    assert "Open uitslagen van 2026-27 (2 partijen)" in text
    assert "bord 1: Bert - Anna: Anna meldt 0-1, de tegenstander bevestigde nog niet" in text
    assert "bord 2: Daan - Carla: geen uitslag" in text
    await ok(commands, BERT, "/uitslag gewonnen")
    assert "betwist, Anna meldt 0-1 en Bert meldt 1-0" in await ok(commands, DIRECTOR, "/uitslagen")
    assert "wedstrijdleider" in (await refused_unchanged(commands, ANNA, "/uitslagen", config)).lower()
    await refused_unchanged(commands, DIRECTOR, "/uitslagen 3", config)
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")
    await ok(commands, DIRECTOR, "/uitslag Daan 0-1")
    assert "Alle uitslagen van 2026-27 zijn binnen." in await ok(commands, DIRECTOR, "/uitslagen")
    await ok(commands, DIRECTOR, "/language en")
    assert "Every result of 2026-27 is in." in await ok(commands, DIRECTOR, "/results")


async def test_ontbrekend_wachten_holds_the_pairing_until_the_results_are_in(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    account = await director_member(commands)
    assert "ontbrekend= kent alleen indelen|wachten." == await refused_unchanged(commands, DIRECTOR, "/seizoen ontbrekend=misschien", config)
    await refused_unchanged(commands, ANNA, "/seizoen ontbrekend=wachten", config)  # the director's setting
    assert "wacht de indeling" in await ok(commands, DIRECTOR, "/seizoen ontbrekend=wachten")
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")
    clock.set(ROUND_TWO_PUBLISHED)
    await run_scheduler(commands)
    assert paired(config) == [1]  # held: Daan - Carla has no result
    held = [n for n in private(config, account) if "nog niet ingedeeld" in n]
    assert len(held) == 1 and "Daan - Carla" in held[0] and "/publiceer toch" in held[0]
    said = await ok(commands, CARLA, "/indeling")
    assert said.startswith("De indeling van ronde 2 wacht op uitslagen")
    await run_scheduler(commands)
    assert paired(config) == [1] and len([n for n in private(config, account) if "nog niet ingedeeld" in n]) == 1
    await ok(commands, DIRECTOR, "/uitslag Daan 0-1")  # settled: paired at the next wake
    await run_scheduler(commands)
    assert paired(config) == [1, 2]
    assert "wacht" not in await ok(commands, CARLA, "/indeling")


async def test_publiceer_toch_pairs_a_held_round(commands: Core, clock: ShiftedClock, config) -> None:
    await ok(commands, DIRECTOR, "/language en")
    await make_season(commands)
    assert "the pairing waits" in await ok(commands, DIRECTOR, "/season missing=wait")
    await pair_round_one(commands, clock)
    clock.set(ROUND_TWO_PUBLISHED)
    await run_scheduler(commands)
    assert paired(config) == [1]
    assert "waits for results" in await ok(commands, CARLA, "/pairings")
    await ok(commands, DIRECTOR, "/publish anyway")
    assert paired(config) == [1, 2]


async def test_by_default_the_round_is_paired_on_time(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    clock.set(ROUND_TWO_PUBLISHED)
    await run_scheduler(commands)
    assert paired(config) == [1, 2]  # the seed's 18:00, results missing or not
    await ok(commands, DIRECTOR, "/seizoen ontbrekend=wachten")
    await ok(commands, DIRECTOR, "/seizoen ontbrekend=indelen")
    assert rows(config, "SELECT settings_json FROM seasons")[0][0].find("missing") == -1


async def test_a_new_season_can_wait_from_the_start(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=W start=2026-12-03 rondes=5 ontbrekend=wachten")
    assert '"missing": "wait"' in rows(config, "SELECT settings_json FROM seasons")[0][0]


async def test_standings_say_they_are_provisional_while_results_are_open(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    first = (await ok(commands, ANNA, "/stand")).splitlines()[0]
    assert first == "Stand 2026-27 na ronde 1 (voorlopig: 2 uitslagen ontbreken)"
    reply = await commands.handle(ANNA, "/stand")
    assert reply.image == table_png(first, reply.table)  # the picture carries the same title
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")
    assert (await ok(commands, ANNA, "/stand")).splitlines()[0].endswith("(voorlopig: 1 uitslag ontbreekt)")
    await ok(commands, DIRECTOR, "/language en")
    assert (await ok(commands, ANNA, "/standings")).splitlines()[0].endswith("(provisional: 1 result missing)")
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    assert "provisional" not in await ok(commands, ANNA, "/standings")


async def test_the_standings_announcement_is_provisional_while_an_earlier_round_is_open(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/uitslag Bert 1-0")  # Daan - Carla stays open
    clock.set(ROUND_TWO_PUBLISHED)
    await run_scheduler(commands)
    for (white,) in rows(config, "SELECT w.name FROM games g JOIN rounds r ON r.id = g.round_id"
                                 " JOIN members w ON w.id = g.white_id WHERE r.number = 2"):  # fmt: skip
        await ok(commands, DIRECTOR, f"/uitslag {white} 1-0 2")
    ((body, picture),) = rows(config, "SELECT body, picture FROM announcements WHERE kind = 'standings'")
    assert body.splitlines()[0] == "Stand 2026-27 na ronde 2 (voorlopig: 1 uitslag ontbreekt)"
    assert "voorlopig: 1 uitslag ontbreekt" in picture


async def test_an_imported_season_can_wait_for_results(commands: Core, config) -> None:
    reply = await commands.handle(DIRECTOR, "/importeer start=2026-12-03 naam=I ontbrekend=wachten", attachment=EXAMPLE.read_bytes())
    assert reply.ok, reply.text
    assert '"missing": "wait"' in rows(config, "SELECT settings_json FROM seasons WHERE name = 'I'")[0][0]


async def test_a_held_pairing_is_told_in_the_channel_when_no_director_can_be_written_to(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/seizoen ontbrekend=wachten")
    await pair_round_one(commands, clock)
    with sqlite3.connect(config.db_path) as db:  # a database from before the directors' accounts were kept
        db.execute("DELETE FROM director_accounts")
    clock.set(ROUND_TWO_PUBLISHED)
    await run_scheduler(commands)
    assert paired(config) == [1]
    ((body, recipient),) = rows(config, "SELECT body, recipient FROM announcements WHERE kind LIKE 'held%'")
    assert recipient is None and body.startswith("Ronde 2 van 2026-27 wordt nog niet ingedeeld") and "/publiceer toch" in body


async def test_a_director_by_role_gets_the_notice_privately_until_the_role_is_gone(commands: Core, clock: ShiftedClock, config) -> None:
    """On Discord and Telegram a director is a role or a group administrator, with no member record: the
    account that acted as the club's director gets the deadline notice privately; once it acts without
    the role, it no longer does."""
    await make_season(commands)  # by DIRECTOR, a director by role only
    await pair_round_one(commands, clock)
    clock.set(ROUND_TWO_DEADLINE)
    await run_scheduler(commands)
    (notice,) = private(config, DIRECTOR.user_id)
    assert notice.startswith("Afmelden voor ronde 2 van 2026-27 is gesloten") and "2 uitslagen" in notice
    former = replace(DIRECTOR, is_director=False)
    await ok(commands, former, "/aanmelden")  # the role was taken away: a member's command, accepted
    assert rows(config, "SELECT user_id FROM director_accounts") == []
