"""Every request a platform's fake refuses fails the test that made it, unless the test expects it.

Each fake keeps a ``RefusalLog``: every answer it gives with a status of 400 or more (a request that breaks
one of the platform's rules, a Discord interaction answered twice or too late, a Telegram callback query
too old, an endpoint the fake does not know, ...). A 429 is no refusal: the platform says "later", and the
libraries wait and send again. Refusals a test arranged itself (``fail_channel``, ``fail_chat``, members
whose DMs are closed or who blocked the bot) are expected by that arrangement.

Every other refusal fails the test at its end (the autouse fixture ``platform_refusals`` below, which
``tests/bot/conftest.py`` gives every bot test), also one the bot only logged and went on from, such as a refused
``setMyCommands`` at start; with the refusal's request, status and reason. A test that means to make one
says so: ``expect_refusal("not 1-256")`` (a regular expression searched in "request status reason") or
the marker ``@pytest.mark.expect_refusal("...")``; an expected refusal that never came fails the test too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

LOGS: list["RefusalLog"] = []  # the logs of the fakes made during the running test
EXPECTED: list["Expected"] = []


@dataclass(frozen=True)
class Refusal:
    platform: str
    request: str  # "POST /api/v10/channels/1/messages", "sendMessage"
    status: int
    reason: str  # what the platform's answer says
    arranged: bool = False  # the test set it up (a queued failure, a closed DM, a blocked bot)

    def __str__(self) -> str:
        return f"{self.platform}: {self.request} -> {self.status} {self.reason}"


@dataclass
class Expected:
    pattern: str
    seen: int = 0


@dataclass
class RefusalLog:
    platform: str
    seen: list[Refusal] = field(default_factory=list)

    def __post_init__(self) -> None:
        LOGS.append(self)

    def record(self, request: str, status: int, reason: str, arranged: bool = False) -> None:
        if status >= 400 and status != 429:
            self.seen.append(Refusal(self.platform, request, status, reason, arranged))

    def take(self) -> list[Refusal]:
        """The refusals so far, forgotten: a test that checks them itself has seen them."""
        taken, self.seen[:] = list(self.seen), []
        return taken


def expect_refusal(pattern: str) -> None:
    """This test makes a refusal whose "request status reason" matches ``pattern`` (a regular expression)."""
    EXPECTED.append(Expected(pattern))


def begin(patterns: list[str]) -> None:
    LOGS.clear()
    EXPECTED[:] = [Expected(p) for p in patterns]


def unexpected() -> list[str]:
    """What fails the test: the refusals nobody expected and the expected ones that never came."""
    problems = []
    for refusal in (r for log in LOGS for r in log.seen):
        text = f"{refusal.request} {refusal.status} {refusal.reason}"
        matches = [e for e in EXPECTED if re.search(e.pattern, text)]
        for expected in matches:
            expected.seen += 1
        if not matches and not refusal.arranged:
            problems.append(f"refused: {refusal}")
    problems += [f"expected a refusal matching {e.pattern!r}, none came" for e in EXPECTED if not e.seen]
    LOGS.clear()
    EXPECTED.clear()
    return problems


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "expect_refusal(pattern, ...): the test makes platform refusals matching these")


@pytest.fixture(autouse=True)
def platform_refusals(request: pytest.FixtureRequest) -> Iterator[None]:
    """A request a platform's fake refused fails the test that made it, unless the test expected it. Autouse,
    so set up before the fakes' fixtures and ended after them."""
    marker = request.node.get_closest_marker("expect_refusal")
    begin(list(marker.args) if marker else [])
    yield
    problems = unexpected()
    if problems:
        pytest.fail("platform refusals the test did not expect:\n" + "\n".join(problems[:40]), pytrace=False)
