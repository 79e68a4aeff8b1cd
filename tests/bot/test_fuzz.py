"""Random command lines at every command: the bot answers each, never with an internal error, and a
refused line changes nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from bot.config import Config, load_config
from bot.core.i18n import t
from bot.core.storage.store import Store
from tests.bot.conftest import DIRECTOR, START, actor, dump_rows, link, made_once, migrated_sqlite

# every command and alias, those of the feature modules included (building Core touches no store)
_ALL = make_core(None, None, None)  # type: ignore[arg-type]
NAMES = sorted(set(_ALL.registry.aliases) | set(_ALL.registry.commands))
WORDS = st.sampled_from(
    ["1", "0", "-1", "99", "1-0", "0-1", "remise", "teamwedstrijd", "Anna", "Bert", "rapid", "A", "naam=x",
     "start=2027-01-07", "rondes=3", "'", '"', "1-0F", "gewonnen", "groep=B", "12345678901234567890",
     "'; DROP TABLE members; --", "\u0000", "é", "🙂", "x" * 300,
     # dates, times and zones (/seizoen, /importeer, /nk): out of range, impossible, in a DST gap, not a zone
     "start=9999-12-20", "start=0001-01-01", "start=2027-02-30", "start=2027-13-01", "start=20270107",
     "deadline=25:00", "deadline=02:30", "publicatie=03:10", "publicatie=17:00", "deadline=-1:00",
     "tijdzone=Europe", "tijdzone=Europe/Amsterdam", "tijdzone=../../etc/passwd", "tijdzone=" + "x" * 400,
     "tijdzone=UTC", "rondes=0", "rondes=201", "rondes=99999999999999999999", "soort=rapid", "\ud800"]
) | st.text(max_size=30) | st.dates().map(lambda d: "start=" + d.isoformat())  # fmt: skip
LINES = st.builds(
    lambda name, args, slash: ("/" if slash else "") + name + (" " + " ".join(args) if args else ""),
    st.sampled_from(NAMES) | st.text(max_size=12),
    st.lists(WORDS, max_size=5),
    st.booleans(),
)


PUBLISHED = datetime(2026, 12, 3, 17, 1, tzinfo=timezone.utc)  # the world's clock once round 1 is out


def _config(path: Path) -> Config:
    base = load_config(Path(__file__).resolve().parents[2] / "config.example.toml", env={})
    return Config(**{**base.__dict__, "db_path": path})


async def _build_world(path: Path) -> None:
    """A season of five rounds, three players (Anna and Bert linked and signed on), round 1 published."""
    store = await Store.open(migrated_sqlite(path))
    try:
        commands = make_core(store, _config(path), ShiftedClock(START))
        for text in ("/seizoen naam=S start=2026-12-03 rondes=5", "/speler Anna 2000", "/speler Bert 1900", "/speler Carla 1800"):
            assert (await commands.handle(DIRECTOR, text)).ok
        commands.clock.set(PUBLISHED)  # type: ignore[attr-defined]
        assert (await commands.handle(DIRECTOR, "/publiceer")).ok
        for name in ("Anna", "Bert"):
            await link(commands, actor(name))
            assert (await commands.handle(actor(name), "/aanmelden")).ok
    finally:
        await store.close()


async def _world(path: Path) -> tuple[Store, Core]:
    """The world at ``path``, a fresh bot on it: built by its commands once per test process, copied for
    each example (the examples' commands start from the same database either way)."""
    store = await Store.open(made_once("fuzz-world", _build_world, path))
    return store, make_core(store, _config(path), ShiftedClock(PUBLISHED))


INTERNAL = {t("nl", "error_internal"), t("en", "error_internal")}


def _run_in_world(commands_to_run: list[tuple[Actor, str, bytes | None]]) -> None:
    """Each (who, line, attachment) on a fresh club: never an internal error, a refusal changes nothing,
    and the database is sound at the end."""

    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "fuzz.sqlite3"
            store, commands = await _world(path)
            reader = sqlite3.connect(path, isolation_level=None)  # the example's second connection, closed before the bot's
            try:
                before = None  # the rows as the previous line left them, when it changed nothing
                for who, text, content in commands_to_run:
                    if before is None:
                        before = dump_rows(reader)
                    reply = await commands.handle(who, text, attachment=content)
                    assert reply.text not in INTERNAL, (text, (content or b"")[:40])
                    assert len(reply.text) <= 4000
                    if reply.ok:
                        before = None
                    else:
                        assert dump_rows(reader) == before, text
                assert await store.integrity_check() == "ok"
            finally:
                reader.close()
                await store.close()

    asyncio.run(run())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.tuples(st.sampled_from([DIRECTOR, actor("Anna"), actor("Vreemde")]), LINES), min_size=1, max_size=4))
