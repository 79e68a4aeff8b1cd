"""The adapter's two HTTP clients to Telegram, python-telegram-bot's ``HTTPXRequest``: the requests' (a pool
of ``PLATFORM_CONNECTIONS``) and the long poll's (one connection), as ``ApplicationBuilder`` makes them,
but with the process's one TLS context. httpx builds a context for every client, loading the whole CA
bundle into it (20-35 ms of CPU): twice for each adapter, and again whenever its polling starts anew.

Both clients speak HTTP/1.1 only, so what httpcore sets on the shared context for a connection (its ALPN
protocols) is the same for every connection."""

from __future__ import annotations

import functools
import ssl

import httpx
from telegram.request import HTTPXRequest

from bot.core.running.open_files import PLATFORM_CONNECTIONS


@functools.cache
def tls_context() -> ssl.SSLContext:
    """httpx's own default context (certifi's CAs, or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``), made once."""
    return httpx.create_ssl_context()


def telegram_requests() -> tuple[HTTPXRequest, HTTPXRequest]:
    """The requests' client and the long poll's, sharing ``tls_context()``."""
    shared = {"verify": tls_context()}
    return (
        HTTPXRequest(connection_pool_size=PLATFORM_CONNECTIONS, http_version="1.1", httpx_kwargs=shared),
        HTTPXRequest(connection_pool_size=1, http_version="1.1", httpx_kwargs=shared),
    )
