"""Answers to "why?": how a player's Keizer score came about, result by result (``/waarom punten``).

- ``score_lines(player, players, rounds, settings, after_round=None) -> tuple[ScoreLine, ...]``: every
  part of the score in the standings after ``after_round``, at the values of the list those standings
  score with; the lines' ``points`` add up to the player's ``Standing.score``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from engine.keizer.model import Absence, KeizerSettings, Player, PlayerId, Result, Round
from engine.keizer.scores import scoring

# What a line is for. Game lines name the opponent and take a share of the opponent's value; the rest
# take a share of the player's own value (start points: none).
WIN, DRAW, LOSS, PENDING = "win", "draw", "loss", "pending"
FORFEIT_WIN, FORFEIT_LOSS = "forfeit_win", "forfeit_loss"
BYE, START, BONUS = "bye", "start", "bonus"
ABSENT = {Absence.NOTICE: "notice", Absence.TEAM: "team", Absence.UNEXCUSED: "unexcused", Absence.AUTO: "auto"}


@dataclass(frozen=True)
class ScoreLine:
    """One part of a score: ``round`` (None for start points and the start bonus), ``kind`` (see the
    names above; an absence is ``notice``, ``team``, ``unexcused`` or ``auto``), the ``opponent`` of a
    game, the ``value`` the line is a share of (the opponent's for a game, else the player's own, as the
    current list has it), the ``share`` of it, and the ``points`` (value times share)."""

    round: int | None
    kind: str
    opponent: PlayerId | None
    value: int
    share: Fraction
    points: Fraction


def _line(round_: int | None, kind: str, opponent: PlayerId | None, value: int, share: Fraction) -> ScoreLine:
    return ScoreLine(round_, kind, opponent, value, share, value * share)


def score_lines(
    player: PlayerId,
    players: Sequence[Player],
    rounds: Sequence[Round],
    settings: KeizerSettings = KeizerSettings(),
    after_round: int | None = None,
) -> tuple[ScoreLine, ...]:
    """The parts of ``player``'s score in ``standings(players, rounds, settings, after_round)``, in round
    order, each at the value the recalculation gives it now: a game of round 3 against Bert is worth
    Bert's value in the current list, not the one he had in round 3 (seed 004, Keizer rule i and its
    note). The rules of each part are ``standings``'; a round the player is not in gives no line, a game
    without a result a ``pending`` line of 0.
    """
    upto = max((r.number for r in rounds), default=0) if after_round is None else after_round
    basis = scoring(players, rounds, settings, upto)
    if player not in basis.values:
        raise ValueError(f"unknown player {player!r}")
    own = basis.values[player]
    lines: list[ScoreLine] = []
    if basis.start[player]:
        lines.append(ScoreLine(None, START, None, 0, Fraction(0), basis.start[player]))
    if settings.start_bonus:
        lines.append(_line(None, BONUS, None, own, Fraction(1)))
    half, unexcused = Fraction(1, 2), Fraction(settings.unexcused_fraction)
    forfeit = Fraction(settings.forfeit_win_fraction)
    absence_share = {
        Absence.NOTICE: Fraction(settings.notice_fraction),
        Absence.TEAM: Fraction(settings.team_fraction),
        Absence.UNEXCUSED: unexcused,
        Absence.AUTO: Fraction(settings.auto_signoff_fraction),
    }
    for rnd in sorted((r for r in rounds if r.number <= upto), key=lambda r: r.number):
        n = rnd.number
        for g in rnd.games:
            if player not in (g.white, g.black):
                continue
            white = g.white == player
            opponent = g.black if white else g.white
            value = basis.values[opponent]
            won = Result.WHITE_WINS if white else Result.BLACK_WINS
            won_forfeit = Result.WHITE_WINS_FORFEIT if white else Result.BLACK_WINS_FORFEIT
            if g.result is None:
                lines.append(_line(n, PENDING, opponent, value, Fraction(0)))
            elif g.result is won:
                lines.append(_line(n, WIN, opponent, value, Fraction(1)))
            elif g.result is Result.DRAW:
                lines.append(_line(n, DRAW, opponent, value, half))
            elif g.result is won_forfeit:
                lines.append(_line(n, FORFEIT_WIN, opponent, value, forfeit))
            elif g.result in (Result.WHITE_WINS, Result.BLACK_WINS):
                lines.append(_line(n, LOSS, opponent, value, Fraction(0)))
            else:  # lost by forfeit (or both forfeited): scored as an absence without notice
                lines.append(ScoreLine(n, FORFEIT_LOSS, opponent, own, unexcused, own * unexcused))
        if player in rnd.byes:
            lines.append(_line(n, BYE, None, own, Fraction(settings.bye_fraction)))
        why = rnd.absent.get(player)
        if why is not None:
            lines.append(_line(n, ABSENT[why], None, own, absence_share[why]))
    return tuple(lines)
