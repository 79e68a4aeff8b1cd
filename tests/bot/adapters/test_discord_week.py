"""A whole week on Discord, end to end: the real discord.py client logged in against a local fake of the
REST API, slash commands through the real app_commands tree and callbacks, buttons through discord.py's
component dispatch, the real Alarm moving on a shifted clock, announcements through discord.py's HTTP
client to the fake. The expected pairings and scores are the console week's (worked by hand there)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

from bot.config import Config
from tests.bot.adapters.fake_discord import ANNOUNCE, EPHEMERAL, FakeDiscord, Harness, bot, content, fake, flags  # noqa: F401
from tests.bot.adapters.discord_world import UserOption

PNG = b"\x89PNG\r\n\x1a\n"
AMS_17_30 = datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc)  # 17:30 in Amsterdam: after the deadline
PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam


async def test_a_week_on_discord(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    # the director sets the channel by using /kanaal in it, creates the season and the players
    answer = await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    assert "kanaal" in content(answer).lower() and not flags(answer) & EPHEMERAL
    answer = await bot.command("seizoen", "Leider", {"naam": "2026-27", "start": "2026-12-03", "rondes": 28}, director=True)
    assert answer.json["type"] == 4 and "2026-27" in content(answer), content(answer)
    for name, rating in [("Anna", 2100), ("Bert", 1950), ("Carla", 1800), ("Daan", 1700), ("Eva", 1600)]:
        answer = await bot.command("speler", "Leider", {"naam": name, "rating": rating}, director=True)
        assert name in content(answer)

    # a member without the role may not; the commands layer refuses, only the asker sees it
    refused = await bot.command("speler", "Anna", {"naam": "Zoë", "rating": 1500})
    assert flags(refused) & EPHEMERAL

    # a member's name does not make an account theirs: the director links each player's account (the
    # user picker), then they sign on; a sign-off is ephemeral
    answer = await bot.command("aanmelden", "Anna")
    assert flags(answer) & EPHEMERAL and "/koppel Anna" in content(answer), content(answer)
    for name in ["Anna", "Bert", "Carla", "Daan", "Eva"]:
        answer = await bot.command("koppel", "Leider", {"speler": name, "account": UserOption(name)}, director=True)
        assert flags(answer) & EPHEMERAL and f"nu {name}" in content(answer), content(answer)
        answer = await bot.command("aanmelden", name)
        assert flags(answer) & EPHEMERAL and "aangemeld voor ronde 1" in content(answer), content(answer)
    answer = await bot.command("afmelden", "Bert")
    assert flags(answer) & EPHEMERAL and "ronde 1" in content(answer)
    answer = await bot.command("afmelden", "Eva", {"ronde": 2, "teamwedstrijd": True})
    assert flags(answer) & EPHEMERAL

    # autocomplete: player names from the club's members, round numbers at most 25
    names = await bot.autocomplete("afmelden", "Leider", "speler", "ar", director=True)
    assert [c["value"] for c in names] == ["Carla"]
    rounds = await bot.autocomplete("afmelden", "Anna", "ronde", "")
    assert len(rounds) == 25 and rounds[0]["value"] == 1 and rounds[0]["name"] == "Ronde 1 (2026-12-03)"

    # nothing is announced before the publication
    assert fake.channel_posts(ANNOUNCE) == []

    # after the deadline a player's sign-off is refused and names the deadline
    bot.clock.set(AMS_17_30)
    late = await bot.command("afmelden", "Eva")
    assert flags(late) & EPHEMERAL and "2026-12-03 17:00" in content(late)

    # just before the publication the pairing is not there yet; the command's follow-up work sets the alarm
    bot.clock.set(PUBLISH - timedelta(seconds=0.5))
    early = await bot.command("indeling", "Daan")
    assert flags(early) & EPHEMERAL and "18:00" in content(early)
    # the publication passes: APScheduler wakes the bot, the round is paired and announced exactly once,
    # with a picture; later wake-ups and commands do not repeat it
    await fake.wait_for(lambda: fake.channel_posts(ANNOUNCE), timeout=10)
    assert bot.alarm.wakeups >= 1
    await bot.alarm.run_due()
    (post,) = fake.channel_posts(ANNOUNCE)
    text = post.json["content"]
    assert text.startswith("Indeling ronde 1 (2026-12-03)")
    assert "Bord 1: Carla - Anna" in text and "Bord 2: Eva - Daan" in text
    assert post.json["nonce"] and post.json["enforce_nonce"] is True
    (picture,) = post.files.values()
    assert picture[1].startswith(PNG)

    # /indeling is public in the channel
    answer = await bot.command("indeling", "Daan")
    assert not flags(answer) & EPHEMERAL and "Carla" in content(answer) and "```" in content(answer)

    # Anna (black) reports her win; the reply offers Carla the button to confirm it
    report = await bot.command("uitslag", "Anna", {"resultaat": "0-1"})
    assert not flags(report) & EPHEMERAL
    (row,) = report.json["data"]["components"]
    (button,) = row["components"]
    assert button["custom_id"].startswith("clubbot:/bevestig 1 ~") and "Carla" in button["label"]

    # Anna cannot confirm her own report: refused, only she sees it, the button stays
    own = await bot.press(report, "Carla", "Anna")
    assert own.json["type"] == 4 and flags(own) & EPHEMERAL
    # nor can Daan, whose own game is waiting too: the button is Carla's (it used to confirm his game)
    other = await bot.press(report, "Carla", "Daan")
    assert other.json["type"] == 4 and flags(other) & EPHEMERAL and "Deze knop is voor Carla" in content(other)

    # Carla confirms with the button: the message with the button is updated, the button is gone
    confirmed = await bot.press(report, "Carla", "Carla")
    assert confirmed.json["type"] == 7
    assert confirmed.json["data"]["components"] == []
    assert "0-1" in content(confirmed) and content(confirmed).startswith(content(report))

    # Daan reports 1-0 (Eva, white, won), Eva confirms: all results are in, the standings are announced once
    report = await bot.command("uitslag", "Daan", {"resultaat": "1-0"})
    await bot.press(report, "Eva", "Eva")
    standings = [p for p in fake.channel_posts(ANNOUNCE) if p.json["content"].startswith("Stand 2026-27 na ronde 1")]
    assert len(standings) == 1
    assert "```" in standings[0].json["content"]
    assert list(standings[0].files.values())[0][1].startswith(PNG)
    await bot.alarm.run_due()
    assert len(fake.channel_posts(ANNOUNCE)) == 2

    # /stand answers with a picture (multipart) and the text as fallback
    answer = await bot.command("stand", "Carla")
    assert not flags(answer) & EPHEMERAL
    (png,) = answer.files.values()
    assert png[0] == "clubbot.png" and png[1].startswith(PNG)
    lines = content(answer).splitlines()
    assert lines[0] == "Stand 2026-27 na ronde 1"
    table = [line for line in lines if line[:3].strip().isdigit()]
    assert [row.split()[1] for row in table] == ["Anna", "Eva", "Bert", "Carla", "Daan"]
    assert table[0].split()[2] == "48" and table[2].split()[2] == "16.33"

    # a private message works for a known member's personal commands, not for a stranger
    answer = await bot.command("afmelden", "Daan", {"ronde": 3}, dm=True)
    assert flags(answer) & EPHEMERAL and "Daan" in content(answer) and "ronde 3" in content(answer), content(answer)
    answer = await bot.command("afmelden", "Vreemde", dm=True)
    assert flags(answer) & EPHEMERAL and "/aanmelden" in content(answer)

    db = sqlite3.connect(config.db_path)
    results = dict(db.execute(
        "SELECT g.board, g.result FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 1"
    ).fetchall())  # fmt: skip
    assert results == {1: "0-1", 2: "1-0"}
    kinds = dict(db.execute(
        "SELECT r.number || ':' || m.name, s.kind FROM signoffs s JOIN rounds r ON r.id = s.round_id"
        " JOIN members m ON m.id = s.member_id"
    ).fetchall())  # fmt: skip
    assert kinds == {"1:Bert": "notice", "2:Eva": "team", "3:Daan": "notice"}
    assert db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0
    assert db.execute("SELECT channel_id FROM clubs WHERE platform = 'discord'").fetchone()[0] == str(ANNOUNCE)
    db.close()
