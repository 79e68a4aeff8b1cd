"""A whole week on Telegram, end to end: the real python-telegram-bot Application polling a local fake of the
Bot API over HTTP, commands through PTB's CommandHandler, button presses through its CallbackQueryHandler,
the real Alarm moving on a shifted clock, announcements through PTB's HTTP client to the fake. The expected
pairings and scores are the console week's (worked by hand there): with Bert signed off, Carla (white) -
Anna and Eva (white) - Daan; Anna wins with black, Eva with white; Anna leads with 48, Bert has 1/3 of 49.
"""

from __future__ import annotations

import html
import re
import sqlite3
from datetime import datetime, timezone

from bot.config import Config
from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    GROUP,
    GROUP_CHAT,
    FakeTelegram,
    Harness,
    message,
    buttons,
    callback,
    fake,
    private_chat,
    tg,
    user,
)

PNG = b"\x89PNG\r\n\x1a\n"
AMS_13_00 = datetime(2026, 12, 3, 12, 0, tzinfo=timezone.utc)  # 13:00 in Amsterdam: 4 hours before the deadline
AMS_17_30 = datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc)  # 17:30 in Amsterdam: after the deadline
AMS_18_05 = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # after the publication

LEIDER = user(1, "Leider")
ANNA, BERT, CARLA, DAAN, EVA = (user(10 + i, name) for i, name in enumerate(["Anna", "Bert", "Carla", "Daan", "Eva"], 1))
STRANGER = user(99, "Vreemde Eend")


def texts(calls: list) -> list[str]:
    """The texts that went out (not those Telegram refused, e.g. with 429 before they were sent again)."""
    return [c.text for c in calls if c.method in ("sendMessage", "sendPhoto", "sendDocument") and c.ok]


def plain(text: str) -> str:
    """The text a member sees: tags gone, entities unescaped."""
    return html.unescape(re.sub(r"</?pre>", "", text))


