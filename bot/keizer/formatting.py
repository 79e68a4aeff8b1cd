"""How the Keizer commands write points, results and the confirmation button's command."""

from __future__ import annotations

from fractions import Fraction

from engine.keizer import Result

from bot.core.i18n import t
from bot.keizer.store import GameRow, Season


def for_competition(lang: str, kind: str, text: str) -> str:
    """What the rapid competition says (posts, notices, pictures, pages, replies) names it: "Rapid: ..."
    before the text; the main competition's texts stay as they are."""
    return t(lang, "rapid_marker", text=text) if kind == "rapid" else text


def rapid_word(kind: str) -> str:
    """The word a command needs to address the same competition again: `` rapid`` or nothing."""
    return " rapid" if kind == "rapid" else ""


def fmt_points(value: Fraction) -> str:
    """Keizer points for display: exact inside, two decimals at most outside."""
    rounded = round(float(value), 2)
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


def shown_result(result: str | None) -> str:
    """A result as every text shows it: a draw ½-½ (stored, and typed, as 1/2-1/2 too), the rest as stored;
    none: "?"."""
    return "?" if result is None else result.replace("1/2", "½")


def result_text(lang: str, game: GameRow) -> str:
    """A game's result in a pairing's table: confirmed, reported and awaiting confirmation (``½-½?``), or none."""
    if game.result is not None:
        return shown_result(Result(game.result).value)
    if game.reported_result is not None:
        return t(lang, "result_pending", result=shown_result(game.reported_result))
    return ""


_OUTCOMES = {
    Result.WHITE_WINS: "outcome_white_wins", Result.BLACK_WINS: "outcome_black_wins", Result.DRAW: "outcome_draw",
    Result.WHITE_WINS_FORFEIT: "outcome_white_wins_forfeit", Result.BLACK_WINS_FORFEIT: "outcome_black_wins_forfeit",
    Result.DOUBLE_FORFEIT: "outcome_double_forfeit",
}  # fmt: skip


def outcome(lang: str, result: str, white: str, black: str) -> str:
    """A result that says who won and with which colour: "1-0: Carla (wit) wint van Anna"."""
    return t(lang, _OUTCOMES[Result(result)], result=result, white=white, black=black)


def confirm_command(season: Season, number: int) -> str:
    """What the opponent's confirmation button runs."""
    return f"/bevestig rapid {number}" if season.kind == "rapid" else f"/bevestig {number}"
