"""`clubbot mcmahon ...`: the NK championship (seed 000) from a tournament file.

    clubbot mcmahon standings FILE [--after-round N] [--json]
    clubbot mcmahon pair FILE [--json]
    clubbot mcmahon egf FILE [--class A] [--place "NL, Utrecht"] [--dates 2027-05-01,2027-05-02] [--komi 6.5]

The file format is in docs/mcmahon.md. A bad file or option prints one message on stderr and exits
with 2; nothing is printed on stdout then.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from engine import mcmahon
from engine.mcmahon.files import McMahonFileError, egf_results, parse_tournament

from bot.core.output import text_width
from bot.core.running.cli_common import CliError, file_command, guarded, read_text_file, round_number

_Fail = CliError


def register(subparsers: Any) -> None:
    """Add `mcmahon` and its commands to the `clubbot` parser's sub-parsers."""
    parser = subparsers.add_parser("mcmahon", help="NK championship tournament from a file (standings, pairing, EGF)")
    sub = parser.add_subparsers(dest="mcmahon_command", required=True, metavar="COMMAND")

    p = file_command(sub, "standings", "the table: score, SOS, SOSOS, strength, who can still win", "FILE",
                     _guarded(cmd_standings), "print JSON instead of a table")
    p.add_argument("--after-round", type=round_number, default=None, metavar="N")
    file_command(sub, "pair", "pair the next round (every earlier game needs its result)", "FILE", _guarded(cmd_pair),
                 "print JSON instead of a list")

    p = sub.add_parser("egf", help="the results in the EGF tournament results format, for rating")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--class", dest="tournament_class", default="A", choices=("A", "B", "C", "D"))
    p.add_argument("--place", default="NL, Netherlands")
    p.add_argument("--dates", default="", help="first,last day: 2027-05-01,2027-05-02 (required: the EGD needs DT[])")
    p.add_argument("--komi", default="6.5", help="KM[]: the komi played (default 6.5; an integer komi allows jigo)")
    p.add_argument("--minutes", type=int, default=112,
                   help="TM[]: the EGF's adjusted time in minutes, basic time + 45 moves of overtime (default 112)")
    p.set_defaults(handler=_guarded(cmd_egf))


def _guarded(fn: Callable[[argparse.Namespace], str]) -> Callable[[argparse.Namespace], int]:
    return guarded("clubbot mcmahon", fn, (McMahonFileError,), where=lambda args: args.file)


def load(path: str) -> mcmahon.Tournament:
    text = read_text_file(path, name_it=False)
    return parse_tournament(text)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def cmd_standings(args: argparse.Namespace) -> str:
    t = load(args.file)
    last = len(t.rounds)
    after = last if args.after_round is None else args.after_round
    if after > last:
        raise _Fail(f"the file has {last} rounds; no standings after round {after}")
    cut = mcmahon.Tournament(t.players, t.rounds[:after], t.settings, t.name)
    rows = mcmahon.standings(cut)
    stat = mcmahon.status(cut)
    rights = mcmahon.next_year_rights(cut)
    if args.json:
        return _dumps(
            {
                "name": t.name,
                "after_round": after,
                "champion": stat.champion,
                "champion_after": stat.champion_after,
                "contenders": list(stat.contenders),
                "next_round": stat.next_round,
                "title_round_next": stat.title_round_next,
                "standings": [
                    {
                        "rank": r.rank, "id": r.player.id, "name": r.player.name, "start_group": r.start_group,
                        "score": r.score, "wins": r.wins, "losses": r.losses, "sos": r.sos, "sosos": r.sosos,
                        "strength": r.player.strength, "group": r.group, "contender": r.contender,
                        "champion": r.champion, "earned_next_year": rights.get(r.player.id),
                    }  # fmt: skip
                    for r in rows
                ],
            }
        )
    width = max([len("Player")] + [text_width.width(r.player.name) for r in rows])  # CJK: 2 columns
    lines = [f"{'#':>3}  {'Player':<{width}}  {'Start':>5}  {'Score':>5}  {'SOS':>4}  {'SOSOS':>5}  {'Strength':>8}  "]
    for r in rows:
        mark = "champion" if r.champion else ("can win" if r.contender else "")
        lines.append(
            f"{r.rank:>3}  {text_width.pad(r.player.name, width)}  {-r.start_group:>5}  {mcmahon.points_text(r.score):>5}  {mcmahon.points_text(r.sos):>4}  {mcmahon.points_text(r.sosos):>5}  "
            f"{r.player.strength:>8}  {mark}".rstrip()
        )
    names = {p.id: p.name for p in t.players}
    if stat.champion is not None:
        lines.append(f"\nChampion: {names[stat.champion]} (known after round {stat.champion_after})")
    else:
        lines.append("\nCan still win: " + ", ".join(names[c] for c in stat.contenders))
    title = f"Standings after round {after}" if after else "Start groups"
    return (f"{t.name}: " if t.name else "") + title + "\n\n" + "\n".join(lines) + "\n"


def cmd_pair(args: argparse.Namespace) -> str:
    t = load(args.file)
    try:
        p = mcmahon.pair_next(t)
    except ValueError as e:
        raise _Fail(str(e)) from None
    except Exception as e:  # a bug in the engine: still one line and exit 2, as promised
        raise _Fail(f"the pairing failed ({type(e).__name__}: {e}); please report it") from None
    if args.json:
        return _dumps(
            {
                "round": p.round,
                "title_round": p.title_round,
                "pairings": [{"board": g.board, "black": g.black, "white": g.white} for g in p.games],
                "bye": p.bye,
                "repeats": p.repeats,
            }
        )
    names = {q.id: q.name for q in t.players}
    lines = [f"{g.board:>3}. {names[g.black]} (black) - {names[g.white]} (white)" for g in p.games]
    if p.bye is not None:
        lines.append(f"bye: {names[p.bye]}")
    if p.repeats:
        lines.append(f"note: {p.repeats} game(s) repeat an earlier meeting")
    title = f"Title round {p.round}" if p.title_round else f"Pairings of round {p.round}"
    return (f"{t.name}: " if t.name else "") + title + "\n\n" + "\n".join(lines) + "\n"


def cmd_egf(args: argparse.Namespace) -> str:
    t = load(args.file)
    try:
        return egf_results(t, tournament_class=args.tournament_class, place=args.place, dates=args.dates, komi=args.komi,
                           minutes=args.minutes)  # fmt: skip
    except ValueError as e:  # a header value that would break the file
        raise CliError(str(e)) from None
