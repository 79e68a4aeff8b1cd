"""``/healthz`` and ``/metrics`` for the operator: on the website's address (``make_app`` adds them), or,
when the website is off, on ``[metrics] address`` by themselves (``start_metrics``)."""

from __future__ import annotations

import json
import logging

from aiohttp import web

from bot.config import ConfigError
from bot.core.commands.dispatch import Core
from bot.core.running.health import METRICS_CONTENT_TYPE, metrics_text

log = logging.getLogger(__name__)


def add_health_routes(app: web.Application, core: Core) -> None:
    async def healthz(request: web.Request) -> web.Response:
        healthy, details = await core.health.report(lambda: core.store.fetch_all("SELECT 1"))
        body = json.dumps({"status": "ok" if healthy else "unhealthy", **details}, sort_keys=True)
        return web.Response(status=200 if healthy else 503, text=body + "\n", content_type="application/json")

    async def metrics(request: web.Request) -> web.Response:
        response = web.Response(body=metrics_text())
        response.headers["Content-Type"] = METRICS_CONTENT_TYPE
        return response

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)


async def start_metrics(core: Core, address: str) -> web.AppRunner:
    """Serve ``/healthz`` and ``/metrics`` alone on ``HOST:PORT`` until the runner is cleaned up."""
    app = web.Application()
    add_health_routes(app, core)
    host, _, port = address.rpartition(":")
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host or "127.0.0.1", int(port)).start()
    except OSError as exc:
        await runner.cleanup()
        raise ConfigError(f"the metrics cannot listen on {address}: {exc.strerror or exc}") from None
    log.info("health and metrics on http://%s/healthz and /metrics", address)
    return runner
