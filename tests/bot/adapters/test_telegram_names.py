"""Names as people type them on Telegram (the real python-telegram-bot against a local fake of its API):
an apostrophe is a letter, typographic quotes group words, and a list pasted under ``/leden importeer``
adds the members."""

from __future__ import annotations

import sqlite3

import pytest

from bot.config import Config
from tests.bot.adapters.fake_telegram import GROUP, FakeTelegram, Harness, fake, tg, user  # noqa: F401 - fixtures

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER = user(1, "Leider")


def names(config: Config) -> list[str]:
    db = sqlite3.connect(config.db_path)
    try:
        return [r[0] for r in db.execute("SELECT name FROM members WHERE is_director = 0 ORDER BY id")]
    finally:
        db.close()


async def test_apostrophes_and_a_pasted_list_on_telegram(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    said = [c.text for c in await tg.say(LEIDER, "/speler Anne-Marie O'Neill 1700") if c.method == "sendMessage"]
    assert said == ["Speler Anne-Marie O'Neill toegevoegd (rating 1700)."]
    await tg.say(LEIDER, "/speler “Jan van 't Hof” 1500")
    said = [c.text for c in await tg.say(LEIDER, "/leden@clubbot importeer\nD'Artagnan;1600\nÉmile Zola;1550") if c.method == "sendMessage"]
    assert said == ["2 leden ingelezen: 2 nieuw, 0 bijgewerkt, 0 chataccounts gekoppeld."]
    assert names(config) == ["Anne-Marie O'Neill", "Jan van 't Hof", "D'Artagnan", "Émile Zola"]
