"""The game record as SGF (FF[4]): written when a game ends, read back to replay a game.

Written: the root node with size, komi, the rules (``RU[Japanese]``: seed 001 counts territory and forbids
simple ko, as the Japanese rules do), handicap (``HA`` from 2 stones, as SGF requires, and the stones as
``AB``), the players, the days played (``DT``), event and round (``EV``, ``RO``) and the result (``RE``:
``B+3.5``, ``W+R``, ``B+T``, ``0``), then one node per move (``B[]`` is a pass); a counted game's last
node has the territory the players agreed (``TB``, ``TW``, the points under dead stones included).
Read: the main line (the first variation wherever the record branches); setup stones other than
black's handicap (``AW``, ``AE``, ``AB`` after the root) are not supported and refused. A move after two
passes means the marking was rejected and play resumed: the replay inserts that marking and rejection.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date
from fractions import Fraction
from typing import Iterable

from engine.go.board import BLACK, WHITE, GoError, other
from engine.go.game import Action, GoGame, GoSettings
from engine.go.scoring import default_komi

_MAX_LENGTH = 1_000_000


def sgf_point(point: int, size: int) -> str:
    y, x = divmod(point, size)
    return "abcdefghijklmnopqrs"[x] + "abcdefghijklmnopqrs"[y]


def parse_sgf_point(text: str, size: int) -> int | None:
    """An SGF point (``dd``); None for a pass (empty, or ``tt`` on a board up to 19x19)."""
    if text == "" or (text == "tt" and size <= 19):
        return None
    if len(text) != 2 or not all("a" <= ch <= "s" for ch in text):
        raise GoError("bad_sgf", detail=f"point [{text[:10]}]")
    x, y = ord(text[0]) - 97, ord(text[1]) - 97
    if x >= size or y >= size:
        raise GoError("bad_sgf", detail=f"point [{text}] off a {size}x{size} board")
    return y * size + x


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _komi_text(komi: Fraction) -> str:
    return str(int(komi)) if komi.denominator == 1 else f"{float(komi):g}"


RULES = "Japanese"


def sgf_dates(days: list[Date]) -> str:
    """FF[4]'s ``DT``: the days played in order, each written as short as the one before allows
    (``2026-12-03,05``, ``2026-11-30,12-01``, a new year in full)."""
    parts: list[str] = []
    before: Date | None = None
    for day in sorted(set(days)):
        if before is not None and before.year == day.year and before.month == day.month:
            parts.append(f"{day.day:02d}")
        elif before is not None and before.year == day.year:
            parts.append(f"{day.month:02d}-{day.day:02d}")
        else:
            parts.append(day.isoformat())
        before = day
    return ",".join(parts)


def write_sgf(
    settings: GoSettings,
    actions: tuple[Action, ...] | list[Action],
    black: str = "",
    white: str = "",
    date: str = "",
    result: str = "",
    event: str = "",
    round: str = "",
    territory: tuple[Iterable[int], Iterable[int]] | None = None,
) -> str:
    """The SGF text of a game: its moves and passes (marking and agreement are not moves). ``territory``:
    black's and white's territory as the players agreed it, the points under dead stones included (seed
    001 counts them so), written as ``TB``/``TW`` in the last node: a dead stone is a stone on the other
    colour's territory, as FF[4] lets territory properties lie on stones."""
    size = settings.size
    root = [f"FF[4]GM[1]CA[UTF-8]AP[clubbot:1]SZ[{size}]KM[{_komi_text(settings.komi)}]RU[{RULES}]"]
    if settings.handicap >= 2:
        root.append(f"HA[{settings.handicap}]")
    for key, value in (("PB", black), ("PW", white), ("DT", date), ("EV", event), ("RO", round), ("RE", result)):
        if value:
            root.append(f"{key}[{_escape(value)}]")
    nodes = []
    for action in actions:
        letter = "B" if action.colour == BLACK else "W"
        if action.kind == "handicap":
            root.append("AB" + "".join(f"[{sgf_point(p, size)}]" for p in action.points))
        elif action.kind == "play":
            nodes.append(f";{letter}[{sgf_point(action.points[0], size)}]")
        elif action.kind == "pass":
            nodes.append(f";{letter}[]")
    if territory is not None:
        marks = "".join(
            key + "".join(f"[{sgf_point(p, size)}]" for p in sorted(points))
            for key, points in (("TB", territory[0]), ("TW", territory[1]))
            if points
        )
        if nodes:
            nodes[-1] += marks
        else:
            root.append(marks)
    lines = ["(;" + "".join(root)]
    for start in range(0, len(nodes), 12):
        lines.append("".join(nodes[start : start + 12]))
    return "\n".join(lines) + ")\n"


@dataclass(frozen=True)
class SgfGame:
    settings: GoSettings
    actions: tuple[Action, ...]
    black: str
    white: str
    result: str
    game: GoGame  # the replayed game


Node = dict[str, list[str]]


