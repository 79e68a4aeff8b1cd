"""A whole week driven through the console adapter, as a club would live it, on a real SQLite file.

The script creates a season, signs players on and off, moves the clock past the deadline and the
publication, reports and confirms results and asks for the standings; the replies and the database
are both checked.
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.app import run_console
from bot.config import Config
from tests.bot.conftest import START

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
# the director sets up the season and the players
/seizoen naam=2026-27 start=2026-12-03 rondes=28
/speler Anna 2100
/speler Bert 1950
/speler Carla 1800
/speler Daan 1700
/speler Eva 1600
/koppel Anna @Anna
/koppel Bert @Bert
/koppel Carla @Carla
/koppel Daan @Daan
/koppel Eva @Eva
/als Bert
/aanmelden
/afmelden
/als Eva
/aanmelden
/afmelden 2 teamwedstrijd
/klok 2026-12-03 17:30
/afmelden
/klok 2026-12-03 18:05
/indeling
/als Anna
/aanmelden
/uitslag 0-1
/als Carla
/aanmelden
/uitslag 0-1
/als Daan
/aanmelden
/uitslag 1-0
/als Eva
/bevestig
/stand
/klok +1w
/indeling
"""


def run_script(config: Config, script: str) -> str:
    out = io.StringIO()
    import asyncio

    asyncio.run(run_console(config, stdin=io.StringIO(script), stdout=out, clock_start=START))
    return out.getvalue()


def test_a_week_in_the_console(config: Config) -> None:
    output = run_script(config, SCRIPT)
    lines = output.splitlines()

    # the sign-off after the deadline is refused and names the deadline
    refused = lines[lines.index("> /klok 2026-12-03 17:30") + 3]
    assert refused.startswith("bot! ") and "2026-12-03 17:00" in refused

    # the pairing is announced once, in the channel, at publication: Anna (2100) is first, Bert is
    # signed off, so Anna meets Carla (1800), the next present; the lower ranked gets white.
    announced = [line for line in lines if line.startswith("[kanaal] ")]
    assert announced.count("[kanaal] Indeling ronde 1 (2026-12-03)") == 1
    assert "[kanaal] Bord 1: Carla - Anna" in announced
    assert "[kanaal] Bord 2: Eva - Daan" in announced

    db = sqlite3.connect(config.db_path)
    results = dict(db.execute(
        "SELECT g.board, g.result FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 1"
    ).fetchall())
    # Anna and Carla both reported 0-1: confirmed. Daan reported 1-0 (Eva white lost? no: Eva is white,
    # Daan black, so "1-0" means Eva won); Eva confirmed Daan's report.
    assert results == {1: "0-1", 2: "1-0"}
    kinds = dict(db.execute(
        "SELECT r.number || ':' || m.name, s.kind FROM signoffs s JOIN rounds r ON r.id = s.round_id"
        " JOIN members m ON m.id = s.member_id"
    ).fetchall())
    assert kinds == {"1:Bert": "notice", "2:Eva": "team"}

    # standings after round 1, seed 004 values: by rating Anna 50, Bert 49, Carla 48, Daan 47, Eva 46.
    # Anna beat Carla: 48. Eva beat Daan: 47. Bert signed off: 49/3 = 16.33. Re-ranked, that is the order.
    stand_at = lines.index("> /stand")
    table = lines[stand_at + 4 : stand_at + 9]
    names = [row.split()[2] for row in table]
    assert names == ["Anna", "Eva", "Bert", "Carla", "Daan"]
    assert table[0].split()[3] == "48" and table[1].split()[3] == "47" and table[2].split()[3] == "16.33"

    # all results in: the standings are announced once, after the confirmation
    assert sum(1 for line in announced if line.startswith("[kanaal] Stand 2026-27 na ronde 1")) == 1

    # a week later round 2 is paired: Eva is away for the team match, four play
    assert announced.count("[kanaal] Indeling ronde 2 (2026-12-10)") == 1
    round2 = db.execute(
        "SELECT COUNT(*) FROM games g JOIN rounds r ON r.id = g.round_id WHERE r.number = 2"
    ).fetchone()[0]
    assert round2 == 2
    assert db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0


def test_restart_announces_nothing_twice_and_catches_up(config: Config) -> None:
    """A bot that is down over a publication announces it once on start-up, and never again after."""
    setup = "/seizoen naam=S start=2026-12-03 rondes=3\n/speler Anna 2000\n/speler Bert 1900\n"
    first = run_script(config, setup)
    assert "[kanaal]" not in first
    # the next start is after the publication: it catches up once
    out = io.StringIO()
    import asyncio
    from datetime import datetime, timezone

    later = datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)
    asyncio.run(run_console(config, stdin=io.StringIO(""), stdout=out, clock_start=later))
    assert out.getvalue().count("[kanaal] Indeling ronde 1") == 1
    out2 = io.StringIO()
    asyncio.run(run_console(config, stdin=io.StringIO(""), stdout=out2, clock_start=later))
    assert "[kanaal]" not in out2.getvalue()


def test_the_installed_command_runs_a_script(tmp_path: Path) -> None:
    """`clubbot run` as a real process, the way the README starts it, with a script on standard input."""
    exe = Path(sys.executable).parent / "clubbot"
    env = {**os.environ, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": ""}
    proc = subprocess.run(
        [str(exe), "run", "--db", str(tmp_path / "p.sqlite3"), "--clock", "2026-12-01T12:00"],
        input="/seizoen naam=S start=2026-12-03 rondes=2\n/speler Anna 2000\n/speler Bert 1900\n/klok +54h\n/taal en\n/stand\n",
        capture_output=True, text=True, timeout=60, env=env, cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[kanaal] Bord 1: Bert - Anna" in proc.stdout
    assert "Standings S after round 1" in proc.stdout
