"""The website's HTML: Jinja2 templates with autoescape (every value is text: a member called
``<script>`` shows as text), and the one picture drawn here, a member's place per round as SVG."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

import jinja2
import markupsafe
from aiohttp import web

from bot.core.i18n import t
from bot.core.commands.registry import FormRound
from bot.core.commands.replies import Reply, Table
from bot.web.style import PLAIN, Look

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
)
Links = list[tuple[str, str]]


@dataclass(frozen=True)
class Rounds:
    """The links between a competition's rounds on a round's page: each round's (number, href), the one
    shown, and the previous and next round's href ("" for none)."""

    links: list[tuple[int, str]]
    shown: int
    previous: str = ""
    next: str = ""
_NUMBER = re.compile(r"^-?\d+([.,]\d+)?$")  # a number's cell is right-aligned
_LINK = re.compile(r"^https?://[^\s<>\"']+$")  # a cell that is an address links to it (a game on lichess)
FORM_FIRST = 3  # the sign-off form shows the next three rounds; the others are folded


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
    legend: str = "",
    current: str = "",
    rounds: Rounds | None = None,
    look: Look = PLAIN,
) -> web.Response:
    """A page of lines and a table. ``cell_links``: a cell's text -> where it links (a member's page);
    ``svg``: a picture a system drew from numbers only (``rank_plot``, the go board), put in as it is;
    ``more``: links under the page (a download); ``legend``: what the table's abbreviations mean;
    ``current``: the menu's link to the page shown (marked); ``rounds``: the links between rounds; ``look``: the club's colour and logo (``bot/web/style.py``)."""
    cell_links = cell_links or {}
    table = reply.table
    rows = [
        narrow(table, [(cell, _NUMBER.match(cell) is not None, cell_links.get(cell) or (cell if _LINK.match(cell) else None))
                       for cell in row])
        for row in (table.rows if table else ())
    ]  # fmt: skip
    headers = narrow(table, [(h, False, None) for h in table.headers]) if table else []
    body = TEMPLATES.get_template("page.html").render(
        lang=lang, club=club, title=page_title(title), links=links, lines=reply.lines, table=table, rows=rows,
        headers=headers,
        plot=markupsafe.Markup(svg), more=more or [], legend=legend, rounds=rounds,
        rounds_label=t(lang, "web_rounds"), scrolls_label=t(lang, "web_table_scrolls"), previous_label=t(lang, "web_round_previous"),
        next_label=t(lang, "web_round_next"), look=look, **_menu(lang, links, current),
    )  # fmt: skip
    return _response(body, status)


Cell = tuple[str, bool, str | None]  # its text, a number?, where it links


@dataclass(frozen=True)
class Shown:
    """A table's cell on the page: its ``css`` class (``n`` a number, right-aligned; ``fold`` a column a
    narrow screen shows under the cell before it instead, ``Table.under``) and ``under``, the folded cells
    after it as (text, href), shown there on a narrow screen, " · " between them."""

    text: str
    href: str | None
    css: str = ""
    under: tuple[tuple[str, str | None], ...] = ()


def narrow(table: Table | None, cells: list[Cell]) -> list[Shown]:
    """A row (or the headers) with the table's folded columns marked and each one's text also under the
    nearest column before it that stays ("0 · 48" under a pairing's name). A folded cell that links (a
    game on lichess) links there under its column's name; a cell with nothing under it but empty ones
    gets nothing, one beside others a dash."""
    folded = set(table.under) - {0} if table else set()
    below: dict[int, list[tuple[str, str | None]]] = {}
    kept = 0
    for i, (text, _, href) in enumerate(cells):
        if i in folded:
            assert table is not None
            below.setdefault(kept, []).append((table.headers[i], href) if href and text == href else (text, href))
        else:
            kept = i
    under = {i: tuple((text or "–", href) for text, href in parts) for i, parts in below.items() if any(text for text, _ in parts)}
    return [
        Shown(text, href, " ".join(word for word, on in (("n", number), ("fold", i in folded)) if on), under.get(i, ()))
        for i, (text, number, href) in enumerate(cells)
    ]


