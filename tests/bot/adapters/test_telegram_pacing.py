"""Telegram's per-group limit (about 20 messages a minute; the fake answers 429 with ``retry_after`` above
it): a reply that must wait is queued for its chat and sent as Telegram allows, never dropped."""

from __future__ import annotations

import pytest

from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    GROUP,
    FakeTelegram,
    Harness,
    fake,
    message,
    tg,
    user,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER = user(1, "Leider")
HELPERS = [user(2 + n, f"Helper{n}") for n in range(15)]  # directors too: one director alone would be throttled
MEMBERS = [user(100 + n, f"Speler{n:02d} Lid") for n in range(30)]
PUBLICATION = "2026-12-03T17:05:00+00:00"


class HeldClock:
    """The fake's limit clock, moved by the test: a burst happens at one instant."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def club_of(tg: Harness, fake: FakeTelegram, members: list[dict]) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]] + [h["id"] for h in HELPERS]
    fake.group_limit_window(0.5)  # the set-up is not what is tested: let it pass quickly
    await tg.say(LEIDER, "/kanaal")
    await tg.say(LEIDER, "/seizoen naam=2026-27 start=2026-12-03")
    for n, member in enumerate(members):
        director = HELPERS[n % len(HELPERS)]
        await tg.say(director, f"/speler {member['first_name']} {2000 - n}")
        said = message(member, "hallo", message_id=900 + n)["message"]
        await tg.say(director, f"/koppel {member['first_name']}", reply_to_message=said)
        await tg.say(member, "/aanmelden")


async def burst(tg: Harness, fake: FakeTelegram, senders: list[dict], text: str) -> dict[int, list]:
    """Every sender types ``text`` at one instant of the limit's clock; the answers each got, by message id."""
    clock = HeldClock()
    fake.group_limit_window(3.0, clock)  # 20 messages in 3 s instead of a minute: retry_after is 3
    tg.wait_for_queued = False
    for n, sender in enumerate(senders):
        await tg.say(sender, text, message_id=2000 + n)
    refused = [c for c in fake.sent(GROUP, ok_only=False) if c.status == 429]
    assert refused and all(c.status == 429 for c in refused)
    clock.now = 4.0  # the window has passed: Telegram takes messages again
    assert tg.adapter is not None
    await tg.adapter.replies_out(timeout=120)
    answers: dict[int, list] = {}
    for call in fake.sent(GROUP):
        reply_to = (call.params.get("reply_parameters") or {}).get("message_id")
        if reply_to is not None and reply_to >= 2000:
            answers.setdefault(reply_to, []).append(call)
    return answers


async def test_thirty_members_signing_off_in_one_minute_all_get_their_confirmation(
    tg: Harness, fake: FakeTelegram
) -> None:
    await club_of(tg, fake, MEMBERS)
    answers = await burst(tg, fake, MEMBERS, "/afmelden")
    assert sorted(answers) == list(range(2000, 2030))  # every member answered, as an answer to their message
    for n, member in enumerate(MEMBERS):
        (answer,) = answers[2000 + n]
        assert member["first_name"] in answer.text and "afgemeld" in answer.text, answer.text
    # in order: the queued ones after the first 20
    order = [c.params["reply_parameters"]["message_id"] for c in fake.sent(GROUP) if c.params.get("reply_parameters")]
    assert order[-30:] == list(range(2000, 2030))


async def test_twenty_five_members_asking_for_the_pairing_after_its_publication_all_get_it(
    tg: Harness, fake: FakeTelegram
) -> None:
    members = MEMBERS[:25]
    await club_of(tg, fake, members)
    await tg.say(LEIDER, "/publiceer")
    answers = await burst(tg, fake, members, "/indeling")
    assert sorted(answers) == list(range(2000, 2025))
    for calls in answers.values():
        assert any("Indeling ronde 1" in c.text or "ronde 1" in c.text for c in calls), [c.text for c in calls]
