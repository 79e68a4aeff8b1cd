"""Telling the right person, in their language (issue 46 §4), on Telegram through the real python-telegram-bot
against the local fake: a rate limit of two seconds is retried silently, a failure that lasts a few minutes is
told once to a director in the club's language without Telegram's raw error, and a picture refused because the
bot may not send photos follows its text once the rights are back."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from PIL import Image

from bot.adapters.problems import NOTICE_AFTER
from bot.config import Config
from tests.bot.adapters.fake_telegram import GROUP, FakeTelegram, Harness, fake, tg  # noqa: F401 - fixtures
from tests.bot.adapters.test_telegram_adapter import (
    ANNA, BERT, LEIDER, OTHER_CHAT, linked_with_notices, pairing_posts, pending, setup_club,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

FEW_MINUTES = NOTICE_AFTER + timedelta(seconds=10)
RAW = ("Too Many Requests", "retry after", "Bad Request", "Forbidden", "rights to send photos", "429", "400")


def announced(fake: FakeTelegram) -> list:
    """The pairing's posts in the group (the replies to commands there answer a message)."""
    return [c for c in pairing_posts(fake, GROUP) if "reply_parameters" not in c.params]


def told(calls: list) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.text.startswith(("Let op", "Note:"))]


async def test_a_two_second_rate_limit_is_retried_without_a_word_to_the_director(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake, str(OTHER_CHAT))
    fake.fail_chat(OTHER_CHAT, 429, retry_after=2)  # longer than the adapter waits at once (1 s here)
    calls = await tg.say(LEIDER, "/publiceer")
    assert [c.status for c in pairing_posts(fake, OTHER_CHAT, ok_only=False)] == [429]
    assert told(await tg.say(LEIDER, "/indeling")) == [] and told(calls) == []
    await tg.alarm.run_due()  # the retry
    assert len(pairing_posts(fake, OTHER_CHAT)) == 1 and pending(config)[-1][1] is not None
    tg.clock.advance(FEW_MINUTES)
    assert told(await tg.say(LEIDER, "/indeling")) == []


async def test_a_rate_limit_lasting_minutes_is_told_once_in_the_clubs_language(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake, str(OTHER_CHAT))
    await tg.say(LEIDER, "/taal en")
    fake.fail_chat(OTHER_CHAT, 429, retry_after=30, times=100)
    await tg.say(LEIDER, "/publiceer")
    assert told(await tg.say(LEIDER, "/indeling")) == []
    tg.clock.advance(FEW_MINUTES)
    await tg.alarm.run_due()
    assert told(await tg.say(ANNA, "/indeling")) == []  # a member is not told
    (note,) = told(await tg.say(LEIDER, "/indeling"))
    assert note.startswith("Note: Telegram has been unreachable or overloaded for a few minutes"), note
    assert not any(raw in note for raw in RAW), note
    assert told(await tg.say(LEIDER, "/indeling")) == []  # once
    assert pairing_posts(fake, OTHER_CHAT) == [] and pending(config)[-1] == ("pairing", None)


async def test_a_picture_refused_for_missing_rights_follows_the_text_once_the_rights_are_back(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake)  # the announcements go to the club's group
    fake.no_photos.add(str(GROUP))
    await tg.say(LEIDER, "/publiceer")
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    (text,) = announced(fake)  # the text went at once, once
    assert text.method == "sendMessage"
    refused = [c for c in fake.of("sendPhoto") if c.chat_id == str(GROUP)]
    assert len(refused) == 3 and not any(c.ok for c in refused)
    assert pending(config)[-1] == ("pairing", None)  # the picture is owed
    tg.clock.advance(FEW_MINUTES)
    (note,) = told(await tg.say(LEIDER, "/indeling"))
    assert "geen foto's sturen" in note and "tekst is geplaatst" in note and not any(raw in note for raw in RAW), note
    # the group lets members send photos again: the picture follows, alone, once
    fake.no_photos.clear()
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    photos = [c for c in fake.of("sendPhoto") if c.chat_id == str(GROUP) and c.ok]
    assert len(photos) == 1 and "caption" not in photos[0].params
    assert len(announced(fake)) == 1 and pending(config)[-1][1] is not None
    assert told(await tg.say(LEIDER, "/indeling")) == []


