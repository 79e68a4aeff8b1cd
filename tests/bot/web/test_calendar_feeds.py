"""The calendars (issue 34 §2): the club's feed and a member's own (``/mijn kalender``), read with a strict
reader written from RFC 5545 (``tests/bot/ics_reader.py``): each round a timed event on the club's playing
evening (``/speelavond``), at its location, with an alarm before the sign-off deadline; the member's own
with their opponent, colour and board once paired; a secret address that works for a members-only club
and stops working when renewed."""

from __future__ import annotations

from datetime import datetime, timezone

import aiohttp
import pytest

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from tests.bot import ics_reader
from tests.bot.conftest import DIRECTOR, link, ok, refused
from tests.bot.keizer.test_commands import ANNA, BERT, CARLA, DAAN, EVA

PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)
LOCATION = "De Ster, Dorpsstraat 1; Utrecht \\ zaal 2"


async def fetch(url: str) -> tuple[int, bytes, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.read(), response.content_type


async def _season(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=20")
    for line in ("Anna 2100", "Bert 1950", "Carla 1800", "Daan 1700", "Eva 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await link(commands, ANNA, BERT, CARLA, DAAN, EVA)


def _z(text: str) -> datetime:
    return ics_reader.utc_moment(text)


async def test_the_club_feed_has_times_location_and_an_alarm(commands: Core) -> None:
    await _season(commands)
    said = await ok(commands, DIRECTOR, f'/speelavond "locatie={LOCATION}" tijd=19:30-23:30')
    assert "19:30-23:30" in said and LOCATION in said
    reply = await commands.handle(ANNA, "/kalender")
    calendar = ics_reader.read(reply.attachment[1])
    found = ics_reader.events(calendar)
    assert len(found) == 20
    first = found[0]
    # 19:30-23:30 in Amsterdam in winter (UTC+1); the deadline 17:00 (16:00Z), the alarm 5 hours before it
    assert (_z(first.one("DTSTART")), _z(first.one("DTEND"))) == (
        datetime(2026, 12, 3, 18, 30, tzinfo=timezone.utc), datetime(2026, 12, 3, 22, 30, tzinfo=timezone.utc))
    assert first.one("LOCATION") == LOCATION
    alarm = first.children[0]
    assert alarm.one("ACTION") == "DISPLAY" and _z(alarm.one("TRIGGER")) == datetime(2026, 12, 3, 11, 0, tzinfo=timezone.utc)
    assert alarm.one("DESCRIPTION") == "Ronde 1: afmelden kan tot 17:00."
    # round 18 is on 1 April 2027, in summer time (UTC+2): the same evening, two hours before in UTC
    assert _z(found[17].one("DTSTART")) == datetime(2027, 4, 1, 17, 30, tzinfo=timezone.utc)
    # an evening past midnight ends the next day
    await ok(commands, DIRECTOR, "/speelavond tijd=20:00-00:30")
    late = ics_reader.events(ics_reader.read((await commands.handle(ANNA, "/kalender")).attachment[1]))[0]
    assert _z(late.one("DTEND")) == datetime(2026, 12, 3, 23, 30, tzinfo=timezone.utc)
    # UIDs stay as they were (a phone that subscribed keeps its events)
    assert first.one("UID").startswith("clubbot-1-1@") and late.one("UID") == first.one("UID")


async def test_without_a_club_night_the_default_evening(commands: Core) -> None:
    await _season(commands)
    first = ics_reader.events(ics_reader.read((await commands.handle(ANNA, "/kalender")).attachment[1]))[0]
    assert _z(first.one("DTSTART")) == datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)  # 20:00 local
    assert "LOCATION" not in first.props
    assert "20:00-23:30, (geen locatie)" in await ok(commands, DIRECTOR, "/speelavond")


async def ok_or_refused(commands: Core, who, text: str) -> str:
    reply = await commands.handle(who, text)
    assert not reply.ok
    return reply.text


async def test_an_address_typed_without_quotes(commands: Core) -> None:
    """A director types the address as it is written: the words up to the next ``tijd=`` are the location
    (it was refused with the usage)."""
    said = await ok(commands, DIRECTOR, "/speelavond locatie=Buurthuis De Pion, Kerkstraat 1 tijd=19:45-23:30")
    assert "Buurthuis De Pion, Kerkstraat 1" in said and "19:45-23:30" in said
    assert "Zaal 2" in await ok(commands, DIRECTOR, "/speelavond tijd=19:30-23:00 locatie=Zaal 2")
    assert "locatie=- maakt hem leeg" in await ok_or_refused(commands, DIRECTOR, "/speelavond locatie=")  # not cleared by accident
    assert "Zaal 2" in await ok(commands, DIRECTOR, "/speelavond")
    assert "(geen locatie)" in await ok(commands, DIRECTOR, "/speelavond locatie=-")


async def test_a_members_own_feed_at_a_secret_address(commands: Core, clock: ShiftedClock, config, site: str) -> None:
    await _season(commands)
    await ok(commands, DIRECTOR, "/speelavond locatie=Clubhuis tijd=19:30-23:30")
    assert "website" in await refused(commands, ANNA, "/mijn kalender", config)  # no website: no feed
    await ok(commands, DIRECTOR, "/website besloten")  # members only: the feed still works
    said = await ok(commands, ANNA, "/mijn kalender")
    url = said.split(": ", 1)[1].split()[0]
    assert url.startswith(f"{site}/c/1/kalender/") and url.endswith(".ics")
    assert url in await ok(commands, ANNA, "/mijn kalender")  # the same address again
    await ok(commands, BERT, "/afmelden 2")
    status, body, kind = await fetch(url)
    assert status == 200 and kind == "text/calendar"
    mine = ics_reader.events(ics_reader.read(body))
    assert len(mine) == 20 and mine[0].one("SUMMARY") == "Test club: ronde 1" and mine[0].children
    assert mine[0].one("LOCATION") == "Clubhuis"
    assert mine[0].one("UID") != ics_reader.events(ics_reader.read((await commands.handle(ANNA, "/kalender")).attachment[1]))[0].one("UID")
    # paired: Anna (first by rating) meets Bert, the next; the lower-ranked gets white
    clock.set(PAIRED)
    await ok(commands, DIRECTOR, "/publiceer")
    bert_url = (await ok(commands, BERT, "/mijn kalender")).split(": ", 1)[1].split()[0]
    anna_events = ics_reader.events(ics_reader.read((await fetch(url))[1]))
    bert_events = ics_reader.events(ics_reader.read((await fetch(bert_url))[1]))
    assert anna_events[0].one("SUMMARY") == "Test club: ronde 1: zwart tegen Bert, bord 1"
    assert bert_events[0].one("SUMMARY") == "Test club: ronde 1: wit tegen Anna, bord 1"
    assert not anna_events[0].children  # paired: no alarm any more
    assert bert_events[1].one("SUMMARY") == "Test club: ronde 2: afgemeld" and not bert_events[1].children
    # renewed: the old address is gone, the new one works; a made-up one is nothing
    new_url = (await ok(commands, ANNA, "/mijn kalender nieuw")).split(": ")[-1].strip()
    assert new_url != url and (await fetch(url))[0] == 404 and (await fetch(new_url))[0] == 200
    assert (await fetch(f"{site}/c/1/kalender/{'x' * 32}.ics"))[0] == 404
    assert (await fetch(f"{site}/c/2/kalender/{new_url.rsplit('/', 1)[1]}"))[0] == 404  # not another club's


async def test_bad_input_changes_nothing(commands: Core, config) -> None:
    await _season(commands)
    for who, text, said in (
        (ANNA, "/speelavond tijd=19:30-23:30", "wedstrijdleider"),
        (DIRECTOR, "/speelavond tijd=25:00-23:00", "25:00-23:00"),
        (DIRECTOR, "/speelavond tijd=19:30", "19:30"),
        (DIRECTOR, "/speelavond tijd=19:30-19:30", "19:30-19:30"),
        (DIRECTOR, "/speelavond zaal=2", "/speelavond [locatie="),
        (DIRECTOR, f"/speelavond locatie={'x' * 201}", "200"),
        (ANNA, "/kalender mijn extra", "/kalender mijn"),
        (ANNA, "/mijn kalender morgen", "/mijn kalender [nieuw]"),
    ):
        assert said in await refused(commands, who, text, config), text
    await ok(commands, DIRECTOR, "/language en")
    assert "19:00-22:00" in await ok(commands, DIRECTOR, "/clubnight time=19:00-22:00")


@pytest.mark.parametrize("bad", [
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-WR-CALNAME:a,b\r\nEND:VCALENDAR\r\n",  # an unescaped comma
    b"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nEND:VCALENDAR\n",  # LF, not CRLF
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:" + b"x" * 80 + b"\r\nEND:VCALENDAR\r\n",  # not folded
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20261203T183000Z\r\n"
    b"DTEND:20261203T223000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",  # no DTSTAMP
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VEVENT\r\n",  # does not nest
])
def test_the_reader_is_strict(bad: bytes) -> None:
    with pytest.raises(ics_reader.Invalid):
        ics_reader.read(bad)


def test_the_reader_reads_folded_escaped_text() -> None:
    raw = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-WR-CALNAME:a\\, b\\; c\\\\ d\\n" + b"e" * 40 +
           b"\r\n " + b"f" * 10 + b"\r\nEND:VCALENDAR\r\n")
    assert ics_reader.read(raw).one("X-WR-CALNAME") == "a, b; c\\ d\n" + "e" * 40 + "f" * 10



async def test_the_club_feed_has_the_rapid_evenings_too(commands: Core, site: str) -> None:
    """Issue 45 §1: the club's feed on the website (``kalender.ics``) holds the rapid season's evenings
    beside the main season's, each named as the chat names it; ``/kalender rapid`` the rapid ones alone."""
    from tests.bot.keizer.test_rapid import two_competitions

    await two_competitions(commands)  # main: 3 Thursdays from 3 Dec; rapid: 3 Wednesdays from 2 Dec
    await ok(commands, DIRECTOR, "/website aan")
    status, body, kind = await fetch(f"{site}/c/1/kalender.ics")
    assert status == 200 and kind == "text/calendar"
    found = ics_reader.events(ics_reader.read(body))
    summaries = [e.one("SUMMARY") for e in found]
    assert len(found) == 6 and len({e.one("UID") for e in found}) == 6
    assert sum(s.startswith("Rapid: ") for s in summaries) == 3
    rapid_first = next(e for e in found if e.one("SUMMARY").startswith("Rapid: "))
    assert _z(rapid_first.one("DTSTART")).date() == datetime(2026, 12, 2).date()  # the Wednesday
    reply = await commands.handle(ANNA, "/kalender")
    assert "Rapid: " in reply.text and "3 rondes" in reply.text
    alone = ics_reader.events(ics_reader.read((await commands.handle(ANNA, "/kalender rapid")).attachment[1]))
    assert len(alone) == 3 and all(e.one("SUMMARY").startswith("Rapid: ") for e in alone)
