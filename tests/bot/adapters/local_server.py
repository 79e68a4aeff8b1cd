"""Serving a fake platform API: an aiohttp application on 127.0.0.1 at a port the system picks."""

from __future__ import annotations

import socket
from typing import Any

from aiohttp import web


async def serve_locally(app: web.Application, port: int = 0, **runner_options: Any) -> tuple[web.AppRunner, int]:
    """Start ``app`` on 127.0.0.1 at ``port`` (0: a free one); the runner (to ``cleanup()``) and the port."""
    runner = web.AppRunner(app, access_log=None, **runner_options)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    server = site._server
    assert server is not None
    return runner, server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on (connections to it are refused until something does)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
