"""The NK's tables: ``/nk stand [naam]`` (the table, who can still become champion, and after round 7 the rights
earned for next year) and ``/nk egf`` (the results in the EGF format). Pictures are drawn in a worker
thread; announcements keep what their picture shows."""

from __future__ import annotations

import asyncio
import dataclasses
import re

from engine import mcmahon
from engine.mcmahon.files import egf_results
from engine.mcmahon.model import decided

from bot.core.commands.context import Context, UserError, parse_id
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.output.pictures import picture_spec, table_png
from bot.core.commands.replies import Reply, Table
from bot.nk.lookups import current as _current
from bot.nk.lookups import named
from bot.nk.store import NkStore, NkTournament


async def _drawn(title: str, table: Table, notes: tuple[str, ...]) -> bytes:
    """A table's picture, drawn in a worker thread: a 500-player table never holds up other clubs."""
    return await asyncio.to_thread(table_png, title, table, notes)


def round_announcement(
    lang: str, title: str, notes: tuple[str, ...], boards: list[tuple[int, str, str]], bye: str | None
) -> tuple[str, str]:
    """A round's announcement: its text (the title, ``notes``, a line per board (board, black, white),
    the bye) and what its picture shows (``picture_spec``, drawn when it is sent)."""
    lines = [title, *notes]
    lines += [t(lang, "nk_pairing_line", board=board, black=black, white=white) for board, black, white in boards]
    after = (t(lang, "nk_bye_line", name=bye),) if bye is not None else ()
    table = Table(
        headers=(t(lang, "col_board"), t(lang, "nk_col_black"), t(lang, "nk_col_white")),
        rows=tuple((str(board), black, white) for board, black, white in boards),
    )
    return "\n".join([*lines, *after]), picture_spec(title, table, (*notes, *after))


def round_cell(lang: str, rnd: mcmahon.Round, player: str, places: dict[str, int]) -> str:
    """A player's round in the standings, as chess-results writes it: the opponent's place in the table,
    the colour and the result (``3z1``, ``5w0``, ``2z½``, ``4w+`` by forfeit), only the first two while
    the game is played; the bye; "" when not paired (a withdrawn player, a title round without them)."""
    if rnd.bye == player:
        return t(lang, "nk_bye_cell")
    game = next((g for g in rnd.games if player in (g.black, g.white)), None)
    if game is None:
        return ""
    other, colour = (game.white, "nk_colour_black") if game.black == player else (game.black, "nk_colour_white")
    if game.jigo:
        result = "½"
    elif game.winner is None:
        result = "-" if game.forfeit else ""  # a double forfeit: both lost
    elif game.forfeit:
        result = "+" if game.winner == player else "-"
    else:
        result = "1" if game.winner == player else "0"
    return f"{places.get(other, '')}{t(lang, colour)}{result}"


def _mark(lang: str, r: mcmahon.Standing) -> str:
    """The title column: the champion, who can still become it, a withdrawn player (from which round)."""
    if r.champion:
        return t(lang, "nk_mark_champion")
    if r.player.withdrawn_from is not None:
        return t(lang, "nk_mark_withdrawn", round=r.player.withdrawn_from)
    return t(lang, "nk_mark_contender") if r.contender else ""


TABLE_WORDS = {"tabel", "table"}  # the website's tables: a column per round, each player's score and group


def table_words(args: list[str]) -> tuple[bool, list[str]]:
    """Was ``tabel`` (the website's wider table) asked for, and the other words."""
    rest = [a for a in args if a.lower() not in TABLE_WORDS]
    return len(rest) < len(args), rest


def _standings_reply(ctx: Context, tour: NkTournament, data: mcmahon.Tournament, lang: str, full: bool = False) -> Reply:
    """The table and its lines, no picture: a chat reply draws it in a worker thread (``_drawn``), an
    announcement keeps what it shows and is drawn when sent. ``full`` (``/nk stand tabel``, the
    website's): a column per round as chess-results has it."""
    stat = mcmahon.status(data)
    rows = mcmahon.standings(data, after=stat.rounds_complete)  # a round still being played does not count yet
    names = {p.id: p.name for p in data.players}
    rights = mcmahon.next_year_rights(data)
    right_words = {mcmahon.EARNED_TOP: t(lang, "nk_right_top"), mcmahon.EARNED_GROUP1: t(lang, "nk_right_group1")}
    places = {r.player.id: r.rank for r in rows}
    shown_rounds = data.rounds if full else ()
    table = Table(
        headers=(t(lang, "col_rank"), t(lang, "col_name"), t(lang, "nk_col_score"))
                + tuple(t(lang, "nk_col_round", round=rnd.number) for rnd in shown_rounds)
                + (t(lang, "nk_col_sos"), t(lang, "nk_col_sosos"), t(lang, "nk_col_strength"), t(lang, "nk_col_title"))
                + ((t(lang, "nk_col_right"),) if rights else ()),
        rows=tuple(
            (str(r.rank), r.player.name, mcmahon.points_text(r.score))
            + tuple(round_cell(lang, rnd, r.player.id, places) for rnd in shown_rounds)
            + (mcmahon.points_text(r.sos), mcmahon.points_text(r.sosos), str(r.player.strength), _mark(lang, r))
            + ((right_words.get(rights.get(r.player.id, ""), ""),) if rights else ())
            for r in rows
        ),
        # a phone shows the rounds, WP, WWP and the strength under the points, the right under the title
        under=(*range(3, 6 + len(shown_rounds)), 7 + len(shown_rounds)),
    )  # fmt: skip
    if stat.rounds_complete == 0 and data.rounds:
        lines = [t(lang, "nk_standings_title_playing", name=tour.name, round=1)]
    else:
        lines = [t(lang, "nk_standings_title", name=tour.name, round=stat.rounds_complete)]
    if stat.champion is not None:
        lines.append(t(lang, "nk_champion_line", name=names[stat.champion], round=stat.champion_after))
    elif data.rounds:
        hopes = set(stat.contenders)  # in the table's order, as the members read it
        lines.append(t(lang, "nk_contenders_line", names=", ".join(names[r.player.id] for r in rows if r.player.id in hopes)))
    if rights:
        lines.append(t(lang, "nk_rights_line", top=", ".join(names[p] for p, r in rights.items() if r == mcmahon.EARNED_TOP) or "-",
                       group1=", ".join(names[p] for p, r in rights.items() if r == mcmahon.EARNED_GROUP1) or "-"))  # fmt: skip
    return Reply(lines=tuple(lines), table=table)


