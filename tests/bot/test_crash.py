"""Crash safety: the real `clubbot run` console process, fed a week through a pipe, killed with SIGKILL
at many points of a round's life and started again on the same database.

After each kill the script goes on from the first line whose reply had not been printed (a line that
was sent but not answered is sent again, as a member would retype it), with the bot's clock where it was.
At the end: every sign-off and result whose reply was printed before a kill is in the database, the
round was paired once, its pairing announcement was printed at least once over all runs, and the
database passes PRAGMA integrity_check. An announcement printed just before a kill, before it was
recorded as sent, is printed again after the restart: the at-least-once window (docs/reliability.md);
the test counts those repeats and checks that they happen only there.
"""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # tests/bot -> the repository
CLUBBOT = REPO / ".venv" / "bin" / "clubbot"
FIRST_CLOCK = "2026-12-01T12:00"

SCRIPT = [
    "/seizoen naam=S start=2026-12-03 rondes=5",
    "/speler Anna 2100",
    "/speler Bert 1950",
    "/speler Carla 1800",
    "/speler Daan 1700",
    "/speler Eva 1600",
    *(f"/koppel {name} @{name}" for name in ("Anna", "Bert", "Carla", "Daan", "Eva")),
    "/als Bert",
    "/aanmelden",
    "/afmelden 2",
    "/als Eva",
    "/aanmelden",
    "/afmelden 3 teamwedstrijd",
    "/als Anna",
    "/aanmelden",
    "/als Carla",
    "/aanmelden",
    "/als Daan",
    "/aanmelden",
    "/klok 2026-12-03 18:05",  # deadline passed, round 1 paired and announced
    "/als Anna",
    "/uitslag gewonnen",
    "/als Bert",
    "/bevestig",
    "/als Carla",
    "/uitslag verloren",
    "/als Daan",
    "/bevestig",  # the last result: the standings are announced
    "/klok 2026-12-10 18:05",  # round 2 (Bert signed off) paired and announced
    "/als Anna",
    "/stand",
]

# Where to kill, in order over one life of the database:
#   ("ack", line)      after the reply to that line was printed
#   ("sent", line)     right after the line was written to the pipe, without waiting
#   ("channel", text, line)  right after the channel line containing text, which the reply to that line
#                            brings, was printed (however long the announcement takes)
KILLS: list[tuple[str, ...]] = [
    ("ack", "/afmelden 2"),
    ("sent", "/afmelden 3 teamwedstrijd"),
    ("sent", "/klok 2026-12-03 18:05"),  # while the deadline closes and the round is paired
    ("channel", "Indeling ronde 1", "/klok 2026-12-03 18:05"),  # while the pairing is announced
    ("ack", "/uitslag gewonnen"),
    ("sent", "/bevestig#2"),  # while the last result is confirmed and the standings are queued
    ("channel", "Stand S na ronde 1", "/bevestig#2"),  # while the standings are announced
    ("sent", "/klok 2026-12-10 18:05"),
]


