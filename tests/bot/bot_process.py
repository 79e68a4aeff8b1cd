"""The real ``clubbot run`` as a process of its own, for the tests that watch it from outside (its exit
status, its log): started with its output in a file, killed at the end if it still runs."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

CLUBBOT = str(Path(sys.executable).parent / "clubbot")


def environment(**secrets: str) -> dict[str, str]:
    """The test's environment without any ``CLUBBOT_`` variable of its own, and ``secrets``."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")}, **secrets}


@asynccontextmanager
async def bot_process(log: Path, *command: str, **options: Any) -> AsyncIterator[asyncio.subprocess.Process]:
    """``command`` (``CLUBBOT, "run", ...``) running, its output in ``log``; killed at the end if alive."""
    with open(log, "wb") as out:
        proc = await asyncio.create_subprocess_exec(*command, stdin=asyncio.subprocess.DEVNULL, stdout=out,
                                                    stderr=out, **options)  # fmt: skip
    try:
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


async def until(done: Callable[[], bool], proc: asyncio.subprocess.Process, log: Path, timeout: float = 60.0) -> None:
    """Wait until ``done()``, failing with the log's end if the process exits first or time runs out."""
    deadline = time.monotonic() + timeout
    while not done():
        assert proc.returncode is None and time.monotonic() < deadline, log.read_text()[-3000:]
        await asyncio.sleep(0.1)
