"""Everything that shows or uses a round's date follows a free evening (issue 44 §1): the scheduler's
reminder and pairing (on the real alarm and the test clock), both calendar feeds (the moved event keeps its
UID, so a calendar app moves it), and the TRF file's round dates (line 132) and last day (052)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot import ics_reader
from tests.bot.conftest import DIRECTOR, ok, rows
from tests.bot.keizer.test_commands import ANNA, make_season
from tests.bot.keizer.test_reminders import PUBLISH_1, Outbox, _run
from tests.bot.keizer.test_why import two_rounds
from tests.bot.keizer.trf_reader import read_trf

FREE_REMIND = datetime(2026, 12, 10, 11, 30, tzinfo=timezone.utc)  # 12:30 on the free evening: within 5 hours of 17:00
FREE_PUBLISH = datetime(2026, 12, 10, 17, 5, tzinfo=timezone.utc)  # 18:05 on the free evening
MOVED_REMIND = datetime(2026, 12, 17, 11, 30, tzinfo=timezone.utc)
MOVED_PUBLISH = datetime(2026, 12, 17, 17, 5, tzinfo=timezone.utc)


def _status(config, number: int) -> str:
    return rows(config, "SELECT status FROM rounds WHERE number = ?", number)[0][0]


async def test_no_reminder_or_pairing_on_a_free_evening(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-10")  # round 2 moves to 17 December
    outbox = Outbox()
    await _run(commands, clock, PUBLISH_1, outbox)  # round 1 paired as always
    assert _status(config, 1) == "paired"
    outbox.sent.clear()
    await _run(commands, clock, FREE_REMIND, outbox)
    await _run(commands, clock, FREE_PUBLISH, outbox)
    assert [body for who, body in outbox.sent if who is None] == [] and _status(config, 2) == "open"  # no channel post
    assert not any("ronde 2" in body for _, body in outbox.sent)  # and nobody reminded of round 2
    await _run(commands, clock, MOVED_REMIND, outbox)
    channel = [body for who, body in outbox.sent if who is None]
    assert channel == [
        "Herinnering: ronde 2 is op 2026-12-17. Kun je niet? Meld je af met /afmelden, uiterlijk vandaag 17:00."
    ]
    await _run(commands, clock, MOVED_PUBLISH, outbox)
    assert _status(config, 2) == "paired"
    assert any(body.startswith("Indeling ronde 2 (2026-12-17)") for who, body in outbox.sent if who is None), outbox.sent


async def test_a_round_moved_after_its_reminder_is_reminded_again_for_its_new_evening(
    commands: Core, clock: ShiftedClock, config
) -> None:
    await make_season(commands)
    await ok(commands, DIRECTOR, "/seizoen herinnering=iedereen")
    await ok(commands, ANNA, "/mijn aanwezig afgemeld")  # absent unless she signs on: reminded privately too
    outbox = Outbox()
    await _run(commands, clock, PUBLISH_1, outbox)
    outbox.sent.clear()
    await _run(commands, clock, FREE_REMIND, outbox)  # round 2's reminders for 10 December are out
    reminded = {who for who, body in outbox.sent if "2026-12-10" in body}
    assert None in reminded and ANNA.user_id in reminded  # the channel's and Anna's own
    clock.set(FREE_REMIND + timedelta(minutes=30))
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-10")  # the club closes that evening after all
    outbox.sent.clear()
    await _run(commands, clock, MOVED_REMIND, outbox)
    assert {who for who, body in outbox.sent if "ronde 2" in body and "2026-12-17" in body} == reminded, outbox.sent


def _events(ics: bytes) -> dict[str, tuple[datetime, datetime | None]]:
    """UID -> (start, alarm moment) of every event."""
    found = {}
    for event in ics_reader.events(ics_reader.read(ics)):
        alarm = event.children[0] if event.children else None
        found[event.one("UID")] = (
            ics_reader.utc_moment(event.one("DTSTART")), ics_reader.utc_moment(alarm.one("TRIGGER")) if alarm else None)
    return found


def _sequences(ics: bytes) -> dict[str, str]:
    """UID -> SEQUENCE of every event that has one."""
    return {e.one("UID"): e.one("SEQUENCE") for e in ics_reader.events(ics_reader.read(ics)) if "SEQUENCE" in e.props}


async def test_both_calendar_feeds_move_the_event_and_keep_its_uid(commands: Core, clock: ShiftedClock) -> None:
    await make_season(commands)
    club = _events((await commands.handle(ANNA, "/kalender")).attachment[1])  # cached until the season changes
    mine = _events((await commands.handle(ANNA, "/kalender mijn")).attachment[1])
    assert _sequences((await commands.handle(ANNA, "/kalender")).attachment[1]) == {}
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-24")
    await ok(commands, DIRECTOR, "/ronde 28 datum=2027-06-18")  # the last round moved twice
    for text in ("/kalender", "/kalender mijn"):  # each moved event a newer version of itself
        sequences = _sequences((await commands.handle(ANNA, text)).attachment[1])
        assert sorted(sequences.values()) == ["1"] * 24 + ["2"], text
    club_after = _events((await commands.handle(ANNA, "/kalender")).attachment[1])
    mine_after = _events((await commands.handle(ANNA, "/kalender mijn")).attachment[1])
    for before, after in ((club, club_after), (mine, mine_after)):
        assert len(before) == len(after) == 28 and set(before) == set(after)  # moved, not duplicated
        round_4 = next(uid for uid, (start, _) in before.items() if start == datetime(2026, 12, 24, 19, 0, tzinfo=timezone.utc))
        # 20:00 in Amsterdam on 31 December; the alarm 5 hours before the new 17:00 deadline
        assert after[round_4] == (datetime(2026, 12, 31, 19, 0, tzinfo=timezone.utc), datetime(2026, 12, 31, 11, 0, tzinfo=timezone.utc))
        starts = sorted(start for start, _ in after.values())
        assert datetime(2026, 12, 24, 19, 0, tzinfo=timezone.utc) not in starts
        assert starts[-1] == datetime(2027, 6, 18, 18, 0, tzinfo=timezone.utc)  # summer time: a week and a day later


async def test_trf_dates_the_rounds_as_they_were_played(commands: Core, clock: ShiftedClock) -> None:
    await two_rounds(commands, clock)  # rounds 1 and 2 on 3 and 10 December
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-17")  # round 3 moves to 24 December
    clock.set(datetime(2026, 12, 24, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    reply = await commands.handle(DIRECTOR, "/exporteer trf")
    assert reply.attachment is not None
    line_132 = next(x for x in reply.attachment[1].decode().splitlines() if x.startswith("132"))
    assert line_132[91:].split() == ["26/12/03", "26/12/10", "26/12/24"]
    header, _ = read_trf(reply.attachment[1])
    assert header["042"] == ["2026/12/03"] and header["052"] == ["2027/06/17"]  # the last round a week later


async def test_free_evenings_and_their_reminders_on_both_databases(any_store, config) -> None:
    """The free evenings' SQL (migration 0080 and its twin) and a sent reminder set aside, on SQLite and
    PostgreSQL alike."""
    from bot.core.storage.store import Store
    from bot.systems import make_core

    store: Store = any_store
    clock = ShiftedClock(datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc))
    core = make_core(store, config, clock)
    await ok(core, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=4")
    club = await store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    round_2 = (await store.fetch_one("SELECT id FROM rounds WHERE number = 2"))[0]
    await store.queue_announcement(club.id, round_2, "reminder", "Herinnering: ronde 2 is op 2026-12-10.", clock.now())
    await store.execute("UPDATE announcements SET sent_at = ? WHERE round_id = ?", ("2026-12-01T11:00:00+00:00", round_2))
    said = await ok(core, DIRECTOR, "/seizoen vrij 2026-12-10 2026-12-10")
    assert "Ronde 2 verplaatst van 2026-12-10 naar 2026-12-17." in said
    assert await ok(core, DIRECTOR, "/seizoen vrij") == "Vrije avonden van S: 2026-12-10."
    kinds = [r[0] for r in await store.fetch_all("SELECT kind FROM announcements WHERE round_id = ?", (round_2,))]
    assert len(kinds) == 1 and kinds[0].startswith("moved-") and kinds[0].endswith("-reminder")
    await ok(core, DIRECTOR, "/seizoen vrij 2026-12-10 ongedaan")
    dates = [r[0] for r in await store.fetch_all("SELECT play_date FROM rounds ORDER BY number")]
    assert dates == ["2026-12-03", "2026-12-10", "2026-12-17", "2026-12-24"]
