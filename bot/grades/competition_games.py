"""The competition games that count for grades: the played games the club's competition systems report
(``bot/core/commands/competitions.py``) whose competition has a time control set with ``/speeltempo``, except
games played as go games in the chat (days per move is no time control)."""

from __future__ import annotations

from dataclasses import replace

from bot.core.commands.dispatch import Core
from bot.grades.store import GradeStore, TimedGame, TimeControl


async def time_controls(core: Core, club_id: int) -> list[TimeControl]:
    """The time controls set, each with its competition's name."""
    names: dict[tuple[str, int], str] = {}
    for source in core.registry.competitions:
        for c in await source.competitions(core, club_id):
            names[(c.kind, c.id)] = c.name
    controls = await GradeStore(core.store).time_controls(club_id)
    return [replace(c, name=names.get((c.kind, c.ref_id), "?")) for c in controls]


async def timed_games(core: Core, club_id: int) -> list[TimedGame]:
    controls = {(c.kind, c.ref_id): c for c in await GradeStore(core.store).time_controls(club_id)}
    in_chat: set[tuple[str, int]] = set()
    for played_in_chat in core.registry.chat_played:
        in_chat |= await played_in_chat(core, club_id)
    found = []
    for source in core.registry.competitions:
        for g in await source.played_games(core, club_id):
            control = controls.get((g.kind, g.competition_id))
            if control is None or (g.kind, g.game_id) in in_chat:
                continue
            found.append(
                TimedGame(
                    f"{source.key_prefix}{g.game_id:08d}", g.played_on, g.white_id, g.black_id, g.winner_id,
                    control.minutes, control.byoyomi, control.official, g.competition_name,
                )  # fmt: skip
            )
    return found
