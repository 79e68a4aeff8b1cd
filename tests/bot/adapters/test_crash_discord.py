"""Crash safety on Discord: the real `clubbot run` process (``tests/bot/adapters/discord_process.py``: the CLI with
discord.py pointed at the local fake) gets a round's life as slash commands and button presses over the
fake's gateway, and is killed with SIGKILL at many points of it, then started again on the same SQLite
file. The bot's time comes from ``--clock``: the deadline and publication pass by starting it later.

An interaction whose answer never reached the fake is sent again after the restart (a member retyping);
one that was answered is not. At the end: every answered sign-off and result is in the database; each
round was paired once (games, one queued announcement per round and kind); nothing is pending;
``PRAGMA integrity_check`` is ok; and each announcement is among the messages the fake created in the
channel exactly once, also after a kill while it was being posted (the fake had made the message, the
bot never got the answer), which is the hard case (docs/reliability.md).
"""

from __future__ import annotations

from tests.paths import REPO

import asyncio
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any, Callable

from bot.core.i18n import t
from tests.bot.adapters.fake_discord import (  # noqa: F401 - the fixture
    ANNOUNCE,
    APP_ID,
    FakeDiscord,
    Request,
    fake,
    press_payload,
    slash_payload,
)
from tests.bot.adapters.discord_process import FAKE_ENV
from tests.bot.adapters.discord_world import UserOption

FIRST_CLOCK = "2026-12-01T12:00"  # Tuesday; round 1 is on Thursday 3 December, deadline 17:00, pairing 18:00
AFTER_PUBLISH_1 = "2026-12-03T18:05"
BEFORE_PUBLISH_2 = "2026-12-10T17:59:56"  # the real scheduler pairs round 2 four seconds after the start
AFTER_PUBLISH_2 = "2026-12-10T18:05"
PLAYERS = [("Anna", 2100), ("Bert", 1950), ("Carla", 1800), ("Daan", 1700), ("Eva", 1600)]
TIMEOUT = 60.0  # generous: a loaded 2-core machine

# Where to kill, in order over the one life of the database:
#   ("ack", label)    after the interaction's answer reached the fake
#   ("sent", label)   right after the interaction went out over the gateway, before its answer
#   ("start", clock)  a bot started at this clock, past the deadline and the publication, catches up:
#                     killed as it connects to the gateway, just before the catch-up begins
#   ("write", what)   killed at the bot's first write to the database (the WAL file changes) after
#                     what: the round was closed at the deadline, the pairing is being made; or the
#                     real scheduler's wake-up at the publication committed the pairing, the
#                     announcement is going out
#   ("post", title)   the fake has stored the channel post of this announcement (the message exists),
#                     the bot is killed before the fake answers it
KILLS = [
    ("ack", "afmelden Bert 2"),
    ("sent", "afmelden Eva 3 teamwedstrijd"),
    ("start", AFTER_PUBLISH_1),
    ("write", "round 1 closed at start-up"),
    ("post", "Indeling ronde 1"),
    ("ack", "uitslag Anna gewonnen"),
    ("sent", "bevestig Daan"),
    ("post", "Stand S na ronde 1"),
    ("write", "round 2 paired at 18:00 by the scheduler"),
]


def title(text: str) -> str:
    return text.split("\n", 1)[0]


Hold = tuple["asyncio.Future[Request]", asyncio.Event]


def hold_posts(fake: FakeDiscord, *wanted: str) -> dict[str, Hold]:
    """Hold back the fake's answer to the first post of each announcement whose first line starts with one
    of ``wanted``: the message is made, the future gets the post, the answer waits for the event."""
    holds: dict[str, Hold] = {w: (asyncio.get_running_loop().create_future(), asyncio.Event()) for w in wanted}
    path = f"/api/v10/channels/{ANNOUNCE}/messages"

    async def before_answer(record: Request) -> None:
        for start, (held, release) in holds.items():
            if record.path == path and title(record.content).startswith(start) and not held.done():
                held.set_result(record)
                await release.wait()
                return

    fake.before_answer = before_answer
    return holds


