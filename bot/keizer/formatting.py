"""How the Keizer commands write points, results and the confirmation button's command."""

from __future__ import annotations

from fractions import Fraction

from engine.keizer import Result

from bot.core.i18n import t
from bot.keizer.store import GameRow, Season


def fmt_points(value: Fraction) -> str:
    """Keizer points for display: exact inside, two decimals at most outside."""
    rounded = round(float(value), 2)
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


def result_text(lang: str, game: GameRow) -> str:
    if game.result is not None:
        return Result(game.result).value
    if game.reported_result is not None:
        return t(lang, "result_pending", result=game.reported_result)
    return ""


def confirm_command(season: Season, number: int) -> str:
    """What the opponent's confirmation button runs."""
    return f"/bevestig rapid {number}" if season.kind == "rapid" else f"/bevestig {number}"
