"""What a club prints and sends on (the calendar: ``bot/keizer/feeds.py``): ``/kruistabel`` (who played whom, each round, with results),
``/verloop`` (the standings after every round), ``/kaart [Naam]`` (a member's season and performance
rating), and the exports ``/exporteer csv|html|trf`` (TRF-16 for the rating office).

The engine work (a standings per round) runs in a worker thread: a 150-player, 28-round season never
holds up the other clubs.
"""

from __future__ import annotations

import asyncio
import html
import re
from zoneinfo import ZoneInfo

from engine.keizer import reports
from engine.keizer import season as season_rules
from engine.keizer.model import Absence

from bot.core.commands.context import Context, UserError, parse_int
from bot.core.commands.dispatch import Core
from bot.core.output.pictures import table_png
from bot.core.output.spreadsheet import SEPARATOR_WORDS, csv_file
from bot.core.commands.replies import PRIVATE_NOTICES, Reply, Table
from bot.keizer import competition
from bot.keizer.formatting import fmt_points, for_competition
from bot.keizer.online_round import SYSTEM, own_link
from bot.keizer.postponed_store import PostponedStore
from bot.keizer.lookups import active_season, competition_of, keizer_store, no_season, player_named
from bot.keizer.season_reads import MemberWeek
from bot.keizer.store import RoundRow, Season
from bot.keizer.views import PAGE_ROWS, season_option
from bot.keizer.why import values_now

EXPORT_FORMATS = ("csv", "html", "trf")


async def _addressed(
    core: Core, ctx: Context, usage: str | None, past: bool = False, season: Season | None = None,
    loaded: competition.SeasonData | None = None,
) -> tuple[Context, competition.SeasonData]:
    """The season the command addresses (the word ``rapid``: the rapid one; with ``past``, ``seizoen=Naam``
    a running or finished one by its name, as /stand reads it; ``season``: that one, the website's
    archive), loaded; with ``usage``, a command that takes no other words refuses them with it.
    ``loaded``: the active season of its kind, loaded already by the command (``/mijn``): read again only
    when the words address another."""
    named, ctx = await season_option(core, ctx) if past else (season, ctx)
    kind, ctx = competition_of(ctx)
    if usage is not None and ctx.args:
        raise UserError("error_usage", usage=ctx.t(usage))
    if named is None and loaded is not None and loaded.season.kind == kind:
        return ctx, loaded
    return ctx, await competition.load(core.store, named or await active_season(core, ctx, kind))


async def cross_table(
    core: Core, ctx: Context, past: bool = False, season: Season | None = None
) -> tuple[str, Table, competition.SeasonData]:
    ctx, data = await _addressed(core, ctx, "usage_kruistabel", past, season)
    season = data.season
    words = {code: ctx.t(f"cross_{code}") for code in ("w", "b", "bye", "afw", "team", "noshow", "auto", "pending")}  # "z", "vrij" in Dutch
    rows = await asyncio.to_thread(reports.cross_table, data.players, data.rounds, data.settings, words)
    numbers = sorted(r.number for r in data.rounds)
    catching_up = await PostponedStore(core.store).catch_up_evenings(season.id)

    def shown(player: str, cells: list[str]) -> tuple[str, ...]:
        """A round the player was left out of to play a catch-up game (a sign-off the pairing wrote, not
        theirs) reads as that, not as signed off."""
        evenings = catching_up.get(int(player), {})
        return tuple(ctx.t("cross_catch_up") if n in evenings and cell == words["afw"] else cell for n, cell in zip(numbers, cells))

    table = Table(
        headers=("#", ctx.t("col_name"), ctx.t("col_score"), *(str(n) for n in numbers)),
        rows=tuple((str(rank), p.name, fmt_points(score) if score is not None else "", *shown(p.id, cells)) for rank, p, score, cells in rows),
    )
    return for_competition(ctx.lang, season.kind, ctx.t("crosstable_title", season=season.name)), table, data


async def cmd_kruistabel(core: Core, ctx: Context) -> Reply:
    """The cross table: per player (final order) each round's opponent (their place), colour, result."""
    title, table, _ = await cross_table(core, ctx, past=True)
    return await _shown(ctx, title, table, "kruistabel")


