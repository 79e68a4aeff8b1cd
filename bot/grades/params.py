"""The grades commands' parameters, as a platform with native options (Discord) offers them: each becomes
a typed option whose value is put back into the line the console would type (``/partij Anna datum=...``),
which the handlers read as ever (``bot/core/commands/registry.py`` ``Param``)."""

from __future__ import annotations

from typing import Any

from bot.core.commands.completers import member_names
from bot.core.commands.registry import FLAG, KEYED, Param


def _keyed(name: str, kind: str = "text", **more: Any) -> Param:
    return Param(name, kind, style=KEYED, **more)


YES_NO = (("discord_choice_grade_yes", "ja"), ("discord_choice_grade_no", "nee"))
RESULTS = (("discord_choice_grade_won", "gewonnen"), ("discord_choice_grade_lost", "verloren"),
           ("discord_choice_grade_draw", "remise"))  # fmt: skip
GAME_ACTIONS = (("discord_choice_grade_correct", "wijzig"), ("discord_choice_grade_delete", "verwijder"),
                ("discord_choice_grade_list", "lijst"))  # fmt: skip
RELIABILITY = (("discord_choice_grade_unreliable", "onbetrouwbaar"), ("discord_choice_grade_reliable", "betrouwbaar"))
MINUTES = _keyed("minuten", "int", low=0, high=1000)
BYOYOMI = _keyed("byoyomi", "int", low=0, high=3600)
OFFICIAL = _keyed("officieel", "choice", choices=YES_NO)

GRAAD = (Param("speler", complete=member_names),)
GRADEN = (Param("alle", "bool", style=FLAG),)
GRAADZETTEN = (
    Param("speler", required=True, complete=member_names), Param("graad", required=True), _keyed("vanaf"),
    Param("geschat", "bool", style=FLAG), Param("betrouwbaarheid", "choice", choices=RELIABILITY),
)  # fmt: skip
PARTIJ = (
    Param("actie", "choice", choices=GAME_ACTIONS), Param("nummer", "int", low=1, high=999_999),
    Param("speler", complete=member_names), _keyed("speeldatum", word="datum"),
    _keyed("tegen", complete=member_names), _keyed("graad"), _keyed("uitslag", "choice", choices=RESULTS),
    MINUTES, BYOYOMI, _keyed("handicap", "int", low=0, high=9), OFFICIAL, _keyed("toernooi"),
    Param("geschat", "bool", style=FLAG), Param("onbetrouwbaar", "bool", style=FLAG),
)  # fmt: skip
PARTIJENIMPORT = (Param("bestand", "file", required=True),)
SPEELTEMPO = (_keyed("seizoen"), _keyed("nk"), MINUTES, BYOYOMI, OFFICIAL)
