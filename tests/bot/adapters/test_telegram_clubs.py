"""Platform tests on Telegram against the strict fake: a club of awkward names (HTML stays escaped, the
names come out as typed) and a 150-member club with a 75-board round (every message within Telegram's
limits, every board announced)."""

from __future__ import annotations

import html
import re
from datetime import datetime, timezone

import pytest

from tests.bot.adapters.fake_telegram import (  # noqa: F401 - fixtures
    GROUP,
    FakeTelegram,
    Harness,
    fake,
    tg,
    user,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER = user(1, "Leider")
AFTER_PUBLICATION = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)
AWKWARD = [
    "<b>Vet</b>", "Tom & Jerry", "a>b", "snake_case_naam", "*ster*", "[NL] Lotte", "`code`", "||spoiler||",
    "Schaak ♟️ 🏆", "שלמה לוי", "محمد علي", "Abcdefghijklmnopqrstuvwxyzabcdef", "[gratis](https://x.example)",
    "&amp; echt", "Jan <script>",
]  # fmt: skip


def shown(text: str) -> str:
    """What a member sees of an HTML message: tags gone, entities unescaped."""
    return html.unescape(re.sub(r"</?[a-z-]+[^>]*>", "", text))


async def club(tg: Harness, fake: FakeTelegram, names: list[str]) -> list[dict]:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    fake.group_limit_window(0.2)  # set-up: the group's limit is tested elsewhere
    await tg.say(LEIDER, "/kanaal")
    await tg.say(LEIDER, "/seizoen naam=2026-27 start=2026-12-03")
    members = [user(1000 + n, name) for n, name in enumerate(names)]
    for member in members:
        await tg.say(member, "/aanmelden")
    return members


async def test_awkward_names_stay_names_and_the_html_stays_escaped(tg: Harness, fake: FakeTelegram) -> None:
    await club(tg, fake, AWKWARD)
    tg.clock.set(AFTER_PUBLICATION)
    await tg.alarm.run_due()
    await tg.say(LEIDER, "/indeling")
    await tg.say(LEIDER, "/stand")
    # every request passed the strict fake (its HTML parsed by Telegram's rules); the names come out as typed
    everything = "\n".join(shown(c.text) for c in fake.sent(GROUP))
    for name in AWKWARD:
        assert name in everything, name
    assert "<b>Vet</b>" not in "".join(c.text for c in fake.sent(GROUP) if c.params.get("parse_mode") == "HTML")
    (pairing,) = [c for c in fake.sent(GROUP) if "Indeling ronde 1" in c.text and "reply_parameters" not in c.params]
    assert "&lt;b&gt;Vet&lt;/b&gt;" in pairing.text


async def test_a_club_of_150_with_a_round_of_75_boards(tg: Harness, fake: FakeTelegram) -> None:
    await club(tg, fake, [f"Lid{n:03d} Achternaam" for n in range(150)])
    tg.clock.set(AFTER_PUBLICATION)
    await tg.alarm.run_due()
    posts = [c for c in fake.sent(GROUP) if "reply_parameters" not in c.params and c.text]
    boards = {int(b) for c in posts for b in re.findall(r"Bord (\d+):", shown(c.text))}
    assert boards == set(range(1, 76))  # every board announced, each message within Telegram's limits
    answer = "\n".join(shown(c.text) for c in await tg.say(LEIDER, "/stand"))
    assert "Pagina 1 van 4" in answer  # the standings of 150 in pages of a message each
    answer = "\n".join(shown(c.text) for c in await tg.say(LEIDER, "/stand pagina=4"))
    assert "Lid149" in answer or "Pagina 4 van 4" in answer, answer[:300]
