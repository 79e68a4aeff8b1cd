"""A publication minute sent through the platforms (issue 16): prints figures, never fails on time.

    .venv/bin/python benchmarks/sending_bench.py [--clubs 1000] [--platform telegram|discord|both] [--smoke]

``--clubs`` clubs of four members on one platform, each with a notice queued before its round 1 is due,
publish at the same minute. The real scheduler pairs every round and sends the notices and the pairings
through the real adapter (python-telegram-bot or discord.py) to the local fake of the platform's HTTP API
on 127.0.0.1, within the bot's rate limits (``bot/core/running/rate_limit.py``). Printed: the time to pair and
queue, the time until the last post beside the least the platform's limit allows (their ratio), the most
posts the fake saw in any one-second window (over the bot, and in one chat over the per-chat window),
and whether every club got its notice before its pairing, each exactly once.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.many_clubs_bench import PUBLISH, must, world  # noqa: E402
from bot.adapters.discord.adapter import DiscordAdapter  # noqa: E402
from bot.adapters.telegram.adapter import TelegramAdapter  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.running.rate_limit import DISCORD, TELEGRAM, RateLimits, SendLimits  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402
from bot.core.storage.store import Announcement, Club  # noqa: E402
from tests.bot.adapters.fake_discord import FakeDiscord  # noqa: E402
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram  # noqa: E402


def most_in_window(times: list[float], period: float) -> int:
    times = sorted(times)
    most, start = 0, 0
    for end, moment in enumerate(times):
        while moment - times[start] >= period:
            start += 1
        most = max(most, end - start + 1)
    return most


async def clubs_on(platform: str, core: Any, store: Any, clubs: int) -> None:
    for c in range(clubs):
        chat = f"-100{c:06d}" if platform == "telegram" else f"{900000 + c}"
        boss = Actor(platform, chat, f"Club {c}", f"leider-{c}", "Leider", is_director=True)
        await must(core, boss, "/seizoen naam=S start=2026-12-03 rondes=28")
        for i in range(4):
            await must(core, boss, f'/speler "Lid {i}" {1500 + 20 * i}')
        club = await store.club_by_external(platform, chat)
        if platform == "discord":
            await store.set_club_channel(club.id, str(700000 + c))
        await store.queue_announcement(club.id, None, "notice", f"Bericht voor club {c}: ronde 1 is vanavond.", PUBLISH)


async def part(platform: str, clubs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store, core, clock = await world(Path(tmp) / f"{platform}.sqlite3")
        stamps: list[tuple[float, str, str]] = []  # (moment, chat, text) of every post the fake made
        fake: Any
        if platform == "telegram":
            fake = await FakeTelegram().start()
            original = fake._message

            def message(params: dict[str, Any], **content: Any) -> dict[str, Any]:
                stamps.append((time.monotonic(), str(params.get("chat_id")), str(params.get("text") or params.get("caption") or "")))
                return original(params, **content)

            fake._message = message
            config = replace(core.config, telegram_token=TOKEN)
            holder: list[Any] = []
            adapter: Any = TelegramAdapter(core, config, lambda: holder[0](), base_url=fake.base_url,
                                           base_file_url=fake.base_file_url, poll_timeout=10)  # fmt: skip
            limits = TELEGRAM
        else:
            fake = await FakeDiscord().start()
            discord.http.Route.BASE = fake.base
            original = fake.message

            def message(channel_id: str, body: dict[str, Any], files: Any) -> dict[str, Any]:
                stamps.append((time.monotonic(), channel_id, str(body.get("content") or "")))
                return original(channel_id, body, files)

            fake.message = message
            config = replace(core.config, discord_token="bench-token")
            holder = []
            adapter = DiscordAdapter(core, config, lambda: holder[0](), sync_commands=False)
            limits = DISCORD
        core.config = config
        try:
            t0 = time.perf_counter()
            await clubs_on(platform, core, store, clubs)
            print(f"{platform}: set-up of {clubs} clubs in {time.perf_counter() - t0:.1f} s")
            if platform == "telegram":
                await adapter.start()
            else:
                await adapter.start(connect=False)

            async def send(club: Club, announcement: Announcement) -> str | None:
                return await adapter.send_announcement(club, announcement)  # type: ignore[no-any-return]

            alarm = Alarm(core, send, limits=RateLimits({platform: limits}))
            holder.append(alarm.run_due)
            paired_at: list[float] = []
            for timed in core.registry.timed:  # time the pairing and queueing on its own first
                original_run = timed.run_due

                async def timed_run(core_: Any, now: Any, _run: Any = original_run) -> None:
                    await _run(core_, now)
                    paired_at.append(time.perf_counter())

                timed.run_due = timed_run  # type: ignore[method-assign]
            clock.set(PUBLISH + timedelta(seconds=30))
            t1 = time.perf_counter()
            stamps.clear()
            await alarm.run_due()
            wall = time.perf_counter() - t1
            alarm.shutdown()
            pending = len(await store.pending_announcements())
            posts = len(stamps)
            queued = (max(paired_at) - t1) if paired_at else float("nan")
            # The fastest the limit allows: the first window's posts at once, then per_bot each period.
            fastest = max(0.0, posts / limits.per_bot - 1) * limits.bot_period
            by_chat: dict[str, list[str]] = {}
            for _, chat, text in stamps:
                by_chat.setdefault(chat, []).append(text)
            in_order = sum(1 for texts in by_chat.values() if len(texts) == 2 and texts[0].startswith("Bericht"))
            per_chat_most = max(most_in_window([m for m, c, _ in stamps if c == chat], limits.chat_period) for chat in by_chat)
            print(f"{platform}: {clubs} clubs paired and queued in {queued:.2f} s; {posts} posts sent in {wall:.1f} s, "
                  f"where the limit of {limits.per_bot} per {limits.bot_period:.0f} s allows {fastest:.1f} s at best: "
                  f"ratio {fastest / wall:.2f}; still pending {pending}")  # fmt: skip
            print(f"{platform}: most posts in any {limits.bot_period:.0f} s {most_in_window([m for m, _, _ in stamps], limits.bot_period)} "
                  f"(limit {limits.per_bot}); most in one chat in any {limits.chat_period:.0f} s {per_chat_most} (limit {limits.per_chat}); "
                  f"clubs with their notice then their pairing, once each: {in_order} of {clubs}")  # fmt: skip
        finally:
            await adapter.stop()
            await fake.close()
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--platform", choices=("telegram", "discord", "both"), default="both")
    smallest(parser, clubs=2)
    args = parser.parse_args()
    for name, limits in (("telegram", TELEGRAM), ("discord", DISCORD)):
        if args.platform in (name, "both"):
            assert isinstance(limits, SendLimits)
            asyncio.run(part(name, args.clubs))


if __name__ == "__main__":
    main()
