"""A reader of TRF-16 written from FIDE's description of the format ("TRF16", FIDE Handbook C.04,
Annex 2: the Tournament Report File), not from our writer: the header lines are a three-digit code, a
space and the value; a player line (``001``) has its fields at fixed byte positions, counted from 1:

    1-3 "001"   5-8 starting rank   10 sex   11-13 title   15-47 name   49-52 FIDE rating
    54-56 FIDE federation   58-68 FIDE number   70-79 birth date   81-84 points   86-89 rank
    then per round, from 92 on in blocks of 10: 92-95 opponent's starting rank, 97 colour, 99 result
"""

from __future__ import annotations


def _field(line: bytes, first: int, last: int) -> str:
    """Positions ``first``..``last`` (1-based, inclusive) of a line of bytes, stripped."""
    return line[first - 1 : last].decode("utf-8").strip()


def read_trf(content: bytes) -> tuple[dict[str, list[str]], list[dict[str, object]]]:
    header: dict[str, list[str]] = {}
    players: list[dict[str, object]] = []
    for line in content.split(b"\n"):
        if not line:
            continue
        code = line[:3].decode("ascii")
        if code != "001":
            header.setdefault(code, []).append(line[4:].decode("utf-8"))
            continue
        rounds = []
        start = 92
        while len(line) >= start + 7:
            rounds.append((_field(line, start, start + 3), _field(line, start + 5, start + 5), _field(line, start + 7, start + 7)))
            start += 10
        players.append({
            "start": int(_field(line, 5, 8)), "sex": _field(line, 10, 10), "title": _field(line, 11, 13),
            "name": _field(line, 15, 47), "rating": _field(line, 49, 52), "federation": _field(line, 54, 56),
            "fide": _field(line, 58, 68), "born": _field(line, 70, 79), "points": _field(line, 81, 84),
            "rank": _field(line, 86, 89), "rounds": rounds,
        })  # fmt: skip
    return header, players