async def cmd_verloop(core: Core, ctx: Context) -> Reply:
    """The standings after every round: each player's place, round by round."""
    ctx, data = await _addressed(core, ctx, "usage_verloop", past=True)
    season = data.season
    history = await asyncio.to_thread(reports.rank_history, data.players, data.rounds, data.settings)
    numbers = sorted(r.number for r in data.rounds)
    order = sorted(data.players, key=lambda p: (history[p.id][-1] is None, history[p.id][-1] or 0) if numbers else (0, 0))
    table = Table(
        headers=(ctx.t("col_name"), *(str(n) for n in numbers)),
        rows=tuple((p.name, *("" if r is None else str(r) for r in history[p.id])) for p in order),
    )
    return await _shown(ctx, for_competition(ctx.lang, season.kind, ctx.t("history_title", season=season.name)), table, "verloop")


async def _shown(ctx: Context, title: str, table: Table, name: str) -> Reply:
    """A picture of the first ``PAGE_ROWS`` rows (a phone shows it whole); more rows: the whole table as CSV."""
    head = Table(headers=table.headers, rows=table.rows[:PAGE_ROWS])
    picture = await asyncio.to_thread(table_png, title, head)
    if len(table.rows) <= PAGE_ROWS:
        return Reply(lines=(title,), table=table, image=picture)
    lines = (title, ctx.t("table_first_rows", shown=PAGE_ROWS, rows=len(table.rows)))
    return Reply(lines=lines, table=head, image=picture, attachment=(f"{name}.csv", csv_file([(title, table)])))


async def cmd_kaart(core: Core, ctx: Context) -> Reply:
    """A member's season: each round's opponent, colour, result and the score after it, the games
    played over the board and the performance rating. ``/kaart`` is the asker's own; ``/kaart Naam``."""
    return await _card(core, ctx)


async def _card(
    core: Core, ctx: Context, loaded: competition.SeasonData | None = None,
    catch_ups: dict[int, dict[int, int]] | None = None,
) -> Reply:
    """``/kaart``'s reply; ``loaded`` and ``catch_ups`` (the season's catch-up evenings), what ``/mijn``
    has read already: read again only for another season than ``loaded``."""
    ctx, data = await _addressed(core, ctx, None, past=True, loaded=loaded)
    season = data.season
    player = player_named(ctx, data, list(ctx.args), "error_card_whose")
    card, counts = await asyncio.to_thread(_card_and_values, data, player.id)  # the engine's work, in one thread hop
    names = {p.id: p.name for p in data.players}
    colours = {"w": ctx.t("colour_white"), "b": ctx.t("colour_black"), "": ""}
    results = {"bye": ctx.t("card_bye"), "team": ctx.t("card_absent_team"), "": ctx.t("card_no_result"), "=": "½",
               "+": ctx.t("card_forfeit_win"), "-": ctx.t("card_forfeit_loss")}  # fmt: skip
    absences = {Absence.NOTICE: ctx.t("card_absent"), Absence.TEAM: ctx.t("card_absent_team"),
                Absence.UNEXCUSED: ctx.t("card_no_show"), Absence.AUTO: ctx.t("card_auto_signed_off")}  # fmt: skip
    absent = {r.number: r.absent.get(player.id) for r in data.rounds}
    later = {p.round_number: p.until_date for p in data.postponed if player.id in (str(p.white_id), str(p.black_id))}
    if catch_ups is None or data is not loaded:
        catch_ups = await PostponedStore(core.store).catch_up_evenings(season.id)
    catching_up = catch_ups.get(int(player.id), {})

    def result_of(m: reports.Meeting) -> str:
        """Each kind of round in its own words: signed off, team match, no-show (its 0), signed off by the
        no-show rule, a forfeit, no result yet (issue 44 §3; all were "-" or "afwezig" before)."""
        why = absent.get(m.round)
        if m.result == "afw" and why is Absence.NOTICE and m.round in catching_up:  # left out: the catch-up game
            return ctx.t("card_catch_up", round=catching_up[m.round])
        if m.result == "afw" and why is not None:
            return absences[why]
        if m.result == "" and m.round in later:  # a postponed game, to be played (issue 44 §1)
            until = later[m.round]
            return ctx.t("card_postponed_until", date=until) if until else ctx.t("card_postponed")
        return results.get(m.result, m.result)

    table = Table(
        headers=(ctx.t("col_round"), ctx.t("col_opponent"), ctx.t("col_value_now"), ctx.t("col_colour"), ctx.t("col_result"),
                 ctx.t("col_score")),
        rows=tuple(
            (str(m.round), names.get(m.opponent, "") if m.opponent else "",
             str(counts[m.round]) if m.opponent and m.round in counts else "", colours[m.colour], result_of(m),
             fmt_points(score) if score is not None else "")
            for m, score in card.rounds
        ),
        under=(2,),  # a phone shows the value under the opponent's name
    )  # fmt: skip
    title = for_competition(ctx.lang, season.kind, ctx.t("card_title", name=player.name, season=season.name))
    summary = ctx.t(
        "card_summary", games=card.games, points=fmt_points(card.points),
        performance=card.performance if card.performance is not None else "-",
    )  # fmt: skip
    if not table.rows:  # before the first round: the sentence alone, no table of headers over nothing
        return Reply(lines=(title, summary))
    picture = await asyncio.to_thread(table_png, title, table, (summary,))
    return Reply(lines=(title, summary), table=table, image=picture)


