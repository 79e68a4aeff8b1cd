"""After a command the alarm does its own club's work only (issue 42 §1): what the command queued is
posted, the alarm is set for the club's next due work, work the command made due at once is done, and
nothing of another club is read, so a command costs the same with one club or many."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from bot.systems import make_core
from tests.bot.conftest import START

# a moment, or a go game's moments (one a line): they differ between the runs by a busy machine's seconds
MOMENT = re.compile(r"'\d{4}-\d\d-\d\dT[\d:.]+\+00:00(?:\n\d{4}-\d\d-\d\dT[\d:.]+\+00:00)*\n?'")
PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # round 1's publication, 18:00 in Amsterdam


def person(club: int, name: str, director: bool = False) -> Actor:
    return Actor("console", f"club-{club}", f"Club {club}", f"user:{name.lower()}", name, is_director=director)


async def ok(core: Core, who: Actor, text: str) -> None:
    reply = await core.handle(who, text)
    assert reply.ok, f"{text!r} was refused: {reply.text}"


async def busy_club(core: Core, club: int) -> None:
    """A club with a Keizer season, grades, a go game being played and an announcement not yet sent."""
    director, anna, bert = person(club, "Leider", True), person(club, "Anna"), person(club, "Bert")
    await ok(core, director, "/seizoen naam=S start=2026-12-03 rondes=4")
    await ok(core, director, "/speler Carla 1800")
    for who in (anna, bert):
        await ok(core, who, "/aanmelden")
    await ok(core, director, "/graadzetten Anna 1d vanaf=2026-01-01")
    await ok(core, anna, "/go uitdagen @Bert 9")
    await ok(core, bert, "/go accepteren")
    club_row = await core.store.club_by_external("console", f"club-{club}")
    assert club_row is not None
    async with core.store.transaction():
        await core.store.queue_announcement(club_row.id, None, "news", f"Nieuws van club {club}", core.clock.now())


async def statements_after_command(path: Path, config: Config, clubs: int) -> tuple[list[str], int, list[str]]:
    """Club 1's member resigns a go game (a command that can confirm a result: grades look for a promotion
    in it): the SQL the command and the alarm's after-command work ran (values included), the SQLite
    virtual machine's steps they took (a scan of every club's rows takes more with more clubs; a look-up
    by club does not), and the announcements posted, in a world of ``clubs`` busy clubs (club 1 made
    first)."""
    store = await Store.open(path)
    core = make_core(store, Config(**{**config.__dict__, "db_path": path}), ShiftedClock(START))
    for club in range(1, clubs + 1):
        await busy_club(core, club)
    posted: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        posted.append(announcement.body)

    alarm = Alarm(core, send)
    await ok(core, person(1, "Anna"), "/zet e5")
    await ok(core, person(1, "Bert"), "/zet c3")
    seen: list[str] = []
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0  # go on

    store._conn.set_trace_callback(seen.append)  # the writer's connection (its own thread)
    store._conn.set_progress_handler(step, 1)
    if store._reader is not None:
        await store._reader.set_trace_callback(seen.append)  # the read path's
        await store._reader.set_progress_handler(step, 1)
    try:
        await ok(core, person(1, "Anna"), "/opgeven")
        await alarm.after_command(person(1, "Anna"))
    finally:
        store._conn.set_trace_callback(None)
        store._conn.set_progress_handler(None, 1)
        if store._reader is not None:
            await store._reader.set_trace_callback(None)
            await store._reader.set_progress_handler(None, 1)
        alarm.shutdown()
        await store.close()
    return seen, steps[0], posted


async def test_a_command_and_its_after_work_read_its_own_club_only(tmp_path: Path, config: Config) -> None:
    alone, steps_alone, posted_alone = await statements_after_command(tmp_path / "one.sqlite3", config, 1)
    among, steps_among, posted_among = await statements_after_command(tmp_path / "eight.sqlite3", config, 8)
    assert posted_alone[-1] == posted_among[-1] == "Nieuws van club 1"  # its own club's, not the others'
    assert not any("club 2" in body for body in posted_among)
    assert alone  # it looked (the game, grades, the club's due work and its outbox)
    # the same statements with the same values, whatever the other clubs hold (the clock runs on: moments aside)
    assert [MOMENT.sub("<moment>", sql) for sql in among] == [MOMENT.sub("<moment>", sql) for sql in alone]
    # and the same work in the database, but for the step a range of the club's rows takes to find its end
    # where another club's rows follow (a statement that read the other clubs' rows took twice as many)
    assert steps_among <= steps_alone * 1.05, (steps_alone, steps_among)


async def test_work_already_due_at_a_command_is_done_after_it(config: Config) -> None:
    """Round 1's publication has come and the alarm has not fired yet (a wake that comes late): the
    club's next command finds its work due at once, and the round is paired and announced right after
    it, not at the next alarm."""
    store = await Store.open(config.db_path)
    clock = ShiftedClock(START)
    core = make_core(store, config, clock)
    director = person(1, "Leider", True)
    for text in ("/seizoen naam=S start=2026-12-03 rondes=4", "/speler Anna 2000", "/speler Bert 1900"):
        await ok(core, director, text)
    sent: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement.kind)

    alarm = Alarm(core, send)
    try:
        await alarm.after_command(director)
        assert sent == []  # nothing due yet
        clock.set(PUBLISH + timedelta(minutes=5))
        await ok(core, director, "/stand")
        await alarm.after_command(director)
        assert "pairing" in sent
    finally:
        alarm.shutdown()
        await store.close()


async def test_the_alarm_is_set_for_the_clubs_next_work(config: Config) -> None:
    store = await Store.open(config.db_path)
    clock = ShiftedClock(START)
    core = make_core(store, config, clock)
    sent: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement.kind)

    alarm = Alarm(core, send)
    await alarm.start()
    try:
        assert alarm.scheduler.get_job("wake") is None  # nothing to do in an empty bot
        director = person(1, "Leider", True)
        await ok(core, director, "/seizoen naam=S start=2026-12-03 rondes=4")
        await alarm.after_command(director)
        job = alarm.scheduler.get_job("wake")
        assert job is not None
        due = await core.registry.timed[0].next_due_moment(core)  # every club's: this one's round 1
        assert due is not None and due > clock.now()
        expected = datetime.now(timezone.utc) + timedelta(seconds=clock.real_delay(due))
        assert abs((job.next_run_time - expected).total_seconds()) < 5
        assert sent == []
    finally:
        alarm.shutdown()
        await store.close()


def test_running_go_games_are_found_by_club(tmp_path: Path) -> None:
    """The per-club look-up of running go games has its index (migration 0072)."""
    from bot.core.storage.migrations import MIGRATIONS_DIR, migrate

    conn = sqlite3.connect(tmp_path / "plan.sqlite3")
    try:
        migrate(conn, MIGRATIONS_DIR)
        plan = " ".join(
            str(row[-1])
            for row in conn.execute("EXPLAIN QUERY PLAN SELECT * FROM go_games WHERE club_id = 1 AND status = 'playing'")
        )
    finally:
        conn.close()
    assert "go_games_club_status" in plan


async def test_after_a_command_its_clubs_announcements_go_out_on_both_databases(any_store: Store, config: Config) -> None:
    """The club's outbox is claimed and posted as the pass would (on PostgreSQL: the claim of
    ``outbox:<club>``); another club's pending announcements wait for the pass."""
    core = make_core(any_store, config, ShiftedClock(START))
    for club in (1, 2):
        await ok(core, person(club, "Leider", True), "/speler Anna 2000")
        club_row = await any_store.club_by_external("console", f"club-{club}")
        assert club_row is not None
        async with any_store.transaction():
            await any_store.queue_announcement(club_row.id, None, "news", f"Nieuws van club {club}", core.clock.now())
    posted: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        posted.append(announcement.body)

    alarm = Alarm(core, send)
    try:
        await alarm.after_command(person(1, "Leider", True))
        assert posted == ["Nieuws van club 1"]
        await alarm.after_command(person(1, "Leider", True))
        assert posted == ["Nieuws van club 1"]  # posted once
        assert [a.body for a in await any_store.pending_announcements()] == ["Nieuws van club 2"]
    finally:
        alarm.shutdown()


