"""The go commands' parameters, as a platform with native options (Discord) offers them: each becomes a
typed option whose value is put back into the line the console would type (``/zet D4 #12``), which the
handlers read as ever (``bot/core/commands/registry.py`` ``Param``)."""

from __future__ import annotations

from typing import Any

from bot.core.commands.completers import MAX_SUGGESTIONS, member_names
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import FLAG, NAMED, PREFIXED, WORDS, Param
from bot.core.storage.store import Club
from bot.go.store import GoStore


async def open_games(core: Core, club: Club, typed: str, given: dict[str, Any]) -> list[tuple[str, Any]]:
    """The club's go games being challenged or played, newest first, whose number starts with what is
    typed: ``#12 Anna - Bert (19x19)``."""
    games = await GoStore(core.store).games_of_club(club.id, ("challenged", "playing"))
    text = str(typed or "").lstrip("#").strip()
    names = {m.id: m.name for m in await core.store.members(club.id)}
    found = [g for g in reversed(games) if str(g.id).startswith(text)][:MAX_SUGGESTIONS]
    return [(f"#{g.id} {names.get(g.black_id, '?')} - {names.get(g.white_id, '?')} ({g.size}x{g.size})", g.id) for g in found]


GAME = Param("partij", "int", low=1, high=999_999_999, style=PREFIXED, word="#", complete=open_games)  # ``#12``
OPPONENT = Param("tegenstander", complete=member_names)
ACTIONS = (
    ("discord_choice_go_challenge", "uitdagen"), ("discord_choice_go_accept", "accepteren"),
    ("discord_choice_go_decline", "weigeren"), ("discord_choice_go_list", "lijst"), ("discord_choice_go_sgf", "sgf"),
    ("discord_choice_go_thinking", "bedenktijd"), ("discord_choice_go_reminder", "herinnering"),
    ("discord_choice_go_handicap_komi", "voorgiftkomi"), ("discord_choice_go_settings", "instellingen"),
)  # fmt: skip
SIZES = (("19x19", "19"), ("13x13", "13"), ("9x9", "9"))
COLOURS = (("discord_choice_go_black", "zwart"), ("discord_choice_go_white", "wit"))

GO = (
    Param("actie", "choice", required=True, choices=ACTIONS), OPPONENT, GAME,
    Param("grootte", "choice", choices=SIZES), Param("voorgift", "int", low=2, high=9, style=NAMED),
    Param("kleur", "choice", choices=COLOURS), Param("vrij", "bool", style=FLAG), Param("waarde"),
)  # fmt: skip
ZET = (Param("punt", required=True, style=WORDS), GAME, OPPONENT)  # /zet D4, or every handicap stone: /zet D4 Q16
GAME_OR_OPPONENT = (GAME, OPPONENT)  # /pas, /opgeven, /bord
DOOD = (Param("stenen", style=WORDS), Param("klaar", "bool", style=FLAG), GAME)
GAME_ONLY = (GAME,)  # /akkoord, /afwijzen