def _card_and_values(data: competition.SeasonData, player: str) -> tuple[reports.Card, dict[int, int]]:
    """The player's card and what each of their games counts now (``/waarom punten``'s values, issue 34)."""
    return reports.member_card(player, data.players, data.rounds, data.settings), values_now(data, player)


async def cmd_mijn(core: Core, ctx: Context) -> Reply:
    """``/mijn`` (``/me``): the member's own season in one private reply: each round's opponent, colour,
    result and score after it, their sign-offs, their place and value now, and the next round (their
    opponent and board, signed off, or the deadline to sign off)."""
    kind, ctx = competition_of(ctx)
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_mijn"))
    if ctx.member is None:
        raise UserError("error_not_a_member")
    at_hand = await keizer_store(core).season_at_hand(ctx.club.id, ctx.member.id, kind)  # and the member's week
    if at_hand is None:
        raise no_season(kind)
    season, coming, _, week = at_hand
    data = await competition.load(core.store, season)  # first: a season it cannot read is said to anyone
    me = str(ctx.member.id)
    if not any(p.id == me for p in data.players):
        raise UserError("error_not_in_season", name=ctx.member.name, season=season.name)
    catch_ups = await PostponedStore(core.store).catch_up_evenings(season.id)
    card = await _card(core, ctx.with_args([ctx.member.name, *(["rapid"] if kind == "rapid" else [])]), data, catch_ups)
    lines = list(card.lines)
    final = {s.player.id: s for s in competition.standings(data)}
    if me in final:
        lines.append(ctx.t("me_place", rank=final[me].rank, count=len(final), value=final[me].value))
    mine = [(number, so.kind) for number, so in data.signoffs if so.member_id == ctx.member.id]
    catching_up = catch_ups.get(ctx.member.id, {})
    for kind_of, key in (("notice", "me_signoffs"), ("team", "me_signoffs_team")):  # a no-show is no sign-off
        signed = sorted(number for number, k in mine if k == kind_of and not (k == "notice" and number in catching_up))
        if signed:
            lines.append(ctx.t(key, rounds=", ".join(str(n) for n in signed)))
    no_shows = sorted(r.number for r in data.rounds if season_rules.is_no_show(me, r))
    if no_shows:
        lines.append(ctx.t("me_no_shows", rounds=", ".join(str(n) for n in no_shows), limit=data.settings.no_show_limit))
    names = {int(p.id): p.name for p in data.players}
    for p in data.postponed:  # a catch-up game still to be played (issue 44 §1)
        if ctx.member.id in (p.white_id, p.black_id):
            other = names.get(p.black_id if p.white_id == ctx.member.id else p.white_id, "?")
            key = "me_postponed_until" if p.until_date else "me_postponed"
            lines.append(ctx.t(key, round=p.round_number, name=other, date=p.until_date))
    own = next((sp for sp in data.season_players if sp.member_id == ctx.member.id), None)
    if own is not None and own.auto_signed_off:  # signed off by the no-show rule: /aanmelden, not a deadline
        lines.append(ctx.t("me_auto_signed_off", limit=data.settings.no_show_limit))
    else:
        lines.append(await _next_round(core, ctx, data, (coming, week)))
    # secret: on Telegram it goes to the private chat with the bot, never into the group
    return Reply(lines=tuple(lines), table=card.table, image=card.image, private=True, secret=True)


NOTICE_WORDS = ("meldingen", "notices")


NOTICES_ON = ("meldingen=aan", "notices=on")  # as Discord's option sends it
NOTICES_OFF = ("meldingen=uit", "notices=off")


async def cmd_notices_on(core: Core, ctx: Context) -> Reply:
    return await cmd_notices(core, ctx.with_args(["aan", *ctx.args]))


async def cmd_notices_off(core: Core, ctx: Context) -> Reply:
    return await cmd_notices(core, ctx.with_args(["uit", *ctx.args]))


_NOTICE_KINDS = {"indeling": "pairing", "pairing": "pairing", "herinneringen": "reminders", "reminders": "reminders"}


