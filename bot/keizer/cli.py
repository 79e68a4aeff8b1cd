"""`clubbot keizer ...`: standings, pairings and prizes straight from a season file.

    clubbot keizer standings SEASON.json [--after-round N] [--json]
    clubbot keizer pair SEASON.json [--json]
    clubbot keizer prizes SEASON.json [--rapid RAPID.json] [--json]

The file format is in docs/season-file.md. A bad file, or a bad option, prints one message
on stderr naming the file's line and exits with 2; nothing is printed on stdout then.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bot.core.output import text_width
from bot.core.running.cli_common import CliError, file_command, guarded, read_text_file, round_number
from engine import keizer
from engine.keizer import pairing
from engine.keizer import prizes as prize_rules
from engine.keizer import season as season_rules
from engine.keizer import Standing
from engine.keizer.season_file import Season, SeasonFileError, parse_season
from engine.keizer.season_file import settings_json as season_file_settings

_Fail = CliError


def register(subparsers: Any) -> None:
    """Add `keizer` and its commands to the `clubbot` parser's sub-parsers."""
    keizer_parser = subparsers.add_parser(
        "keizer", help="Keizer competition from a season file (standings, pairing, prizes)"
    )
    sub = keizer_parser.add_subparsers(dest="keizer_command", required=True, metavar="COMMAND")

    p = file_command(sub, "standings", "the standings after the last (or a given) round", "SEASON.json",
                     _guarded(cmd_standings), "print JSON instead of a table")
    p.add_argument("--after-round", type=round_number, default=None, metavar="N",
                   help="standings after round N (default: the last round in the file; 0: start order)")
    file_command(sub, "pair", "pair the next round for the players present", "SEASON.json", _guarded(cmd_pair),
                 "print JSON instead of a list")
    p = file_command(sub, "prizes", "the season's prizes as the standings are now", "SEASON.json",
                     _guarded(cmd_prizes), "print JSON instead of text")
    p.add_argument("--rapid", metavar="RAPID.json", default=None, help="the rapid competition's season file")
    p.add_argument("--season-rounds", type=round_number, default=None, metavar="N",
                   help="rounds of the whole season for the 2/3 rule (default: cycles x cycle_length)")


def _guarded(fn: Callable[[argparse.Namespace], str]) -> Callable[[argparse.Namespace], int]:
    return guarded("clubbot keizer", fn, (SeasonFileError,))


def load_season(path: str) -> Season:
    text = read_text_file(path)
    return parse_season(text, source=path)


def _last_round(season: Season) -> int:
    return max((r.number for r in season.rounds), default=0)


def _score_json(score: Fraction) -> tuple[float, str]:
    return round(float(score), 2), str(score)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------- standings


def cmd_standings(args: argparse.Namespace) -> str:
    season = load_season(args.file)
    last = _last_round(season)
    after = last if args.after_round is None else args.after_round
    if after > last:
        raise _Fail(f"{args.file} has {last} round{'s' if last != 1 else ''}; no standings after round {after}")
    rows = keizer.standings(season.players, season.rounds, season.settings, after_round=after)
    attendance = {s.player.id: season_rules.attendance(s.player.id, season.rounds, after) for s in rows}
    if args.json:
        return _dumps(
            {
                "name": season.name,
                "after_round": after,
                "standings": [_standing_json(s, attendance[s.player.id]) for s in rows],
            }
        )
    title = f"Standings after round {after}" if after else "Start order"
    return _heading(season, title) + _standings_table(rows, attendance)


def _standing_json(s: Standing, attendance: int) -> dict[str, Any]:
    score, exact = _score_json(s.score)
    return {
        "rank": s.rank,
        "id": s.player.id,
        "name": s.player.name,
        "group": s.player.group,
        "rating": s.player.rating,
        "score": score,
        "score_exact": exact,
        "value": s.value,
        "played": s.played,
        "attendance": attendance,
    }


def _heading(season: Season, title: str) -> str:
    return (f"{season.name}: " if season.name else "") + title + "\n\n"


def _standings_table(rows: list[Standing], attendance: dict[str, int]) -> str:
    name_width = max([len("Player")] + [text_width.width(s.player.name) for s in rows])  # CJK: 2 columns
    lines = [
        (
            f"{'#':>3}  {'Player':<{name_width}}  {'Group':<5}  {'Rating':>6}  {'Score':>8}  {'Value':>5}  "
            f"{'Played':>6}  {'Attended':>8}"
        )
    ]
    for s in rows:
        lines.append(
            f"{s.rank:>3}  {text_width.pad(s.player.name, name_width)}  {s.player.group or '-':<5}  {s.player.rating:>6}  "
            f"{float(s.score):>8.2f}  {s.value:>5}  {s.played:>6}  {attendance[s.player.id]:>8}"
        )
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- pair