async def test_a_process_claims_only_what_its_platforms_can_post(any_store: Store, config: Config) -> None:
    """Issue 46 §3: a process started with ``--platforms discord`` left Telegram clubs' announcements to
    fail, counted as failed, at every pass; now it leaves them pending, untouched, for a process that has
    Telegram."""
    core = make_core(any_store, config, ShiftedClock(START))
    for platform in ("discord", "telegram"):
        director = Actor(platform, f"{platform}-club", "Club", "user:leider", "Leider", is_director=True)
        await ok(core, director, "/speler Anna 2000")
        club_row = await any_store.club_by_external(platform, f"{platform}-club")
        assert club_row is not None
        async with any_store.transaction():
            await any_store.queue_announcement(club_row.id, None, "news", f"Nieuws op {platform}", core.clock.now())
    posted: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        assert club.platform == "discord", f"a {club.platform} club's announcement was tried"
        posted.append(announcement.body)

    alarm = Alarm(core, send, platforms={"discord"})
    try:
        await alarm.run_due()
    finally:
        alarm.shutdown()
    assert posted == ["Nieuws op discord"]
    left = await any_store.pending_announcements()
    assert [(a.body, a.attempted) for a in left] == [("Nieuws op telegram", False)]


async def test_commands_before_the_alarm_starts_set_its_wake_all_the_same(config: Config) -> None:
    """A command answered before the scheduler runs (the adapters may be up first): its wake is a job
    APScheduler keeps pending, without a run time of its own yet; a second command compares against it
    and moves it earlier, never fails (found by the Keizer state machine, which never starts the alarm)."""
    store = await Store.open(config.db_path)
    clock = ShiftedClock(START)
    core = make_core(store, config, clock)

    async def send(club: Club, announcement: Announcement) -> None:
        pass

    alarm = Alarm(core, send)
    try:
        director = person(1, "Leider", True)
        await ok(core, director, "/seizoen naam=S start=2026-12-10 rondes=4")
        await alarm.after_command(director)
        first = alarm._wake_at
        assert alarm.scheduler.get_job("wake") is not None and first is not None
        await ok(core, director, "/seizoen naam=R start=2026-12-03 rondes=3 soort=rapid")  # a week earlier
        await alarm.after_command(director)
        assert alarm._wake_at is not None and alarm._wake_at < first - timedelta(days=6)
    finally:
        await store.close()
