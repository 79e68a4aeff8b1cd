"""The real `clubbot` command, with discord.py pointed at the local fake of Discord
(``tests/bot/adapters/fake_discord.py``) instead of discord.com:

    CLUBBOT_FAKE_DISCORD=http://127.0.0.1:PORT CLUBBOT_DISCORD_TOKEN=x \\
        .venv/bin/python -m tests.bot.adapters.discord_process run --db FILE --clock 2026-12-03T18:05

Two addresses are moved and nothing else: the REST base (``discord.http.Route.BASE``) and the gateway
(``DiscordWebSocket.DEFAULT_GATEWAY``: a plain ``Client`` connects there without asking ``/gateway/bot``).
Then ``bot.cli.main`` runs exactly as the ``clubbot`` script does.
"""

from __future__ import annotations

import os
import sys

import discord.http
import yarl
from discord.gateway import DiscordWebSocket

from bot.cli import main

FAKE_ENV = "CLUBBOT_FAKE_DISCORD"

if __name__ == "__main__":
    fake = os.environ[FAKE_ENV].rstrip("/")
    discord.http.Route.BASE = f"{fake}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.replace("http://", "ws://", 1) + "/gateway")
    sys.exit(main(sys.argv[1:]))
