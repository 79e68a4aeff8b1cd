"""How fast one chat account may send commands: a token bucket per (platform, user).

A member may send ``BURST`` commands at once, then one per ``REFILL_SECONDS`` on average; beyond that the
command is not run and the member is told to slow down, and when to try again. A person typing never
meets the limit; a script in a tight loop does, and then costs the bot a dictionary lookup per command,
not a trip through the store. The console (the operator at the terminal) has no limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

BURST = 20
REFILL_SECONDS = 1.0
UNLIMITED_PLATFORMS = frozenset({"console"})
SWEEP_EVERY = 10_000  # commands between two sweeps of the buckets that have filled up again

_ROUNDING = 1e-9  # (now - at) in floats: after the wait we told, the refill may come out a hair short of 1


class UserLimits:
    def __init__(
        self, burst: int = BURST, refill_seconds: float = REFILL_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.refill_seconds = refill_seconds
        self._clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # user -> (tokens, at)
        self._since_sweep = 0

    def wait_for(self, platform: str, user_id: str) -> int:
        """Take one command from the user's bucket: 0 if it may run now, else the whole seconds to wait."""
        if platform in UNLIMITED_PLATFORMS:
            return 0
        now = self._clock()
        self._sweep(now)
        tokens, at = self._buckets.get((platform, user_id), (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) / self.refill_seconds)
        if tokens < 1.0 - _ROUNDING:
            self._buckets[(platform, user_id)] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) * self.refill_seconds))
        self._buckets[(platform, user_id)] = (tokens - 1.0, now)
        return 0

    def _sweep(self, now: float) -> None:
        """Forget the buckets that are full again (a bot with many users keeps only the busy ones)."""
        self._since_sweep += 1
        if self._since_sweep < SWEEP_EVERY:
            return
        self._since_sweep = 0
        full = self.burst * self.refill_seconds
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}
