"""The rapid competition says so, everywhere (issue 30 §3): its channel posts, private notices, pairing and
standings pictures, replies to ``/uitslag ... rapid``, ``/publiceer rapid`` and ``/speler X 2150 rapid`` name
it ("Rapid: ..."), and the commands they suggest address it; the main competition's read as before."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.core.output.pictures import table_png
from tests.bot.conftest import DIRECTOR, actor, ok, rows
from bot.core.running.scheduler import Alarm
from tests.bot.keizer.test_rapid import ANNA, BERT, CARLA, DAAN, RAPID_DEADLINE, two_competitions
from tests.bot.keizer.test_results import director_member

RAPID_PUBLISHED = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)  # Wednesday 13:00 in Amsterdam


async def run_scheduler(commands: Core, sent: list | None = None) -> None:
    """The alarm's due work and sending; what was sent is kept in ``sent`` (a picture is drawn as it goes out)."""

    async def send(club, announcement) -> str:
        if sent is not None:
            sent.append(announcement)
        return f"m{announcement.id}"

    await Alarm(commands, send).run_due()


def sent_picture(sent: list, kind: str) -> str:
    """The picture spec of the one sent announcement of ``kind``, as text."""
    (picture,) = [a.picture for a in sent if a.kind == kind]
    assert picture is not None
    return json.dumps(json.loads(picture), ensure_ascii=False)


def posts(config, kind: str, competition: str = "rapid") -> list[tuple[str, str | None, str | None]]:
    """(body, picture, recipient) of the announcements of ``kind`` (a prefix) of a competition's rounds."""
    return rows(
        config,
        "SELECT a.body, a.picture, a.recipient FROM announcements a JOIN rounds r ON r.id = a.round_id"
        " JOIN seasons s ON s.id = r.season_id WHERE a.kind LIKE ? AND s.kind = ? ORDER BY a.id",
        kind + "%", competition,
    )


def rapid_boards(config) -> list[tuple[str, str]]:
    return rows(
        config,
        "SELECT w.name, b.name FROM games g JOIN rounds r ON r.id = g.round_id JOIN seasons s ON s.id = r.season_id"
        " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE s.kind = 'rapid' ORDER BY g.board",
    )


async def test_the_rapid_competitions_posts_notices_pictures_and_replies_name_it(commands: Core, clock: ShiftedClock, config) -> None:
    await two_competitions(commands)
    account = await director_member(commands)
    for who in (ANNA, BERT, CARLA, DAAN):
        await ok(commands, who, "/mijn meldingen aan")
    clock.set(RAPID_DEADLINE - timedelta(hours=1))
    await run_scheduler(commands)
    ((reminder, _, _),) = posts(config, "reminder")
    assert reminder.startswith("Rapid: Herinnering: ronde 1") and "/afmelden rapid," in reminder
    clock.set(RAPID_PUBLISHED)
    sent: list = []
    await run_scheduler(commands, sent)
    ((pairing, _, _),) = posts(config, "pairing")
    assert pairing.startswith("Rapid: Indeling ronde 1 (2026-12-02)")
    assert "Rapid: Indeling ronde 1" in sent_picture(sent, "pairing")
    notices = posts(config, "notice:")
    assert len(notices) == 4 and all(body.startswith("Rapid: Ronde 1 (2026-12-02): jij speelt") for body, _, _ in notices)
    assert (await ok(commands, ANNA, "/indeling rapid")).startswith("Rapid: Indeling ronde 1")

    (w1, b1), (w2, b2) = rapid_boards(config)
    reported = await ok(commands, actor(w1), "/uitslag rapid gewonnen")
    assert reported.startswith("Rapid: Uitslag gemeld: 1-0") and "/bevestig rapid." in reported
    disputed = await ok(commands, actor(b1), "/uitslag rapid gewonnen")
    assert disputed.startswith("Rapid: ")
    ((notice, _, _),) = posts(config, "dispute:")
    assert notice.startswith("Rapid: Ronde 1, bord 1") and f"/uitslag {w1} 1-0 rapid" in notice
    assert (await ok(commands, DIRECTOR, f"/uitslag {w1} 1-0 rapid")).startswith("Rapid: Uitslag bord 1 ronde 1: 1-0")
    await ok(commands, actor(w2), "/uitslag rapid remise")
    assert (await ok(commands, actor(b2), "/bevestig rapid")).startswith("Rapid: Uitslag bord 2 ronde 1 bevestigd")
    ((standings, _, _),) = posts(config, "standings")
    assert standings.startswith("Rapid: Stand R na ronde 1")
    await run_scheduler(commands, sent)
    assert "Rapid: Stand R na ronde 1" in sent_picture(sent, "standings")
    reply = await commands.handle(ANNA, "/stand rapid")
    title = reply.text.splitlines()[0]
    assert title == "Rapid: Stand R na ronde 1" and reply.image == table_png(title, reply.table)
    assert private_to(config, account)  # the dispute went to the director privately