async def cmd_notices(core: Core, ctx: Context) -> Reply:
    """``/mijn meldingen aan|uit``: every private message of the bot (or none): the opponent when a round is
    paired, and the reminders (``bot/keizer/reminders.py``); one kind: ``/mijn meldingen indeling|herinneringen
    aan|uit``; ``/mijn meldingen`` alone says what is on."""
    if ctx.member is None:
        raise UserError("error_not_a_member")
    words = [a.lower() for a in ctx.args]
    if not words:  # what is on now, and how to change it
        pairing, reminders = await core.store.member_notices(ctx.member.id)
        state = {True: ctx.t("notices_state_on"), False: ctx.t("notices_state_off")}
        change = {True: "off", False: "on"}  # what to type to change each: the other state's command
        said = ctx.t("notices_now", pairing=state[pairing], reminders=state[reminders],
                     pairing_change=ctx.t(f"notices_change_pairing_{change[pairing]}"),
                     reminders_change=ctx.t(f"notices_change_reminders_{change[reminders]}"))  # fmt: skip
        return Reply(lines=(said,), private=True)
    kind = _NOTICE_KINDS.get(words[0]) if len(words) == 2 else "all"
    if kind is None or not words or words[-1] not in ("aan", "on", "uit", "off"):
        raise UserError("error_usage", usage=ctx.t("usage_mijn"))
    on = words[-1] in ("aan", "on")
    async with core.store.transaction():
        if kind in ("all", "pairing"):
            await core.store.set_member_notify(ctx.member.id, on)
        if kind in ("all", "reminders"):
            await core.store.set_member_reminders(ctx.member.id, on)
    key = {"all": "notices", "pairing": "notices_pairing", "reminders": "notices_reminders"}[kind]
    return Reply(lines=(ctx.t(f"{key}_on" if on else f"{key}_off"),), private=True, extra={PRIVATE_NOTICES: "on"} if on else {})


async def _next_round(core: Core, ctx: Context, data: competition.SeasonData, week: Week) -> str:
    assert ctx.member is not None
    store = keizer_store(core)
    current = competition.current_round(data)
    if current is not None:
        games = await store.games_of_round(current.id)
        mine = next((g for g in games if ctx.member.id in (g.white_id, g.black_id) and g.result is None), None)
        if mine is not None and any(p.game_id == mine.id for p in data.postponed):
            mine = None  # postponed: said above, with its date; the next is the round after
        if mine is not None:
            other = mine.black_id if mine.white_id == ctx.member.id else mine.white_id
            names = {int(p.id): p.name for p in data.players}
            if current.play_date < ctx.now.astimezone(ZoneInfo(ctx.club.timezone)).date().isoformat():
                # an evening gone by with its result missing is not the coming game (issue 44 §3)
                missing = ctx.t("me_result_missing", round=current.number, date=current.play_date, name=names.get(other, "?")) + " "
                return missing + await _after_current(core, ctx, data, week)
            colour = ctx.t("colour_white" if mine.white_id == ctx.member.id else "colour_black")
            said = ctx.t("me_next_game", round=current.number, board=mine.board, name=names.get(other, "?"), colour=colour)
            online = {g.board: g for g in await core.store.online_games_of_rounds(ctx.club.id, SYSTEM, [current.id])}
            return said + own_link(ctx.lang, online.get(mine.board), "colour_white" if mine.white_id == ctx.member.id else "colour_black")
    return await _after_current(core, ctx, data, week)


Week = tuple[RoundRow | None, MemberWeek]  # the coming round and the member's word for it, as ``season_at_hand`` read them


async def _after_current(core: Core, ctx: Context, data: competition.SeasonData, week: Week) -> str:
    """The first round not paired yet: signed off for it, or its date and deadline."""
    assert ctx.member is not None
    coming = competition.coming_round(data)
    if coming is None:
        return ctx.t("me_season_over")
    read, word = week
    if read is not None and read.id == coming.id:  # as season_at_hand read it with the season
        signed_off = word.not_paired
    else:  # a round paired between the two reads
        signed_off = ctx.member.id in await competition.signed_off_for(core.store, coming.season_id, coming.id)
    if signed_off:
        return ctx.t("me_signed_off", round=coming.number, date=coming.play_date)
    if ctx.member.id in competition.catch_up_players(data, coming.play_date):  # no deadline to sign off: left out
        return ctx.t("me_catch_up_evening", round=coming.number, date=coming.play_date)
    return ctx.t("me_coming", round=coming.number, date=coming.play_date, deadline=ctx.local(coming.deadline_at))


_SLICE_WORDS = {"van": "from", "from": "from", "tot": "to", "to": "to"}


