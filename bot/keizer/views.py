"""What members look at: ``/stand`` (standings), ``/prijzen`` (prizes) and ``/indeling`` (a round's
pairing with its results so far); ``/stand`` and ``/indeling`` of a past season too, with ``seizoen=Naam``."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import Counter
from datetime import date

from engine.keizer import prizes as prize_rules
from engine.keizer.model import Absence

from bot.core.commands.context import Context, Quoted, UserError, parse_int
from bot.core.club.name_key import name_key
from bot.core.commands.dispatch import OWN_ROWS, Core
from bot.core.output.calendar import day_text, moment_parts
from bot.core.output.pictures import table_png
from bot.core.commands.replies import Button, Reply, Table
from bot.keizer import competition
from bot.keizer.formatting import fmt_points, for_competition, result_text
from bot.keizer.online_round import SYSTEM
from bot.keizer.lookups import active_season, competition_of, keizer_store, postponed_names, round_by_number, season_named
from bot.keizer.open_results import waiting_line
from bot.keizer.store import GameRow, RoundRow, Season


PAGE_ROWS = 40  # rows of a standings page: a picture a phone shows at full size, a message that fits
_PAGE_WORDS = ("pagina=", "page=")
_ALL_WORDS = {"alles", "all"}
_SEASON_KEYS = {"seizoen", "season"}  # /stand seizoen=2025-26: a past season's standings
_TABLE_WORDS = {"tabel", "table"}  # the whole table with more columns, no picture: the website's standings and pairings


async def cmd_stand(core: Core, ctx: Context) -> Reply:
    """The standings after the last paired round; ``/stand A`` one group, ``/stand rapid`` the rapid
    competition, ``/stand 5`` after round 5. A club of more than ``PAGE_ROWS`` members gets pages
    (``pagina=2``, a button to the next) and the whole table as a file with ``/stand alles``."""
    page, whole, plain, rest = 1, False, False, []
    for arg in ctx.args:
        low = arg.lower()
        if low in _ALL_WORDS:
            whole = True
        elif low in _TABLE_WORDS:
            plain = True
        elif low.startswith(_PAGE_WORDS):
            number = parse_int(low.partition("=")[2])
            if number is None or number < 1:
                raise UserError("error_usage", usage=ctx.t("usage_stand"))
            page = number
        else:
            rest.append(arg)
    title, table = await standings_table(core, ctx.with_args(rest), absences=plain)
    if plain:
        return Reply(lines=(title,), table=table)
    if whole:
        name = "stand.txt" if ctx.lang == "nl" else "standings.txt"
        content = (title + "\n\n" + table.as_text() + "\n").encode("utf-8")
        return Reply(lines=(title, ctx.t("standings_file", rows=len(table.rows))), attachment=(name, content))
    pages = max(1, -(-len(table.rows) // PAGE_ROWS))
    if page > pages:
        raise UserError("error_standings_page", page=page, pages=pages)
    buttons: tuple[Button, ...] = ()
    lines: tuple[str, ...] = (title,)
    extra: dict[str, str] = {}
    if pages > 1:
        shown = table.rows[(page - 1) * PAGE_ROWS : page * PAGE_ROWS]
        others = [row for row in table.rows if row not in shown]  # each asker also sees their own row
        extra[OWN_ROWS] = json.dumps(
            {row[1].casefold(): ctx.t("standings_own_row", rank=row[0], name=row[1], score=row[2], value=row[3]) for row in others},
            ensure_ascii=False,
        )
        table = Table(headers=table.headers, rows=shown)
        title = f"{title} ({page}/{pages})"
        lines = (title, ctx.t("standings_pages", page=page, pages=pages, command=_command(ctx, "alles")))
        if page < pages:
            buttons = (Button(ctx.t("button_next_page"), _command(ctx, f"pagina={page + 1}")),)
    picture = await asyncio.to_thread(table_png, title, table)  # off the event loop: other clubs go on
    return Reply(lines=lines, table=table, image=picture, buttons=buttons, extra=extra)


def _command(ctx: Context, extra: str) -> str:
    """/stand with the asker's own arguments (group, rapid, round) and ``extra``."""
    kept = [a for a in ctx.args if not a.lower().startswith(_PAGE_WORDS) and a.lower() not in _ALL_WORDS | _TABLE_WORDS]
    return " ".join(["/stand", *kept, extra])


async def season_option(core: Core, ctx: Context) -> tuple[Season | None, Context]:
    """``seizoen=Naam`` (``season=``) among the words: that season, running or past (``season_named``),
    and the other words; None when not given."""
    found: Season | None = None
    rest: list[str] = []
    for arg in ctx.args:
        key, eq, value = arg.partition("=")
        if eq and not isinstance(arg, Quoted) and key.lower() in _SEASON_KEYS and value.strip() and found is None:
            found = await season_named(core, ctx, value.strip())
        else:
            rest.append(arg)
    return found, ctx.with_args(rest)


