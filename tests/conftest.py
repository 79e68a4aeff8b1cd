"""What the whole suite shares, set before any test module is imported: where temporary files go, and
Hypothesis's profiles.

Temporary files (pytest's ``tmp_path``, ``tempfile``, and through ``TMPDIR`` every process a test starts)
go to ``/dev/shm``, a tmpfs, when it is there and writable and no ``TMPDIR`` was chosen: the tests' SQLite
files are synced on every checkpoint, and on a disk shared with other work those syncs were most of the
time of a store test. A process killed by a test loses nothing on a tmpfs either (the kernel keeps what
it wrote); only a crash of the machine would, and no test needs that.

Hypothesis's profiles, loaded before any test module makes its ``@settings``:

- ``suite`` (``./test.sh`` outside CI): Hypothesis's default example counts (100 a property unless its
  ``@settings`` says otherwise) and no deadline: the suite runs in parallel on a shared machine, and no test
  fails on time (DESIGN.md); the examples are random, so each run tries new ones.
- ``ci`` (chosen when Hypothesis sees a CI environment, as it did before this profile was written): the
  same counts, derandomized, no example database, Hypothesis's own CI settings spelled out.
- ``dev`` (only when asked: ``HYPOTHESIS_PROFILE=dev`` or ``--hypothesis-profile=dev``): 10 examples
  for the properties without a count of their own, for a quick local round; never what CI runs.

A property's own ``@settings(max_examples=...)`` holds in every profile.

Under pytest-xdist the fakes' counts of the requests they checked (their lines in the terminal summary)
are each worker's: the workers hand them over and the controller says the sums.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from typing import Any

# Hypothesis runs every installed package's "hypothesis" entry point as it is imported: Trio's (Selenium
# brings Trio) imports all of Trio, some 0.2 s of CPU in every worker, for Trio's own tests. No test here
# runs Trio. ``-p no:anyio`` (pyproject.toml) keeps AnyIO's pytest plugin from importing it too.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

from hypothesis import HealthCheck, settings  # noqa: E402 - after the line above

if not os.environ.get("TMPDIR") and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK):
    os.environ["TMPDIR"] = "/dev/shm"
    tempfile.tempdir = None  # read TMPDIR again

in_ci = settings.get_current_profile_name() == "ci"  # Hypothesis loads its "ci" when it sees CI
hypothesis_default = settings.get_profile("default")  # every setting a profile below does not name
settings.register_profile("suite", hypothesis_default, max_examples=100, deadline=None)
settings.register_profile(
    "ci", hypothesis_default, max_examples=100, derandomize=True, deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
settings.register_profile("dev", hypothesis_default, max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci else "suite"))


FAKES_CHECKED = ("telegram-checked", "discord-spec-summary")  # plugins with a ``total`` they print at the end


def pytest_sessionfinish(session: Any) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is None:  # not a pytest-xdist worker
        return
    plugins = [(name, session.config.pluginmanager.get_plugin(name)) for name in FAKES_CHECKED]
    workeroutput["fakes_checked"] = [
        (name, type(plugin).__module__, type(plugin).__qualname__, plugin.total) for name, plugin in plugins if plugin
    ]


def pytest_testnodedown(node: Any, error: Any) -> None:
    """On the controller: a worker's counts added to the controller's own summary plugins."""
    for name, module, qualname, total in getattr(node, "workeroutput", {}).get("fakes_checked", []):
        manager = node.config.pluginmanager
        plugin = manager.get_plugin(name)
        if plugin is None:
            plugin = getattr(importlib.import_module(module), qualname)()
            manager.register(plugin, name)
        plugin.total += total