def private_to(config, account: str) -> list[str]:
    return [r[0] for r in rows(config, "SELECT body FROM announcements WHERE recipient = ?", account)]


async def test_the_directors_rapid_replies_name_it_and_the_main_ones_stay(commands: Core, clock: ShiftedClock, config) -> None:
    await two_competitions(commands)
    assert await ok(commands, DIRECTOR, "/speler Eva 2150 rapid") == "Rapid: Speler Eva toegevoegd (rating 2150)."
    assert await ok(commands, DIRECTOR, "/speler Anna 2150 rapid") == "Rapid: Rating van Anna is nu 2150."
    assert await ok(commands, DIRECTOR, "/speler Anna 2160") == "Rating van Anna is nu 2160."
    clock.set(RAPID_DEADLINE)
    assert (await ok(commands, DIRECTOR, "/publiceer rapid")).startswith("Rapid: Ronde 1 is ingedeeld")
    assert (await ok(commands, DIRECTOR, "/publiceer ongedaan rapid")).startswith("Rapid: De indeling van ronde 1")
    await ok(commands, DIRECTOR, "/publiceer rapid")
    assert (await ok(commands, DIRECTOR, "/indeling kleur 1 rapid")).startswith("Rapid: De indeling van ronde 1 is aangepast")
    _, (w2, _) = rapid_boards(config)
    assert (await ok(commands, DIRECTOR, f"/invaller {w2} rapid")).startswith("Rapid: ")
    (w1, _), _ = rapid_boards(config)
    assert (await ok(commands, DIRECTOR, f"/nietverschenen {w1} rapid")).startswith("Rapid: ")
    await ok(commands, DIRECTOR, "/language en")
    assert (await ok(commands, ANNA, "/standings rapid")).startswith("Rapid: Standings R after round 1")
    assert (await ok(commands, ANNA, "/pairings rapid")).startswith("Rapid: Pairings round 1")
    clock.set(datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc))  # the main round's publication
    await run_scheduler(commands)
    ((main_pairing, _, _),) = posts(config, "pairing", "main")
    assert main_pairing.startswith("Pairings round 1")


async def test_the_directors_notices_of_open_rapid_results_name_it(commands: Core, clock: ShiftedClock, config) -> None:
    await two_competitions(commands)
    account = await director_member(commands)
    clock.set(RAPID_DEADLINE)
    await ok(commands, DIRECTOR, "/publiceer rapid")
    clock.set(datetime(2026, 12, 9, 11, 0, tzinfo=timezone.utc))  # the deadline of rapid round 2
    await run_scheduler(commands)
    (notice,) = private_to(config, account)
    assert notice.startswith("Rapid: Afmelden voor ronde 2 van R is gesloten") and "/uitslagen rapid" in notice
    (w1, _), _ = rapid_boards(config)
    assert f"/uitslag {w1} 1-0 1 rapid" in notice
    assert (await ok(commands, DIRECTOR, "/uitslagen rapid")).startswith("Rapid: Open uitslagen van R (2 partijen)")


async def test_signing_on_and_off_the_rapid_competition_names_it(commands: Core) -> None:
    await two_competitions(commands)
    assert await ok(commands, ANNA, "/afmelden rapid") == "Rapid: Anna is afgemeld voor ronde 1 (2026-12-02)."
    assert await ok(commands, ANNA, "/aanmelden rapid") == "Rapid: Je bent aangemeld voor ronde 1 (2026-12-02)."
    assert await ok(commands, ANNA, "/afmelden") == "Anna is afgemeld voor ronde 1 (2026-12-03)."


async def test_the_rapid_reports_name_it(commands: Core, clock: ShiftedClock) -> None:
    """/kruistabel, /verloop, /kaart, /mijn and /kalender with rapid name the rapid competition."""
    await two_competitions(commands)
    clock.set(RAPID_DEADLINE)
    await ok(commands, DIRECTOR, "/publiceer rapid")
    for command in ("/kruistabel rapid", "/verloop rapid", "/kaart Anna rapid", "/kalender rapid"):
        assert (await ok(commands, ANNA, command)).startswith("Rapid: "), command
    assert (await ok(commands, ANNA, "/mijn rapid")).startswith("Rapid: ")
    assert not (await ok(commands, ANNA, "/kruistabel")).startswith("Rapid")
