"""Whether a stored season is one the Keizer engine can read, checked before it is asked: every player
in a paired round (a game, a bye, a sign-off) is in the season, has joined by that round and appears in
it once. A season that fails (data an older bot stored, or a bug) is refused with a message that names
the player and the round and tells the director what to do, instead of an internal error on every
standings, pairing and ``/mijn`` (issue 30)."""

from __future__ import annotations

from typing import Sequence

from engine.keizer import Player, Round

from bot.core.commands.context import UserError


def unreadable_players(players: Sequence[Player], rounds: Sequence[Round]) -> set[str]:
    """The ids in the paired rounds that are not players of the season (their names are looked up)."""
    known = {p.id for p in players}
    return {pid for rnd in rounds for pid in _appearances(rnd) if pid not in known}


def check_readable(players: Sequence[Player], rounds: Sequence[Round], season: str, outsiders: dict[str, str]) -> None:
    """Raise ``UserError`` for the first player a paired round cannot hold; ``outsiders``: the names of
    club members in the rounds who are not in the season (by player id)."""
    joined = {p.id: p.joined_round for p in players}
    names = {**outsiders, **{p.id: p.name for p in players}}
    for rnd in rounds:
        seen: set[str] = set()
        for pid in _appearances(rnd):
            values: dict[str, object] = {"season": season, "round": rnd.number, "name": names.get(pid, pid)}
            if pid not in joined:
                raise UserError("error_unreadable_not_in_season", **values)
            if joined[pid] > rnd.number:
                raise UserError("error_unreadable_before_joining", joined=joined[pid], **values)
            if pid in seen:
                raise UserError("error_unreadable_twice", **values)
            seen.add(pid)


def _appearances(rnd: Round) -> list[str]:
    return [pid for g in rnd.games for pid in (g.white, g.black)] + [*rnd.byes, *rnd.absent]
