"""Private reminders (issue 34 §2) on the real scheduler and the test clock: before the deadline only to who
has not answered when the club asks for answers (``/seizoen herinnering=...``), the day after a round to
each player whose result is missing; a member turns them off; each goes once, across a restart."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.core.running.scheduler import Alarm
from tests.bot.conftest import DIRECTOR, link, refused, rows
from tests.bot.keizer.test_commands import ANNA, BERT, CARLA, DAAN, EVA, make_season, ok

REMIND_1 = datetime(2026, 12, 3, 11, 30, tzinfo=timezone.utc)  # 12:30 local: within 5 hours of the 17:00 deadline
PUBLISH_1 = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 local: round 1 is paired
DAY_AFTER = datetime(2026, 12, 4, 17, 5, tzinfo=timezone.utc)  # 18:05 local the next day
REMIND_2 = datetime(2026, 12, 10, 11, 30, tzinfo=timezone.utc)


class Outbox:
    def __init__(self) -> None:
        self.sent: list[tuple[str | None, str]] = []

    async def __call__(self, club, announcement) -> None:
        self.sent.append((announcement.recipient, announcement.body))

    def private(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for recipient, body in self.sent:
            if recipient is not None and not body.startswith("Ronde 1 (2026-12-03): jij speelt"):
                found.setdefault(recipient, []).append(body)
        return found


async def _run(commands: Core, clock: ShiftedClock, at: datetime, outbox: Outbox) -> None:
    clock.set(at)
    await Alarm(commands, outbox).run_due()  # a new alarm each time: as after a restart


async def test_reminders_reach_who_has_not_answered_and_whose_result_is_missing(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)  # everyone signed on (/aanmelden): an answer for round 1
    assert "iedereen om antwoord" in await ok(commands, DIRECTOR, "/seizoen herinnering=iedereen")
    await ok(commands, EVA, "/mijn aanwezig afgemeld")  # absent unless she signs on: not answered
    await ok(commands, DAAN, "/mijn meldingen herinneringen uit")
    await ok(commands, ANNA, "/aanmelden 2")
    await ok(commands, BERT, "/afmelden 2")
    outbox = Outbox()

    await _run(commands, clock, REMIND_1, outbox)  # round 1: only Eva has not answered
    assert list(outbox.private()) == [EVA.user_id]
    assert outbox.private()[EVA.user_id] == [
        "Speel je mee in ronde 1 (2026-12-03)? Je staat op afgemeld tenzij je je aanmeldt: /aanmelden 1, uiterlijk"
        " vandaag 17:00. Geen herinneringen meer: /mijn meldingen herinneringen uit"
    ]

    await _run(commands, clock, PUBLISH_1, outbox)  # paired: Anna-Bert, Carla-Daan (by rating); Eva absent
    games = rows(config, "SELECT w.name, b.name FROM games g JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id")
    assert {frozenset(g) for g in games} == {frozenset({"Anna", "Bert"}), frozenset({"Carla", "Daan"})}
    await ok(commands, ANNA, "/uitslag gewonnen")  # Bert has to confirm; Carla and Daan report nothing
    reported = rows(config, "SELECT reported_result FROM games WHERE reported_result IS NOT NULL")[0][0]
    outbox.sent.clear()

    await _run(commands, clock, DAY_AFTER, outbox)
    await _run(commands, clock, DAY_AFTER + timedelta(minutes=1), outbox)  # a restart sends nothing twice
    private = outbox.private()
    assert sorted(private) == sorted([BERT.user_id, CARLA.user_id])  # not Anna (reported), not Daan (turned off)
    assert private[BERT.user_id] == [
        f"Anna gaf {reported} door voor jullie partij in ronde 1 (2026-12-03). Klopt dat? Bevestig met /bevestig 1,"
        " of geef de juiste uitslag met /uitslag."
    ]
    assert private[CARLA.user_id] == [
        "De uitslag van je partij in ronde 1 (2026-12-03) tegen Daan ontbreekt nog. Geef hem door met"
        " /uitslag gewonnen 1, /uitslag verloren 1 of /uitslag remise 1."
    ]

    outbox.sent.clear()
    await _run(commands, clock, REMIND_2, outbox)  # round 2: Anna signed on, Bert off, Daan turned them off
    private = outbox.private()
    assert sorted(private) == sorted([CARLA.user_id, EVA.user_id])
    assert private[CARLA.user_id][0].startswith("Speel je mee in ronde 2 (2026-12-10)? De club vraagt om je antwoord")
    assert "/aanmelden 2" in private[EVA.user_id][0]
    # each reminder is one row of the outbox, marked sent: across restarts and processes, once
    kinds = rows(config, "SELECT kind FROM announcements WHERE recipient IS NOT NULL AND sent_at IS NOT NULL ORDER BY id")
    assert [k for (k,) in kinds].count(f"remind:{rows(config, 'SELECT id FROM members WHERE name = ?', 'Eva')[0][0]}") == 2


async def test_no_private_reminder_unless_the_club_asks(commands: Core, clock: ShiftedClock, config) -> None:
    await make_season(commands)
    await ok(commands, EVA, "/mijn aanwezig afgemeld")
    outbox = Outbox()
    await _run(commands, clock, REMIND_1, outbox)
    assert outbox.private() == {}  # herinnering=uit by default: the channel's reminder only
    assert any(r is None and b.startswith("Herinnering: ronde 1") for r, b in outbox.sent)
    await ok(commands, DIRECTOR, "/seizoen herinnering=aanmelden")
    await ok(commands, CARLA, "/mijn meldingen uit")  # all private messages off
    outbox.sent.clear()
    await _run(commands, clock, REMIND_2, outbox)  # aanmelden: only the absent-by-default who did not sign on
    assert list(outbox.private()) == [EVA.user_id]


async def test_settings_refused_change_nothing(commands: Core, config) -> None:
    await make_season(commands)
    assert "wedstrijdleider" in await refused(commands, ANNA, "/seizoen herinnering=iedereen", config)
    # a value it does not know: what it takes, not the whole season's usage (found in a console month)
    assert await refused(commands, DIRECTOR, "/seizoen herinnering=soms", config) == "herinnering= kent alleen uit|aanmelden|iedereen."
    assert await refused(commands, DIRECTOR, "/seizoen reminder=sometimes", config) == "reminder= kent alleen off|signon|everyone."  # the club speaks Dutch
    assert await refused(commands, DIRECTOR, "/seizoen ontbrekend=soms", config) == "ontbrekend= kent alleen indelen|wachten."
    assert "/mijn meldingen [indeling|herinneringen] aan|uit" in await refused(commands, ANNA, "/mijn meldingen weekend uit", config)
    await ok(commands, DIRECTOR, "/language en")
    assert "everyone for an answer" in await ok(commands, DIRECTOR, "/season reminder=everyone")
    assert "no longer get reminders" in await ok(commands, ANNA, "/me notices reminders off")


async def test_the_setting_given_when_the_season_is_made_and_what_is_on_now(commands: Core, clock: ShiftedClock, config) -> None:
    """``herinnering=`` is in /seizoen's usage, so a director gives it when creating the season (it was
    refused there); ``/mijn meldingen`` alone says what is on (it was a usage error)."""
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=28 herinnering=aanmelden")
    await ok(commands, DIRECTOR, "/speler Eva 1600")
    await link(commands, EVA)
    await ok(commands, EVA, "/mijn aanwezig afgemeld")
    outbox = Outbox()
    await _run(commands, clock, REMIND_1, outbox)
    assert list(outbox.private()) == [EVA.user_id]
    assert "herinnering=uit|aanmelden|iedereen" in await refused(
        commands, DIRECTOR, "/seizoen naam=Rapid start=2026-12-09 soort=rapid herinnering=soms", config
    )
    said = await ok(commands, EVA, "/mijn meldingen")
    assert ("bij een nieuwe indeling: uit (aanzetten: /mijn meldingen indeling aan). Herinneringen (afmelden,"
            " ontbrekende uitslag): aan (uitzetten: /mijn meldingen herinneringen uit).") in said
    await ok(commands, EVA, "/mijn meldingen herinneringen uit")
    assert "ontbrekende uitslag): uit (aanzetten: /mijn meldingen herinneringen aan)." in await ok(commands, EVA, "/mijn meldingen")
