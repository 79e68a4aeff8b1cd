"""A command's cost with 1, 1,000 and 10,000 clubs on the bot (issue 42 §1): prints figures.

    .venv/bin/python benchmarks/command_cost_bench.py [--clubs 1,1000,10000] [--commands 300] [--smoke]
                                                      [--db FOLDER]

Every club keeps a Keizer season (three players), grades (two members with a grade) and a go game being
played, all made through ``Core.handle`` on the real SQLite store. Then one club's members send commands
through the real python-telegram-bot adapter polling the project's Telegram fake on 127.0.0.1
(tests/bot/adapters/fake_telegram.py), one at a time (closed loop): ``/afmelden``, ``/aanmelden``, ``/stand``.
For each command: ``reply`` (the update queued at the fake until the reply, a message or a picture, arrives there) and
``done`` (until the adapter has finished with it, the work after the reply included). Two wirings in the
same run, on the same database:

- ``club``: the adapter calls ``Alarm.after_command`` (what the bot does): its own club's due work.
- ``whole pass``: the adapter calls ``Alarm.run_due`` after every command (the bot before issue 42): every
  system's timed work for every club, as grades walked every club that keeps grades (a tenth as many
  commands: with 10,000 clubs each takes most of a second).

Then ``periodic pass``: the scheduler's own pass (``Alarm.run_due`` with nothing due) and the alarm's
recheck (``next_due_moment`` of every system, every minute), each timed three times.
``--smoke`` runs the smallest sizes (the suite runs it once to see that it prints its figures). Each size
has a database of its own; ``--db FOLDER`` keeps them there, and a second run builds only the clubs they
lack (10,000 clubs take minutes to make). Each is measured on the database opened again once built, as a
bot started on it finds it (the build's log checkpointed, no cache warmed by the build). Before each size is measured, what the process holds is frozen out of the
garbage collector's sight, as ``clubbot run`` does after start-up (``freeze_startup_objects``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.adapters.telegram.adapter import TelegramAdapter  # noqa: E402
from bot.app import freeze_startup_objects  # noqa: E402
from bot.config import Config, load_config  # noqa: E402
from bot.core.running.clock import ShiftedClock  # noqa: E402
from bot.core.commands.context import Actor  # noqa: E402
from bot.core.commands.dispatch import Core  # noqa: E402
from bot.core.running.scheduler import Alarm  # noqa: E402
from bot.core.storage.store import Announcement, Club, Store  # noqa: E402
from bot.core.commands.user_limits import UserLimits  # noqa: E402
from bot.systems import make_core  # noqa: E402
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram, message, user  # noqa: E402
from tests.bot.conftest import START  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIRST_CHAT = -1002000000000  # club i's supergroup is FIRST_CHAT - i
MEASURED = ("/afmelden", "/aanmelden", "/stand")
MESSAGE_IDS = itertools.count(1)  # a message id is never used twice in a chat (a repeat is answered once)
WARM_UP = 4  # commands sent before the measured ones
BUILT_AT_ONCE = 100  # clubs made side by side (each club's commands one after another)


def chat_of(index: int) -> dict[str, Any]:
    return {"id": FIRST_CHAT - index, "type": "supergroup", "title": f"Club {index}"}


def person(index: int, name: str, director: bool = False) -> Actor:
    chat = chat_of(index)
    return Actor("telegram", str(chat["id"]), chat["title"], f"user:{name.lower()}", name, is_director=director)


async def must(core: Core, who: Actor, text: str) -> None:
    reply = await core.handle(who, text)
    if not reply.ok:
        raise SystemExit(f"{text!r} refused in {who.club_name}: {reply.text}")


async def build_club(core: Core, index: int) -> None:
    """A club as a busy federation's: a Keizer season, grades, a go game being played."""
    director, anna, bert = person(index, "Leider", True), person(index, "Anna"), person(index, "Bert")
    for text in ("/seizoen naam=S start=2026-12-03 rondes=4", "/speler Carla 1800"):
        await must(core, director, text)
    for who in (anna, bert):
        await must(core, who, "/aanmelden")
    for text in ("/graadzetten Anna 1d vanaf=2026-01-01", "/graadzetten Bert 2d vanaf=2026-01-01"):
        await must(core, director, text)
    await must(core, anna, "/go uitdagen @Bert 9")
    await must(core, bert, "/go accepteren")


async def build(core: Core, clubs: int, already: int) -> None:
    todo = list(range(already, clubs))
    for start in range(0, len(todo), BUILT_AT_ONCE):
        await asyncio.gather(*(build_club(core, i) for i in todo[start : start + BUILT_AT_ONCE]))


