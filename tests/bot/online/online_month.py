"""A scripted month of an online club, run as a director would run it: the real ``clubbot run --console``
against the fake lichess started as a program of its own, both as processes (issue 43 §5).

    python -m tests.bot.online.online_month examples/online-month.txt [--transcript out.txt]

The script is the console's: one command a line, ``#`` a comment. A line starting with ``!`` is what
happens on lichess meanwhile (players join a challenge, a game ends): the words after it go to the fake's
control program (``tests/bot/online/fake_lichess_control.py``: ``! start @anna``, ``! end @anna mate white``,
``! expire``); ``! user Anna`` names an account lichess has. ``# start 2026-12-01T12:00`` (the club's time)
is where both clocks start; ``/klok`` moves the fake's clock along with the bot's. The bot holds no fake: it is pointed at
the fake's address by ``[lichess] url`` in a configuration written for the run, and at its token by the
environment, exactly as an operator would point it at lichess.

Each console line is followed by a marker comment, and the next line waits until the console has echoed
it: the console reads a line only once the one before it (and what it made due) is done, so the fake's
actions come in between commands exactly where the script puts them. The transcript is printed (and
written with ``--transcript``): every command with its replies and the channel's and private posts. A
request the fake found lichess would refuse (its ``problems``) ends the run with them named.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from datetime import datetime
from pathlib import Path
from queue import Empty, Queue
from zoneinfo import ZoneInfo

from tests.bot.online.fake_lichess_control import main as control
from tests.paths import REPO

MARK = "#~"  # the marker comment after each console line
START = re.compile(r"^# start (\S+)$")
CLOCK = re.compile(r"^/(?:klok|clock)\s+(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})")
WAIT = 60.0  # seconds a console line may take


def config_text(url: str) -> str:
    """config.example.toml with the fake's address for lichess (everything else as shipped)."""
    example = (REPO / "config.example.toml").read_text(encoding="utf-8")
    return re.sub(r'(?m)^url = "https://lichess.org"$', f'url = "{url}"', example)


class Console:
    """The bot's console as a process: lines in, its output read on a thread into a queue."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            cwd=REPO, env=env, bufsize=1,
        )  # fmt: skip
        self.lines: Queue[str | None] = Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str, number: int) -> list[str]:
        """The console's output from ``line`` until it echoed the marker that follows it."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n{MARK} {number}\n")
        self.process.stdin.flush()
        out: list[str] = []
        while True:
            try:
                got = self.lines.get(timeout=WAIT)
            except Empty:
                raise SystemExit(f"the console gave no answer to {line!r} within {WAIT:.0f} s") from None
            if got is None:
                raise SystemExit(f"the console ended at {line!r}:\n" + "\n".join(out))
            if got == f"> {MARK} {number}":
                return out
            out.append(got)

    def close(self) -> str:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=WAIT)
        rest: list[str] = []
        while (got := self.lines.get(timeout=WAIT)) is not None:
            rest.append(got)
        return "\n".join(rest)


def quiet(lines: list[str]) -> list[str]:
    """The conversation without the log's lines (they go to the same output on the console)."""
    return [line for line in lines if not line.startswith("time=")]


def run(script: str, zone: str = "Europe/Amsterdam") -> str:
    """The transcript of ``script`` (see the module's docstring)."""
    lines = script.splitlines()
    start = next((m for m in map(START.match, lines) if m), None)  # "# start 2026-12-01T12:00": the club's time
    begin = datetime.fromisoformat(start.group(1)) if start else datetime(2026, 12, 1, 12)
    users = sorted({w for line in lines if line.startswith("! user ") for w in line.split()[2:]})
    fake = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.online.fake_lichess", "--clock",
         begin.replace(tzinfo=ZoneInfo(zone)).isoformat(), *(f"--user={u}" for u in users)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO,
    )  # fmt: skip
    assert fake.stdout is not None
    first = fake.stdout.readline()
    found = re.search(r"fake lichess at (\S+) \(the bot's token: ([^;]+);", first)
    if not found:
        fake.kill()
        raise SystemExit(f"the fake lichess did not start: {first}")
    url, token = found.group(1), found.group(2)
    transcript: list[str] = [f"# the fake lichess at {url}"]
    with tempfile.TemporaryDirectory(prefix="clubbot-online-month-") as tmp:
        config = Path(tmp) / "config.toml"
        config.write_text(config_text(url), encoding="utf-8")
        env = {**os.environ, "CLUBBOT_LICHESS_TOKEN": token}
        console = Console(
            [sys.executable, "-m", "bot.cli", "run", "--console", "--config", str(config),
             "--db", str(Path(tmp) / "club.sqlite3"), "--clock", begin.isoformat()],
            env,
        )  # fmt: skip
        try:
            transcript += quiet(console.send("# the console is up", 0))
            for number, line in enumerate(lines, start=1):
                if line.startswith("!"):
                    words = line[1:].split()
                    if words[:1] == ["user"]:
                        transcript.append(f"! {' '.join(words)}  (an account on lichess)")
                        continue
                    transcript.append(f"! {' '.join(words)}")
                    _control(url, *words)  # the fake's answer is not the club's: not in the transcript
                    continue
                clock = CLOCK.match(line)
                if clock:  # lichess's time moves with the club's
                    moment = datetime.fromisoformat(f"{clock.group(1)}T{clock.group(2)}").replace(tzinfo=ZoneInfo(zone))
                    _control(url, "clock", moment.isoformat())
                transcript += quiet(console.send(line, number))
            broken = json.loads(_control(url, "state"))["problems"]  # what lichess would have refused, by the fake's rules
        finally:
            transcript += quiet(console.close().splitlines())
            fake.terminate()
            fake.wait(timeout=10)
    if broken:
        raise SystemExit("the bot broke lichess's rules during the month:\n" + "\n".join(broken))
    return "\n".join(transcript) + "\n"


def _control(url: str, *words: str) -> str:
    """One of the fake's control commands (``fake_lichess_control.py``); what it printed (its answer)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        control([url, *words])
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.online.online_month", description=__doc__.split("\n\n")[0])
    parser.add_argument("script", type=Path)
    parser.add_argument("--transcript", type=Path, default=None)
    args = parser.parse_args()
    text = run(args.script.read_text(encoding="utf-8"))
    sys.stdout.write(text)
    if args.transcript:
        args.transcript.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