def test_random_commands_never_crash_and_refusals_change_nothing(lines) -> None:
    _run_in_world([(who, text, None) for who, text in lines])


ATTACHMENTS = st.sampled_from([
    b"", b"\x00" * 100, b"\xff\xfe garbage", b"{", b"[]", b'{"rounds": 10000000}', b'{"players": [{}]}',
    b"SQLite format 3\x00" + b"\x00" * 100, "naam,rating\nAnna,\"" .encode() + b"x" * 200_000 + b'"\n',
    b'{"name": "S", "players": [{"name": "A", "rating": 1e999}], "rounds": []}',
    b"wit,zwart,uitslag,datum\nAnna,Bert,1-0,9999-12-31\n", b"\xed\xa0\x80 broken utf-8",
]) | st.binary(max_size=2000)  # fmt: skip
FILE_COMMANDS = st.sampled_from([
    "/importeer start=2027-01-07", "/importeer start=2027-01-07 naam=X", "/partijenimport", "/go sgf",
    "/stand", "/importeer start=9999-01-01",
])  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=st.lists(st.tuples(FILE_COMMANDS, ATTACHMENTS), min_size=1, max_size=3))
def test_hostile_attachments_never_crash_and_refusals_change_nothing(files) -> None:
    _run_in_world([(DIRECTOR, text, content) for text, content in files])


PATHS = st.sampled_from([
    "/dev/zero", "/dev/null", "/etc/passwd", "/proc/self/mem", "/", "~", "nonexistent.json", "a\x00b.json",
    "../../../../etc/shadow", "x" * 5000, "examples/season.json", "'quoted path'", "\ud800.json", "~0", "~nobody/x",
]) | st.text(max_size=40)  # fmt: skip
CLOCKS = st.sampled_from([
    "9999-12-31 23:59", "0001-01-01 00:00", "2027-03-28 02:30", "+9999w", "+0m", "2027-02-30 10:00", "morgen",
    "+1d", "",
]) | st.text(max_size=20)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(
    st.builds(lambda p: f"/importeer {p} start=2027-01-07", PATHS), st.builds(lambda c: f"/klok {c}", CLOCKS)
), min_size=1, max_size=3))  # fmt: skip
def test_console_paths_and_clock_values_never_crash(lines) -> None:
    """The console reads files by path and sets its clock: a device, a folder, a NUL byte, a path too
    long, a clock out of range each get a message, and the bot goes on."""
    import io

    from bot.adapters.console import ConsoleAdapter

    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "fuzz.sqlite3"
            store, commands = await _world(path)
            out = io.StringIO()
            console = ConsoleAdapter(commands, commands.clock, "Leider", "Test club", out=out, files_dir=Path(tmp))  # type: ignore[arg-type]
            try:
                for line in lines:
                    assert await console.handle_line(line)
                    printed = out.getvalue()
                    assert not any(m in printed for m in INTERNAL), line
                assert await store.integrity_check() == "ok"
            finally:
                await store.close()

    asyncio.run(run())
