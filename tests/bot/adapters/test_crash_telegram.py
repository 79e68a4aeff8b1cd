"""Crash safety of Telegram's updates (issue 46 §2): commands queued at the fake Telegram for three clubs,
the real ``clubbot run`` process polling it (python-telegram-bot pointed at the fake by the config's
``[telegram] base_url``), killed with SIGKILL at several points and started again on the same SQLite file.

The fake keeps updates as Telegram does (``telegram_updates.py``): a getUpdates with a higher ``offset``
confirms them and a confirmed update is never sent again. The kills: before the bot's getUpdates that
would confirm the first updates it fetched (the fake holds that request; the bot has kept them, so
Telegram sends them all again after the restart); right after the bot's first reply went out (the fake
has made the message and holds its answer back until the bot is dead: the bot cannot know it went out);
and in the middle of the queue. Each start also queues one more
command per club, whose answer says everything before it in that chat is done (the bot handles updates
in order); the last start runs until those are answered and stops cleanly.

Checked: every command had its effect exactly once (each player in the database once, with the rating of
its command, none missing); every command message was answered, each chat's in the order they were sent;
more than once only where a kill came while its reply was on its way (at most one reply per kill; the held
one is sent again): Telegram lets a bot neither read a chat nor send with a key that would make a repeat
harmless (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

from tests.bot.adapters.fake_telegram import (  # noqa: F401 - the fixture
    TOKEN,
    Call,
    FakeTelegram,
    fake,
    message,
    user,
)
from tests.paths import REPO

CLUBBOT = REPO / ".venv" / "bin" / "clubbot"
CLOCK = "2026-12-01T12:00"
GROUPS = [-1001000000101, -1001000000102, -1001000000103]
PER_GROUP = 50  # commands queued in each club's group
TIMEOUT = 60.0  # generous: a loaded 2-core machine
NAMES = ["".join(letters).capitalize() for letters in itertools.product("bdklmnprst", "aeiou", "bdklmnprst")]


def chat(group: int) -> dict[str, Any]:
    return {"id": group, "type": "supergroup", "title": f"Club {group}"}


def director(group: int, message_id: int) -> dict[str, Any]:
    """The group's administrator who sends that message: one each, as a chat account may send only 20
    commands at once (``bot/core/commands/user_limits.py``)."""
    number = (abs(group) % 1000) * 1000 + message_id
    return user(number, f"Leider {number}")


def commands() -> list[tuple[int, int, str]]:
    """(group, message id, text): each club's season first, then its players, the clubs interleaved."""
    per_group = [
        [(g, 1, "/seizoen naam=S start=2026-12-03 rondes=5")]
        + [(g, k + 2, f"/speler {NAMES[i * PER_GROUP + k]} {1500 + k}") for k in range(PER_GROUP - 1)]
        for i, g in enumerate(GROUPS)
    ]
    return [c for row in zip(*per_group) for c in row]