async def test_a_week_on_telegram(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    fake.group_limit_window(2.0)  # Telegram's 20 messages a group a minute, in 2 s: replies past it wait their turn

    # the director (a group administrator) sets the channel by typing /kanaal in the group
    (answer,) = texts(await tg.say(LEIDER, "/kanaal"))
    assert "kanaal" in answer.lower()
    answer = texts(await tg.say(LEIDER, "/seizoen@clubbot naam=2026-27 start=2026-12-03 rondes=28"))
    assert "Seizoen 2026-27 gemaakt" in answer[0], answer
    for name, rating in [("Anna", 2100), ("Bert", 1950), ("Carla", 1800), ("Daan", 1700), ("Eva", 1600)]:
        (answer,) = texts(await tg.say(LEIDER, f"/speler {name} {rating}"))
        assert name in answer

    # a member who is not an administrator may not; the reply answers their message
    calls = await tg.say(ANNA, "/speler Zoë 1500", message_id=77)
    (refused,) = [c for c in calls if c.method == "sendMessage"]
    assert "alleen voor de wedstrijdleider" in refused.text
    assert refused.params["reply_parameters"]["message_id"] == 77

    # a member's name does not make an account theirs: the director answers each player's message with
    # /koppel, then they sign on
    (answer,) = texts(await tg.say(ANNA, "/aanmelden", message_id=80))
    assert "/koppel Anna" in answer, answer
    for n, player in enumerate([ANNA, BERT, CARLA, DAAN, EVA]):
        said = message(player, "hallo", message_id=90 + n)["message"]
        (answer,) = texts(await tg.say(LEIDER, f"/koppel {player['first_name']}", reply_to_message=said))
        assert f"nu {player['first_name']}" in answer, answer
        (answer,) = texts(await tg.say(player, "/aanmelden"))
        assert "aangemeld voor ronde 1" in answer, answer
    (answer,) = texts(await tg.say(BERT, "/afmelden"))
    assert "ronde 1" in answer
    (answer,) = texts(await tg.say(EVA, "/withdraw 2 teamwedstrijd"))
    assert "ronde 2" in answer

    # a private message works for a known member's personal commands, not for a stranger
    calls = await tg.say(DAAN, "/afmelden 3", chat=private_chat(DAAN))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.chat_id == str(DAAN["id"]) and "Daan" in answer.text and "ronde 3" in answer.text
    calls = await tg.say(STRANGER, "/afmelden", chat=private_chat(STRANGER))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.chat_id == str(STRANGER["id"]) and "/aanmelden" in answer.text

    # a command for another bot in the group is not ours: no answer (the next one is answered)
    before = len(fake.sent())
    fake.push({"message": {"message_id": 5, "date": 0, "chat": GROUP_CHAT, "from": ANNA, "text": "/stand@otherbot",
                           "entities": [{"type": "bot_command", "offset": 0, "length": 15}]}})  # fmt: skip
    await tg.say(ANNA, "/help")
    assert len(fake.sent()) == before + 1 and fake.sent()[-1].text.startswith("Opdrachten")

    # nothing is announced before the deadline's reminder and the publication
    assert fake.sent(GROUP) and all(not c.text.startswith(("Indeling", "Herinnering")) for c in fake.sent(GROUP))

    # on the playing day the channel is reminded of the deadline (after a command, the alarm's work runs)
    tg.clock.set(AMS_13_00)
    await tg.say(ANNA, "/indeling")
    (reminder,) = [c for c in fake.sent(GROUP) if c.text.startswith("Herinnering: ronde 1")]
    assert "reply_parameters" not in reminder.params

    # after the deadline a player's sign-off is refused and names the deadline; the reminder went out once
    tg.clock.set(AMS_17_30)
    (late,) = [c for c in await tg.say(EVA, "/afmelden") if c.text.startswith("Afmelden")]
    assert "2026-12-03 17:00" in late.text
    assert len([c for c in fake.sent(GROUP) if c.text.startswith("Herinnering: ronde 1")]) == 1

    # the publication passes: the alarm pairs the round, announced exactly once, a picture with the text
    tg.clock.set(AMS_18_05)
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    (post,) = [c for c in fake.sent(GROUP) if "Indeling ronde 1" in c.text]
    assert post.method == "sendPhoto" and post.files["photo"][1].startswith(PNG)
    assert post.params["parse_mode"] == "HTML"
    caption = plain(post.text)
    assert caption.startswith("Indeling ronde 1 (2026-12-03)")
    assert "Bord 1: Carla - Anna" in caption and "Bord 2: Eva - Daan" in caption

    # /indeling shows the pairing with the table in a <pre> block
    answer = texts(await tg.say(DAAN, "/indeling"))
    assert any("<pre>" in a and "Carla" in a for a in answer)

    # Anna (black) reports her win; the reply offers Carla the button to confirm it
    (report,) = [c for c in await tg.say(ANNA, "/uitslag 0-1") if c.method == "sendMessage"]
    (button,) = buttons(report)
    assert button["callback_data"].startswith("/bevestig 1 ~") and "Carla" in button["text"]

    # Anna cannot confirm her own report, nor Daan (the button is Carla's; it used to confirm his own
    # waiting game): refused, only they see it (an alert), nothing posted
    for who in (ANNA, DAAN):
        calls = await tg.send(callback(who, report.result, button["callback_data"]))
        (alert,) = [c for c in calls if c.method == "answerCallbackQuery"]
        assert alert.params["show_alert"] is True and "Deze knop is voor Carla" in alert.params["text"]
        assert not [c for c in calls if c.method.startswith("send")]

    # Carla confirms with the button: answered, the button removed, the confirmation posted
    calls = await tg.send(callback(CARLA, report.result, button["callback_data"]))
    assert [c.method for c in calls if c.method in ("answerCallbackQuery", "editMessageReplyMarkup")] == [
        "answerCallbackQuery",
        "editMessageReplyMarkup",
    ]
    assert "text" not in [c for c in calls if c.method == "answerCallbackQuery"][0].params
    assert any("bevestigd: 0-1" in c.text for c in calls if c.method == "sendMessage")

    # Daan reports 1-0 (Eva, white, won), Eva confirms: all results are in, the standings are announced once
    (report,) = [c for c in await tg.say(DAAN, "/uitslag 1-0") if c.method == "sendMessage"]
    await tg.send(callback(EVA, report.result, buttons(report)[0]["callback_data"]))
    await tg.alarm.run_due()
    standings = [c for c in fake.sent(GROUP) if c.text.startswith("Stand 2026-27 na ronde 1")]
    assert len(standings) == 1 and standings[0].method == "sendPhoto"
    assert "<pre>" in standings[0].text and standings[0].files["photo"][1].startswith(PNG)

    # /stand answers with a picture, the text as its caption
    (answer,) = [c for c in await tg.say(CARLA, "/stand") if c.method.startswith("send")]
    assert answer.method == "sendPhoto" and answer.files["photo"][1].startswith(PNG)
    lines = plain(answer.text).splitlines()
    assert lines[0] == "Stand 2026-27 na ronde 1"
    table = [line for line in lines if line[:3].strip().isdigit()]
    assert [row.split()[1] for row in table] == ["Anna", "Eva", "Bert", "Carla", "Daan"]
    assert table[0].split()[2] == "48" and table[2].split()[2] == "16.33"

    # every announcement went out exactly once: the reminder, the pairing, the standings
    assert len(tg.sent_announcements) == len(set(tg.sent_announcements)) == 3

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
    club = db.execute("SELECT external_id, name, channel_id FROM clubs WHERE platform = 'telegram'").fetchall()
    assert club == [(str(GROUP), "Schaakclub De Toren", str(GROUP))]
    linked = dict(db.execute("SELECT m.name, i.user_id FROM identities i JOIN members m ON m.id = i.member_id").fetchall())
    assert linked == {"Anna": "11", "Bert": "12", "Carla": "13", "Daan": "14", "Eva": "15"}
    assert db.execute("SELECT COUNT(*) FROM members WHERE name = 'Zoë'").fetchone()[0] == 0
    db.close()
