"""Random command lines at every command: the bot answers each, never with an internal error, and a
refused line changes nothing."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.clock import ShiftedClock
from bot.core.dispatch import Core
from bot.systems import make_core
from bot.config import Config, load_config
from bot.core.i18n import t
from bot.core.store import Store
from tests.bot.conftest import DIRECTOR, START, actor, dump, link

# every command and alias, those of the feature modules included (building Core touches no store)
_ALL = make_core(None, None, None)  # type: ignore[arg-type]
NAMES = sorted(set(_ALL.registry.aliases) | set(_ALL.registry.commands))
WORDS = st.sampled_from(
    ["1", "0", "-1", "99", "1-0", "0-1", "remise", "teamwedstrijd", "Anna", "Bert", "rapid", "A", "naam=x",
     "start=2027-01-07", "rondes=3", "'", '"', "1-0F", "gewonnen", "groep=B", "12345678901234567890",
     "'; DROP TABLE members; --", "\u0000", "é", "🙂", "x" * 300]
) | st.text(max_size=30)  # fmt: skip
LINES = st.builds(
    lambda name, args, slash: ("/" if slash else "") + name + (" " + " ".join(args) if args else ""),
    st.sampled_from(NAMES) | st.text(max_size=12),
    st.lists(WORDS, max_size=5),
    st.booleans(),
)


async def _world(path: Path) -> tuple[Store, Core]:
    base = load_config(Path(__file__).resolve().parents[2] / "config.example.toml", env={})
    config = Config(**{**base.__dict__, "db_path": path})
    store = await Store.open(path)
    commands = make_core(store, config, ShiftedClock(START))
    for text in ("/seizoen naam=S start=2026-12-03 rondes=5", "/speler Anna 2000", "/speler Bert 1900", "/speler Carla 1800"):
        assert (await commands.handle(DIRECTOR, text)).ok
    commands.clock.set(datetime(2026, 12, 3, 17, 1, tzinfo=timezone.utc))  # type: ignore[attr-defined]
    assert (await commands.handle(DIRECTOR, "/publiceer")).ok
    for name in ("Anna", "Bert"):
        await link(commands, actor(name))
        assert (await commands.handle(actor(name), "/aanmelden")).ok
    return store, commands


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.tuples(st.sampled_from([DIRECTOR, actor("Anna"), actor("Vreemde")]), LINES), min_size=1, max_size=4))
def test_random_commands_never_crash_and_refusals_change_nothing(lines) -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "fuzz.sqlite3"
            store, commands = await _world(path)
            try:
                internal = {t("nl", "error_internal"), t("en", "error_internal")}
                for who, text in lines:
                    before = dump(path)
                    reply = await commands.handle(who, text)
                    assert reply.text not in internal, text
                    assert len(reply.text) <= 4000
                    if not reply.ok:
                        assert dump(path) == before, text
                assert await store.integrity_check() == "ok"
            finally:
                await store.close()

    asyncio.run(run())
