"""Hypothesis's profiles for the whole suite, loaded before any test module makes its ``@settings``.

- ``suite`` (``./test.sh`` outside CI): Hypothesis's default example counts (100 a property unless its
  ``@settings`` says otherwise) and no deadline: the suite runs in parallel on a shared machine, and no test
  fails on time (DESIGN.md); the examples are random, so each run tries new ones.
- ``ci`` (chosen when Hypothesis sees a CI environment, as it did before this profile was written): the
  same counts, derandomized, no example database, Hypothesis's own CI settings spelled out.
- ``dev`` (only when asked: ``HYPOTHESIS_PROFILE=dev`` or ``--hypothesis-profile=dev``): 10 examples
  for the properties without a count of their own, for a quick local round; never what CI runs.

A property's own ``@settings(max_examples=...)`` holds in every profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

in_ci = settings.get_current_profile_name() == "ci"  # Hypothesis loads its "ci" when it sees CI
hypothesis_default = settings.get_profile("default")  # every setting a profile below does not name
settings.register_profile("suite", hypothesis_default, max_examples=100, deadline=None)
settings.register_profile(
    "ci", hypothesis_default, max_examples=100, derandomize=True, deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
settings.register_profile("dev", hypothesis_default, max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci else "suite"))
