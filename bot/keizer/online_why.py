"""Why a game played on lichess was not entered by itself, in the club's words (issue 43 §3): lichess's status
(``timeout``, ``cheat``, ...), the differences from the game that was made (``colours``, ``clock``, ...), or
``expired``; several joined by commas, as ``online_games.reason`` holds them."""

from __future__ import annotations

from bot.core.i18n import t

REASONS = ("colours", "players", "clock", "rated", "variant", "timeout", "cheat", "aborted", "unknownFinish", "variantEnd",
           "expired", "noStart")  # fmt: skip


def online_why(lang: str, reason: str) -> str:
    return ", ".join(t(lang, f"online_why_{part}") if part in REASONS else part for part in reason.split(","))