async def _loaded(nk: NkStore, ctx: Context, args: list[str]) -> tuple[NkTournament, mcmahon.Tournament]:
    """The club's tournament and its engine view, for sub-commands that take no arguments."""
    if args:
        raise UserError("error_usage", usage=ctx.t("nk_usage"))
    tour = await _current(nk, ctx)
    return tour, await nk.load(tour)


async def _stand(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    """``/nk stand [naam] [tabel]``: the current tournament's table, or a past one's by its name, with its
    picture; ``tabel``: the wider table (a column per round, the website's)."""
    full, args = table_words(args)
    tour = await named(nk, ctx, args) if args else await _current(nk, ctx)
    reply = await standings_of(nk, ctx, tour, full)
    assert reply.table is not None
    return dataclasses.replace(reply, image=await _drawn(reply.lines[0], reply.table, reply.lines[1:]))


async def standings_of(nk: NkStore, ctx: Context, tour: NkTournament, full: bool = False) -> Reply:
    """The tournament's table (before its first round: the registered players and their start groups),
    without a picture: the website's pages show the table itself."""
    data = await nk.load(tour)
    if not data.rounds:
        pending = [p for p in await nk.players(tour.id) if not p.confirmed]
        lines = [ctx.t("nk_registration_title", name=tour.name, count=len(mcmahon.field_of(data.players)), pending=len(pending))]
        groups = mcmahon.start_groups(data.players, data.settings)
        table = Table(
            headers=(ctx.t("col_name"), ctx.t("nk_col_strength"), ctx.t("nk_col_group")),
            rows=tuple((p.name, str(p.strength), str(groups[p.id])) for p in mcmahon.field_of(data.players)),
        )
        return Reply(lines=tuple(lines), table=table)
    return _standings_reply(ctx, tour, data, ctx.lang, full)


EGF_KEYS = {"plaats": "place", "place": "place", "datum": "dates", "dates": "dates", "tijd": "minutes",
            "minutes": "minutes", "komi": "komi", "klasse": "tournament_class", "class": "tournament_class"}  # fmt: skip


async def _egf(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    """``/nk egf [plaats=...] [datum=2027-05-01,2027-05-02] [tijd=112] [komi=6.5] [klasse=A]``."""
    options: dict[str, object] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or key.lower() not in EGF_KEYS or not value:
            raise UserError("error_usage", usage=ctx.t("nk_usage_egf"))
        options[EGF_KEYS[key.lower()]] = value
    if "minutes" in options:
        minutes = str(options["minutes"])
        if parse_id(minutes, 4) is None or not 1 <= int(minutes) <= 1000:
            raise UserError("error_bad_number", value=minutes[:10], low=1, high=1000)
        options["minutes"] = int(minutes)
    if options.get("tournament_class", "A") not in ("A", "B", "C", "D"):
        raise UserError("error_usage", usage=ctx.t("nk_usage_egf"))
    tour, data = await _loaded(nk, ctx, [])
    if not data.rounds:
        raise UserError("nk_error_no_round")
    if "dates" not in options:  # the EGD requires DT[]: by default the days the rounds were paired
        days = sorted({ctx.local(m)[:10] for m in await nk.paired_moments(tour.id)})
        options["dates"] = days[0] if len(days) == 1 else f"{days[0]},{days[-1]}"
    options.setdefault("komi", tour.komi)
    try:
        text = egf_results(data, **options)  # type: ignore[arg-type]  # the header's fields by name
    except ValueError as err:  # a value with [ ] ; or a line break would write a header of its own
        raise UserError("nk_error_egf_header", detail=str(err)[:120])
    filename = re.sub(r"[^A-Za-z0-9._-]+", "_", tour.name).strip("_") + "-egf.txt"
    lines = [ctx.t("nk_egf_exported", name=tour.name)]
    open_games = sum(not decided(g) for rnd in data.rounds for g in rnd.games)
    if open_games:  # written as not played (0-): the director should not send it in yet
        lines.append(ctx.t("nk_egf_open_games", n=open_games))
    return Reply(lines=tuple(lines), attachment=(filename, text.encode("utf-8")))
