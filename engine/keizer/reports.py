"""What a club prints and sends on (issue 19): the cross table, the standings after every round, a
member's card, and the FIDE Tournament Report File (TRF-16) a rating office takes.

Pure: players and rounds in, plain rows out.

- ``cross_table``: per player (final order), each round's cell ``"12w1"``: the opponent's place on the
  final list, the colour, the result from the player's side (``1``, ``=``, ``0``; ``+``/``-`` a forfeit
  won or lost; ``bye``; ``afw`` absent; ``team`` absent for a club team match; empty: not in the
  competition yet or withdrawn); ``words`` puts the club's words for these codes (``z`` for ``b``,
  ``vrij`` for ``bye``), and each row has the player's score (None for a player who withdrew).
- ``rank_history``: each player's place after every round (``None`` where not ranked).
- ``member_card``: one player's rounds (opponent, colour, result, score after the round) and their
  performance rating.
- ``trf``: TRF-16 text (columns as FIDE's "TRF16" description): ``001`` lines with the start number,
  name, rating, game points, the Keizer rank, and each round's opponent, colour and result; forfeits
  ``+``/``-``, a bye ``U`` (pairing-allocated), absent ``Z`` (zero-point bye, nothing to rate). A player
  who withdrew is in both, placed after the ranked players (``final_places``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.keizer.model import Absence, KeizerSettings, Player, PlayerId, Result, Round
from engine.keizer.scores import standings

_SCORE = {  # the result from white's side, from black's side
    Result.WHITE_WINS: ("1", "0"), Result.BLACK_WINS: ("0", "1"), Result.DRAW: ("=", "="),
    Result.WHITE_WINS_FORFEIT: ("+", "-"), Result.BLACK_WINS_FORFEIT: ("-", "+"), Result.DOUBLE_FORFEIT: ("-", "-"),
}  # fmt: skip
_POINTS = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1), "-": Fraction(0)}


@dataclass(frozen=True)
class Meeting:
    """One round from one player's side: ``opponent`` None for a bye or an absence."""

    round: int
    opponent: PlayerId | None
    colour: str  # "w", "b" or "" (no game)
    result: str  # "1", "=", "0", "+", "-", "" (not played yet), "bye", "afw" (absent), "team" (absent for a team match)


def meetings(player: PlayerId, rounds: Sequence[Round]) -> list[Meeting]:
    """The player's rounds, in order (a round they are not in at all is left out)."""
    out = []
    for rnd in sorted(rounds, key=lambda r: r.number):
        for g in rnd.games:
            if player in (g.white, g.black):
                white = g.white == player
                result = "" if g.result is None else _SCORE[g.result][0 if white else 1]
                out.append(Meeting(rnd.number, g.black if white else g.white, "w" if white else "b", result))
                break
        else:
            if player in rnd.byes:
                out.append(Meeting(rnd.number, None, "", "bye"))
            elif player in rnd.absent:
                out.append(Meeting(rnd.number, None, "", "team" if rnd.absent[player] == Absence.TEAM else "afw"))
    return out


def final_places(
    players: Sequence[Player], rounds: Sequence[Round], settings: KeizerSettings = KeizerSettings()
) -> list[tuple[int, Player]]:
    """(place, player): the final standings, then the players who withdrew (out of the ranking, but their
    games were played), in the order they stood when they left; places go on after the ranked ones."""
    final = standings(players, rounds, settings)
    ranked = {s.player.id for s in final}
    last = max((r.number for r in rounds), default=0)
    gone = [p for p in players if p.id not in ranked and p.withdrawn_from is not None and p.joined_round <= last]

    def when_they_left(p: Player) -> tuple[int, int, int, str]:
        assert p.withdrawn_from is not None
        before = {s.player.id: s.rank for s in standings(players, rounds, settings, after_round=p.withdrawn_from - 1)}
        return -p.withdrawn_from, before.get(p.id, len(players)), -p.rating, p.id

    places = [(s.rank, s.player) for s in final]
    return places + [(len(places) + i, p) for i, p in enumerate(sorted(gone, key=when_they_left), start=1)]