class Bot:
    def __init__(self, db: Path, clock: str, args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        env = {**os.environ, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": "", **(env or {})}
        self.proc = subprocess.Popen(
            [str(CLUBBOT), "run", "--console", "--db", str(db), "--clock", clock, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
            cwd=REPO, env=env,
        )  # fmt: skip
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.out: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, predicate, timeout: float = 20.0) -> str:  # type: ignore[no-untyped-def]
        end = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            if line is None:
                raise AssertionError(f"the bot ended; output so far: {self.out[-20:]}")
            self.out.append(line)
            if predicate(line):
                return line

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        while True:  # whatever it printed before it died
            try:
                line = self.lines.get(timeout=2)
            except queue.Empty:
                break
            if line is None:
                break
            self.out.append(line)

    def finish(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=20)
        while (line := self.lines.get(timeout=5)) is not None:
            self.out.append(line)


def wait_for_announcement(bot: Bot, title: str, since: int, runs: list[list[str]], timeout: float = 60.0) -> None:
    """Until the channel line with ``title`` is printed (or was, since ``bot.out[since]``); fails, saying
    why, when it is not printed within ``timeout`` seconds."""

    def announced(s: str) -> bool:
        return s.startswith("[kanaal]") and title in s

    if any(announced(s) for s in bot.out[since:]):
        return
    try:
        bot.wait_for(announced, timeout=timeout)
    except queue.Empty:
        earlier = [n for n, out in enumerate(runs) if any(announced(s) for s in out)]
        raise AssertionError(
            f"{title!r} was not printed within {timeout} s of the line that brings it"
            + (f" (run {earlier} printed it already: that kill came after the announcement)" if earlier else "")
            + f"; output so far: {bot.out[-20:]}"
        ) from None


def _labels() -> list[str]:
    """Each script line with #n for its n-th occurrence after the first, so kill points are unambiguous."""
    seen: dict[str, int] = {}
    labels = []
    for line in SCRIPT:
        seen[line] = seen.get(line, 0) + 1
        labels.append(line if seen[line] == 1 else f"{line}#{seen[line]}")
    return labels


def test_killed_at_every_point_of_a_round_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    labels = _labels()
    kills = list(KILLS)
    acknowledged: list[str] = []
    runs: list[list[str]] = []
    repeats_expected = 0
    clock, actor_line, i = FIRST_CLOCK, None, 0
    bot = Bot(db, clock)
    while True:
        bot.wait_for(lambda s: s.startswith("clubbot console"))
        if actor_line is not None:  # the console forgets who is typing: say it again
            bot.send(actor_line)
            bot.wait_for(lambda s: s.startswith("bot"))
        killed = False
        while i < len(SCRIPT):
            line, label = SCRIPT[i], labels[i]
            kill = kills[0] if kills else None
            since = len(bot.out)  # what the bot prints from here on answers this line
            bot.send(line)
            if kill == ("sent", label):
                bot.kill()
                killed = True
                break
            bot.wait_for(lambda s, line=line: s == "> " + line)
            bot.wait_for(lambda s: s.startswith(("bot>", "bot!")))
            acknowledged.append(label)
            if line.startswith(("/als", "/as")):
                actor_line = line
            if line.startswith("/klok 2"):
                clock = line.split(" ", 1)[1].replace(" ", "T")
            i += 1
            if kill == ("ack", label):
                bot.kill()
                killed = True
                break
            if kill is not None and kill[0] == "channel" and kill[2] == label:
                # the announcement this line brings (the alarm prints it after the reply, or the scheduler's
                # own check just before it): however long it takes, the kill comes right after it
                wait_for_announcement(bot, kill[1], since, runs)
                bot.kill()
                repeats_expected += 1
                killed = True
                break
        if killed:
            kills.pop(0)
            runs.append(bot.out)
            bot = Bot(db, clock)
            continue
        bot.finish()
        runs.append(bot.out)
        break

    assert kills == [], f"kill points never reached: {kills}"
    assert len(runs) == len(KILLS) + 1
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        signoffs = set(
            conn.execute(
                "SELECT m.name, r.number, s.kind FROM signoffs s JOIN members m ON m.id = s.member_id"
                " JOIN rounds r ON r.id = s.round_id"
            ).fetchall()
        )
        assert ("Bert", 2, "notice") in signoffs
        assert ("Eva", 3, "team") in signoffs
        results = conn.execute(
            "SELECT w.name, b.name, g.result FROM games g JOIN rounds r ON r.id = g.round_id"
            " JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id WHERE r.number = 1"
        ).fetchall()
        assert len(results) == 2  # paired once: two boards, Eva has the bye
        for white, black, result in results:
            if "Anna" in (white, black):
                assert result == ("1-0" if white == "Anna" else "0-1")
            else:
                assert result == ("0-1" if white == "Carla" else "1-0")
        paired = conn.execute("SELECT number FROM rounds WHERE status = 'paired' ORDER BY number").fetchall()
        assert paired == [(1,), (2,)]
        queued = conn.execute("SELECT kind, COUNT(*) FROM announcements GROUP BY kind ORDER BY kind").fetchall()
        assert dict(queued)["pairing"] == 2 and dict(queued)["standings"] == 1  # queued once each
        assert conn.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0] == 0
    finally:
        conn.close()

    everything = [line for out in runs for line in out]
    for title in ("Indeling ronde 1", "Indeling ronde 2", "Stand S na ronde 1"):
        shown = sum(1 for line in everything if line.startswith("[kanaal]") and title in line)
        print(f"{title}: printed {shown} time(s)")
        assert shown >= 1, f"{title!r} never announced"
        # a repeat only after a kill in the middle of that very announcement (the at-least-once window)
        window = sum(1 for kind, text, *_ in KILLS if kind == "channel" and text == title)
        assert shown <= 1 + window, f"{title!r} announced {shown} times"