async def test_a_member_without_a_chat_with_the_bot_is_named_to_the_director_once_and_in_the_member_list(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    await setup_club(tg, fake)
    await linked_with_notices(tg, ANNA, BERT)
    fake.fail_chat(BERT["id"], 403, times=5, description="Forbidden: bot can't initiate conversation with a user")
    await tg.say(LEIDER, "/publiceer")
    await tg.alarm.run_due()
    assert [c for c in fake.sent(BERT["id"]) if "Ronde 1" in c.text] == []
    (note,) = told(await tg.say(LEIDER, "/indeling"))
    assert "dit lid kan geen privéberichten" in note and "Bert" in note and "Anna" not in note and "https://t.me/clubbot?start=notices" in note, note  # a link that opens their chat
    assert told(await tg.say(LEIDER, "/indeling")) == []  # once, not per notice
    (listing,) = [c.text for c in await tg.say(LEIDER, "/leden") if "Privéberichten" in c.text]
    rows = {line.split()[0]: line.removesuffix("</pre>") for line in listing.splitlines() if line.startswith(("Anna", "Bert"))}
    assert rows["Bert"].endswith("kan niet") and not rows["Anna"].endswith("kan niet"), listing


async def test_a_long_private_notice_is_split_into_several_messages_not_cut(tg: Harness, fake: FakeTelegram) -> None:
    await setup_club(tg, fake)
    await tg.say(LEIDER, f"/koppel Anna <@{ANNA['id']}>")
    club = await tg.store.club_by_external("telegram", str(GROUP))
    assert club is not None
    body = "\n".join(f"Regel {i:03d} " + "x" * 60 for i in range(150))  # about 10,000 characters
    await tg.store.queue_announcement(club.id, None, "notice:lang", body, tg.clock.now(), recipient=str(ANNA["id"]))
    await tg.alarm.run_due()
    messages = [c.text for c in fake.sent(ANNA["id"]) if "Regel" in c.text]
    assert len(messages) == 3 and "\n".join(messages).splitlines() == body.splitlines()


async def test_an_owed_picture_of_a_long_announcement_follows_all_its_texts_each_sent_once(
    tg: Harness, fake: FakeTelegram, config: Config
) -> None:
    """The picture first, then three messages of text: refused for missing rights, and the second text
    refused for a while (429); the texts each go once, in order, and the picture after them."""
    await setup_club(tg, fake)
    club = await tg.store.club_by_external("telegram", str(GROUP))
    assert club is not None
    png = io.BytesIO()
    Image.new("RGB", (40, 20), (26, 95, 180)).save(png, "PNG")
    body = "\n".join(f"Regel {i:03d} " + "x" * 60 for i in range(150))  # about 11,000 characters: three messages
    await tg.store.queue_announcement(club.id, None, "notice", body, tg.clock.now(), image=png.getvalue())
    fake.no_photos.add(str(GROUP))
    fake.fail_chat(GROUP, 429, after=2, retry_after=30)  # the refused picture, the first text, then 429
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    texts = [c.text for c in fake.sent(GROUP) if "Regel" in c.text]
    assert len(texts) == 3 and "\n".join(texts).replace("<pre>", "").replace("</pre>", "").splitlines() == body.splitlines()
    assert pending(config)[-1] == ("notice", None)
    fake.no_photos.clear()
    await tg.alarm.run_due()
    await tg.alarm.run_due()
    posts = [c for c in fake.sent(GROUP) if "Regel" in c.text or c.method == "sendPhoto"]
    assert [c.method for c in posts] == ["sendMessage"] * 3 + ["sendPhoto"]
    assert pending(config)[-1][1] is not None