class TimedFake(FakeTelegram):
    """The project's Telegram fake, which also notes when a reply reaches a chat."""

    def __init__(self) -> None:
        super().__init__()
        self.reply_seen: asyncio.Event = asyncio.Event()

    async def api_sendMessage(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        answer = await super().api_sendMessage(params, files)
        self.reply_seen.set()
        return answer

    async def api_sendPhoto(self, params: dict[str, Any], files: dict[str, Any]) -> Any:  # /stand's table
        answer = await super().api_sendPhoto(params, files)
        self.reply_seen.set()
        return answer


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def drive(core: Core, config: Config, wiring: str, count: int) -> tuple[list[float], list[float]]:
    """``count`` commands of club 0's member through the Telegram adapter; (reply, done) times in ms."""
    fake = await TimedFake().start()
    # Telegram's ~20 messages a minute to one group would pace the replies: not what is measured here
    fake.group_limit_window(1e-6)

    async def send(club: Club, announcement: Announcement) -> str | None:
        return await adapter.send_announcement(club, announcement)

    alarm = Alarm(core, send)

    async def whole_pass(actor: Actor) -> None:
        await alarm.run_due()

    after = alarm.after_command if wiring == "club" else whole_pass
    adapter = TelegramAdapter(
        core, Config(**{**config.__dict__, "telegram_token": TOKEN}), after,
        base_url=fake.base_url, base_file_url=fake.base_file_url, poll_timeout=10, max_retry_wait=1.0,
    )  # fmt: skip
    await adapter.start()
    await alarm.start()
    sender = user(700001, "Dora Timing")
    replies: list[float] = []
    dones: list[float] = []
    try:
        for n in range(-WARM_UP, count):  # the first (unmeasured) join the member and warm the caches
            text = "/aanmelden" if n == -WARM_UP else MEASURED[n % len(MEASURED)]
            before = adapter.handled
            fake.reply_seen.clear()
            began = time.perf_counter()
            fake.push(message(sender, text, chat_of(0), message_id=next(MESSAGE_IDS)))
            try:
                await asyncio.wait_for(fake.reply_seen.wait(), 10)
            except TimeoutError:
                raise SystemExit(f"no reply to {text!r}: the fake saw {[c.method for c in fake.calls][-8:]}") from None
            replied = time.perf_counter()
            while adapter.handled == before:
                await asyncio.sleep(0)
            if n >= 0:
                replies.append((replied - began) * 1000)
                dones.append((time.perf_counter() - began) * 1000)
    finally:
        alarm.shutdown()
        await adapter.stop()
        await fake.close()
    refused = [str(r) for r in fake.refusals.seen if not r.arranged]
    if refused or fake.violations:
        raise SystemExit("requests the fake Telegram refused, or answers of its own the Bot API would not give:\n" + "\n".join(refused + fake.violations))
    return replies, dones


async def periodic(core: Core) -> tuple[float, float]:
    """The scheduler's pass with nothing due, and the alarm's recheck: the fastest of three, in ms."""

    async def send(club: Club, announcement: Announcement) -> None:
        return None

    alarm = Alarm(core, send)
    passes, rechecks = [], []
    for _ in range(3):
        began = time.perf_counter()
        await alarm.run_due()
        passes.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        await alarm._set_alarm(retry=False)
        rechecks.append((time.perf_counter() - began) * 1000)
    alarm.shutdown()
    return min(passes), min(rechecks)


async def main_async(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.clubs.split(",")]
    figures: dict[tuple[int, str], tuple[float, float]] = {}
    passes: dict[int, tuple[float, float]] = {}
    print(f"{'clubs':>7} {'wiring':>11} {'reply p50':>10} {'reply p99':>10} {'done p50':>9} {'done p99':>9}  (ms)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.db) if args.db else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for size in sizes:  # each size on a database of its own
            base = load_config(REPO / "config.example.toml", env={})
            config = Config(**{**base.__dict__, "db_path": folder / f"clubs-{size}.sqlite3"})
            store = await Store.open(config.db_path)
            core = make_core(store, config, ShiftedClock(START))
            core.user_limits = UserLimits(burst=10**9)  # one member sends far more than a person can
            built = len(await store.fetch_all("SELECT id FROM clubs WHERE platform = 'telegram'"))
            began = time.perf_counter()
            await build(core, size, built)
            print(f"# {size} clubs built in {time.perf_counter() - began:.1f} s ({built} there already)", flush=True)
            await store.close()  # measured as a bot started on the database finds it: its log checkpointed
            store = await Store.open(config.db_path)
            core = make_core(store, config, ShiftedClock(START))
            core.user_limits = UserLimits(burst=10**9)
            freeze_startup_objects()
            for wiring in args.wirings.split(","):
                count = args.commands if wiring == "club" else max(6, args.commands // 10)  # the old way is slow
                replies, dones = await drive(core, config, wiring, count)
                figures[(size, wiring)] = (pct(dones, 0.5), pct(dones, 0.99))
                print(f"{size:>7} {wiring:>11} {pct(replies, 0.5):>10.2f} {pct(replies, 0.99):>10.2f}"
                      f" {pct(dones, 0.5):>9.2f} {pct(dones, 0.99):>9.2f}", flush=True)  # fmt: skip
            passes[size] = await periodic(core)
            await store.close()
    first = sizes[0]
    print(f"\nratio to {first} club(s), command done (target: p50 and p99 at the largest within 1.2x with 'club'):")
    for size in sizes:
        for wiring in args.wirings.split(","):
            p50, p99 = figures[(size, wiring)]
            b50, b99 = figures[(first, wiring)]
            print(f"{size:>7} {wiring:>11}  p50 x{p50 / b50:.2f}  p99 x{p99 / b99:.2f}")
    print("\nperiodic pass (nothing due) and recheck, fastest of three (ms):")
    for size in sizes:
        run, recheck = passes[size]
        print(f"{size:>7}  pass {run:.1f}  recheck {recheck:.1f}")
    mean = statistics.mean(figures[(sizes[-1], "club")])
    print(f"\n# mean of the largest size's p50 and p99 with 'club': {mean:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", default="1,1000,10000", help="club counts, ascending, comma separated")
    parser.add_argument("--commands", type=int, default=300, help="commands measured per size and wiring")
    parser.add_argument("--smoke", action="store_true", help="the smallest sizes: 1 and 3 clubs, 6 commands")
    parser.add_argument("--wirings", default="club,whole pass", help="which wirings to measure, comma separated")
    parser.add_argument("--db", help="keep each size's clubs in this folder (a later run builds only what they lack)")
    args = parser.parse_args()
    if args.smoke:
        args.clubs, args.commands = "1,3", 6
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
