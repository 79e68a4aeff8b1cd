"""PostgreSQL stopped under the real Discord adapter (issue 46 §3), its interactions answered against the
local fake, on a PostgreSQL server of the test module's own: a slash command while the server is down is
answered "try again in a minute" in the club's language, a director's too (once), and works again once
the server is back."""

from __future__ import annotations

import asyncio

from bot.config import Config
from bot.core.i18n import t
from bot.core.storage.store import open_store
from tests.bot.adapters.fake_discord import EPHEMERAL, FakeDiscord, content, fake, flags, harness  # noqa: F401 - fixture
from tests.bot.conftest import running_again
from tests.postgres_server import PostgresServer


async def test_a_discord_command_while_the_database_is_down_is_told_to_try_again(
    stoppable_postgres: PostgresServer, fake: FakeDiscord, config: Config
) -> None:
    stoppable_postgres.psql("DROP DATABASE IF EXISTS discord WITH (FORCE)")
    store = await open_store(stoppable_postgres.create_database("discord"))
    h = await harness(config, fake, store=store)
    try:
        await h.command("taal", "Anna", {"taal": "en"}, manage_guild=True)
        await h.command("stand", "Bert")
        await asyncio.to_thread(stoppable_postgres.halt)
        for user, director in (("Bert", False), ("Anna", True)):
            answer = await h.command("stand", user, manage_guild=director)
            assert content(answer) == t("en", "error_database_down") and flags(answer) & EPHEMERAL, content(answer)
        await asyncio.to_thread(stoppable_postgres.resume)
        answer = await h.command("aanmelden", "Bert")
        assert "Bert" in content(answer), content(answer)
    finally:
        running_again(stoppable_postgres)
        h.alarm.shutdown()
        await h.adapter.stop()
        await store.close()
