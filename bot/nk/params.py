"""``/nk``'s parameters, as a platform with native options (Discord) offers them: the sub-command as a
choice, names with autocomplete, numbers as numbers; each value is put back into the line the console
would type (``/nk uitslag Anna gewonnen 3``), which the handler reads as ever
(``bot/core/commands/registry.py`` ``Param``). A value a sub-command does not take is refused by it."""

from __future__ import annotations

from typing import Any

from bot.core.commands.completers import member_names
from bot.core.commands.registry import FLAG, KEYED, Param


def _keyed(name: str, kind: str = "text", word: str | None = None, **more: Any) -> Param:
    return Param(name, kind, style=KEYED, word=word, **more)


ACTIONS = (
    ("discord_choice_nk_new", "nieuw"), ("discord_choice_nk_register", "inschrijven"),
    ("discord_choice_nk_approve", "goedkeuren"), ("discord_choice_nk_round", "ronde"),
    ("discord_choice_nk_pairings", "indeling"), ("discord_choice_nk_result", "uitslag"),
    ("discord_choice_nk_confirm", "bevestig"), ("discord_choice_nk_standings", "stand"), ("EGF", "egf"),
    ("discord_choice_nk_withdraw", "terugtrekken"), ("discord_choice_nk_swap", "wissel"),
    ("discord_choice_nk_player", "speler"),
)  # fmt: skip
RESULTS = (
    ("discord_choice_nk_won", "gewonnen"), ("discord_choice_nk_lost", "verloren"), ("jigo", "jigo"),
    ("discord_choice_nk_double", "dubbel"),
)  # fmt: skip
RIGHTS = (("discord_choice_nk_top", "top"), ("discord_choice_nk_group1", "groep1"))

NK = (
    Param("actie", "choice", required=True, choices=ACTIONS),
    Param("naam", complete=member_names), Param("tweede", complete=member_names),
    Param("egfrating", "int", low=-900, high=3500), Param("nkuitslag", "choice", choices=RESULTS),
    Param("reglementair", "bool", style=FLAG), Param("nkronde", "int", low=1, high=100),
    Param("nkongedaan", "bool", style=FLAG, word="ongedaan"),
    _keyed("nkrondes", "int", "rondes", low=1, high=20), _keyed("topgroep", "int", "groep", low=2, high=1000),
    _keyed("komi"), _keyed("nktempo", word="tempo"), _keyed("recht", "choice", choices=RIGHTS), _keyed("sterkte", "int", low=-900, high=3500),
    _keyed("punten"), _keyed("club"), _keyed("land"), _keyed("pin"),
    _keyed("plaats"), _keyed("egfdatum", word="datum"), _keyed("egftijd", "int", "tijd", low=1, high=1000),
    _keyed("klasse"),
)  # fmt: skip