def _slice(ctx: Context) -> tuple[Context, int | None, int | None]:
    """``van=N tot=M`` (``from=``, ``to=``): the rounds of a TRF slice; both or neither, numbers."""
    found: dict[str, int | None] = {}
    rest = []
    for arg in ctx.args:
        key, eq, value = arg.partition("=")
        if eq and key.lower() in _SLICE_WORDS:
            found[_SLICE_WORDS[key.lower()]] = parse_int(value)
        else:
            rest.append(arg)
    if not found:
        return ctx, None, None
    first, last = found.get("from"), found.get("to")
    if first is None or last is None:
        raise UserError("error_usage", usage=ctx.t("usage_exporteer"))
    return ctx.with_args(rest), first, last


async def export(core: Core, ctx: Context, fmt: str) -> Reply:
    """``/exporteer csv|html|trf [rapid]``: the standings and the cross table as CSV or a web page, or the
    season as a TRF-16 file for the rating office."""
    ctx, first, last = _slice(ctx) if fmt == "trf" else (ctx, None, None)
    separators = [SEPARATOR_WORDS[a.lower()] for a in ctx.args if a.lower() in SEPARATOR_WORDS]
    ctx = ctx.with_args([a for a in ctx.args if a.lower() not in SEPARATOR_WORDS])  # /exporteer csv komma
    title, table, data = await cross_table(core, ctx)
    season = data.season
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", season.name).strip("_") or "seizoen"
    if fmt == "trf":
        rounds, players, rows = data.rounds, data.players, data.round_rows
        if first is not None and last is not None:  # a slice of rounds (a rating period)
            played = sorted(r.number for r in data.rounds)
            if not played or first < played[0] or last > played[-1] or first > last:
                raise UserError("error_trf_slice", last=played[-1] if played else 0)
            rounds = [r for r in data.rounds if first <= r.number <= last]
            players = [p for p in data.players if p.joined_round <= last]
            rows = [r for r in data.round_rows if first <= r.number <= last]
            base += f"_{first}-{last}"
        dates = [r.play_date.replace("-", "/") for r in rows]
        club = await core.store.club_federation(ctx.club.id)  # /club plaats=... federatie=... arbiter=...
        known = await core.store.trf_identities(ctx.club.id)  # /speler Naam fide=..., the FIDE list's federation
        identities = {competition.player_id(m): ids for m, ids in known.items()}
        text = await asyncio.to_thread(
            reports.trf, season.name, players, rounds, data.settings, dates[0] if dates else "",
            dates[-1] if dates else "", club.city or ctx.club.name, {r.number: r.play_date.replace("-", "/") for r in rows},
            club.federation, club.arbiter, club.deputy_arbiter, identities,
        )  # fmt: skip
        content = text.encode("utf-8")
    else:
        final = competition.standings(data)
        standings = Table(
            headers=(ctx.t("col_rank"), ctx.t("col_name"), ctx.t("col_score"), ctx.t("col_value"), ctx.t("col_played")),
            rows=tuple((str(s.rank), s.player.name, fmt_points(s.score), str(s.value), str(s.played)) for s in final),
        )
        heading = ctx.t("standings_title", season=season.name, round=max((r.number for r in data.rounds), default=0))
        heading = for_competition(ctx.lang, season.kind, heading)
        if fmt == "csv":
            content = csv_file([(heading, standings), (title, table)], *separators[:1])
        else:
            content = _html(season.name, ctx.lang, [(heading, standings), (title, table)]).encode("utf-8")
    return Reply(lines=(ctx.t("exported_as", name=season.name, format=fmt.upper()),), attachment=(f"{base}.{fmt}", content))


def _html(name: str, lang: str, tables: list[tuple[str, Table]]) -> str:
    """A page that prints on A4 and reads on a phone; every name escaped."""
    parts = [
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(name)}</title><style>body{{font-family:sans-serif;margin:1em}}"
        "table{border-collapse:collapse;margin-bottom:2em}td,th{border:1px solid #999;padding:2px 6px;"
        "text-align:left}td.n{text-align:right}@media print{body{margin:0}}</style></head><body>"
    ]
    for title, table in tables:
        parts.append(f"<h2>{html.escape(title)}</h2><table><thead><tr>")
        parts.extend(f"<th>{html.escape(h)}</th>" for h in table.headers)
        parts.append("</tr></thead><tbody>")
        for row in table.rows:
            cells = "".join(
                f'<td class="n">{html.escape(c)}</td>' if c.replace(".", "", 1).isdigit() else f"<td>{html.escape(c)}</td>"
                for c in row
            )
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</tbody></table>")
    parts.append("</body></html>\n")
    return "".join(parts)
