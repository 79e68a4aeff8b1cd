"""Run benchmark scripts side by side, each in a process of its own forked from this one once it has
imported what the scripts import (the bot, its adapters, the platforms' fakes): each script would otherwise
pay that half a second of CPU again in an interpreter of its own.

    python tests/benchmarks/forked_scripts.py FOLDER SCRIPT [ARG ...] -- NAME [NAME ...]

Each ``benchmarks/NAME.py`` runs as ``python benchmarks/NAME.py ARG ...`` would: from its own source, as
``__main__``, with its ``sys.argv``, ``sys.path[0]`` and working folder, its output (stdout and stderr) in
``FOLDER/NAME.out``, and its exit status from its own ``SystemExit`` or exception as the interpreter
gives it (the interpreter's own exit runs, with its ``atexit`` work). Its imports find the modules already
loaded; its random numbers are seeded anew, as a new interpreter's. On stdout this process says
``started NAME PID`` and ``ended NAME STATUS`` (a negative status: killed by that signal), one line each.
"""

from __future__ import annotations

import importlib
import os
import random
import runpy
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def preload(names: list[str]) -> None:
    """Every script's imports, done here once: each script imported as a module (its ``main()`` not run);
    a script that fails to import here fails in its own process, with its own output."""
    sys.path.insert(0, str(REPO))
    for name in names:
        try:
            importlib.import_module(f"benchmarks.{name}")
        except BaseException:  # noqa: BLE001 - reported by the script's own run
            pass
    from bot.systems import build_registry

    build_registry()  # every system's modules, as make_core imports them (postgres_bench's workers begin so too)


def run(script: Path, argv: list[str], out: Path) -> None:
    """In the forked child: the script as ``python script argv...`` runs it; never returns (``SystemExit``
    or the script's exception leaves the interpreter, which exits as it would have)."""
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    random.seed()  # the parent's state is every child's: a new interpreter's would be its own
    sys.argv = [str(script), *argv]
    sys.path[0] = str(script.parent)  # as the interpreter puts a script's folder first
    runpy.run_path(str(script), run_name="__main__")
    raise SystemExit(0)


def main() -> None:
    folder, script_args = Path(sys.argv[1]), sys.argv[2 : sys.argv.index("--")]
    names = sys.argv[sys.argv.index("--") + 1 :]
    preload(names)
    if threading.active_count() != 1:  # a fork copies only the thread that forks
        raise SystemExit(f"threads running before the fork: {threading.enumerate()}")
    started: dict[int, str] = {}
    for name in names:
        sys.stdout.flush()  # nothing of the parent's left in a buffer the child would write again
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            run(REPO / "benchmarks" / f"{name}.py", script_args, folder / f"{name}.out")
        started[pid] = name
        print("started", name, pid, flush=True)
    while started:
        pid, status = os.wait()
        if pid in started:
            print("ended", started.pop(pid), os.waitstatus_to_exitcode(status), flush=True)


if __name__ == "__main__":
    main()
