"""Season rules around the Keizer competition: cycles, no-shows, attendance, prizes, groups.

Pure: no I/O, no clock. The scores and rankings themselves come from ``engine.keizer``;
this module takes rankings (lists of ``Standing``) as input where it needs them, so every
rule here can be tested without the score engine.

Rules (seed ``004_0a1c2f73436dc9f3.txt``, "INTERNE REGELS DSC" and "GEHANTEERDE REGELS
GROEPEN INDELING"):

- b: a season is ``cycles`` cycles of ``cycle_length`` rounds (4 x 7 = 28).
- j: two no-shows in a row without signing off sign a player off for all coming rounds,
  until they sign on again.
- d, e, f: prizes; only players who played at least 2/3 of the season's rounds (19 of 28)
  compete, a team-match absence counts as played.
- groups A-D: group winners go up, the last of each group goes down, newcomers are placed
  by rating, the director may move more.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction

from engine.keizer.model import Absence, KeizerSettings, Player, PlayerId, Result, Round

GROUPS: tuple[str, ...] = ("A", "B", "C", "D")

# --------------------------------------------------------------------------- cycles


def season_length(settings: KeizerSettings = KeizerSettings()) -> int:
    """Number of rounds in a season: ``cycles * cycle_length`` (seed 004 rule b: 4 x 7 = 28).

    With ``cycle_length == 0`` (no cycles: repeats always allowed) the season has no fixed
    length and this returns 0.
    """
    if settings.cycle_length <= 0:
        return 0
    return settings.cycles * settings.cycle_length


def cycle_of(round_number: int, settings: KeizerSettings = KeizerSettings()) -> int:
    """The 1-based cycle a round belongs to: rounds 1-7 are cycle 1, 8-14 cycle 2, ...

    Rounds after the last planned cycle continue the count (round 29 is cycle 5), so extra
    rounds never share a cycle with the season's own. With ``cycle_length == 0`` every
    round is in cycle 1.
    """
    if round_number < 1:
        raise ValueError(f"round numbers start at 1, got {round_number}")
    if settings.cycle_length <= 0:
        return 1
    return (round_number - 1) // settings.cycle_length + 1


def rounds_of_cycle(cycle: int, settings: KeizerSettings = KeizerSettings()) -> range:
    """The round numbers of a cycle (``range(1, 8)`` for cycle 1 with the defaults)."""
    if cycle < 1:
        raise ValueError(f"cycles start at 1, got {cycle}")
    if settings.cycle_length <= 0:
        raise ValueError("cycle_length is 0: the season has no cycles")
    first = (cycle - 1) * settings.cycle_length + 1
    return range(first, first + settings.cycle_length)


# --------------------------------------------------------------------------- no-shows

_LOST_BY_FORFEIT_AS_WHITE = (Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT)
_LOST_BY_FORFEIT_AS_BLACK = (Result.WHITE_WINS_FORFEIT, Result.DOUBLE_FORFEIT)


def is_no_show(player_id: PlayerId, rnd: Round) -> bool:
    """Did the player fail to show up in this round without signing off?

    A no-show is an ``Absence.UNEXCUSED``, or a game the player lost by forfeit: white in
    a ``0-1F``, black in a ``1-0F``, either player in a ``0-0F`` (neither came). A round
    in which the player does not appear at all is not a no-show.
    """
    if rnd.absent.get(player_id) is Absence.UNEXCUSED:
        return True
    for game in rnd.games:
        if game.white == player_id and game.result in _LOST_BY_FORFEIT_AS_WHITE:
            return True
        if game.black == player_id and game.result in _LOST_BY_FORFEIT_AS_BLACK:
            return True
    return False


def _sorted_rounds(rounds: Iterable[Round]) -> list[Round]:
    return sorted(rounds, key=lambda r: r.number)


def consecutive_no_shows(
    player_id: PlayerId,
    rounds: Iterable[Round],
    *,
    after_round: int | None = None,
    since: int | None = None,
) -> int:
    """Length of the run of no-shows that ends with the last round (seed 004 rule j).

    Only rounds numbered ``<= after_round`` (default: all) and ``> since`` (default: all;
    pass the round after which the player signed on again) are looked at. The run ends at
    the first round, going back, that is not a no-show or that does not directly follow
    the next one (a gap in the round numbers breaks the run).
    """
    count = 0
    later: int | None = None
    for rnd in reversed(_sorted_rounds(rounds)):
        if after_round is not None and rnd.number > after_round:
            continue
        if since is not None and rnd.number <= since:
            break
        if later is not None and rnd.number != later - 1:
            break
        if not is_no_show(player_id, rnd):
            break
        count += 1
        later = rnd.number
    return count


def signed_off_after(
    player_id: PlayerId,
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    signed_on_again_after: int | None = None,
) -> int | None:
    """The round after which the player is signed off by the no-show rule, or ``None``.

    Seed 004 rule j: a player who does not show up ``settings.no_show_limit`` (2) rounds in
    a row without signing off is signed off for all coming rounds, until they sign on again
    (``/aanmelden``). ``signed_on_again_after`` is the number of the last round before the
    player signed on again (they count again from the next round); only no-shows after it
    count. The answer is the round of the no-show that reached the limit. A limit of 0 or
    less switches the rule off.
    """
    limit = settings.no_show_limit
    if limit <= 0:
        return None
    run = 0
    previous: int | None = None
    for rnd in _sorted_rounds(rounds):
        if signed_on_again_after is not None and rnd.number <= signed_on_again_after:
            continue
        if previous is not None and rnd.number != previous + 1:
            run = 0
        previous = rnd.number
        run = run + 1 if is_no_show(player_id, rnd) else 0
        if run >= limit:
            return rnd.number
    return None


def auto_signed_off(
    player_id: PlayerId,
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    signed_on_again_after: int | None = None,
) -> bool:
    """Is the player signed off for the coming rounds by the no-show rule (seed 004 rule j)?

    See ``signed_off_after``; this is ``signed_off_after(...) is not None``.
    """
    return signed_off_after(player_id, rounds, settings, signed_on_again_after) is not None


def present_by_default(
    players: Iterable[Player],
    rounds: Iterable[Round],
    settings: KeizerSettings = KeizerSettings(),
    next_round: int | None = None,
    signed_on_again_after: Mapping[PlayerId, int] | None = None,
) -> list[PlayerId]:
    """Who is expected for the next round when nobody signed off: every player who has
    joined by then (``joined_round <= next_round``) and is not signed off by the no-show
    rule. Order: as given."""
    rounds = list(rounds)
    if next_round is None:
        next_round = max((r.number for r in rounds), default=0) + 1
    signed_on = signed_on_again_after or {}
    return [
        p.id
        for p in players
        if p.joined_round <= next_round and not auto_signed_off(p.id, rounds, settings, signed_on.get(p.id))
    ]


# --------------------------------------------------------------------------- attendance


def counts_as_played(player_id: PlayerId, rnd: Round) -> bool:
    """Does this round count as played for the attendance rule (seed 004 rules e, f)?

    Counts: a game with a result that the player did not lose by forfeit (over the board,
    or won by forfeit: the player was there and ready to play); a bye (the player had to be
    present that evening, seed 004 internal rule l); an absence for a club team match
    (``Absence.TEAM``, rule f). Does not count: signed off (``notice``), a no-show, a game
    without a result yet, a round the player is not in.
    """
    if player_id in rnd.byes:
        return True
    absence = rnd.absent.get(player_id)
    if absence is not None:
        return absence is Absence.TEAM
    for game in rnd.games:
        if player_id not in (game.white, game.black):
            continue
        if game.result is None:
            return False
        return not is_no_show(player_id, Round(rnd.number, games=(game,)))
    return False


def attendance(player_id: PlayerId, rounds: Iterable[Round], after_round: int | None = None) -> int:
    """Number of rounds that count as played (``counts_as_played``) up to ``after_round``."""
    return sum(
        1
        for rnd in rounds
        if (after_round is None or rnd.number <= after_round) and counts_as_played(player_id, rnd)
    )


def required_attendance(settings: KeizerSettings = KeizerSettings(), season_rounds: int | None = None) -> int:
    """Rounds a player must have played to compete for prizes (seed 004 rule e).

    ``ceil(attendance_for_prizes * season_rounds)``: 2/3 of 28 is 18 2/3, so 19 (as the
    seed says). ``season_rounds`` defaults to the planned season length
    (``season_length``), not to the rounds played so far.
    """
    total = season_length(settings) if season_rounds is None else season_rounds
    return math.ceil(Fraction(settings.attendance_for_prizes) * total)
