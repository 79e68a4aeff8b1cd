"""Issue 46 §3: the alarm waits on the monotonic clock and asks the wall clock what is due, so a wall
clock that steps (NTP after boot, an operator, a virtual machine resumed) neither stalls nor delays it.
The bot runs in a process of its own with Debian's libfaketime preloaded (its build for programs with
threads: the store and the pictures work on threads of their own) (``./test.sh`` installs the
``faketime`` package): the test writes the process's wall clock offset to a file libfaketime reads at each
call; the monotonic clock is the machine's, as it is when a real wall clock steps."""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.paths import REPO

LIBRARY = next(iter(sorted(Path("/usr/lib").glob("*/faketime/libfaketimeMT.so.1"))), Path("/usr/lib/faketime/libfaketimeMT.so.1"))
WORKER = Path(__file__).with_name("stepped_wall_clock_worker.py")


class Worker:
    def __init__(self, tmp: Path, seconds_to_publication: float) -> None:
        if not LIBRARY.exists():
            pytest.fail(f"libfaketime is needed for this test and is missing ({LIBRARY}): apt-get install faketime")
        self.offset = tmp / "wall-clock-offset"
        self.step("+0")
        env = {**os.environ, "LD_PRELOAD": str(LIBRARY), "FAKETIME_TIMESTAMP_FILE": str(self.offset),
               "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
               # no program on its PATH: the pictures take the bot's fixed fonts instead of asking
               # fontconfig's fc-list, a program that would run on the stepped clock too (its waits
               # there can fail with EINVAL, and its caches can look stale)
               "PATH": ""}  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER), str(tmp / "club.sqlite3"), str(seconds_to_publication), "0.5"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=REPO,
        )  # fmt: skip
        self.lines: list[str] = []
        self.expect("ready", 60)

    def step(self, offset: str) -> None:
        """The process's wall clock is now the machine's plus ``offset`` (libfaketime's "+15", "-4500")."""
        self.offset.write_text(offset + "\n")

    def expect(self, line: str, seconds: float) -> float:
        """Wait for a line of the worker's output; how long it took."""
        began = time.monotonic()
        selector = selectors.DefaultSelector()
        assert self.process.stdout is not None
        selector.register(self.process.stdout, selectors.EVENT_READ)
        while line not in self.lines:
            left = seconds - (time.monotonic() - began)
            if left <= 0 or not selector.select(timeout=left):
                raise AssertionError(f"no {line!r} within {seconds} s; the worker said: {self.lines}")
            text = self.process.stdout.readline()
            if not text:
                raise AssertionError(f"the worker stopped; it said: {self.lines}")
            self.lines.append(text.strip())
        return time.monotonic() - began

    def watch(self, seconds: float) -> None:
        """Read what the worker says for ``seconds`` (into ``lines``), whatever it says."""
        try:
            self.expect("\0 never said", seconds)
        except AssertionError:
            pass

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def test_a_wall_clock_stepped_back_then_forward_does_not_stall_the_alarm(tmp_path: Path) -> None:
    """The publication is 3 s away; the wall clock steps 75 minutes back (nothing is due: the alarm must
    not fire on the monotonic clock alone), then forward past the publication: the round is paired and
    announced within seconds (the alarm reads the wall clock again every 0.5 s here, every minute in a bot),
    not 75 minutes later."""
    worker = Worker(tmp_path, 3)
    try:
        worker.step("-4500")
        worker.watch(5)  # the publication's moment passes on the monotonic clock; on the wall clock it is 75 min off
        assert "posted pairing" not in worker.lines, worker.lines
        worker.step("+10")
        worker.expect("posted pairing", 30)  # seconds (a pass on a busy machine), not 75 minutes
    finally:
        worker.stop()


def test_a_wall_clock_stepped_forward_past_the_publication_posts_at_once(tmp_path: Path) -> None:
    """The publication is an hour away; the wall clock steps forward two hours: the round is announced
    within seconds, not an hour later."""
    worker = Worker(tmp_path, 3600)
    try:
        worker.watch(1)
        assert "posted pairing" not in worker.lines, worker.lines
        worker.step("+7200")
        worker.expect("posted pairing", 30)  # seconds (a pass on a busy machine), not an hour
    finally:
        worker.stop()
