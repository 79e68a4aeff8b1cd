"""Names stay names on Discord: a club whose members chose awkward names (Markdown, HTML, mentions, emoji,
right-to-left, 32 characters, a name that is a Markdown link). Every announcement and public reply shows
each name as typed and formats none of it (``discord_markdown.live_markdown``: what Discord's client would
make of the text), and no mention pings anyone."""

from __future__ import annotations

from datetime import datetime, timezone

from tests.bot.adapters.discord_markdown import live_markdown, shown
from tests.bot.adapters.fake_discord import ANNOUNCE, EPHEMERAL, FakeDiscord, Harness, bot, content, fake, flags  # noqa: F401

SUPPRESS_EMBEDS = 1 << 2
AFTER_PUBLISH = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)

AWKWARD = [
    "[gratis](https://x.example)",  # a masked link with text the member chose: a phishing vector
    "Lotte [NL] [Klik hier](https://example.com)",
    "<b>Anna</b> & <i>Co</i>",
    "Bert_de_Vries_",
    "*Carla* **vet**",
    "`Daan` ```code```",
    "||verborgen||",
    "~~Eva~~ > quote",
    "# Kop",
    "@everyone",
    "<t:1700000000:R> <#720000000000000001>",
    "Fien ♞🏆 🇳🇱",
    "محمد العلي",
    "דוד לוי",
    "Wilhelmina Johanna van Oranje-Na",  # 32 characters
    "- Gijs",
    "\u202eHenk",  # a right-to-left override: it would turn the rest of the line around
]
OVERRIDE = "\u202e"


def inert(text: str) -> None:
    assert live_markdown(text) == [], (live_markdown(text), text)


async def test_awkward_names_are_shown_as_typed_and_format_nothing(bot: Harness, fake: FakeDiscord) -> None:
    assert len(AWKWARD[14]) == 32
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    await bot.command("seizoen", "Leider", {"naam": "S", "start": "2026-12-03", "rondes": 4}, director=True)
    for i, name in enumerate(AWKWARD):  # two directors: one alone would soon be asked to slow down
        director = "Leider" if i % 2 else "Vreemde"
        answer = await bot.command("speler", director, {"naam": name, "rating": 2000 - i}, director=True)
        assert not flags(answer) & EPHEMERAL, content(answer)
        inert(content(answer))
        assert name.replace(OVERRIDE, "") in shown(content(answer)) and OVERRIDE not in content(answer), content(answer)

    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    posts = fake.channel_posts(ANNOUNCE)
    assert posts
    text = "\n".join(p.content for p in posts)
    inert(text)
    for name in AWKWARD:
        assert name.replace(OVERRIDE, "") in shown(text), name
    assert OVERRIDE not in text
    assert all(p.json["allowed_mentions"] == {"parse": []} for p in posts)
    assert all(p.json["flags"] & SUPPRESS_EMBEDS for p in posts)  # a name that is a URL unfolds no preview

    for command in ("indeling", "stand"):
        answer = await bot.command(command, "Leider", director=True)
        assert not flags(answer) & EPHEMERAL
        inert(content(answer))
        assert "Henk" in content(answer) and OVERRIDE not in content(answer)  # in the table too
        assert answer.json["data"]["allowed_mentions"] == {"parse": []}
        assert answer.json["data"]["flags"] & SUPPRESS_EMBEDS
