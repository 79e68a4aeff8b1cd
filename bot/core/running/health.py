"""What an operator watches: Prometheus metrics (``/metrics``) and the health of a running bot (``/healthz``).

The metrics live in a registry of their own (``REGISTRY``), counted where the work happens: commands by
name and outcome and their latency (``Core.handle``), the database transaction of a command
(``Core._handle``), announcements queued, sent and failed and the lag of the scheduler's wakes
(``bot/core/running/scheduler.py``). ``Health`` is one running bot's state: the platforms it is connected to, the
scheduler's last wake, and a check that the database answers.
"""

from __future__ import annotations

import time
from typing import Awaitable, Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest,
)  # fmt: skip

METRICS_CONTENT_TYPE = CONTENT_TYPE_LATEST  # the web routes use it

REGISTRY = CollectorRegistry(auto_describe=True)
COMMANDS = Counter("clubbot_commands", "Commands handled, by name and outcome (ok, refused, error)",
                   ["command", "outcome"], registry=REGISTRY)  # fmt: skip
COMMAND_SECONDS = Histogram("clubbot_command_seconds", "Time from a command's arrival to its reply",
                            registry=REGISTRY)  # fmt: skip
TRANSACTION_SECONDS = Histogram("clubbot_db_transaction_seconds", "Time a command's database transaction took "
                                "(waiting for the writer and the commit included)", registry=REGISTRY)  # fmt: skip
ANNOUNCEMENTS = Counter("clubbot_announcements", "Announcements posted (sent) or not (failed: they stay pending)",
                        ["state"], registry=REGISTRY)  # fmt: skip
ANNOUNCEMENTS_QUEUED = Gauge("clubbot_announcements_queued", "Announcements pending at the scheduler's last look",
                             registry=REGISTRY)  # fmt: skip
SCHEDULER_LAG = Gauge("clubbot_scheduler_lag_seconds", "How late the scheduler's last wake came after its moment",
                      registry=REGISTRY)  # fmt: skip


def metrics_text() -> bytes:
    return generate_latest(REGISTRY)


class Health:
    """One running bot's health, as ``/healthz`` tells it."""

    def __init__(self) -> None:
        self.last_wake: float | None = None  # time.time() of the scheduler's last run
        self.platforms: dict[str, Callable[[], bool]] = {}  # platform -> is it connected now

    def woke(self) -> None:
        self.last_wake = time.time()

    async def report(self, database_answers: Callable[[], Awaitable[object]]) -> tuple[bool, dict[str, object]]:
        """(healthy, the details): the database answers a query and every platform is connected."""
        try:
            await database_answers()
            database = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure is the report
            database = f"error: {exc}"[:200]
        platforms = {name: "connected" if connected() else "disconnected" for name, connected in self.platforms.items()}
        details: dict[str, object] = {
            "database": database,
            "platforms": platforms,
            "scheduler_last_wake": self.last_wake,
            "scheduler_seconds_since_wake": None if self.last_wake is None else round(time.time() - self.last_wake, 1),
        }
        healthy = database == "ok" and all(v == "connected" for v in platforms.values())
        return healthy, details
