"""The games a director makes by hand (``/invaller``, ``/indeling koppel|wissel``): their colours by the
rule the pairing gives its games, and a question before one repeats a game of the same cycle (the
command again with ``toch`` does it anyway, as ``/publiceer toch``)."""

from __future__ import annotations

from engine.keizer import pairing

from bot.core.commands.context import Context
from bot.core.commands.replies import Button, Reply
from bot.keizer import competition
from bot.keizer.lookups import ANYWAY_WORDS
from bot.keizer.store import RoundRow


def anyway(ctx: Context) -> tuple[bool, Context]:
    """Whether the director said ``toch`` (do it although it repeats a game), and the other arguments."""
    rest = [a for a in ctx.args if a.lower() not in ANYWAY_WORDS]
    return len(rest) != len(ctx.args), ctx.with_args(rest)


def command_line(name: str, args: list[str], rapid: bool) -> str:
    """The command as typed again (a name of more words in quotes), for the question's ``toch``."""
    words = [f'"{a}"' if " " in a else a for a in args] + (["rapid"] if rapid else [])
    return " ".join(["/" + name, *words])


def colours(data: competition.SeasonData, row: RoundRow, a: int, b: int) -> tuple[int, int]:
    """(white, black) of a game of members ``a`` and ``b`` in this round."""
    white, black = pairing.colours_for(
        data.players, data.rounds, competition.player_id(a), competition.player_id(b), row.number, data.settings
    )
    return int(white), int(black)


def ask_before_repeat(
    ctx: Context, data: competition.SeasonData, row: RoundRow, games: list[tuple[int, int]], command: str
) -> Reply | None:
    """The question to ask (nothing changed yet) when one of the new ``games`` repeats a game of this
    cycle; None when none does."""
    names = {p.id: p.name for p in data.players}
    for a, b in games:
        pa, pb = competition.player_id(a), competition.player_id(b)
        met = pairing.met_in_cycle(data.rounds, pa, pb, row.number, data.settings.cycle_length)
        if met is not None:
            again = f"{command} toch"
            question = ctx.t("confirm_repeat", a=names[pa], b=names[pb], round=met, command=again)
            return Reply(lines=(question,), ok=False, private=True, buttons=(Button(ctx.t("button_anyway"), again),))
    return None