def cross_table(
    players: Sequence[Player], rounds: Sequence[Round], settings: KeizerSettings = KeizerSettings(),
    words: Mapping[str, str] | None = None,
) -> list[tuple[int, Player, Fraction | None, list[str]]]:
    """(final place, player, score, one cell per round) in final order (``final_places``: a withdrawn
    player too, without a score); a cell: opponent's place, colour, result, each code as ``words`` says."""
    final = final_places(players, rounds, settings)
    place = {p.id: rank for rank, p in final}
    scores = {s.player.id: s.score for s in standings(players, rounds, settings)}
    word = dict(words or {})
    numbers = sorted(r.number for r in rounds)
    why = {r.number: r.absent for r in rounds}
    absence_word = {Absence.UNEXCUSED: "noshow", Absence.AUTO: "auto"}  # else "afw" (or "team")
    table = []
    for rank, player in final:
        by_round = {m.round: m for m in meetings(player.id, rounds)}
        cells = []
        for n in numbers:
            m = by_round.get(n)
            if m is None:
                cells.append("")
            elif m.opponent is None:
                kind = why[n].get(player.id)
                code = absence_word.get(kind, m.result) if m.result == "afw" and kind is not None else m.result
                cells.append(word.get(code, word.get(m.result, m.result)))  # a no-show's own word, if given one
            else:
                result = word.get("pending", "") if m.result == "" else m.result  # no result yet: "?", if given
                cells.append(f"{place.get(m.opponent, '?')}{word.get(m.colour, m.colour)}{result}")
        table.append((rank, player, scores.get(player.id), cells))
    return table


def rank_history(
    players: Sequence[Player], rounds: Sequence[Round], settings: KeizerSettings = KeizerSettings()
) -> dict[PlayerId, list[int | None]]:
    """Each player's place after rounds 1..last (``None`` where not in the ranking)."""
    numbers = sorted(r.number for r in rounds)
    history: dict[PlayerId, list[int | None]] = {p.id: [] for p in players}
    for n in numbers:
        place = {s.player.id: s.rank for s in standings(players, rounds, settings, after_round=n)}
        for p in players:
            history[p.id].append(place.get(p.id))
    return history


@dataclass(frozen=True)
class Card:
    """A member's season: their rounds with the score after each, and their performance rating."""

    player: Player
    rounds: tuple[tuple[Meeting, Fraction | None], ...]  # (the round, the score after it)
    games: int
    points: Fraction  # game points over the board (forfeits not counted)
    performance: int | None  # None without a game against a rated opponent (an unrated one, rating 0, is left out)


def member_card(
    player_id: PlayerId, players: Sequence[Player], rounds: Sequence[Round], settings: KeizerSettings = KeizerSettings()
) -> Card:
    by_id = {p.id: p for p in players}
    player = by_id[player_id]
    scores: list[tuple[Meeting, Fraction | None]] = []
    for m in meetings(player_id, rounds):
        after = {s.player.id: s.score for s in standings(players, rounds, settings, after_round=m.round)}
        scores.append((m, after.get(player_id)))
    played = [(by_id[m.opponent].rating, _POINTS[m.result]) for m, _ in scores
              if m.opponent is not None and m.result in ("1", "=", "0")]  # fmt: skip
    rated = [(rating, points) for rating, points in played if rating > 0]  # an unrated opponent (0) tells nothing
    return Card(player, tuple(scores), len(played), sum((p for _, p in played), Fraction(0)), performance(rated))


def performance(games: Sequence[tuple[int, Fraction]]) -> int | None:
    """Performance rating of (opponent's rating, points) over the board: the opponents' average plus
    400 x (wins - losses) / games (the linear approximation clubs use; FIDE's own table differs by a
    few points near 50% and caps at +-800)."""
    if not games:
        return None
    average = Fraction(sum(r for r, _ in games), len(games))
    wins = sum(1 for _, p in games if p == 1)
    losses = sum(1 for _, p in games if p == 0)
    return round(average + Fraction(400 * (wins - losses), len(games)))