class Week:
    """One club's database through a round's life, with a `clubbot run` process that is killed and started
    again."""

    def __init__(self, fake: FakeDiscord, db: Path, logs: Path) -> None:
        self.fake = fake
        self.db = db
        self.logs = logs
        self.kills = list(KILLS)
        self.proc: asyncio.subprocess.Process | None = None
        self.clock = FIRST_CLOCK
        self.starts = 0
        self.acknowledged: list[str] = []
        self.resent: list[str] = []
        self.observed: list[str] = []  # what the database held after each kill

    # ------------------------------------------------------------------ the process
    async def launch(self, clock: str, connected: bool = True) -> None:
        self.clock = clock
        self.starts += 1
        self._identified = self.fake.identified
        env = {**os.environ, FAKE_ENV: self.fake.url, "CLUBBOT_DISCORD_TOKEN": "fake", "CLUBBOT_TELEGRAM_TOKEN": ""}
        self._log = self.logs / f"bot-{self.starts}.log"
        with open(self._log, "wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.bot.adapters.discord_process", "run", "--config", str(REPO / "config.example.toml"),
                "--db", str(self.db), "--clock", clock,
                cwd=REPO, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=log,
            )  # fmt: skip
        if connected:
            await self.until(lambda: self.fake.identified > self._identified and self.fake.ready.is_set(), "connected")

    async def until(self, predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        """Wait for the fake to see ``predicate`` come true; fail at once if the bot ends."""
        assert self.proc is not None
        waiting = asyncio.ensure_future(self.fake.wait_for(predicate, timeout))
        ended = asyncio.ensure_future(self.proc.wait())
        await asyncio.wait({waiting, ended}, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():
            waiting.cancel()
            raise AssertionError(f"the bot ended while waiting for {what}:\n{self.log_tail()}")
        ended.cancel()
        try:
            waiting.result()
        except TimeoutError:
            raise AssertionError(f"no {what} after {timeout} s:\n{self.log_tail()}") from None

    def log_tail(self) -> str:
        return "\n".join(self._log.read_text(errors="replace").splitlines()[-30:])

    async def kill(self, point: str) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.proc.wait(), TIMEOUT)
        self.observed.append(f"{point}: {self.state()}")

    async def stop(self) -> None:
        """End the bot as a service manager does (SIGTERM): it stops cleanly."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(self.proc.wait(), TIMEOUT) == 0, self.log_tail()

    def due(self, kind: str, label: str) -> bool:
        if self.kills and self.kills[0] == (kind, label):
            self.kills.pop(0)
            return True
        return False

    # ------------------------------------------------------------------ interactions
    def answer_of(self, payload: dict[str, Any]) -> Request | None:
        """The interaction's answer as the member sees it, once complete: the callback, or for a slow
        command ("thinking...") the reply that followed through the webhook."""
        callbacks = self.fake.callbacks(payload["id"])
        if not callbacks:
            return None
        if callbacks[0].json["type"] != 5:
            return callbacks[0]
        hooks = [r for r in self.fake.of("POST", f"/api/v10/webhooks/{APP_ID}/{payload['token']}")]
        edits = [r for r in self.fake.of("PATCH", f"/api/v10/webhooks/{APP_ID}/{payload['token']}")]
        final = hooks or [e for e in edits if (e.json or {}).get("content") != t("nl", "discord_done")]
        return Request("POST", final[-1].path, {}, {"type": 4, "data": final[-1].json}) if final else None

    async def send(self, label: str, make: Callable[[], dict[str, Any]]) -> Request:
        """Deliver an interaction and wait for its answer; kill where the plan says; after a kill before
        the answer came, send it again (as new: a member types it again or presses again)."""
        while True:
            payload = make()
            await self.fake.interaction(payload, TIMEOUT)
            if self.due("sent", label):
                await self.kill(f"sent {label}")
                answer = self.answer_of(payload)
                self.observed[-1] += f"; answered before the kill: {answer is not None}"
                await self.launch(self.clock)
                if answer is None:
                    self.resent.append(label)
                    continue
            else:
                await self.until(lambda: self.answer_of(payload) is not None, f"answer to {label}")
                answer = self.answer_of(payload)
            assert answer is not None
            self.acknowledged.append(label)
            if self.due("ack", label):
                await self.kill(f"ack {label}")
                await self.launch(self.clock)
            return answer

    async def until_db(self, predicate: Callable[[], bool], what: str) -> None:
        """Wait until the database, read from outside, shows ``predicate``; fail at once if the bot ends."""
        end = time.monotonic() + TIMEOUT
        while not predicate():
            assert time.monotonic() < end, f"no {what}: {self.state()}\n{self.log_tail()}"
            assert self.proc is not None and self.proc.returncode is None, self.log_tail()
            await asyncio.sleep(0.05)

    async def settled(self, rounds: int) -> None:
        """Wait until ``rounds`` rounds are paired and no announcement is pending."""
        await self.until_db(lambda: self.paired_and_pending() == (rounds, 0), f"{rounds} rounds paired and announced")

    # ------------------------------------------------------------------ the database, read from outside
    def query(self, sql: str) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(self.db, timeout=30)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    def wal(self) -> tuple[int, int]:
        """The WAL file's size and modification time: they change when the bot commits."""
        try:
            stat = self.db.with_name(self.db.name + "-wal").stat()
        except FileNotFoundError:
            return (0, 0)
        return (stat.st_size, stat.st_mtime_ns)

    async def kill_at_write(self, point: str, before: tuple[int, int] | None = None) -> None:
        """Kill the bot at its first commit after ``before`` (the WAL now), looking every millisecond. (Opening
        the database makes an empty WAL file: not a write.)"""
        before = self.wal() if before is None else before
        end = time.monotonic() + TIMEOUT
        while self.wal()[0] == 0 or self.wal() == before:
            assert time.monotonic() < end, f"no write for {point}: {self.state()}\n{self.log_tail()}"
            assert self.proc is not None and self.proc.returncode is None, self.log_tail()
            await asyncio.sleep(0.001)
        assert self.due("write", point)
        await self.kill(f"write {point}")

    async def kill_at_post(self, wanted: str, holds: dict[str, Hold]) -> None:
        """Kill the bot once the fake holds the answer to its post of an announcement (``hold_posts``, set
        before the bot could post it); the answer is let go only after the bot is dead."""
        held, release = holds[wanted]
        await self.until(held.done, f"the post of {wanted!r}")
        assert self.due("post", wanted)
        await self.kill(f"post {wanted}")
        release.set()

    def paired_and_pending(self) -> tuple[int, int]:
        if not self.db.exists():
            return (0, 0)
        paired = self.query("SELECT COUNT(*) FROM rounds WHERE status = 'paired'")[0][0]
        pending = self.query("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL")[0][0]
        return paired, pending

    def state(self) -> str:
        rounds = self.query("SELECT number, status FROM rounds WHERE number <= 2 ORDER BY number")
        queued = self.query("SELECT kind, round_id, sent_at IS NOT NULL FROM announcements ORDER BY id")
        created = [title(p.content) for p in self.fake.channel_posts(ANNOUNCE)]
        return f"rounds {rounds}, announcements (kind, round, sent) {queued}, channel messages {created}"


async def test_discord_bot_killed_at_every_point_of_a_round_nothing_acknowledged_is_lost_announced_once(
    tmp_path: Path, fake: FakeDiscord  # noqa: F811
) -> None:
    began = time.monotonic()
    db = tmp_path / "club.sqlite3"
    week = Week(fake, db, tmp_path)
    # the bot is down longer than Discord remembers a nonce ("a few minutes"): a repeated post is not
    # dropped by the nonce, only the adapter's look at the channel's history can keep it from showing twice
    fake.nonce_window = 0.0
    # a process that has just started on a loaded machine may take longer than Discord's 3 s to answer an
    # interaction; what this test is about is the kill, not the bot's speed
    fake.interaction_window = 30.0
    holds = hold_posts(fake, "Indeling ronde 1", "Stand S na ronde 1")

    # the director sets the channel, the season and the players; the members link their accounts
    await week.launch(FIRST_CLOCK)
    await week.send("kanaal", lambda: slash_payload("kanaal", "Leider", director=True, channel=ANNOUNCE))
    await week.send("seizoen", lambda: slash_payload(
        "seizoen", "Leider", {"naam": "S", "start": "2026-12-03", "rondes": 5}, director=True))  # fmt: skip
    for name, rating in PLAYERS:
        player = {"naam": name, "rating": rating}
        await week.send(f"speler {name}", lambda o=player: slash_payload("speler", "Leider", o, director=True))
    for name, _ in PLAYERS:
        link = {"speler": name, "account": UserOption(name)}
        await week.send(f"koppel {name}", lambda o=link: slash_payload("koppel", "Leider", o, director=True))
        await week.send(f"aanmelden {name}", lambda n=name: slash_payload("aanmelden", n))
    await week.send("afmelden Bert 2", lambda: slash_payload("afmelden", "Bert", {"ronde": 2}))
    team = {"ronde": 3, "teamwedstrijd": True}
    await week.send("afmelden Eva 3 teamwedstrijd", lambda: slash_payload("afmelden", "Eva", team))

    # the deadline and the publication pass while the bot is down: started later, it catches up
    await week.stop()
    gateways = len(fake.of("GET", "/gateway"))
    await week.launch(AFTER_PUBLISH_1, connected=False)
    await week.until(lambda: len(fake.of("GET", "/gateway")) > gateways, "gateway connection")
    assert week.due("start", AFTER_PUBLISH_1)
    await week.kill(f"start {AFTER_PUBLISH_1}")
    # again: killed at its first write, the round's closing; the pairing is being made
    before = week.wal()
    await week.launch(AFTER_PUBLISH_1, connected=False)
    await week.kill_at_write("round 1 closed at start-up", before)

    # the pairing is posted: the fake makes the message, the bot is killed before it hears so
    await week.launch(AFTER_PUBLISH_1, connected=False)
    await week.kill_at_post("Indeling ronde 1", holds)
    await week.launch(AFTER_PUBLISH_1)
    await week.settled(rounds=1)

    # results: Anna reports, Bert confirms with the button on her message (after a restart: the button
    # still works); Carla reports, Daan confirms: the last result, the standings are announced
    won, lost = {"resultaat": "gewonnen"}, {"resultaat": "verloren"}
    report = await week.send("uitslag Anna gewonnen", lambda: slash_payload("uitslag", "Anna", won))
    await week.send("bevestig Bert", lambda: press_payload(fake, report, "Bert", "Bert"))
    report = await week.send("uitslag Carla verloren", lambda: slash_payload("uitslag", "Carla", lost))
    await week.send("bevestig Daan", lambda: press_payload(fake, report, "Daan", "Daan"))
    await week.kill_at_post("Stand S na ronde 1", holds)
    await week.launch(AFTER_PUBLISH_1)
    await week.settled(rounds=1)

    # the next publication, by the real scheduler: the bot starts after round 2's deadline (it closes the
    # round) and before its publication; killed when the wake-up at 18:00 has paired it
    await week.stop()
    await week.launch(BEFORE_PUBLISH_2)
    round_2 = "SELECT status FROM rounds WHERE number = 2"
    await week.until_db(lambda: week.query(round_2) in ([("closed",)], [("paired",)]), "round 2 closed")
    if week.query(round_2) == [("paired",)]:  # so slow a start that the catch-up came after 18:00 (bot time)
        assert week.due("write", "round 2 paired at 18:00 by the scheduler")
        await week.kill("write round 2 paired at 18:00 by the scheduler: paired at start-up")
    else:
        await week.kill_at_write("round 2 paired at 18:00 by the scheduler")
    await week.launch(AFTER_PUBLISH_2)
    await week.settled(rounds=2)
    await week.send("stand Anna", lambda: slash_payload("stand", "Anna"))
    await week.stop()

    seconds = time.monotonic() - began
    print(f"\n{seconds:.1f} s, {week.starts} starts, sent again: {week.resent}")
    print("\n".join(week.observed))
    assert week.kills == [], f"kill points never reached: {week.kills}"

    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        # every answered sign-off is there
        signoffs = set(conn.execute(
            "SELECT m.name, r.number, s.kind FROM signoffs s JOIN members m ON m.id = s.member_id"
            " JOIN rounds r ON r.id = s.round_id"
        ).fetchall())  # fmt: skip
        assert "afmelden Bert 2" in week.acknowledged and ("Bert", 2, "notice") in signoffs
        assert "afmelden Eva 3 teamwedstrijd" in week.acknowledged and ("Eva", 3, "team") in signoffs
        # round 1 paired once (Eva, the lowest rated, has the bye); every answered result is there
        results = conn.execute(
            "SELECT w.name, b.name, g.result FROM games g JOIN rounds r ON r.id = g.round_id"
            " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE r.number = 1"
        ).fetchall()
        assert len(results) == 2, results
        for white, black, result in results:
            if "Anna" in (white, black):
                assert {white, black} == {"Anna", "Bert"} and result == ("1-0" if white == "Anna" else "0-1")
            else:
                assert {white, black} == {"Carla", "Daan"} and result == ("0-1" if white == "Carla" else "1-0")
        # round 2 paired once, without Bert (signed off): two boards
        games_2 = "SELECT COUNT(*) FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 2"
        assert conn.execute(games_2).fetchone() == (2,)
        paired = conn.execute("SELECT number FROM rounds WHERE status = 'paired' ORDER BY number").fetchall()
        assert paired == [(1,), (2,)]
        queued = dict(conn.execute("SELECT kind, COUNT(*) FROM announcements GROUP BY kind").fetchall())
        assert queued.get("pairing") == 2 and queued.get("standings") == 1, queued
        assert conn.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0
        recorded = conn.execute("SELECT body, message_ref FROM announcements ORDER BY id").fetchall()
    finally:
        conn.close()

    # each announcement is exactly one message in the channel, the one recorded as its post; nothing else
    messages = fake.history.get(str(ANNOUNCE), [])
    posts = fake.channel_posts(ANNOUNCE, created_only=False)
    print(f"history reads: {len(fake.of('GET', f'/api/v10/channels/{ANNOUNCE}/messages'))}")
    for body, message_ref in recorded:
        shown = [m["id"] for m in messages if title(m["content"]) == title(body)]
        print(f"{title(body)!r}: {len(shown)} message(s), {sum(title(p.content) == title(body) for p in posts)} post(s)")
        assert len(shown) == 1, f"{title(body)!r} made {len(shown)} messages in the channel"
        assert shown == [message_ref], (title(body), shown, message_ref)
    assert len(messages) == len(recorded), [title(m["content"]) for m in messages]
    titles = [title(body).split(" (")[0] for body, _ in recorded]
    assert titles == ["Indeling ronde 1", "Stand S na ronde 1", "Indeling ronde 2"], titles