async def standings_table(core: Core, ctx: Context, absences: bool = False, season: Season | None = None) -> tuple[str, Table]:
    """/stand's title and table (the picture is drawn by whoever shows it); ``absences``: a column of the
    rounds each player was absent (the website's; a chat's table fits a phone without it). The running
    season's, or ``seizoen=Naam``'s (``season``: the website's archive), a past one kept readable."""
    group: str | None = None
    after: int | None = None
    kind, ctx = competition_of(ctx)
    named, ctx = await season_option(core, ctx)
    named = season or named
    for arg in ctx.args:
        if parse_int(arg) is not None:
            after = parse_int(arg)
        elif len(arg) == 1 and arg.upper() in "ABCD":
            group = arg.upper()
        else:
            raise UserError("error_usage", usage=ctx.t("usage_stand"))
    season = named or await active_season(core, ctx, kind)
    kind = season.kind
    data = await competition.load(core.store, season)
    played = [r.number for r in data.rounds]
    if after is not None and after not in played:
        raise UserError("error_unknown_round", round=after, count=season.rounds_count)
    rows = competition.standings(data, after_round=after)
    if group is not None:
        rows = [s for s in rows if s.player.group == group]
    shown_after = after if after is not None else (max(played) if played else 0)
    absent = Counter(p for r in data.rounds if r.number <= shown_after for p in r.absent)  # signed off, team match, no-show
    extra = (ctx.t("col_absent"),) if absences else ()
    table = Table(
        headers=(ctx.t("col_rank"), ctx.t("col_name"), ctx.t("col_score"), ctx.t("col_value"), ctx.t("col_played"), *extra),
        rows=tuple((str(s.rank), s.player.name, fmt_points(s.score), str(s.value), str(s.played),
                    *((str(absent[s.player.id]),) if absences else ())) for s in rows),
    )  # fmt: skip
    title = for_competition(ctx.lang, kind, ctx.t("standings_title", season=season.name, round=shown_after))
    if group is not None:
        title += " " + ctx.t("group_suffix", group=group)
    missing = sum(1 for r in data.rounds if r.number <= shown_after for g in r.games if g.result is None)
    postponed = postponed_names(data, shown_after)  # to be played later (issue 44 §1): named
    games = "; ".join(postponed[:5]) + (" ..." if len(postponed) > 5 else "")
    others = missing - len(postponed)
    if postponed and others:  # the standings count those games as not played yet: say so (chat, picture, website)
        title += " " + ctx.t("standings_provisional_both", count=others, postponed=len(postponed), games=games)
    elif postponed:
        title += " " + ctx.t("standings_postponed", count=len(postponed), games=games)
    elif missing:
        title += " " + ctx.t("standings_provisional", count=missing)
    return title, table


async def cmd_prijzen(core: Core, ctx: Context) -> Reply:
    """The prizes as they stand (seed 004 rules d, e): club champion, group winners, riser prize and
    rapid champion, among the players who played at least 2/3 of the season's rounds."""
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_prijzen"))
    season = await active_season(core, ctx)
    data = await competition.load(core.store, season)
    rapid = None
    rapid_season = await keizer_store(core).active_season(ctx.club.id, "rapid")
    names = {p.id: p.name for p in data.players}
    if rapid_season is not None:
        rdata = await competition.load(core.store, rapid_season)
        rapid = (rdata.players, rdata.rounds, rdata.settings)
        names.update({p.id: p.name for p in rdata.players})
    prizes = prize_rules.prizes_from_rounds(
        data.players, data.rounds, data.settings, season_rounds=season.rounds_count, rapid=rapid,
        rapid_season_rounds=rapid_season.rounds_count if rapid_season is not None else None,
    )

    def line(label: str, prize: prize_rules.Prize | None) -> str:
        if prize is None or prize.winner is None:
            return ctx.t("prize_line_none", prize=label)
        return ctx.t("prize_line", prize=label, name=names.get(prize.winner, prize.winner))

    played = max((r.number for r in data.rounds), default=0)
    lines = [ctx.t("prizes_title", season=season.name, round=played, required=prizes.required)]
    lines.append(line(ctx.t("prize_champion"), prizes.champion))
    for prize in prizes.group_winners:
        lines.append(line(ctx.t("prize_group", group=prize.group), prize))
    lines.append(line(ctx.t("prize_riser"), prizes.riser))
    if prizes.rapid_champion is not None:
        lines.append(line(ctx.t("prize_rapid"), prizes.rapid_champion))
    return Reply(lines=tuple(lines))