def page_title(title: str) -> str:
    """A page's title from a chat reply's first line, without the colon that leads the chat into its table."""
    return title.rstrip().removesuffix(":").rstrip()


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
    look: Look = PLAIN,
) -> web.Response:
    """A member's sign-off form: each coming round with their state and a button per thing they may do;
    the first ``FORM_FIRST`` (the next by date) open, the others folded."""
    body = TEMPLATES.get_template("form.html").render(
        lang=lang, club=club, title=page_title(title), links=links, rounds=rounds[:FORM_FIRST], later=rounds[FORM_FIRST:],
        later_label=t(lang, "web_form_more", count=len(rounds) - FORM_FIRST), action=action, key=key,
        message=message, message_ok=message_ok, look=look, **_menu(lang, links, action), **texts,
    )  # fmt: skip
    response = _response(body, status)
    response.headers["Cache-Control"] = "no-store"  # a member's own page: no cache keeps it
    return response


def _menu(lang: str, links: Links, current: str) -> dict[str, object]:
    """The menu's texts: the page shown is marked, and a phone's folded menu names it."""
    shown = next((label for href, label in links if href == current), "")
    return {"current": current, "menu_label": t(lang, "web_menu"),
            "menu_summary": t(lang, "web_menu_current", page=shown) if shown else t(lang, "web_menu")}  # fmt: skip


def _response(body: str, status: int) -> web.Response:
    return html(body.encode("utf-8"), status)


def html(body: bytes, status: int = 200) -> web.Response:
    return web.Response(status=status, body=body, content_type="text/html", charset="utf-8")


PLOT_FONT = 14  # the chart's letters, in its own units: drawn 400 wide, a phone's 374 px shows them at 13 px


def rank_plot(lang: str, places: list[int | None], players: int, width: int = 400, height: int = 220) -> str:
    """A member's place after each round as an SVG line (first place at the top), with its title, the
    axes' names and, for who cannot see it, the places in words; '' without data. Only numbers and the
    club's own texts go into it: nothing a member typed. Drawn 400 units wide with 14-unit letters, so a
    phone (390 px) shows them at least 12 px high; with many rounds only every so many is numbered."""
    points = [(i, p) for i, p in enumerate(places) if p is not None]
    if len(points) < 2 or players < 1:
        return ""
    left, top, right, bottom = 44, 30, 16, 44
    step = (width - left - right) / max(1, len(places) - 1)

    def x(i: int) -> float:
        return left + i * step

    def y(place: int) -> float:
        return top + (height - top - bottom) * (place - 1) / max(1, players - 1)

    title = escape(t(lang, "web_plot_title"))
    words = escape(t(lang, "web_plot_text", places=", ".join(t(lang, "web_plot_point", round=i + 1, place=p) for i, p in points)))
    line = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in points)
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(p):.1f}" r="3"/>' for i, p in points)
    every = max(1, math.ceil(1.5 * PLOT_FONT / step))  # room for two digits and a gap between the numbers
    rounds = "".join(f'<text x="{x(i):.1f}" y="{height - bottom + 18}">{i + 1}</text>' for i in range(0, len(places), every))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' role="img" aria-labelledby="plot-title plot-text"><title id="plot-title">{title}</title>'
        f'<desc id="plot-text">{words}</desc><rect width="{width}" height="{height}" fill="#fafafa"/>'
        f'<g font-size="{PLOT_FONT}" fill="#222" text-anchor="middle"><text x="{width / 2:.0f}" y="{PLOT_FONT + 2}" font-weight="bold">{title}</text>'
        f'{rounds}<text x="{(left + width - right) / 2:.0f}" y="{height - 6}">{escape(t(lang, "web_plot_x"))}</text>'
        f'<text transform="translate(12 {(top + height - bottom) / 2:.0f}) rotate(-90)">{escape(t(lang, "web_plot_y"))}</text></g>'
        f'<g font-size="{PLOT_FONT}" fill="#222" text-anchor="end"><text x="{left - 6}" y="{top + 4}">1</text>'
        f'<text x="{left - 6}" y="{height - bottom + 4}">{players}</text></g>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#888"/>'
        f'<polyline points="{line}" fill="none" stroke="#333" stroke-width="2"/><g fill="#333">{dots}</g></svg>'
    )