class Bot:
    def __init__(self, fake: FakeTelegram, tmp: Path) -> None:
        self.fake, self.tmp = fake, tmp
        self.db = tmp / "club.sqlite3"
        self.config = tmp / "config.toml"
        self.config.write_text(
            f'[telegram]\ntoken_env = "CLUBBOT_TELEGRAM_TOKEN"\nbase_url = "{fake.base_url}"\n'
            f'base_file_url = "{fake.base_file_url}"\n', encoding="utf-8")  # fmt: skip
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def launch(self) -> None:
        self.starts += 1
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")}, "CLUBBOT_TELEGRAM_TOKEN": TOKEN}
        self.log = self.tmp / f"bot-{self.starts}.log"
        with open(self.log, "wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                str(CLUBBOT), "run", "--config", str(self.config), "--db", str(self.db), "--clock", CLOCK,
                cwd=REPO, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out,
            )  # fmt: skip

    async def until(self, predicate: Callable[[], bool], what: str) -> None:
        """Wait for the fake to see ``predicate`` come true; fail at once if the bot ends."""
        end = time.monotonic() + TIMEOUT
        while not predicate():
            assert self.proc is not None and self.proc.returncode is None, f"the bot ended waiting for {what}:\n{self.tail()}"
            assert time.monotonic() < end, f"no {what} after {TIMEOUT} s:\n{self.tail()}"
            await asyncio.sleep(0.002)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.proc.wait(), TIMEOUT)

    async def stop(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(self.proc.wait(), TIMEOUT) == 0, self.tail()

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


def replies(fake: FakeTelegram) -> int:
    return sum(fake.updates.answers.values())


async def test_telegram_commands_queued_across_kills_are_each_handled_and_answered_once(
    fake: FakeTelegram, tmp_path: Path  # noqa: F811
) -> None:
    began = time.monotonic()
    fake.group_limit_window(0.0)  # what is tested is the kill, not Telegram's 20 messages a minute to a group
    for group in GROUPS:
        fake.admins[str(group)] = [director(group, m)["id"] for m in range(1, PER_GROUP + 20)]
    sent = commands()
    ids = [fake.push(message(director(group, message_id), text, chat(group), message_id=message_id)) for group, message_id, text in sent]
    first = ids[0]  # update ids go on over the process's tests (fake_telegram.UPDATE_IDS): this test's first
    bot = Bot(fake, tmp_path)
    observed = []
    probes: list[tuple[int, int, str]] = []

    async def launch() -> Callable[[], bool]:
        """Start the bot, and queue one more command in each group: answered once everything before it in
        that chat is done (the bot handles a chat's updates in order). Returns whether they all are."""
        await bot.launch()
        run = [(g, PER_GROUP + 1 + len(probes) // len(GROUPS), "/stand") for g in GROUPS]
        for group, message_id, text in run:
            fake.push(message(director(group, message_id), text, chat(group), message_id=message_id))
        probes.extend(run)
        return lambda: all(fake.updates.answers[(str(g), m)] for g, m, _ in run)

    # killed before it confirmed the first updates it fetched (and kept): Telegram sends them all again
    confirming: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    let_go = asyncio.Event()

    async def hold_confirm(offset: int) -> bool:
        if confirming.done():
            return True
        confirming.set_result(offset)
        await let_go.wait()
        return False  # the bot died before this request reached Telegram

    fake.updates.before_confirm = hold_confirm
    await launch()
    await bot.until(confirming.done, "the getUpdates that confirms the first updates")
    await bot.kill()
    fake.updates.before_confirm = None
    let_go.set()
    observed.append(f"before confirming the first {confirming.result() - first} updates: {replies(fake)} replies")

    # killed right after its first reply: Telegram has it (the fake made the message and holds its answer
    # until the bot is dead), the bot never hears so
    held: asyncio.Future[Call] = asyncio.get_running_loop().create_future()
    release = asyncio.Event()

    async def hold(call: Call) -> None:
        if not held.done():
            held.set_result(call)
            await release.wait()

    fake.before_answer = hold
    await launch()
    await bot.until(held.done, "a first reply")
    await bot.kill()
    fake.before_answer = None
    release.set()
    on_its_way = (int(held.result().chat_id), int(held.result().params["reply_parameters"]["message_id"]))
    observed.append(f"while its first reply was on its way: {replies(fake)} replies at {time.monotonic() - began:.1f} s")

    # killed in the middle of the queue (unless the restarted bot has nothing left to do)
    done = await launch()
    await bot.until(lambda: replies(fake) >= len(sent) // 2 or done(), "half the replies")
    await bot.kill()
    kills = 3
    observed.append(f"in the middle: {replies(fake)} replies at {time.monotonic() - began:.1f} s")

    # to the end
    done = await launch()
    await bot.until(done, "the answers to the last commands")
    await bot.stop()
    print(f"\n{time.monotonic() - began:.1f} s, {bot.starts} starts; " + "; ".join(observed))

    answers = fake.updates.answers
    everything = sent + probes
    unanswered = [(g, m, text) for g, m, text in everything if answers[(str(g), m)] == 0]
    repeated = {(g, m): answers[(str(g), m)] for g, m, _ in everything if answers[(str(g), m)] > 1}
    print(f"{len(everything)} commands: {len(unanswered)} never answered, answered more than once: {repeated}")
    resent = sum(1 for n in fake.updates.delivered.values() if n > 1)
    print(f"{resent} updates sent again by the fake (not confirmed when the bot died)")
    assert resent >= confirming.result() - first  # the first ones, each handled and answered once all the same
    for group in GROUPS:  # each chat's commands answered in the order they were sent
        order = [c.params["reply_parameters"]["message_id"] for c in fake.sent(group) if c.params.get("reply_parameters")]
        firsts = list(dict.fromkeys(order))
        assert firsts == sorted(firsts), f"group {group} answered out of order: {firsts}"
    conn = sqlite3.connect(bot.db)
    try:
        players = conn.execute(
            "SELECT c.external_id, m.name, p.rating FROM members m JOIN clubs c ON c.id = m.club_id"
            " JOIN season_players p ON p.member_id = m.id"
        ).fetchall()
    finally:
        conn.close()
    expected = [(str(g), text.split()[1], int(text.split()[2])) for g, _, text in sent if text.startswith("/speler")]
    missing = sorted(set(expected) - set(players))
    print(f"{len(missing)} of {len(expected)} players missing from the database")
    assert not unanswered, f"{len(unanswered)} of {len(everything)} commands never answered, e.g. {unanswered[:3]}"
    assert not missing, f"{len(missing)} players never added, e.g. {missing[:3]}"
    assert sorted(players) == sorted(expected), "a player twice, or one nobody asked for"
    # a kill repeats at most the one reply on its way at that moment (updates are handled one at a time)
    assert sum(n - 1 for n in repeated.values()) <= kills, f"answered more than once: {repeated} after {kills} kills"
    assert answers[(str(on_its_way[0]), on_its_way[1])] >= 2, "the reply held at the kill was not sent again"
