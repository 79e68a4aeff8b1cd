"""The website's HTML: Jinja2 templates with autoescape (every value is text: a member called
``<script>`` shows as text), and the one picture drawn here, a member's place per round as SVG."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
from aiohttp import web

from bot.core.registry import FormRound
from bot.core.replies import Reply

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
)
Links = list[tuple[str, str]]
_NUMBER = re.compile(r"^-?\d+([.,]\d+)?$")  # a number's cell is right-aligned


def page(
    lang: str,
    club: str,
    title: str,
    links: Links,
    reply: Reply,
    status: int = 200,
    cell_links: dict[str, str] | None = None,
    svg: str = "",
    more: Links | None = None,
) -> web.Response:
    """A page of lines and a table. ``cell_links``: a cell's text -> where it links (a member's page);
    ``svg``: a picture a system drew from numbers only (``rank_plot``, the go board), put in as it is;
    ``more``: links under the page (a download)."""
    cell_links = cell_links or {}
    rows = [
        [(cell, _NUMBER.match(cell) is not None, cell_links.get(cell)) for cell in row]
        for row in (reply.table.rows if reply.table else ())
    ]
    body = TEMPLATES.get_template("page.html").render(
        lang=lang, club=club, title=title, links=links, lines=reply.lines, table=reply.table, rows=rows,
        plot=jinja2.utils.markupsafe.Markup(svg), more=more or [],
    )  # fmt: skip
    return _response(body, status)


def form(
    lang: str,
    club: str,
    title: str,
    links: Links,
    texts: dict[str, str],
    rounds: list[FormRound],
    action: str,
    key: str,
    message: tuple[str, ...] = (),
    message_ok: bool = True,
    status: int = 200,
) -> web.Response:
    """A member's sign-off form: each coming round with their state and a button per thing they may do."""
    body = TEMPLATES.get_template("form.html").render(
        lang=lang, club=club, title=title, links=links, rounds=rounds, action=action, key=key,
        message=message, message_ok=message_ok, **texts,
    )  # fmt: skip
    response = _response(body, status)
    response.headers["Cache-Control"] = "no-store"  # a member's own page: no cache keeps it
    return response


def _response(body: str, status: int) -> web.Response:
    return html(body.encode("utf-8"), status)


def html(body: bytes, status: int = 200) -> web.Response:
    return web.Response(status=status, body=body, content_type="text/html", charset="utf-8")


def rank_plot(places: list[int | None], players: int, width: int = 560, height: int = 200) -> str:
    """A member's place after each round as an SVG line (first place at the top); '' without data. Only
    numbers go into it: nothing a member typed."""
    points = [(i, p) for i, p in enumerate(places) if p is not None]
    if len(points) < 2 or players < 1:
        return ""
    pad = 24
    step = (width - 2 * pad) / max(1, len(places) - 1)

    def y(place: int) -> float:
        return pad + (height - 2 * pad) * (place - 1) / max(1, players - 1)

    line = " ".join(f"{pad + i * step:.1f},{y(p):.1f}" for i, p in points)
    dots = "".join(f'<circle cx="{pad + i * step:.1f}" cy="{y(p):.1f}" r="3"/>' for i, p in points)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' role="img"><rect width="{width}" height="{height}" fill="#fafafa"/>'
        f'<text x="4" y="{pad - 8}" font-size="11">1</text><text x="4" y="{height - 8}" font-size="11">{players}</text>'
        f'<polyline points="{line}" fill="none" stroke="#333" stroke-width="2"/><g fill="#333">{dots}</g></svg>'
    )