async def cmd_indeling(core: Core, ctx: Context) -> Reply:
    kind, ctx = competition_of(ctx)
    full = any(a.lower() in _TABLE_WORDS for a in ctx.args)  # the website's: points and values too
    ctx = ctx.with_args([a for a in ctx.args if a.lower() not in _TABLE_WORDS])
    named, ctx = await season_option(core, ctx)  # seizoen=Naam: a past season's round
    season = named or await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    row: RoundRow | None  # the round asked for, else the current one
    if ctx.args:
        if len(ctx.args) != 1:
            raise UserError("error_usage", usage=ctx.t("usage_indeling"))
        row = await round_by_number(core, season, ctx.args[0])
        if row.status != "paired":
            return not_published(ctx, season.kind, row, full)
    else:
        row = competition.current_round(data)
        if row is None:
            coming = competition.coming_round(data)
            if coming is None:
                raise UserError("error_season_over", season=season.name)
            return not_published(ctx, season.kind, coming, full)
        waiting = await waiting_line(core, ctx, season, competition.coming_round(data))
        if waiting is not None:  # the next round's pairing is held (ontbrekend=wachten): say so first
            reply = await pairing_reply(core, ctx, data, row, full)
            return Reply(lines=(waiting, *reply.lines), table=reply.table)
    reply = await pairing_reply(core, ctx, data, row, full)
    if named is None or not reply.lines:
        return reply
    return dataclasses.replace(reply, lines=(f"{season.name}: {reply.lines[0]}", *reply.lines[1:]))  # which season


def not_published(ctx: Context, kind: str, row: RoundRow, full: bool) -> Reply:
    """A round whose pairing is not out yet: the chat refuses (it says when it comes); the website's page
    of the round (``full``) is the round's page, saying that it is not published yet and when it will be."""
    if not full:
        raise UserError("error_round_not_paired", round=row.number, publish=ctx.local(row.publish_at))
    title = ctx.t("pairing_title", round=row.number, date=day_text(ctx.lang, date.fromisoformat(row.play_date)))
    day, time = moment_parts(ctx.lang, row.publish_at, ctx.club.timezone)
    return Reply(lines=(for_competition(ctx.lang, kind, title), ctx.t("web_round_not_published", day=day, time=time)))


async def pairing_reply(core: Core, ctx: Context, data: competition.SeasonData, row: RoundRow, full: bool = False) -> Reply:
    """The round's games with the result as it comes in; ``full`` (the website's): each player's points
    and value before the round (the standings after the one before) beside their name."""
    names = {int(p.id): p.name for p in data.players}
    games = await keizer_store(core).games_of_round(row.id)
    before: dict[int, tuple[str, ...]] = {}
    points: tuple[str, ...] = ()
    if full:
        before = {int(s.player.id): (fmt_points(s.score), str(s.value)) for s in competition.standings(data, after_round=row.number - 1)}
        points = (ctx.t("col_score"), ctx.t("col_value"))
    none = ("", "") if full else ()
    online = {g.board: g for g in await core.store.online_games_of_rounds(ctx.club.id, SYSTEM, [row.id])}
    link = (ctx.t("col_lichess"),) if online and full else ()  # on lichess: the website's table has each board's link

    later = {p.game_id: p.until_date for p in data.postponed if p.round_number == row.number}  # issue 44 §1

    def result_cell(g: GameRow) -> str:
        if g.id not in later:
            return result_text(ctx.lang, g)
        until = later[g.id]
        if not until:
            return ctx.t("card_postponed")
        return ctx.t("card_postponed_until", date=day_text(ctx.lang, date.fromisoformat(until)) if full else until)

    def link_cell(board: int) -> tuple[str, ...]:
        game = online.get(board)
        return () if not link else ("",) if game is None else (game.url or ctx.t("online_link_pending"),)

    table = Table(
        headers=(ctx.t("col_board"), ctx.t("col_white"), *points, ctx.t("col_black"), *points, ctx.t("col_result"), *link),
        rows=tuple(
            (str(g.board), names[g.white_id], *before.get(g.white_id, none), names[g.black_id],
             *before.get(g.black_id, none), result_cell(g), *link_cell(g.board)) for g in games
        ),
        under=(2, 3, 5, 6, 8) if full else (),  # a phone: points and value under each name, the lichess link under the result
    )  # fmt: skip
    day = day_text(ctx.lang, date.fromisoformat(row.play_date)) if full else row.play_date  # the website's dates are long
    lines = [for_competition(ctx.lang, data.season.kind, ctx.t("pairing_title", round=row.number, date=day))]
    bye = await keizer_store(core).bye_of_round(row.id)
    if bye is not None:
        lines.append(ctx.t("bye_line", name=names[bye]))
    if full:  # the website's: who is not paired this round, and why (the cross table's kinds)
        lines += _absent_lines(ctx, data, row.number, names)
    if online and not full:  # the chat's picture cannot be clicked: the links as lines
        lines += [ctx.t("online_board_link", board=b, url=g.url or ctx.t("online_link_pending")) for b, g in sorted(online.items())]
    return Reply(lines=tuple(lines), table=table)


def _absent_lines(ctx: Context, data: competition.SeasonData, number: int, names: dict[int, str]) -> list[str]:
    """A line per kind of absence in the round (signed off, team match, no-show, signed off by the
    no-show rule: the kinds the cross table shows), the names in alphabetical order."""
    rnd = next((r for r in data.rounds if r.number == number), None)
    kinds: dict[Absence, list[str]] = {}
    for player, why in (rnd.absent.items() if rnd is not None else ()):
        kinds.setdefault(why, []).append(names.get(int(player), ""))
    return [ctx.t(f"pairing_absent_{kind.value}", names=", ".join(sorted(kinds[kind], key=name_key)))
            for kind in Absence if kind in kinds]  # fmt: skip
