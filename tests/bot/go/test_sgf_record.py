"""The SGF of a game played in the chat (issue 45 §2): ``DT`` lists the days it was played in the club's
time zone in FF[4]'s shortened form, and a counted game records the territory and the dead stones the
players agreed (``TB``/``TW``). The record is parsed here by the FF[4] grammar itself (sgfmill is not a
test dependency): a collection of game trees, nodes of properties, each an upper-case name and values in
brackets, with ``\\`` escaping the next character."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from bot.core.commands.dispatch import Core
from bot.core.running.clock import ShiftedClock
from tests.bot.go.test_commands import ANNA, BERT, ok, start_game

_TOKEN = re.compile(r"\s*(?:([;()])|([A-Z]+)|\[((?:\\.|[^\\\]])*)\])", re.S)


def parse_sgf(text: str) -> list[dict[str, list[str]]]:
    """The nodes of the first game tree's main line, each property with its values (escapes removed)."""
    nodes: list[dict[str, list[str]]] = []
    name = ""
    at = 0
    while at < len(text.rstrip()):
        m = _TOKEN.match(text, at)
        assert m is not None, f"not SGF at {at}: {text[at:at + 20]!r}"
        at = m.end()
        if m.group(1) == ";":
            nodes.append({})
        elif m.group(2):
            name = m.group(2)
        elif m.group(3) is not None:
            nodes[-1].setdefault(name, []).append(re.sub(r"\\(.)", r"\1", m.group(3), flags=re.S))
    return nodes


def point(sgf: str, size: int) -> str:
    """An SGF point (``dd``) as players write it (``D16``)."""
    x, y = ord(sgf[0]) - 97, ord(sgf[1]) - 97
    return "ABCDEFGHJKLMNOPQRST"[x] + str(size - y)


def at(day: int, hour: int, month: int = 12, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, 0, tzinfo=timezone.utc)


async def test_a_game_over_several_days_lists_them_and_its_count(commands: Core, clock: ShiftedClock) -> None:
    """Black walls off column D, white column F; white's B5 and black's H5 are dead invaders. Played on 2
    and 3 December, counted on 10 December (the club is in Amsterdam: 23:00 UTC on the 9th is midnight, the 10th)."""
    clock.set(at(2, 10))
    await start_game(commands, 9)
    for row in range(1, 10):
        if row == 6:
            clock.set(at(3, 19))
        await ok(commands, ANNA, f"/zet D{row}")
        await ok(commands, BERT, f"/zet F{row}")
    await ok(commands, ANNA, "/zet H5")
    await ok(commands, BERT, "/zet B5")
    await ok(commands, ANNA, "/pas")
    await ok(commands, BERT, "/pas")
    clock.set(at(9, 23))
    await ok(commands, ANNA, "/dood B5")
    await ok(commands, ANNA, "/dood H5")
    await ok(commands, ANNA, "/dood klaar")
    reply = await ok(commands, BERT, "/akkoord")
    # black: A-C (27, B5 under the dead stone) - 1 dead - 3.5 = 22.5; white: G-J (27) - 1 dead = 26
    assert "W+3.5" in reply.text
    for text in (reply.attachment[1].decode(), (await ok(commands, ANNA, "/go sgf #1")).attachment[1].decode()):
        nodes = parse_sgf(text)
        root, last = nodes[0], nodes[-1]
        assert root["DT"] == ["2026-12-02,03,10"]
        assert root["RE"] == ["W+3.5"]
        black = {point(p, 9) for p in last["TB"]}
        white = {point(p, 9) for p in last["TW"]}
        assert black == {f"{c}{r}" for c in "ABC" for r in range(1, 10)}
        assert white == {f"{c}{r}" for c in "GHJ" for r in range(1, 10)}
        # the dead stones: the stones on the other colour's territory
        stones = {point(v, 9): key for node in nodes[1:] for key in ("B", "W") for v in node.get(key, []) if v}
        assert {p for p in black if stones.get(p) == "W"} == {"B5"}
        assert {p for p in white if stones.get(p) == "B"} == {"H5"}
        assert "TB" not in root and all("TB" not in n for n in nodes[:-1])


async def test_days_across_a_new_year_are_written_as_ff4_shortens_them(commands: Core, clock: ShiftedClock) -> None:
    clock.set(at(30, 12))
    await start_game(commands, 9)
    await ok(commands, ANNA, "/zet E5")
    clock.set(at(31, 12))
    await ok(commands, BERT, "/zet C3")
    clock.set(at(2, 12, month=1, year=2027))
    reply = await ok(commands, ANNA, "/opgeven")
    root = parse_sgf(reply.attachment[1].decode())[0]
    assert root["DT"] == ["2026-12-30,31,2027-01-02"]
    # a resigned game has no count: no territory in the record
    assert all("TB" not in n and "TW" not in n for n in parse_sgf(reply.attachment[1].decode()))