def cmd_pair(args: argparse.Namespace) -> str:
    season = load_season(args.file)
    number = _last_round(season) + 1
    if season.present is not None:
        present = list(season.present)
    else:
        present = season_rules.present_by_default(season.players, season.rounds, season.settings, number)
    open_games = [
        f"{g.white}-{g.black}" for r in season.rounds if r.number == number - 1 for g in r.games if g.result is None
    ]
    if open_games:
        print(
            f"clubbot keizer: warning: round {number - 1} still has games without a result "
            f"({', '.join(open_games)}); they count as not played",
            file=sys.stderr,
        )
    try:
        result = pairing.pair_round(season.players, season.rounds, present, season.settings, round_number=number)
    except ValueError as e:
        raise _Fail(str(e)) from None
    names = {p.id: p.name for p in season.players}
    absent = [p.id for p in season.players if p.id not in set(present) and p.joined_round <= number]
    if args.json:
        return _dumps(
            {
                "round": result.round,
                "pairings": [{"white": g.white, "black": g.black} for g in result.games],
                "bye": result.bye,
                "repeats": result.repeats,
                "not_present": absent,
            }
        )
    lines = []
    for board, g in enumerate(result.games, 1):
        lines.append(f"{board:>3}. {names[g.white]} - {names[g.black]}")
    if result.bye is not None:
        lines.append(f"bye: {names[result.bye]}")
    if absent:
        lines.append("not present: " + ", ".join(names[pid] for pid in absent))
    if result.repeats:
        lines.append(f"note: {result.repeats} game(s) repeat a meeting of this cycle (no legal round without)")
    return _heading(season, f"Pairings of round {result.round}") + "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- prizes


def planned_rounds(season: Season) -> int:
    """A season file's planned number of rounds: cycles x cycle_length when the file sets them, else
    the rounds it holds (a short rapid season of 3 rounds asks 2 for its prize, not 2/3 of 28)."""
    given = season_file_settings(season.settings)
    if "cycles" in given or "cycle_length" in given:
        return season_rules.season_length(season.settings)
    return _last_round(season)


def cmd_prizes(args: argparse.Namespace) -> str:
    season = load_season(args.file)
    rapid: Season | None = load_season(args.rapid) if args.rapid else None
    prizes = prize_rules.prizes_from_rounds(
        season.players,
        season.rounds,
        season.settings,
        season_rounds=args.season_rounds,
        rapid=None if rapid is None else (rapid.players, rapid.rounds, rapid.settings),
        rapid_season_rounds=None if rapid is None else planned_rounds(rapid),
    )
    names = {p.id: p.name for p in season.players}
    if rapid is not None:
        names.update({p.id: p.name for p in rapid.players if p.id not in names})
    last = _last_round(season)
    planned = season_rules.season_length(season.settings) if args.season_rounds is None else args.season_rounds
    unfinished = bool(planned) and last < planned

    def prize_json(prize: prize_rules.Prize | None) -> dict[str, Any] | None:
        if prize is None:
            return None
        return {
            "group": prize.group,
            "id": prize.winner,
            "name": None if prize.winner is None else names.get(prize.winner),
            "reason": prize.reason,
            "tied_with": list(prize.tied_with),
        }

    if args.json:
        return _dumps(
            {
                "after_round": last,
                "season_rounds": planned,
                "unfinished": unfinished,
                "required": prizes.required,
                "champion": prize_json(prizes.champion),
                "groups": [prize_json(p) for p in prizes.group_winners],
                "riser": prize_json(prizes.riser),
                "rapid": prize_json(prizes.rapid_champion),
                "attendance": dict(prizes.attendance),
                "eligible": sorted(prizes.eligible),
            }
        )

    def line(label: str, prize: prize_rules.Prize) -> str:
        who = "-" if prize.winner is None else f"{names.get(prize.winner, prize.winner)}"
        return f"{label:<16} {who} ({prize.reason})"

    lines = []
    if unfinished:
        lines.append(f"The season is not over: {last} of {planned} rounds played; prizes as they stand now.")
    lines.append(f"Competing: players with at least {prizes.required} rounds played ({len(prizes.eligible)}).")
    lines.append("")
    lines.append(line("Club champion", prizes.champion))
    for p in prizes.group_winners:
        lines.append(line(f"Group {p.group}", p))
    lines.append(line("Riser prize", prizes.riser))
    if prizes.rapid_champion is not None:
        lines.append(line("Rapid champion", prizes.rapid_champion))
    return _heading(season, "Prizes") + "\n".join(lines) + "\n"


