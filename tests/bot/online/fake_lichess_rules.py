"""The rules the fake lichess keeps over requests, besides each request's own (``lichess_contract.py``): the
introduction of the description's "only make one request at a time" and "after a 429, wait a minute", and the
failures a test asks for (a 5xx, a 429, or the connection dropped without an answer, on the next requests).

A request that breaks a rule is answered as lichess answers it (400 with ``{"error": ...}`` for a request it
refuses, 429 during the minute after a 429) and the rule is kept in ``problems``, which fails the test at
its end (the ``lichess`` fixture in ``fake_lichess.py``). Who a request comes from is its token ("the bot's
token" for the bot's requests); requests without a token (a member's browser at ``/oauth``, the website's
token exchange) are counted as "anonymous" for the minute after a 429 but not for one request at a time,
since several visitors' browsers do not share a turn. The description makes no exception for a stream: an
open stream of games is the token's request in flight for as long as it is open.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.bot.online.fake_lichess_state import FakeClock
from tests.bot.online.lichess_contract import answer_problems, check

RATE_PAUSE = 60.0  # seconds: the minute after a 429
DROP = 0  # a failure on demand: the connection closed without an answer


@dataclass
class Seen:
    """One request the fake answered: when (the fake's clock), who (token or "anonymous"), what, the answer."""

    at: float
    who: str
    method: str
    path: str
    status: int = 0
    query: str = ""
    body: str = ""


@dataclass
class Rules:
    clock: FakeClock
    latency: float = 0.002  # seconds each answer takes, so that two requests at once overlap
    problems: list[str] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    in_flight: dict[str, int] = field(default_factory=dict)
    most_in_flight: int = 0
    paused_until: dict[str, float] = field(default_factory=dict)
    failures: list[int] = field(default_factory=list)  # statuses the next requests get (a 5xx, 429; DROP)

    def fail_next(self, count: int, status: int = 503) -> None:
        if not (status in (429, DROP) or 500 <= status <= 599):
            raise ValueError("a failure on demand is a 5xx, 429 or 0 (the connection dropped)")
        self.failures += [status] * count

    def requests(self, who: str | None = None) -> list[Seen]:
        return [s for s in self.seen if who is None or s.who == who]


RULES: web.AppKey[Rules] = web.AppKey("rules", Rules)


def who_sent(request: web.Request) -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token if scheme == "Bearer" and token else "anonymous"


def error(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


@web.middleware
async def keep_rules(request: web.Request, handler: Any) -> web.StreamResponse:
    """Check every request to the API (not ``/_fake/...``) against the rules, then answer it."""
    if request.path.startswith("/_fake/"):
        return await handler(request)  # type: ignore[no-any-return]
    rules = request.app[RULES]
    who = who_sent(request)
    now = rules.clock.time()
    seen = Seen(now, who, request.method, request.path)
    rules.seen.append(seen)
    counted = who != "anonymous"  # a stream is a request too: while it is open, it is the one in flight
    if counted:
        if rules.in_flight.get(who, 0) >= 1:
            rules.problems.append(f"{request.method} {request.path}: a second request while one was in flight "
                                  "(lichess: only make one request at a time)")  # fmt: skip
        rules.in_flight[who] = rules.in_flight.get(who, 0) + 1
        rules.most_in_flight = max(rules.most_in_flight, rules.in_flight[who])
    try:
        answer = await _answer(request, rules, seen, handler)
    finally:
        if counted:
            rules.in_flight[who] -= 1
    seen.status = 0 if request.transport is None or request.transport.is_closing() else answer.status  # 0: dropped
    return answer


async def _answer(request: web.Request, rules: Rules, seen: Seen, handler: Any) -> web.StreamResponse:
    who, now = seen.who, seen.at
    await asyncio.sleep(rules.latency)
    paused = rules.paused_until.get(who, 0.0)
    if now < paused:
        rules.problems.append(f"{request.method} {request.path}: sent {now - (paused - RATE_PAUSE):.1f} s after a 429 "
                              "(lichess: wait a minute after a 429)")  # fmt: skip
        return error(429, "Too many requests. Try again later.")
    if rules.failures:
        status = rules.failures.pop(0)
        if status == 429:
            rules.paused_until[who] = now + RATE_PAUSE
            return error(429, "Too many requests. Try again later.")
        if status == DROP:
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=502)  # never sent: the connection is gone (recorded as status 0)
        return web.Response(status=status, text="<html>lichess is down for maintenance (the fake)</html>", content_type="text/html")
    body = await request.read()
    seen.query, seen.body = request.query_string, body.decode("utf-8", errors="replace")
    broken = check(request.method, request.path, request.query_string, dict(request.headers), body)
    if broken:
        rules.problems.extend(broken)
        return error(404 if "no such endpoint" in broken[0] or "not allowed" in broken[0] else 400, "; ".join(broken))
    answer: web.StreamResponse = await handler(request)
    if answer.status == 200 and isinstance(answer, web.Response) and answer.content_type in ("application/json", "application/x-ndjson"):
        text = answer.text or ""
        items = [json.loads(line) for line in text.splitlines() if line.strip()] if answer.content_type.endswith("ndjson") else [json.loads(text)]
        items = items[0] if len(items) == 1 and isinstance(items[0], list) else items
        rules.problems += answer_problems(request.method, request.path, items)
    return answer


def ndjson(items: list[dict[str, Any]]) -> web.Response:
    return web.Response(text="".join(json.dumps(i) + "\n" for i in items), content_type="application/x-ndjson")
