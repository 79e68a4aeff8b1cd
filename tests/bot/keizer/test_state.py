"""A state the engine cannot read is never stored (issue 30): /afmelden never enrols anyone and never
signs off for a round before the player's first; a season that cannot be read anyway names the player
and says what to do; the scheduler reports a round it cannot pair to the director, once, and does not
try again until something changes."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.core.storage.migrations import migrate, migration_files
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, START, actor, link, ok, refused, rows

ANNA, BERT, CARLA, ZED = (actor(n) for n in ("Anna", "Bert", "Carla", "Zed"))
PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the first playing day
SECOND = datetime(2026, 12, 10, 17, 5, tzinfo=timezone.utc)  # 18:05 a week later


async def season_and_outsider(commands: Core) -> None:
    """A season of three, and Zed: a member of the club (an NK player, say) who is not in the season."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=4")
    for line in ("Anna 2100", "Bert 1950", "Carla 1800"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    club = await commands.store.club_by_external("console", "club-1")
    assert club is not None
    zed = await commands.store.add_member(club.id, "Zed", 1500, commands.clock.now())
    await commands.store.link_identity(club.id, ZED.user_id, zed.id)
    await link(commands, ANNA, BERT, CARLA)


def in_season(config: Config) -> list[tuple]:
    return rows(config, "SELECT m.name, sp.joined_round FROM season_players sp JOIN members m ON m.id = sp.member_id ORDER BY m.name")


async def test_afmelden_never_enrols_a_member_who_is_not_in_the_season(commands: Core, config: Config) -> None:
    await season_and_outsider(commands)
    text = await refused(commands, ZED, "/afmelden 3", config)
    assert "/aanmelden" in text and "Zed" in text
    await refused(commands, ZED, "/afmelden", config)
    assert "Zed" not in [name for name, _ in in_season(config)]
    # the director cannot enrol them by signing them off either: /speler adds a player
    assert "/speler" in await refused(commands, DIRECTOR, "/afmelden Zed 3", config)
    await refused(commands, DIRECTOR, "/afmelden Zed", config)


async def test_no_sign_off_before_the_round_a_player_joins(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await season_and_outsider(commands)
    await ok(commands, ZED, "/aanmelden 3")  # joins from round 3
    assert ("Zed", 3) in in_season(config)
    assert "ronde 3" in await refused(commands, ZED, "/afmelden", config)
    await refused(commands, DIRECTOR, "/afmelden Zed 2", config)
    await ok(commands, ZED, "/afmelden 3")
    # /aanmelden for an earlier round brings the first round forward; then round 1 can be signed off
    await ok(commands, ZED, "/aanmelden 1")
    assert ("Zed", 1) in in_season(config)
    await ok(commands, ZED, "/afmelden")
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    for text in ("/stand", "/prijzen", "/verloop", "/kaart", "/mijn"):
        await ok(commands, ZED, text)


async def signed_off_before_joining(commands: Core, config: Config) -> None:
    """What an older bot stored: Zed in the season from round 3, signed off for round 1."""
    await season_and_outsider(commands)
    await ok(commands, ZED, "/aanmelden 3")
    async with commands.store.transaction():
        await commands.store.execute(
            "INSERT INTO signoffs (round_id, member_id, kind, created_at) SELECT r.id, m.id, 'notice', '2026-12-01'"
            " FROM rounds r, members m WHERE r.number = 1 AND m.name = 'Zed'"
        )


async def test_a_season_that_cannot_be_read_names_the_player_and_what_to_do(commands: Core, config: Config, clock) -> None:
    await signed_off_before_joining(commands, config)
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    for text in ("/stand", "/prijzen", "/verloop", "/kaart Anna"):
        reply = await commands.handle(DIRECTOR, text)
        assert not reply.ok and "Zed" in reply.text and "ronde 1" in reply.text, (text, reply.text)
        assert "Er ging iets mis" not in reply.text


async def test_the_scheduler_reports_a_round_it_cannot_pair_once_and_waits_for_a_change(
    any_store: Store, config: Config
) -> None:
    clock = ShiftedClock(START)
    commands = make_core(any_store, config, clock)
    await signed_off_before_joining(commands, config)
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")  # round 1 pairs: its data is read before the sign-off counts
    sent: list[Announcement] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement)

    alarm = Alarm(commands, send)
    clock.set(SECOND)
    try:
        await alarm.run_due()
        await alarm.run_due()
        failures = [a for a in sent if a.kind.startswith("pairing_failed")]
        assert len(failures) == 1 and "Zed" in failures[0].body and "ronde 2" in failures[0].body
        assert "/publiceer" in failures[0].body
        # not due again until something changes: the alarm is not set for right now
        due = await commands.registry.timed[0].next_due_moment(commands)
        assert due is None or due > clock.now()
        # the director does what the notice says: the season is readable again, and the round is due
        assert "/speler Zed" in failures[0].body
        await ok(commands, DIRECTOR, "/speler Zed 1500")
        due = await commands.registry.timed[0].next_due_moment(commands)
        assert due is not None and due <= clock.now()
        await alarm.run_due()
        assert [a.kind for a in sent].count("pairing_failed") == 1  # told once
        assert "ronde 2" in (await ok(commands, DIRECTOR, "/indeling")).lower()  # paired now
        assert "Zed" in await ok(commands, DIRECTOR, "/stand")
    finally:
        alarm.shutdown()


def test_the_migration_repairs_a_sign_off_stored_before_joining(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    names = {p.name for _, p in migration_files()}
    repair = "0032_signoffs_before_joining.sql"
    migrate(conn, only=names - {repair})
    with conn:
        conn.execute("INSERT INTO clubs (id, platform, external_id, name, language, timezone, created_at)"
                     " VALUES (1, 'console', 'c', 'C', 'nl', 'Europe/Amsterdam', '2026-12-01')")  # fmt: skip
        conn.execute("INSERT INTO members (id, club_id, name, rating, created_at) VALUES (1, 1, 'Zed', 0, '2026-12-01')")
        conn.execute("INSERT INTO members (id, club_id, name, rating, created_at) VALUES (2, 1, 'Anna', 0, '2026-12-01')")
        conn.execute("INSERT INTO seasons (id, club_id, name, kind, rounds_count, deadline_time, publish_time, timezone,"
                     " settings_json, created_at) VALUES (1, 1, 'S', 'main', 4, '17:00', '18:00', 'Europe/Amsterdam',"
                     " '{}', '2026-12-01')")  # fmt: skip
        for n in range(1, 5):
            conn.execute("INSERT INTO rounds (id, season_id, number, play_date, deadline_at, publish_at)"
                         " VALUES (?, 1, ?, '2026-12-03', '2026-12-03T16:00:00+00:00', '2026-12-03T17:00:00+00:00')",
                         (n, n))  # fmt: skip
        conn.execute("INSERT INTO season_players (season_id, member_id, rating, joined_round) VALUES (1, 1, 0, 3)")
        conn.execute("INSERT INTO season_players (season_id, member_id, rating, joined_round) VALUES (1, 2, 0, 2)")
        conn.execute("INSERT INTO signoffs (round_id, member_id, kind, created_at) VALUES (1, 1, 'notice', 'x')")
        conn.execute("INSERT INTO signoffs (round_id, member_id, kind, created_at) VALUES (3, 2, 'notice', 'x')")
    migrate(conn)
    assert conn.execute("SELECT member_id, joined_round FROM season_players ORDER BY member_id").fetchall() == [(1, 1), (2, 2)]
    conn.close()




async def test_after_the_last_round_is_paired_round_commands_are_refused_with_the_seasons_name(
    commands: Core, config: Config, clock: ShiftedClock
) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=Kort start=2026-12-03 rondes=1")
    for line in ("Anna 2100", "Bert 1950"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await link(commands, ANNA)
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    for who, text in ((ANNA, "/afmelden"), (ANNA, "/aanmelden"), (DIRECTOR, "/publiceer"), (DIRECTOR, "/afmelden Bert")):
        assert "Kort" in await refused(commands, who, text, config), text
    # a newcomer joins the club, and hears the season has no rounds left
    assert "Kort" in await ok(commands, ZED, "/aanmelden")


async def test_the_directors_own_record_on_the_console_is_never_enrolled_by_afmelden(commands: Core, config: Config, tmp_path) -> None:
    import io

    from bot.adapters.console import ConsoleAdapter

    out = io.StringIO()
    console = ConsoleAdapter(commands, commands.clock, "Wedstrijdleider", "Test club", out=out, files_dir=tmp_path)  # type: ignore[arg-type]
    await console.start()
    for line in ("/seizoen naam=S start=2026-12-03 rondes=4", "/speler Anna 2100", "/speler Bert 1950", "/afmelden"):
        await console.handle_line(line)
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("bot! ") and "/aanmelden" in last
    assert [name for name, _ in in_season(config)] == ["Anna", "Bert"]
    await console.handle_line("/klok 2026-12-03 18:00")
    await console.handle_line("/publiceer")
    assert rows(config, "SELECT COUNT(*) FROM games") == [(1,)]
    assert "Wedstrijdleider" not in (await commands.handle(DIRECTOR, "/stand")).text


def rapid_players(config: Config, season: str) -> list[str]:
    return [r[0] for r in rows(config, "SELECT m.name FROM season_players sp JOIN members m ON m.id = sp.member_id"
                                       " JOIN seasons s ON s.id = sp.season_id WHERE s.name = ? ORDER BY m.name", season)]  # fmt: skip


async def test_the_rapid_competition_has_its_own_roster(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await season_and_outsider(commands)
    text = await ok(commands, DIRECTOR, "/seizoen naam=R1 start=2026-12-02 rondes=2 soort=rapid deadline=12:00 publicatie=13:00")
    assert "/aanmelden rapid" in text
    assert rapid_players(config, "R1") == []
    await ok(commands, ANNA, "/aanmelden rapid")  # a member joins
    await ok(commands, DIRECTOR, "/speler Bert 1950 rapid")  # the director adds one
    await ok(commands, ZED, "/aanmelden rapid")  # not in the main season: the rapid one is open to every member
    assert rapid_players(config, "R1") == ["Anna", "Bert", "Zed"]
    assert "rapid" in await refused(commands, CARLA, "/afmelden rapid", config)  # Carla never joined it
    clock.set(datetime(2026, 12, 2, 12, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer rapid")
    assert rows(config, "SELECT COUNT(*) FROM games g JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
                        " WHERE s.name = 'R1'") == [(1,)]  # fmt: skip
    # the next rapid season carries the rapid roster, not the club's members
    await ok(commands, DIRECTOR, "/seizoen naam=R2 start=2027-01-06 rondes=2 soort=rapid deadline=12:00 publicatie=13:00 toch")
    assert rapid_players(config, "R2") == ["Anna", "Bert", "Zed"]


async def test_merging_two_records_never_leaves_a_round_the_engine_cannot_read(
    commands: Core, config: Config, clock: ShiftedClock
) -> None:
    await season_and_outsider(commands)
    await ok(commands, DIRECTOR, "/afmelden Anna")  # Anna signed off for round 1, Bert plays it
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    assert "Anna" in await refused(commands, DIRECTOR, "/speler Anna samenvoegen Bert", config)
    # Zed (not in the season) took part in round 1 under a second record that was in it: merged into
    # Zed, the round counts, and Zed is in the season from round 1
    await ok(commands, DIRECTOR, "/speler Zed 1500")  # in the season from round 2
    await ok(commands, DIRECTOR, "/speler Carla samenvoegen Zed")
    assert ("Zed", 1) in in_season(config)
    for text in ("/stand", "/prijzen", "/kaart Zed"):
        await ok(commands, DIRECTOR, text)