def _parse_tree(text: str) -> list[Node]:
    """The main line of the first game tree: a list of nodes, each a property -> values map."""
    if len(text) > _MAX_LENGTH:
        raise GoError("bad_sgf", detail="file too large")
    i = text.find("(")
    if i < 0:
        raise GoError("bad_sgf", detail="no game tree")
    nodes: list[Node] = []
    depth = 0
    skipping = 0  # depth at which we skip a side variation (0: not skipping)
    done_at_depth: set[int] = set()  # depths at which the main line already took a variation
    n = len(text)
    node: Node | None = None
    prop = ""
    while i < n:
        ch = text[i]
        if ch == "(":
            depth += 1
            if not skipping and depth - 1 in done_at_depth:
                skipping = depth
            i += 1
        elif ch == ")":
            if skipping == depth:
                skipping = 0
            if not skipping:
                done_at_depth.add(depth - 1)
            depth -= 1
            i += 1
            if depth == 0:
                break
        elif ch == ";":
            node = {}
            if not skipping:
                nodes.append(node)
            prop = ""
            i += 1
        elif ch == "[":
            if node is None or not prop:
                raise GoError("bad_sgf", detail=f"value without property at {i}")
            j = i + 1
            value = []
            while j < n and text[j] != "]":
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                value.append(text[j])
                j += 1
            if j >= n:
                raise GoError("bad_sgf", detail="unclosed value")
            node.setdefault(prop, []).append("".join(value))
            i = j + 1
        elif ch.isalpha() and ch.isupper():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            prop = "".join(c for c in text[i:j] if c.isupper())
            i = j
        elif ch.isspace():
            i += 1
        else:
            raise GoError("bad_sgf", detail=f"unexpected {ch!r} at {i}")
    if depth != 0:
        raise GoError("bad_sgf", detail="unbalanced parentheses")
    if not nodes:
        raise GoError("bad_sgf", detail="no nodes")
    return nodes


def read_sgf(text: str) -> SgfGame:
    """Read an SGF record and replay it through the rules; an illegal move raises ``GoError``."""
    nodes = _parse_tree(text)
    root = nodes[0]
    if root.get("GM", ["1"])[0] != "1":
        raise GoError("bad_sgf", detail="not a go record (GM)")
    try:
        size = int(root.get("SZ", ["19"])[0].split(":")[0])
    except ValueError:
        raise GoError("bad_sgf", detail="SZ")
    if size not in (9, 13, 19):
        raise GoError("bad_sgf", detail=f"board size {size}")
    handicap_points = [p for v in root.get("AB", []) for p in _points(v, size)]
    handicap = len(handicap_points)
    if "AW" in root or "AE" in root:
        raise GoError("bad_sgf", detail="set-up stones (AW/AE) are not supported")
    try:
        komi = Fraction(root["KM"][0]) if "KM" in root else default_komi(size, handicap)
    except (ValueError, ZeroDivisionError):
        raise GoError("bad_sgf", detail="KM")
    if handicap > 9:
        raise GoError("bad_sgf", detail="more than 9 handicap stones")
    settings = GoSettings(size, komi, handicap)
    actions: list[Action] = []
    if handicap:
        actions.append(Action("handicap", BLACK, tuple(handicap_points)))
    for node in [root, *nodes[1:]]:
        if node is not root and any(k in node for k in ("AB", "AW", "AE")):
            raise GoError("bad_sgf", detail="set-up stones after the root are not supported")
        for key, colour in (("B", BLACK), ("W", WHITE)):
            for value in node.get(key, []):
                point = parse_sgf_point(value, size)
                actions.append(Action("pass", colour) if point is None else Action("play", colour, (point,)))
    game = GoGame(settings)
    replayed: list[Action] = []
    for number, action in enumerate(actions, start=1):
        if game.phase == "marking":  # play went on after two passes: the marking was rejected
            assert game.marker is not None
            for step in (Action("done", game.marker), Action("reject", other(game.marker))):
                game.apply(step)
                replayed.append(step)
        try:
            game.apply(action)
        except GoError as err:
            err.details["number"] = number
            raise
        replayed.append(action)
    return SgfGame(
        settings, tuple(replayed), root.get("PB", [""])[0], root.get("PW", [""])[0], root.get("RE", [""])[0], game
    )


def _points(value: str, size: int) -> list[int]:
    """A point or a compressed rectangle ``aa:cc``."""
    if ":" in value:
        a, b = value.split(":", 1)
        pa, pb = parse_sgf_point(a, size), parse_sgf_point(b, size)
        if pa is None or pb is None:
            raise GoError("bad_sgf", detail="AB")
        (y1, x1), (y2, x2) = divmod(pa, size), divmod(pb, size)
        return [y * size + x for y in range(min(y1, y2), max(y1, y2) + 1) for x in range(min(x1, x2), max(x1, x2) + 1)]
    point = parse_sgf_point(value, size)
    if point is None:
        raise GoError("bad_sgf", detail="AB")
    return [point]
