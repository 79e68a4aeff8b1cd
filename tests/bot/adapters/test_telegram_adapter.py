"""The Telegram adapter against the local fake Bot API: the command menus, announcements that fail and are
sent exactly once later, channels and forum topics, the directors' allow-list, button tokens, a group
that becomes a supergroup, files both ways, and the HTML rendering within Telegram's limits."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.adapters.problems import NOTICE_AFTER
from bot.adapters.telegram.adapter import TelegramAdapter
from bot.adapters.telegram.outgoing import MAX_CALLBACK_DATA
from bot.adapters.telegram.render import MAX_TEXT, html_chunks, units
from bot.config import Config
from bot.core.commands.replies import Button
from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    BOT_ID,
    GROUP,
    GROUP_CHAT,
    FakeTelegram,
    Harness,
    buttons,
    callback,
    fake,
    message,
    private_chat,
    tg,
    user,
)

# PTB itself reads RetryAfter.retry_after when it makes one, which warns about its coming type change
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER = user(1, "Leider")
ANNA = user(11, "Anna")
BERT = user(12, "Bert")
OTHER_CHAT = -1002000000002  # a channel for announcements, besides the group


async def setup_club(tg: Harness, fake: FakeTelegram, channel: str = "") -> None:
    """A club with a season, two players and a channel; the announcements so far sent."""
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    if channel:
        fake.channel(channel, [LEIDER["id"]])
    await tg.say(LEIDER, f"/kanaal {channel}".strip())
    await tg.say(LEIDER, "/seizoen naam=2026-27 start=2026-12-03")
    await tg.say(LEIDER, "/speler Anna 2100")
    await tg.say(LEIDER, "/speler Bert 1900")


async def linked_with_notices(tg: Harness, *members: dict) -> None:
    """Members linked to their accounts, each with the pairing notices on (in their private chat)."""
    for who in members:
        await tg.say(LEIDER, f"/koppel {who['first_name']} <@{who['id']}>")
        calls = await tg.say(who, "/mijn meldingen aan", chat=private_chat(who))
        assert any("privébericht" in c.text for c in calls)


def pending(config: Config) -> list[tuple[str, str | None]]:
    db = sqlite3.connect(config.db_path)
    try:
        return db.execute("SELECT kind, sent_at FROM announcements ORDER BY id").fetchall()
    finally:
        db.close()


def pairing_posts(fake: FakeTelegram, chat: int | str, ok_only: bool = True) -> list:
    return [c for c in fake.sent(chat, ok_only=ok_only) if "Indeling ronde 1" in c.text]


# ------------------------------------------------------------------------------------------------ menus
async def test_command_menus_per_language_and_director_scope(tg: Harness, fake: FakeTelegram) -> None:
    calls = fake.of("setMyCommands")
    menus = {(c.params["scope"]["type"], c.params.get("language_code")): c.params["commands"] for c in calls}
    assert set(menus) == {
        ("default", None), ("default", "nl"), ("default", "en"),
        ("all_chat_administrators", None), ("all_chat_administrators", "nl"), ("all_chat_administrators", "en"),
    }  # fmt: skip
    names = {key: [c["command"] for c in commands] for key, commands in menus.items()}
    assert names[("default", None)] == names[("default", "nl")]
    assert names[("default", "nl")][:4] == ["aanmelden", "afmelden", "stand", "indeling"]
    assert names[("default", "en")][:4] == ["join", "signoff", "standings", "pairings"]
    assert "help" in names[("default", "en")] and "hulp" not in names[("default", "en")]
    # director commands only in the administrators' scope
    assert "seizoen" not in names[("default", "nl")] and "publiceer" not in names[("default", "nl")]
    assert {"seizoen", "publiceer", "kanaal", "wedstrijdleider"} <= set(names[("all_chat_administrators", "nl")])
    assert {"season", "publish", "channel"} <= set(names[("all_chat_administrators", "en")])
    english = {c["command"]: c["description"] for c in menus[("default", "en")]}
    assert english["join"].startswith("join")
    for commands in menus.values():
        assert len(commands) <= 100
        for c in commands:
            assert 1 <= len(c["command"]) <= 32 and c["command"].islower()
            assert 1 <= len(c["description"]) <= 256


async def test_english_alias_and_botname_work(tg: Harness, fake: FakeTelegram) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    calls = await tg.say(LEIDER, "/language@clubbot en")
    assert [c.text for c in calls if c.method == "sendMessage"] == ["I will speak English in this club from now on."]


# ------------------------------------------------------------------------------------------------ failures
async def test_a_long_rate_limit_leaves_the_pairing_pending_until_it_is_sent_once(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake, str(OTHER_CHAT))
    fake.fail_chat(OTHER_CHAT, 429, retry_after=30)
    calls = await tg.say(LEIDER, "/publiceer")
    assert any("Ronde 1" in c.text or "ronde 1" in c.text for c in calls if c.chat_id == str(GROUP))
    (refused,) = pairing_posts(fake, OTHER_CHAT, ok_only=False)
    assert refused.status == 429
    assert pending(config)[-1] == ("pairing", None)

    # the alarm's retry: sent, and only once however often the alarm runs
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    (post,) = pairing_posts(fake, OTHER_CHAT)
    assert post.method == "sendPhoto"
    assert pending(config)[-1][1] is not None
    assert len(pairing_posts(fake, OTHER_CHAT, ok_only=False)) == 2


async def test_a_short_rate_limit_is_waited_out(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    await setup_club(tg, fake, str(OTHER_CHAT))
    fake.fail_chat(OTHER_CHAT, 429, retry_after=1)
    await tg.say(LEIDER, "/publiceer")
    assert [c.status for c in pairing_posts(fake, OTHER_CHAT, ok_only=False)] == [429, 200]
    assert pending(config)[-1][1] is not None


async def test_a_kicked_bot_keeps_the_announcement_and_tells_a_director_once(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake, str(OTHER_CHAT))
    fake.fail_chat(OTHER_CHAT, 403, times=100)
    await tg.say(LEIDER, "/publiceer")
    await tg.alarm.run_due()
    assert pairing_posts(fake, OTHER_CHAT) == [] and pending(config)[-1] == ("pairing", None)

    tg.clock.advance(NOTICE_AFTER)  # failing for a few minutes: now a director hears it
    # the next director command in the group is followed by the reason, once; a member is not told
    calls = await tg.say(ANNA, "/help")
    assert not any("Let op" in c.text for c in calls)
    calls = await tg.say(LEIDER, "/indeling")
    (note,) = [c for c in calls if c.text.startswith("Let op")]
    assert note.chat_id == str(GROUP) and str(OTHER_CHAT) in note.text
    calls = await tg.say(LEIDER, "/indeling")
    assert not any(c.text.startswith("Let op") for c in calls)

    # the bot may post again: the pairing goes out once
    fake.allow(OTHER_CHAT)
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    assert len(pairing_posts(fake, OTHER_CHAT)) == 1
    assert [k for k, sent in pending(config) if sent is None] == []


async def test_a_long_announcement_resumes_where_it_failed(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    """An announcement of several messages: when the second fails, the retry sends only the rest."""
    await setup_club(tg, fake)
    club = await tg.store.club_by_external("telegram", str(GROUP))
    assert club is not None
    body = "\n".join(f"Regel {i:03d} " + "x" * 60 for i in range(150))  # about 11000 characters: three messages
    await tg.store.queue_announcement(club.id, None, "notice", body, tg.clock.now())
    fake.fail_chat(GROUP, 429, after=1, retry_after=30)
    await tg.alarm.run_due()
    first = [c for c in fake.sent(GROUP, ok_only=False) if "Regel" in c.text]
    assert [c.status for c in first] == [200, 429]
    assert pending(config)[-1] == ("notice", None)
    await tg.alarm.run_due()
    posts = [c for c in fake.sent(GROUP) if "Regel" in c.text]
    assert len(posts) == 3 and all(units(c.text) <= MAX_TEXT for c in posts)
    lines = "\n".join(c.text for c in posts).splitlines()
    assert lines == body.splitlines()  # every line once, in order
    assert pending(config)[-1][1] is not None


async def test_a_group_that_became_a_supergroup_keeps_its_club(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    old_group = {"id": -4000001, "type": "group", "title": "Damclub"}
    new_id = -1004000001
    fake.admins[str(old_group["id"])] = [LEIDER["id"]]
    await tg.say(LEIDER, "/kanaal", chat=old_group)
    await tg.say(LEIDER, "/seizoen naam=2026-27 start=2026-12-03", chat=old_group)
    await tg.say(LEIDER, "/speler Anna 2100", chat=old_group)
    await tg.say(LEIDER, "/speler Bert 1900", chat=old_group)
    # an announcement finds the group moved: it follows to the new chat and the club moves with it
    fake.fail_chat(old_group["id"], 400, after=1, migrate_to=new_id)  # the reply to /publiceer goes first
    fake.admins[str(new_id)] = [LEIDER["id"]]
    await tg.say(LEIDER, "/publiceer", chat=old_group)
    assert len(pairing_posts(fake, new_id)) == 1 and pairing_posts(fake, old_group["id"]) == []
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT external_id, channel_id FROM clubs").fetchall() == [(str(new_id), str(new_id))]
    db.close()
    # the service message of a later migration moves a club too
    fake.admins["-4000002"] = [LEIDER["id"]]
    await tg.say(LEIDER, "/kanaal", chat={"id": -4000002, "type": "group", "title": "Goclub"})
    fake.push({"message": {"message_id": 9, "date": 0, "chat": {"id": -4000002, "type": "group", "title": "Goclub"},
                           "from": LEIDER, "migrate_to_chat_id": -1004000002}})  # fmt: skip
    await tg.say(LEIDER, "/help", chat={"id": -1004000002, "type": "supergroup", "title": "Goclub"})
    db = sqlite3.connect(config.db_path)
    assert ("-1004000002", "Goclub") in db.execute("SELECT external_id, name FROM clubs").fetchall()
    assert db.execute("SELECT COUNT(*) FROM clubs").fetchone()[0] == 2
    db.close()


# ------------------------------------------------------------------------------------------------ channels
async def test_kanaal_in_a_forum_topic_announces_in_that_topic(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    forum = {**GROUP_CHAT, "is_forum": True}
    calls = await tg.say(LEIDER, "/kanaal", chat=forum, message_thread_id=77, is_topic_message=True)
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert answer.params["message_thread_id"] == 77
    await tg.say(LEIDER, "/seizoen naam=2026-27 start=2026-12-03", chat=forum)
    await tg.say(LEIDER, "/speler Anna 2100", chat=forum)
    await tg.say(LEIDER, "/speler Bert 1900", chat=forum)
    await tg.say(LEIDER, "/publiceer", chat=forum)
    (post,) = pairing_posts(fake, GROUP)
    assert post.params["message_thread_id"] == 77 and "reply_parameters" not in post.params
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT channel_id FROM clubs").fetchone()[0] == f"{GROUP}/77"
    db.close()


async def test_kanaal_naming_a_public_channel(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake, "@clubnieuws")
    await tg.say(LEIDER, "/publiceer")
    assert len(pairing_posts(fake, "@clubnieuws")) == 1 and pairing_posts(fake, GROUP) == []


def club_channel(config: Config) -> str | None:
    db = sqlite3.connect(config.db_path)
    try:
        return db.execute("SELECT channel_id FROM clubs").fetchone()[0]
    finally:
        db.close()


@pytest.mark.expect_refusal("getChat 400 Bad Request: chat not found")  # asked of the chats that do not exist
async def test_kanaal_takes_only_the_group_or_a_channel_both_bot_and_director_run(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    """Another club's group, a channel the director does not administer, a channel where the bot may not
    post, a chat that does not exist: each is refused with the reason, asking Telegram, and the club's
    announcements stay where they were."""
    await setup_club(tg, fake)
    assert club_channel(config) == str(GROUP)
    other_group = -1002000000077
    fake.admins[str(other_group)] = [LEIDER["id"], BOT_ID]  # the bot and the director run it, but it is a group
    fake.channel("@anderman", [77])  # someone else's channel, the bot is an admin there
    fake.channel("@stilkanaal", [LEIDER["id"]], bot_posts=False)
    for elsewhere in (str(other_group), "@anderman", "@stilkanaal", "@bestaatniet", "-100123456789", "kanaal!",
                      f"{GROUP}/²", f"{GROUP}/٣", "1_000", "@chaküller"):
        calls = await tg.say(LEIDER, f"/kanaal {elsewhere}")
        assert any("zowel de bot" in c.text for c in calls), (elsewhere, [c.text for c in calls])
        assert club_channel(config) == str(GROUP)
    fake.channel("@clubnieuws", [LEIDER["id"]])
    calls = await tg.say(LEIDER, "/kanaal @clubnieuws")
    assert any("Aankondigingen komen voortaan" in c.text for c in calls)
    assert club_channel(config) == "@clubnieuws"


# ------------------------------------------------------------------------------------------------ directors
async def test_administrators_allow_list_directors(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    await tg.say(BERT, "/aanmelden", message_id=40)
    bert_message = message(BERT, "/aanmelden", message_id=40)["message"]

    # a member who is not an administrator cannot appoint; Bert is no director yet
    calls = await tg.say(ANNA, "/wedstrijdleider", reply_to_message=bert_message)
    assert any("Alleen beheerders" in c.text for c in calls)
    calls = await tg.say(BERT, "/speler Zoë 1500")
    assert any("alleen voor de wedstrijdleider" in c.text for c in calls)

    # the administrator answers Bert's message: Bert is a director, in the group and in a private chat
    calls = await tg.say(LEIDER, "/wedstrijdleider", reply_to_message=bert_message)
    assert any("Bert is nu wedstrijdleider" in c.text for c in calls)
    calls = await tg.say(BERT, "/speler Zoë 1500")
    assert any("Zoë" in c.text and "alleen" not in c.text for c in calls)
    calls = await tg.say(BERT, "/speler Xander 1400", chat=private_chat(BERT))
    assert any("Xander" in c.text and "alleen" not in c.text for c in calls)
    calls = await tg.say(LEIDER, "/director")
    assert any("- Bert" in c.text for c in calls)

    # and takes it back
    calls = await tg.say(LEIDER, "/wedstrijdleider weg", reply_to_message=bert_message)
    assert any("Bert is geen wedstrijdleider meer" in c.text for c in calls)
    calls = await tg.say(BERT, "/speler Yara 1300")
    assert any("alleen voor de wedstrijdleider" in c.text for c in calls)
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT COUNT(*) FROM telegram_directors").fetchone()[0] == 0
    assert {r[0] for r in db.execute("SELECT name FROM members")} == {"Bert", "Zoë", "Xander"}
    db.close()


async def test_administrators_are_read_once_a_minute(tg: Harness, fake: FakeTelegram) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    for _ in range(3):
        await tg.say(LEIDER, "/help")
    assert len(fake.of("getChatAdministrators")) == 1


# ------------------------------------------------------------------------------------------------ buttons
async def test_a_long_button_command_goes_by_token(tg: Harness, fake: FakeTelegram) -> None:
    adapter = tg.adapter
    assert isinstance(adapter, TelegramAdapter)
    command = "/help" + " " * 80
    markup = adapter.keyboard([Button("Hulp", command), Button("Stand", "/stand")])
    assert markup is not None
    (long_button,), (short_button,) = markup.inline_keyboard
    assert short_button.callback_data == "/stand"
    assert isinstance(long_button.callback_data, str) and len(long_button.callback_data.encode()) <= MAX_CALLBACK_DATA
    on = {"message_id": 3, "date": 0, "chat": GROUP_CHAT, "text": "knoppen"}
    calls = await tg.send(callback(ANNA, on, long_button.callback_data))
    assert any(c.text.startswith("Opdrachten") for c in calls if c.method == "sendMessage")
    # a token the bot does not know (after a restart) is answered, to the presser only
    press = callback(ANNA, on, "#0123456789abcdef")
    press["callback_query"]["id"] = "cq-after-restart"  # a press of its own, as Telegram numbers them
    calls = await tg.send(press)
    (alert,) = [c for c in calls if c.method == "answerCallbackQuery"]
    assert "werkt niet meer" in alert.params["text"] and not fake.sent(GROUP)[-1].text.startswith("Deze knop")


# ------------------------------------------------------------------------------------------------ files
async def test_export_is_a_document_and_import_takes_one(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    await setup_club(tg, fake)
    calls = await tg.say(LEIDER, "/exporteer")
    (document,) = [c for c in calls if c.method == "sendDocument"]
    name, content = document.files["document"]
    assert name.endswith(".json") and json.loads(content)
    # the file comes back as a document with the command as its caption
    fake.files["documents/file-1"] = content
    update = message(LEIDER, "", message_id=50)
    del update["message"]["text"]
    update["message"].update(
        caption="/importeer naam=2027-28 start=2027-01-07 toch",  # 2026-27 still runs
        document={"file_id": "file-1", "file_unique_id": "u1", "file_name": name, "file_size": len(content)},
    )
    calls = await tg.send(update)
    assert any("2027-28" in c.text for c in calls if c.method == "sendMessage"), [c.text for c in calls]
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT COUNT(*) FROM seasons WHERE name = '2027-28'").fetchone()[0] == 1
    db.close()


# ------------------------------------------------------------------------------------------------ rendering
def test_html_chunks_escape_and_close_pre_blocks() -> None:
    (chunk,) = html_chunks(["Stand <A> & B"], ["1  Anna <3>", "2  Bert"])
    assert chunk == "Stand &lt;A&gt; &amp; B\n<pre>1  Anna &lt;3&gt;\n2  Bert</pre>"
    rows = [f"{i:3d}  Speler {i:03d}  {'9' * 20}" for i in range(300)]
    chunks = html_chunks(["Titel"], rows)
    assert len(chunks) > 1
    for chunk in chunks:
        assert units(chunk) <= MAX_TEXT
        assert chunk.count("<pre>") == chunk.count("</pre>") == (0 if "<pre>" not in chunk else 1)
    assert chunks[0].startswith("Titel\n<pre>") and chunks[1].startswith("<pre>")
    # emoji count double, as Telegram counts them
    assert all(units(c) <= 100 for c in html_chunks(["😀" * 40] * 5, limit=100))


@pytest.mark.expect_refusal("getMe 401 Unauthorized")
async def test_a_wrong_token_fails_the_start_and_leaves_nothing_running(fake: FakeTelegram, config: Config) -> None:
    from telegram.error import InvalidToken

    from bot.core.running.clock import ShiftedClock
    from bot.systems import make_core
    from bot.core.storage.store import Store

    store = await Store.open(config.db_path)
    try:
        wrong = Config(**{**config.__dict__, "telegram_token": "999:wrong"})

        async def nothing() -> None:
            return None

        adapter = TelegramAdapter(make_core(store, wrong, ShiftedClock()), wrong, nothing, base_url=fake.base_url)
        with pytest.raises(InvalidToken):
            await adapter.start()
        assert not adapter.app.running and fake.of("getUpdates", "setMyCommands") == []
    finally:
        await store.close()


async def test_a_picture_with_a_long_text_comes_first_and_the_text_after(tg: Harness) -> None:
    from bot.core.commands.replies import Reply, Table

    assert tg.adapter is not None
    table = Table(("#", "Naam"), tuple((str(i), f"Speler {i:03d}") for i in range(1, 120)))
    parts = tg.adapter.reply_parts(Reply(lines=("Stand",), table=table, image=b"\x89PNG", buttons=(Button("Ok", "/help"),)))
    assert [method for method, _ in parts] == ["send_photo", "send_message"]
    assert "caption" not in parts[0][1] and parts[1][1]["text"].startswith("Stand\n<pre>")
    assert "reply_markup" in parts[-1][1] and "reply_markup" not in parts[0][1]
    short = tg.adapter.reply_parts(Reply(lines=("Stand",), table=Table(("#",), (("1",),)), image=b"\x89PNG"))
    assert [method for method, _ in short] == ["send_photo"] and short[0][1]["caption"] == "Stand\n<pre>#\n-\n1</pre>"


async def test_an_anonymous_administrator_is_a_director(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    anonymous = user(1087968824, "Group")
    anonymous["is_bot"] = True
    calls = await tg.say(anonymous, "/speler Anna 2100", sender_chat=GROUP_CHAT)
    assert any("Anna" in c.text and "alleen" not in c.text for c in calls)


async def test_a_member_of_two_clubs_is_sent_to_the_group(tg: Harness, fake: FakeTelegram) -> None:
    other = {"id": -1003000000003, "type": "supergroup", "title": "Damclub"}
    await tg.say(ANNA, "/aanmelden")
    await tg.say(ANNA, "/aanmelden", chat=other)
    calls = await tg.say(ANNA, "/stand", chat=private_chat(ANNA))
    (answer,) = [c for c in calls if c.method == "sendMessage"]
    assert "meer dan één club" in answer.text and answer.chat_id == str(ANNA["id"])


# ------------------------------------------------------------------------------------------------ private files
async def test_a_backup_asked_for_in_the_group_goes_to_the_private_chat(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    calls = await tg.say(LEIDER, "/backup")
    (document,) = [c for c in calls if c.method == "sendDocument"]
    assert document.chat_id == str(LEIDER["id"])  # only the director has the club's data
    assert document.files and next(iter(document.files.values()))[1].startswith(b"SQLite format 3")
    (note,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(GROUP)]
    assert "privégesprek" in note.text


async def test_a_private_file_is_not_put_in_the_group_when_the_bot_may_not_write_privately(
    tg: Harness, fake: FakeTelegram
) -> None:
    await setup_club(tg, fake)
    fake.fail_chat(LEIDER["id"], 403, description="Forbidden: bot can't initiate conversation with a user")
    calls = await tg.say(LEIDER, "/backup")
    assert [c for c in calls if c.method == "sendDocument" and c.ok] == []
    (note,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(GROUP)]
    assert "Start" in note.text and "privégesprek" in note.text


# ------------------------------------------------------------------------------------------------ linking accounts
async def test_a_link_code_asked_for_in_the_group_goes_only_to_the_directors_private_chat(
    tg: Harness, fake: FakeTelegram
) -> None:
    await setup_club(tg, fake)
    calls = await tg.say(LEIDER, "/koppel Anna")
    (code,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(LEIDER["id"])]
    assert "Koppelcode voor Anna" in code.text
    (note,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == str(GROUP)]
    assert "privégesprek" in note.text and "Koppelcode" not in note.text
    # when the bot may not write privately, the group hears how, and never the code
    fake.fail_chat(LEIDER["id"], 403, description="Forbidden: bot can't initiate conversation with a user")
    calls = await tg.say(LEIDER, "/koppel Bert")
    assert all("Koppelcode" not in c.text for c in calls if c.method == "sendMessage" and c.chat_id == str(GROUP))


# ------------------------------------------------------------------------------------------------ notices
async def test_a_private_notice_goes_to_the_members_own_chat_and_a_closed_one_is_dropped(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake)
    await linked_with_notices(tg, ANNA, BERT)
    fake.fail_chat(BERT["id"], 403, description="Forbidden: bot can't initiate conversation with a user")
    await tg.say(LEIDER, "/publiceer")
    await tg.alarm.run_due()
    (notice,) = [c for c in fake.sent(ANNA["id"]) if "Ronde 1" in c.text]
    assert "tegen Bert" in notice.text and notice.method == "sendMessage"
    assert [c for c in fake.sent(BERT["id"]) if "Ronde 1" in c.text] == []
    # Bert never started a chat with the bot: his notice is dropped (logged), not retried for ever
    assert all(sent is not None for kind, sent in pending(config) if kind.startswith("notice:"))
    assert len([k for k, _ in pending(config) if k.startswith("notice:")]) == 2


async def test_a_text_mention_stands_for_the_linked_member(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    """A member picked from Telegram's list (a text mention: no @username needed) is the member linked to
    that account, wherever a name is typed."""
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    await tg.say(LEIDER, "/seizoen naam=2026-27 start=2026-12-03")
    await tg.say(LEIDER, '/speler "Anna de Vries" 2100')
    await tg.say(LEIDER, f'/koppel "Anna de Vries" <@{ANNA["id"]}>')
    update = message(LEIDER, "/afmelden Anna", message_id=77)
    update["message"]["entities"].append({"type": "text_mention", "offset": 10, "length": 4, "user": ANNA})
    calls = await tg.send(update)
    assert any("Anna de Vries" in c.text for c in calls), [c.text for c in calls]
    db = sqlite3.connect(config.db_path)
    try:
        assert db.execute("SELECT m.name FROM signoffs s JOIN members m ON m.id = s.member_id").fetchall() == [("Anna de Vries",)]
    finally:
        db.close()


async def test_mijn_typed_in_the_group_answers_in_the_private_chat(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    await tg.say(LEIDER, f"/koppel Anna <@{ANNA['id']}>")
    calls = await tg.say(ANNA, "/mijn")
    in_group = [c for c in calls if c.chat_id == str(GROUP) and c.method.startswith("send")]
    private = [c for c in calls if c.chat_id == str(ANNA["id"]) and c.method.startswith("send")]
    assert private and any("Anna in 2026-27" in (c.text or "") for c in private), [c.text for c in calls]
    assert all("Anna in 2026-27" not in (c.text or "") for c in in_group)
