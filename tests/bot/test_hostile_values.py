"""Hostile values get a clear refusal in the user's language, never an internal error, and change nothing
(issue: trust, item 5 and 6). The ranges are in bot/core/commands/limits.py and bot/core/output/calendar.py."""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.app import run_console
from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.limits import MAX_IMPORT_PLAYERS
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

REPO = Path(__file__).resolve().parents[2]
SEASON_FILE = (REPO / "examples" / "season.json").read_bytes()
INTERNAL = {t("nl", "error_internal"), t("en", "error_internal")}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("/seizoen naam=A start=9999-12-20", "tussen 1900 en 2200"),
        ("/seizoen naam=A start=1066-10-14", "tussen 1900 en 2200"),
        ("/seizoen naam=A start=2027-01-07 tijdzone=Europe", "IANA"),
        ("/seizoen naam=A start=2027-01-07 tijdzone=" + "Europe/" * 57, "IANA"),
        ("/seizoen naam=A start=2027-01-07 tijdzone=../../../etc/passwd", "IANA"),
        ("/seizoen naam=A start=2027-01-07 rondes=201", "200"),
        ("/seizoen naam=A start=2027-01-07 deadline=18:00 publicatie=18:00", "na de afmeldtermijn"),
        ("/speler \udcff 1500", "kapotte Unicode"),
        ("/seizoen naam=\ud800x start=2027-01-07", "kapotte Unicode"),
        ("/speler Anna\x00 1500", "nulteken"),
        ("/partij Anna datum=9999-12-31 tegen=Bert uitslag=gewonnen minuten=90 byoyomi=30", "tussen 1900 en 2200"),
    ],
)
async def test_hostile_values_are_refused_clearly(commands: Core, config: Config, text: str, says: str) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 2000")
    await ok(commands, DIRECTOR, "/speler Bert 1900")
    reply = await refused(commands, DIRECTOR, text, config)
    assert says in reply and reply not in INTERNAL


@pytest.mark.parametrize(
    ("attachment", "says"),
    [
        (b"\xff\xfe{}", "UTF-8"),
        (b"\x00" * (5 * 1024 * 1024 + 1), "5 MB"),
        (b'{"format": "clubbot-season/1", "players": ' + b"[" * 100_000, "nested too deeply"),
    ],
)
async def test_a_hostile_season_file_is_refused(commands: Core, config: Config, attachment: bytes, says: str) -> None:
    assert says in await refused(commands, DIRECTOR, "/importeer start=2027-01-07 naam=I", config, attachment)


async def test_an_import_over_the_player_limit_is_refused(commands: Core, config: Config) -> None:
    season = json.loads(SEASON_FILE)
    season["players"] = [{"id": f"p{i}", "name": f"Speler {i}", "rating": 1500} for i in range(MAX_IMPORT_PLAYERS + 1)]
    season["rounds"] = []
    text = await refused(commands, DIRECTOR, "/importeer start=2027-01-07 naam=Groot", config, json.dumps(season).encode())
    assert f"hoogstens {MAX_IMPORT_PLAYERS}" in text


async def test_a_csv_field_over_the_csv_modules_limit_is_refused(commands: Core, config: Config) -> None:
    huge = b"speler,datum,tegenstander\n" + b"Anna," + b"x" * 200_000 + b",Bert\n"
    assert "regel" in await refused(commands, DIRECTOR, "/partijenimport", config, huge)


async def test_a_result_without_names_by_a_director(commands: Core, config: Config, clock: ShiftedClock) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    for name in ("Anna", "Bert"):
        await ok(commands, DIRECTOR, f"/speler {name} 1900")
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    reply = await refused(commands, DIRECTOR, "/uitslag 1-0F", config)
    assert reply not in INTERNAL


async def test_a_display_name_with_broken_unicode_joins_tidied(commands: Core, config: Config) -> None:
    odd = actor("Zo\udce9\x07 ")
    await ok(commands, odd, "/aanmelden")
    ((name,),) = rows(config, "SELECT name FROM members")
    assert name == "Zo\ufffd"


# --------------------------------------------------------------------------------------------- daylight saving
async def test_a_deadline_in_the_skipped_hour_after_the_publication_is_refused(commands: Core, config: Config) -> None:
    # 2027-03-28 (a Sunday) in Amsterdam: 02:00-03:00 does not exist; 02:30 would become 03:30, after 03:10
    text = await refused(commands, DIRECTOR, "/seizoen naam=Z start=2027-03-21 deadline=02:30 publicatie=03:10", config)
    assert "2027-03-28" in text and "03:30" in text


async def test_a_deadline_in_the_skipped_hour_moves_forward_by_the_gap(commands: Core, config: Config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=Z start=2027-03-21 rondes=3 deadline=02:30 publicatie=04:00")
    deadlines = rows(config, "SELECT play_date, deadline_at, publish_at FROM rounds ORDER BY number")
    assert deadlines[1] == ("2027-03-28", "2027-03-28T01:30:00+00:00", "2027-03-28T02:00:00+00:00")  # 03:30 and 04:00 CEST
    assert all(d < p for _, d, p in deadlines)


# -------------------------------------------------------------------------------------------------- the console
def _console(config: Config, script: str) -> str:
    import asyncio

    out = io.StringIO()
    start = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
    asyncio.run(run_console(config, stdin=io.StringIO(script), stdout=out, clock_start=start))
    return out.getvalue()


def test_the_console_refuses_hostile_clocks_and_paths(config: Config, tmp_path: Path) -> None:
    out = _console(
        config,
        "/klok 9999-12-31 23:59\n/klok +9999w\n/klok 0001-01-01 00:00\n"
        "/importeer /dev/zero start=2027-01-07 naam=Nul\n/importeer pad\x00met-nul start=2027-01-07\n"
        "/importeer /etc start=2027-01-07\n/klok\n",
    )
    assert out.count("De klok loopt van 1900 tot 2200") == 3, out
    assert "5 MB" in out
    assert out.count("bot! ") >= 6 and "Traceback" not in out
    assert "2026-12-01 12:00" in out  # the clock did not move
    assert rows(config, "SELECT COUNT(*) FROM seasons") == [(0,)]


def test_a_link_then_join_works_from_the_console(config: Config) -> None:
    out = _console(config, "/speler Anna 2000\n/als Anna\n/aanmelden\n/als Leider wedstrijdleider\n/koppel Anna @Anna\n/als Anna\n/aanmelden\n")
    assert "/koppel Anna" in out and "Dit account is nu Anna" in out

