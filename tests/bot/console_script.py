"""A script typed into the real console (``bot.app.run_console``), as ``./run.sh < script`` types it: the
lines it prints, and the lines that answer one command of it."""

from __future__ import annotations

import asyncio
import io
import os
from datetime import datetime

from bot.app import run_console
from bot.config import Config
from tests.paths import REPO


def console_lines(config: Config, script: str, clock_start: datetime) -> list[str]:
    """What the console prints for ``script``, run from the checkout (as ``./run.sh`` runs: a script names
    its member lists as ``examples/...csv``)."""
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(REPO)
    try:
        asyncio.run(run_console(config, stdin=io.StringIO(script), stdout=out, clock_start=clock_start))
    finally:
        os.chdir(here)
    return out.getvalue().splitlines()


def reply_to(lines: list[str], command: str, nth: int = 0, typed: tuple[str, ...] = ("> ",)) -> list[str]:
    """The lines after the ``nth`` time ``command`` was typed, up to the next line that begins with one of
    ``typed`` (what the console shows of a typed line)."""
    at = [i for i, line in enumerate(lines) if line == f"> {command}"][nth]
    end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith(typed)), len(lines))
    return lines[at + 1 : end]
