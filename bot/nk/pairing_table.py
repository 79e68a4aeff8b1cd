"""An NK round's pairing as a table (``/nk indeling [ronde] [tabel]``): each board and its result once it
is in; the website's (``tabel``, ``nk-indeling``) with both players' score and McMahon group before the
round and their strength, as pairgoth and chess-results show a pairing (issue 45 §1)."""

from __future__ import annotations

from engine import mcmahon

from bot.core.commands.context import Context
from bot.core.commands.replies import Table


def pairing_table(ctx: Context, data: mcmahon.Tournament, rnd: mcmahon.Round, full: bool = False) -> Table:
    """The boards of ``rnd`` and their results; ``full`` (``/nk indeling tabel``, the website's): per
    player the score and group after the rounds before it (the group a jigo halves, 0 the top group) and
    the strength the pairing used."""
    names = {p.id: p.name for p in data.players}
    if not full:
        return Table(
            headers=(ctx.t("col_board"), ctx.t("nk_col_black"), ctx.t("nk_col_white"), ctx.t("col_result")),
            rows=tuple((str(g.board), names[g.black], names[g.white], result_text(ctx, g, names)) for g in rnd.games),
        )
    before = {s.player.id: s for s in mcmahon.standings(data, after=rnd.number - 1)}

    def about(player: str) -> tuple[str, str, str]:
        found = before.get(player)
        if found is None:  # not in the field any more: nothing to say of them
            return "", "", ""
        return mcmahon.points_text(found.score), mcmahon.points_text(found.group), str(found.player.strength)

    return Table(
        headers=(ctx.t("col_board"), ctx.t("nk_col_black"), ctx.t("nk_col_score"), ctx.t("nk_col_group"),
                 ctx.t("nk_col_strength"), ctx.t("nk_col_white"), ctx.t("nk_col_score"), ctx.t("nk_col_group"),
                 ctx.t("nk_col_strength"), ctx.t("col_result")),
        rows=tuple(
            (str(g.board), names[g.black], *about(g.black), names[g.white], *about(g.white), result_text(ctx, g, names))
            for g in rnd.games
        ),
        under=(2, 3, 4, 6, 7, 8),  # a phone shows each player's score, group and strength under their name
    )  # fmt: skip


def result_text(ctx: Context, g: mcmahon.Game, names: dict[str, str]) -> str:
    """A game's result in the pairing's table: the winner (F: by forfeit), jigo, a double forfeit, or nothing yet."""
    if g.jigo:
        return ctx.t("nk_jigo")
    if g.winner is None:
        return ctx.t("nk_double_forfeit") if g.forfeit else ""
    return names[g.winner] + (" (F)" if g.forfeit else "")
