"""What the website does before a request reaches a page: it holds few connections per address and in all,
closes one that sends no complete request within ``HEADER_TIMEOUT`` seconds, answers aiohttp's own errors
(a malformed request's 400) with the same security headers as every page and logs them at most once a
minute, logs a failing ``accept()`` (no file descriptors left) at most once a minute, and reads the client's
address from ``X-Forwarded-For`` only when the connection comes from a configured trusted proxy.

Served directly on the internet, thousands of silent connections would otherwise use up the process's open
files, and with them the bot's own (``/backup``, exports, the SQLite file): issue 33 §3.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import time
from collections import Counter
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from bot.core.running.open_files import open_file_limit, web_connections

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 15.0  # seconds a connection may take to send a whole request (and stay idle between two)
LOG_EVERY = 60.0  # seconds between two log lines of the same kind of error
LOW_WEB_SHARE = 64  # fewer connections than this left for the website: the limit is too low, said at start
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")  # a Host header's
IPV6_SITE = 64  # an IPv6 visitor is counted by the /64 its address is in: one line, one house, many addresses


def address_key(address: str) -> str:
    """Whom an address counts as: an IPv4 address itself (also written as IPv6), an IPv6 address its /64
    (a visitor's router hands out a whole /64: rotating through it makes no new visitor)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_SITE), strict=False))
    return str(ip)


class Throttled:
    """One log line per ``LOG_EVERY`` seconds for a kind of error, saying how many were left out."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}
        self._left_out: Counter[str] = Counter()

    def log(self, kind: str, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._last.get(kind, -LOG_EVERY) < LOG_EVERY:
            self._left_out[kind] += 1
            return
        self._last[kind] = now
        left_out, self._left_out[kind] = self._left_out[kind], 0
        log.warning(message + " (%d more like it in the last minute not logged)", *args, left_out)


class Guard:
    """The connections held, per address and in all; the headers every answer carries."""

    def __init__(self, headers: dict[str, str], trusted_proxies: tuple[str, ...], kept: int) -> None:
        """``kept``: the open files the bot keeps for itself (``bot/core/running/open_files.py``); the
        website's limits are what is left of the process's real open-file limit."""
        self.headers = headers
        self.trusted = frozenset(trusted_proxies)
        limit = open_file_limit()
        self.limit, self.per_address_limit = web_connections(limit, kept)
        if limit is not None and limit - kept < LOW_WEB_SHARE:
            log.warning("the open-file limit (%d) leaves the website %d connections beside the %d the bot keeps for "
                        "itself: raise it (LimitNOFILE=65536 in the unit, docs/deploy.md)", limit, self.limit, kept)  # fmt: skip
        self.per_address: Counter[str] = Counter()
        self.total = 0
        self.throttled = Throttled()

    def client(self, request: web.BaseRequest) -> str:
        """The visitor's address: the peer's, or from a trusted proxy the last untrusted address it names in
        ``X-Forwarded-For`` (what the proxy itself saw; earlier entries are the visitor's to invent)."""
        remote = request.remote or "?"
        if remote not in self.trusted:
            return remote
        for hop in reversed(",".join(request.headers.getall("X-Forwarded-For", [])).split(",")):
            hop = hop.strip()
            if hop and hop not in self.trusted:
                return hop
        return remote

    def origin(self, request: web.BaseRequest) -> str | None:
        """The site's absolute address as this request reached it (``[web] base_url`` unset): its scheme
        (from a trusted proxy, its ``X-Forwarded-Proto``) and its ``Host``; a ``Host`` that is no host name
        or address (or none) gives None."""
        scheme = request.scheme  # https on a TLS connection
        if (request.remote or "?") in self.trusted:
            said = ",".join(request.headers.getall("X-Forwarded-Proto", [])).split(",")[-1].strip().lower()
            scheme = said if said in ("http", "https") else scheme
        host = request.host
        return f"{scheme}://{host}" if _HOST.match(host) else None

    def exception_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The loop's: a failing ``accept()`` once a minute; anything else as asyncio would say it."""
        if "accept" in str(context.get("message", "")) and isinstance(context.get("exception"), OSError):
            self.throttled.log("accept", "the website cannot accept connections: %s", context["exception"])
            return
        loop.default_exception_handler(context)


class GuardedHandler(RequestHandler):
    """aiohttp's connection handler, counted, capped, and with its own error answers guarded."""

    __slots__ = ("_counted",)
    _counted: str | None  # the address this connection is counted under, until it is lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        guard: Guard = self._manager._guard  # type: ignore[union-attr]  # our server's (aiohttp's _manager: Server | None)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        trusted = address in guard.trusted
        address = address if trusted else address_key(address)
        self._counted = address
        guard.total += 1
        guard.per_address[address] += 1
        if guard.total > guard.limit or (not trusted and guard.per_address[address] > guard.per_address_limit):
            self.force_close()
            transport.close()

    def connection_lost(self, exc: BaseException | None) -> None:
        guard: Guard | None = getattr(self._manager, "_guard", None)
        address = getattr(self, "_counted", None)
        if guard is not None and address is not None:
            self._counted = None
            guard.total -= 1
            guard.per_address[address] -= 1
            if guard.per_address[address] <= 0:
                del guard.per_address[address]
        super().connection_lost(exc)

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        guard: Guard = self._manager._guard  # type: ignore[union-attr]  # as in connection_made
        if status == 500:  # a bug past the middleware: no trace to the visitor, one in the log
            log.error("web request from %s failed", request.remote, exc_info=exc)
            response = web.Response(status=500, text="Something went wrong\n")
        else:  # a malformed request: anyone can send many
            guard.throttled.log(f"http {status}", "malformed web request from %s: %s", request.remote, exc)
            response = web.Response(status=status, text=(message or "Bad request") + "\n")
        response.force_close()
        response.headers.update(guard.headers)
        return response


class GuardedServer(web.Server):
    """aiohttp's server that hands out ``GuardedHandler``s."""

    _guard: Guard

    def __call__(self) -> RequestHandler:
        return GuardedHandler(self, loop=self._loop, **self._kwargs)


def install(runner: web.AppRunner, guard: Guard) -> None:
    """Make the set-up runner's server a guarded one (before its site starts)."""
    server = runner.server
    assert server is not None
    server.__class__ = GuardedServer
    assert isinstance(server, GuardedServer)
    server._guard = guard
    asyncio.get_running_loop().set_exception_handler(guard.exception_handler)
