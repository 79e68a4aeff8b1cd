"""An NK player's page on the club's website (issue 45 §1): their McMahon start group and start score,
and per round their opponent (linked to the opponent's page), colour, result (``1-0``, ``0-1``,
``½-½``; ``(F)`` by forfeit), and their score and SOS after that round. An NK player need not play in
the Keizer competition (whose member page does not know them): every name in the NK's standings and
pairings links here."""

from __future__ import annotations

from engine import mcmahon

from bot.core.commands.dispatch import Core
from bot.core.commands.registry import WebContent
from bot.core.commands.replies import Reply, Table
from bot.core.storage.store import Club
from bot.nk.store import NkStore, NkTournament


def _result(game: mcmahon.Game, me: str) -> str:
    """The game's result from the player's side, as the chat writes results: ``1-0``, ``0-1``, ``½-½``;
    ``(F)`` when decided by forfeit; "" while it is not in."""
    if game.jigo:
        return "½-½"
    if game.winner is None:
        return "0-0 (F)" if game.forfeit else ""
    text = "1-0" if game.winner == me else "0-1"
    return text + (" (F)" if game.forfeit else "")


async def player_content(core: Core, club: Club, tour: NkTournament, member_text: str, prefix: str) -> WebContent | None:
    """The page of the tournament's player whose member id is ``member_text``; ``prefix``: the path (under the
    club's address) of the tournament's player pages, where the opponents link. None: no such player."""
    data = await NkStore(core.store).load(tour)
    me = member_text if member_text.isascii() and member_text.isdigit() else ""
    player = next((p for p in data.players if p.id == me), None)
    if player is None:
        return None
    ctx = core.context_at(club, core.clock.now())
    names = {p.id: p.name for p in data.players}
    lines: list[str] = []
    groups = mcmahon.start_groups(data.players, data.settings)
    if me in groups:
        lines.append(ctx.t("nk_web_player_group", group=groups[me], score=-groups[me]))
    else:  # registered, not (yet) admitted by the director
        lines.append(ctx.t("nk_web_player_not_admitted"))
    rows: list[tuple[str, ...]] = []
    opponents: dict[str, str] = {}
    for rnd in data.rounds:
        game = next((g for g in rnd.games if me in (g.black, g.white)), None)
        if game is None and rnd.bye != me:
            continue  # withdrawn, or not yet in the field
        after = {s.player.id: s for s in mcmahon.standings(data, after=rnd.number)}
        standing = after.get(me)
        score = (mcmahon.points_text(standing.score), mcmahon.points_text(standing.sos)) if standing else ("", "")
        if game is None:
            rows.append((str(rnd.number), ctx.t("nk_web_bye"), "", "1", *score))
            continue
        other = game.white if game.black == me else game.black
        opponents[names[other]] = f"{prefix}{other}"
        colour = ctx.t("nk_web_black" if game.black == me else "nk_web_white")
        rows.append((str(rnd.number), names[other], colour, _result(game, me), *score))
    table = Table(
        headers=(ctx.t("col_round"), ctx.t("nk_col_opponent"), ctx.t("nk_col_colour"), ctx.t("col_result"),
                 ctx.t("nk_col_score"), ctx.t("nk_col_sos")),
        rows=tuple(rows),
        under=(2, 5),  # on a phone the colour under the opponent, the SOS under the score: it fits 390 px
    )  # fmt: skip
    if not rows:
        lines.append(ctx.t("nk_web_player_no_games"))
    title = ctx.t("nk_web_player_title", name=player.name, tournament=tour.name)
    return WebContent(title, Reply(lines=tuple(lines), table=table if rows else None), links=tuple(opponents.items()))
