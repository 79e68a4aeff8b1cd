"""Answers to "why?": how a player's Keizer score came about (``/waarom punten``), and their pairing.

- ``score_lines(player, players, rounds, settings, after_round=None) -> tuple[ScoreLine, ...]``: every
  part of the score in the standings after ``after_round``, at the values of the list those standings
  score with; the lines' ``points`` add up to the player's ``Standing.score``.
- ``pairing_reasons(player, players, rounds, paired, settings) -> PairingReason``: why the player got
  their opponent, colour and board, or the bye, in a paired round (``/waarom indeling``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Sequence

from engine.keizer.model import Absence, KeizerSettings, Player, PlayerId, Result, Round
from engine.keizer.pairing import colour_history, met_in_cycle
from engine.keizer.scores import scoring, value_ranking

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


@dataclass(frozen=True)
class Passed:
    """A present player ranked between two opponents, and why the higher one did not get them: ``met``
    (they met in round ``met_round`` of this cycle), ``taken`` (paired with someone ranked higher) or
    ``rest`` (so that the rest of the round comes out legal, or keeps colours apart); for the bye, a
    player below who had ``more_byes``, or whose bye would have forced a ``repeat``."""

    player: PlayerId
    place: int
    why: str
    met_round: int | None = None


@dataclass(frozen=True)
class PairingReason:
    """Why ``player`` got what they got in round ``round``: their ``place`` among the ``present``
    players (1-based, the ranking that pairs the round); the ``board`` and ``opponent`` (and their
    place) or the ``bye``; the players ``passed`` over; the ``colour_rule`` (``balance``, ``whites``,
    ``lower_ranked``, ``run``, or ``director``: not the rule's colours) with both players' (whites,
    blacks) before the round; the ``byes`` the player had before."""

    round: int
    place: int
    present: int
    board: int | None = None
    opponent: PlayerId | None = None
    opponent_place: int | None = None
    white: bool | None = None
    colour_rule: str | None = None
    colours: tuple[int, int] = (0, 0)
    opponent_colours: tuple[int, int] = (0, 0)
    bye: bool = False
    byes: int = 0
    passed: tuple[Passed, ...] = ()


def pairing_reasons(
    player: PlayerId,
    players: Sequence[Player],
    rounds: Sequence[Round],
    paired: Round,
    settings: KeizerSettings = KeizerSettings(),
) -> PairingReason:
    """Why ``player`` got their opponent, colour and board, or the bye, in the ``paired`` round, told by
    the rules of ``pairing.pair_round`` (which cites the seeds): the present players (those in the
    round's games and byes) in the order of the ranking that pairs it; the higher-ranked of a game took
    the nearest player below not met this cycle whom the rest of the round allowed; the colours of
    ``ColourHistory.choose``; the bye to the lowest-ranked with the fewest byes whose bye forces no repeat.
    """
    n = paired.number
    earlier = [r for r in rounds if r.number < n]
    here = {p for g in paired.games for p in (g.white, g.black)} | set(paired.byes)
    if player not in here:
        raise ValueError(f"player {player!r} is not in round {n}")
    order = [s.player.id for s in value_ranking(players, earlier, n, settings) if s.player.id in here]
    place = {pid: i + 1 for i, pid in enumerate(order)}
    byes_before = {pid: sum(pid in r.byes for r in earlier) for pid in order}
    base = PairingReason(n, place[player], len(order), byes=byes_before[player])
    if player in paired.byes:
        below = order[place[player]:]
        passed = tuple(
            Passed(pid, place[pid], "more_byes" if byes_before[pid] > byes_before[player] else "repeat") for pid in below
        )
        return replace(base, bye=True, passed=passed)
    board, game = next((i + 1, g) for i, g in enumerate(paired.games) if player in (g.white, g.black))
    opponent = game.black if game.white == player else game.white
    top, bottom = sorted((player, opponent), key=place.__getitem__)
    partner = {p: q for g in paired.games for p, q in ((g.white, g.black), (g.black, g.white))}
    passed_list = []
    for pid in order[place[top] : place[bottom] - 1]:
        met = met_in_cycle(earlier, top, pid, n, settings.cycle_length)
        if met is not None:
            passed_list.append(Passed(pid, place[pid], "met", met))
        elif pid in partner and place[partner[pid]] < place[top]:
            passed_list.append(Passed(pid, place[pid], "taken"))
        else:
            passed_list.append(Passed(pid, place[pid], "rest"))
    history = colour_history(earlier, n)
    if (history.balance(top), history.whites[top]) < (history.balance(bottom), history.whites[bottom]):
        rule_white = top
    else:
        rule_white = bottom
    if history.balance(top) != history.balance(bottom):
        rule = "balance"
    elif history.whites[top] != history.whites[bottom]:
        rule = "whites"
    else:
        rule = "lower_ranked"
    chosen = history.choose(top, bottom)[0]
    if chosen != game.white:
        rule = "director"
    elif chosen != rule_white:
        rule = "run"
    return replace(
        base, board=board, opponent=opponent, opponent_place=place[opponent], white=game.white == player,
        colour_rule=rule, colours=(history.whites[player], history.blacks[player]),
        opponent_colours=(history.whites[opponent], history.blacks[opponent]), passed=tuple(passed_list),
    )  # fmt: skip