def trf(
    name: str, players: Sequence[Player], rounds: Sequence[Round], settings: KeizerSettings = KeizerSettings(),
    start: str = "", end: str = "", city: str = "", round_dates: Mapping[int, str] = {}, federation: str = "",
    arbiter: str = "", deputy: str = "", identities: Mapping[PlayerId, tuple[str, str]] = {},
) -> str:
    """The season as TRF-16 text (start numbers by rating, as a rating office expects). ``round_dates``
    (round number -> ``YYYY/MM/DD``) gives the ``132`` line: each round's date as ``YY/MM/DD`` in the
    columns of that round's block in the ``001`` lines (round 1 at positions 92-99, round 2 at 102-109).
    The header's ``032`` (federation), ``102`` (chief arbiter) and ``112`` (deputy arbiter) are written
    when given. ``identities`` (player -> FIDE ID, federation) fill the ``001`` line's positions 54-56
    (federation; else the club's ``federation``) and 58-68 (the FIDE ID, right-aligned)."""
    rank = {p.id: place for place, p in final_places(players, rounds, settings)}
    order = sorted(players, key=lambda p: (-p.rating, p.name))
    number = {p.id: i for i, p in enumerate(order, start=1)}
    numbers = sorted(r.number for r in rounds)
    lines = [f"012 {name}"[:100], f"022 {city}"[:100], *([f"032 {federation[:3]}"] if federation else []),
             f"042 {start}", f"052 {end}", f"062 {len(players)}", f"072 {sum(1 for p in players if p.rating)}",
             "092 Keizer (club competition)", *([f"102 {arbiter}"[:100]] if arbiter else []),
             *([f"112 {deputy}"[:100]] if deputy else [])]  # fmt: skip
    if round_dates:
        lines.append("132" + " " * 86 + "".join(f"  {round_dates.get(n, '')[2:]:8}" for n in numbers).rstrip())
    for p in order:
        by_round = {m.round: m for m in meetings(p.id, rounds)}
        blocks = []
        points = Fraction(0)
        for n in numbers:
            m = by_round.get(n)
            if m is None or m.result in ("afw", "team"):
                blocks.append("0000 - Z")
            elif m.result == "bye":
                blocks.append("0000 - U")
                points += 1
            elif m.opponent is None or m.result == "":
                blocks.append("0000 - Z")
            else:
                blocks.append(f"{number[m.opponent]:4d} {m.colour} {'=' if m.result == '=' else m.result}")
                points += _POINTS[m.result]
        fide_id, fed = identities.get(p.id, ("", ""))
        fed = (fed or federation)[:3]
        line = (
            f"001 {number[p.id]:4d}      {_byte_field(p.name, 33)} {_rating(p.rating)} {fed:3} {fide_id[:11]:>11} {'':10} "
            f"{_points(points):>4} {rank.get(p.id, 0):4d}"
        )
        lines.append(line + "".join(f"  {b}" for b in blocks))
    return "\n".join(lines) + "\n"


def _byte_field(text: str, width: int) -> str:
    """``text`` in ``width`` bytes of UTF-8, cut at a whole letter and padded with spaces: TRF's columns
    are byte positions (FIDE's TRF-16), so a name with accents must not push the fields after it."""
    out = ""
    for letter in text:
        if len((out + letter).encode("utf-8")) > width:
            break
        out += letter
    return out + " " * (width - len(out.encode("utf-8")))


def _rating(rating: int) -> str:
    """Positions 49-52, the FIDE rating: blank for an unrated player (rating 0). TRF-16 names no value
    for "no rating"; the field is left empty, as the header's ``072`` counts only the rated players."""
    return f"{rating:4d}" if rating > 0 else " " * 4


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"
