"""Go games on the club's website (``bot/web``): ``/c/<club>/go`` lists the club's games (being played
and finished), ``/c/<club>/go/<id>`` shows one: the board as SVG (drawn here from the position: numbers
and the fixed coordinate letters only, nothing a member typed), the captions and whose turn it is, and
``/c/<club>/go/<id>.sgf`` downloads its record. Challenges not yet accepted are not shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from engine.go import BLACK, WHITE, Action, replay
from engine.go.board import LETTERS, STAR_POINTS, parse_point, point_name

from bot.core.commands.context import parse_id
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Registry, WebContent, WebPage
from bot.core.commands.replies import Reply, Table
from bot.core.storage.store import Club
from bot.go.store import GoStore
from bot.go.view import last_stone, load_game, names_of, picture_caption, score_lines, settings_of, sgf_file, status_lines

SHOWN = ("playing", "finished")
MOVING = ("handicap", "play", "pass")  # the actions a step of the game page goes through
CELL = 30


def register(registry: Registry) -> None:
    registry.web_pages.append(WebPage("go", "", "web_link_go", view=go_view, shown=_has_games))
    registry.used_when(_plays_go)  # /help lists go's commands from the first challenge on


async def _plays_go(core: Core, club: Club) -> bool:
    return await GoStore(core.store).has_games(club.id, ("challenged", "declined", *SHOWN))


async def _has_games(core: Core, club: Club) -> bool:  # the menu asks on every page: one row at most
    return await GoStore(core.store).has_games(club.id, SHOWN)


async def go_view(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    ctx = core.context_at(club, core.clock.now())
    if not rest:
        games = await GoStore(core.store).games_of_club(club.id, SHOWN)
        names = {m.id: m.name for m in await core.store.members(club.id)}
        table = Table(
            headers=(ctx.t("go_web_col_game"), ctx.t("go_black"), ctx.t("go_white"), ctx.t("go_web_col_size"), ctx.t("col_result")),
            rows=tuple((f"#{g.id}", names.get(g.black_id, "?"), names.get(g.white_id, "?"), f"{g.size}x{g.size}",
                        g.result or ctx.t("go_web_playing")) for g in reversed(games)),
        )  # fmt: skip
        return WebContent(
            ctx.t("go_web_title"), Reply(table=table), links=tuple((f"#{g.id}", f"go/{g.id}") for g in games)
        )
    number, dot, extension = rest.partition(".")
    if parse_id(number) is None or (dot and extension != "sgf"):
        return None
    row = await GoStore(core.store).game(int(number))
    if row is None or row.club_id != club.id or row.status not in SHOWN:
        return None
    actions = [Action.parse(line, row.size) for line in row.record]
    ends = [i + 1 for i, action in enumerate(actions) if action.kind in MOVING]  # where each move's step ends
    step = parse_id(query["zet"], 4) if "zet" in query else None
    if ("zet" in query and (step is None or step > len(ends))) or (extension and "zet" in query):
        return None
    game = replay(settings_of(row), actions[: ([0, *ends][step])]) if step is not None else load_game(row)
    names = await names_of(core, row)
    if extension:
        filename, body = await sgf_file(core, club, row, game, names, row.result or "")
        return WebContent(file=(filename, body, "application/x-go-sgf"))
    lines, _ = status_lines(ctx, row, game, names) if step is None else ([], [])  # the chat's buttons stay in the chat
    head = ctx.t("go_web_game", id=row.id)
    result = [ctx.t("go_web_result", result=row.result)] if row.result else []
    if step is None and game.outcome is not None and game.outcome.how == "score":
        result += score_lines(ctx, game)  # the count the players agreed: territory, captures, dead stones, komi
    reply = Reply(lines=(*picture_caption(ctx, row, game, names), *result, *lines))
    stones = {c: ", ".join(point_name(p, row.size) for p, v in enumerate(game.board.cells) if v == c) or "-" for c in (BLACK, WHITE)}
    words = ctx.t("go_web_board", size=row.size, black=stones[BLACK], white=stones[WHITE])
    shown = len(ends) if step is None else step
    steps: tuple[tuple[str, str], ...]
    steps = ((ctx.t("go_web_step_back", move=shown - 1), f"go/{row.id}?zet={shown - 1}"),) if shown > 0 else ()
    if step is not None:
        steps += ((ctx.t("go_web_step_next", move=step + 1), f"go/{row.id}?zet={step + 1}"),) if step < len(ends) else ()
        steps += ((ctx.t("go_web_step_now"), f"go/{row.id}"),)
    return WebContent(head, reply, svg=board_svg(row.size, game.board.cells, last_stone(game), game.dead, words),
                      links=(*steps, (ctx.t("go_web_sgf"), f"go/{row.id}.sgf")))  # fmt: skip


def board_svg(
    size: int, cells: Sequence[int], last: int | None = None, dead: frozenset[int] = frozenset(), words: str = ""
) -> str:
    """The position as SVG: the grid with coordinates as players write them (A-T without I, 1 at the
    bottom) in the margin outside the stones' reach (a stone on the edge covered half a letter), star points,
    stones, the last stone played ringed, dead stones crossed; ``words``: the position in words (where the
    stones are), its text alternative."""
    r = CELL // 2 - 1
    margin = CELL + 4
    span = CELL * (size - 1)
    full = span + 2 * margin
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full} {full}" width="100%" style="max-width:{full}px"'
             f' role="img" aria-label="{escape(words)}"><rect width="{full}" height="{full}" fill="#deb869"/><g stroke="#1e1914" stroke-width="1">']  # fmt: skip
    for i in range(size):
        at = margin + i * CELL
        parts.append(
            f'<line x1="{margin}" y1="{at}" x2="{margin + span}" y2="{at}"/><line x1="{at}" y1="{margin}" x2="{at}" y2="{margin + span}"/>'
        )
    parts.append('</g><g font-size="12" fill="#1e1914">')
    for i in range(size):
        at = margin + i * CELL
        parts.append(
            f'<text x="{at}" y="{margin - r - 5}" text-anchor="middle">{LETTERS[i]}</text>'
            f'<text x="{margin - r - 4}" y="{at + 4}" text-anchor="end">{size - i}</text>'
        )
    parts.append('</g><g fill="#1e1914">')
    for name in STAR_POINTS[size]:
        y, x = divmod(parse_point(name, size), size)
        parts.append(f'<circle cx="{margin + x * CELL}" cy="{margin + y * CELL}" r="3"/>')
    parts.append("</g>")
    for point, colour in enumerate(cells):
        if colour not in (BLACK, WHITE):
            continue
        y, x = divmod(point, size)
        cx, cy = margin + x * CELL, margin + y * CELL
        fill, mark = ("#161616", "#f6f6f2") if colour == BLACK else ("#f6f6f2", "#161616")
        parts.append(
            f'<circle class="{"black" if colour == BLACK else "white"}" cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#1e1914"/>'
        )
        if point in dead:
            d = r // 2
            parts.append(
                f'<path d="M{cx - d} {cy - d}L{cx + d} {cy + d}M{cx - d} {cy + d}L{cx + d} {cy - d}" stroke="#c81e1e" stroke-width="3"/>'
            )
        elif point == last:
            parts.append(
                f'<circle cx="{cx}" cy="{cy}" r="{r // 2}" fill="none" stroke="{mark}" stroke-width="2"/>'
            )
    parts.append("</svg>")
    return "".join(parts)
