"""A page kept as it is sent: its HTML, compressed once (gzip) and its ETag, worked out when it is
rendered, so that sending it again costs no more than a bare server's answer: the browser's
``Accept-Encoding`` picks the bytes, its ``If-None-Match`` may get a 304 without them."""

from __future__ import annotations

import functools
import gzip
import hashlib
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from aiohttp import web

from bot.core.commands.replies import Reply

PLAIN = {"Content-Type": "text/html; charset=utf-8"}
GZIPPED = {**PLAIN, "Content-Encoding": "gzip"}
LEVEL = 6  # gzip's level: a 28 kB standings page in 0.3 ms, to a seventh of its size


@dataclass(frozen=True)
class Kept:
    """A command page as sent, beside what it was made of: the chat's reply (the same object while the
    reply cache hands it out), the club, menu and round links; ``stamp``: the store's change stamp under
    which it was last found to be current (``bot/web/freshness.py``), None until then."""

    reply: Reply
    made_of: Hashable
    body: bytes
    gzipped: bytes
    etag: str
    members_only: bool  # the club's pages are for its members: no shared cache may keep them
    headers: Mapping[str, str]  # what every answer carries (the security headers too)
    stamp: Hashable = None

    @classmethod
    def of(cls, reply: Reply, made_of: Hashable, body: bytes, members_only: bool, always: Mapping[str, str]) -> Kept:
        """``always``: the headers every answer of the website carries."""
        etag = 'W/"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'  # weak: gzipped or not
        headers = {
            **always,
            "ETag": etag,
            "Cache-Control": "private, no-cache" if members_only else "no-cache",  # the browser asks each time
            "Vary": "Accept-Encoding",
        }
        return cls(reply, made_of, body, gzip.compress(body, LEVEL, mtime=0), etag, members_only, headers)

    def response(self, request: web.BaseRequest) -> web.Response:
        """The page for this request: 304 when the browser holds it, gzipped when the browser takes gzip."""
        if _holds(request.headers.get("If-None-Match", ""), self.etag):
            return web.Response(status=304, headers=self.headers)
        if takes_gzip(request.headers.get("Accept-Encoding", "")):
            return web.Response(body=self.gzipped, headers={**self.headers, **GZIPPED})
        return web.Response(body=self.body, headers={**self.headers, **PLAIN})


def _holds(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names this ETag (compared weakly, RFC 9110 13.1.2) or is ``*``."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag.removeprefix("W/") in tags


@functools.lru_cache(maxsize=64)  # browsers send a handful of different headers
def takes_gzip(accept_encoding: str) -> bool:
    """Whether ``Accept-Encoding`` accepts gzip: named (or ``x-gzip``), else ``*``, and not with ``q=0``."""
    weights: dict[str, float] = {}
    for part in accept_encoding.lower().split(","):
        name, _, params = part.partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[name.strip()] = weight
    return weights.get("gzip", weights.get("x-gzip", weights.get("*", 0.0))) > 0
