"""Postponed games (inhaalpartijen, issue 44 §1): ``/uitstel`` (``/postpone``) and the report of a postponed
game not played in time.

- The director: ``/uitstel Naam [ronde] [tot=JJJJ-MM-DD]`` marks that player's game of the round (the last
  paired one unless named) postponed: it keeps its pairing and its round, and its result is entered later
  into that round (``/uitslag Naam 1-0 ronde``, or the players' own ``/uitslag``, which finds the postponed
  game by itself while the player has no game in the last round). ``/uitstel Naam ongedaan`` takes it back.
  Typed again, it sets the new date.
- A player: ``/uitstel [ronde] [tot=...]`` asks for their own game; each director gets a private notice with
  the command that confirms it (``/uitstel Naam ...``). Nothing is postponed until the director types it.
- Until the game is played, the standings that count it as missing say "voorlopig" and name it (chat,
  picture, website: ``bot/keizer/views.py``); the pairing that waits for missing results (``ontbrekend=
  wachten``) and ``/publiceer`` do not wait for it. Once its result is in, the recalculation (seed 003)
  uses it like any other.
- ``tot=`` a club evening: its two players are left out of that evening's round, as signed off in time
  (they play their catch-up game; ``competition.catch_up_players``), so they are not paired twice.
- Not played by its date (the day after ``tot=``; without one, the day after the next round's evening; at
  ``REPORT_AT`` in the season's zone), the directors are told once, on the scheduler's alarm
  (``PostponedReports``).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from bot.core.commands.command_line import quote_word
from bot.core.commands.context import Context, UserError, keyword, parse_int
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.i18n import t
from bot.core.output.calendar import local_to_utc, parse_day, parse_zone
from bot.core.storage.store import Member
from bot.keizer import competition
from bot.keizer.formatting import for_competition, rapid_word, shown_result
from bot.keizer.lookups import active_season, competition_of, game_of, names_of, result_round
from bot.keizer.open_results_store import OpenResultsStore
from bot.keizer.postponed_store import PostponedStore
from bot.keizer.results import announce_when_complete
from bot.keizer.store import RoundRow, Season

UNTIL_WORDS = ("tot=", "until=")
UNDO_WORDS = {"ongedaan", "undo"}
REPORT_AT = time(12, 0)  # the day after it was due, at noon in the season's zone, the directors hear of it
NO_NEXT_ROUND = timedelta(days=7)  # the last round's postponed game without a date: due a week after it


async def cmd_uitstel(core: Core, ctx: Context) -> Reply:
    """``/uitstel Naam [ronde] [tot=JJJJ-MM-DD] [ongedaan] [rapid]`` (the director) or ``/uitstel [ronde]
    [tot=...]`` (a player asks for their own game); see the module's docstring."""
    kind, ctx = competition_of(ctx)
    undo, until, round_text, name_parts = _words(ctx)
    season = await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    if not ctx.is_director:
        own = ctx.require_member()
        if undo or (name_parts and await ctx.find_member(" ".join(name_parts)) != own):
            raise UserError("error_director_only", command=ctx.t("command_uitstel_other"))
        return await _ask(core, ctx, season, data, own, round_text, until)
    member = await ctx.find_member(" ".join(name_parts)) if name_parts else ctx.require_member()
    row = await result_round(core, ctx, season, data, round_text)
    game = await game_of(core, row, member)
    names = names_of(data)
    said = dict(round=row.number, board=game.board, white=names[str(game.white_id)], black=names[str(game.black_id)])
    store = PostponedStore(core.store)
    if undo:
        if not await store.undo(game.id):
            raise UserError("error_not_postponed", **said)
        await OpenResultsStore(core.store).bump_version(season.id)  # the standings' "voorlopig" changes
        return Reply(lines=(_said(ctx, kind, "postpone_undone", **said),))
    if game.result is not None:
        raise UserError("error_postpone_played", result=shown_result(game.result), **said)
    if until is not None and until < row.play_date:
        raise UserError("error_postpone_before", date=until, play_date=row.play_date, **said)
    due = _due(season, data, row, until)
    await store.postpone(game.id, until, due, ctx.now)
    await OpenResultsStore(core.store).bump_version(season.id)
    await announce_when_complete(core, ctx, season, row)  # its other results in: the standings, "voorlopig"
    player = quote_word(member.name)
    key = "postponed_until" if until is not None else "postponed_no_date"
    lines = [_said(ctx, kind, key, date=until, due=due_day(season, due), player=player, rapid=rapid_word(kind), **said)]
    lines += _paired_that_evening(ctx, data, until, (game.white_id, game.black_id))
    return Reply(lines=tuple(lines))


def _paired_that_evening(ctx: Context, data: competition.SeasonData, until: str | None, players: tuple[int, ...]) -> list[str]:
    """A round of the catch-up evening paired already (its players are left out only of a round paired
    after the postponement): the director is told who is in it, to change it with /indeling."""
    names = names_of(data)
    for rnd, row in ((r, next(x for x in data.round_rows if x.number == r.number)) for r in data.rounds):
        if row.play_date != until:
            continue
        there = [names[str(m)] for m in players if any(str(m) in (g.white, g.black) for g in rnd.games)]
        if there:
            return [ctx.t("postponed_paired_that_evening", date=until, round=rnd.number, names=", ".join(there))]
    return []


def _words(ctx: Context) -> tuple[bool, str | None, str | None, list[str]]:
    """``ongedaan``, the ``tot=`` date (refused when it is no date), the round's number and the name's words."""
    undo, until, round_text, name_parts = False, None, None, []
    for arg in ctx.args:
        low = keyword(arg)
        if low in UNDO_WORDS:
            undo = True
        elif low.startswith(UNTIL_WORDS):
            day = parse_day(low.partition("=")[2])
            if day is None:
                raise UserError("error_postpone_date", date=arg.partition("=")[2][:20])
            until = day.isoformat()
        elif parse_int(arg) is not None and round_text is None:
            round_text = arg
        else:
            name_parts.append(arg)
    if undo and until is not None:
        raise UserError("error_usage", usage=ctx.t("usage_uitstel"))
    return undo, until, round_text, name_parts


def _due(season: Season, data: competition.SeasonData, row: RoundRow, until: str | None) -> datetime:
    """When a postponed game still not played is reported: the day after ``until``, or without it the day
    after the next round's evening (a week after the last round's), at ``REPORT_AT`` in the season's zone."""
    if until is None:
        later = [r.play_date for r in data.round_rows if r.number > row.number]
        day = date.fromisoformat(min(later)) if later else date.fromisoformat(row.play_date) + NO_NEXT_ROUND
    else:
        day = date.fromisoformat(until)
    zone = parse_zone(season.timezone)
    assert zone is not None, season.timezone  # a season's zone was checked when it was set
    return local_to_utc(day + timedelta(days=1), REPORT_AT, zone)


def due_day(season: Season, due: datetime) -> str:
    """The last day to play it: the day before the report."""
    zone = parse_zone(season.timezone)
    return (due.astimezone(zone) - timedelta(days=1)).date().isoformat()


def _said(ctx: Context, kind: str, key: str, **values: object) -> str:
    return for_competition(ctx.lang, kind, ctx.t(key, **values))


async def _ask(
    core: Core, ctx: Context, season: Season, data: competition.SeasonData, own: Member, round_text: str | None,
    until: str | None,
) -> Reply:
    """A player asks to postpone their own game: each director gets a private notice with the command
    that confirms it; the reply says whether one was reached."""
    row = await result_round(core, ctx, season, data, round_text)
    game = await game_of(core, row, own)
    names = names_of(data)
    said = dict(round=row.number, board=game.board, white=names[str(game.white_id)], black=names[str(game.black_id)])
    if game.result is not None:
        raise UserError("error_postpone_played", result=shown_result(game.result), **said)
    if any(p.game_id == game.id for p in data.postponed):
        raise UserError("error_already_postponed", **said)
    if until is not None and until < row.play_date:
        raise UserError("error_postpone_before", date=until, play_date=row.play_date, **said)
    command = " ".join(["/uitstel" if ctx.lang == "nl" else "/postpone", quote_word(own.name), str(row.number),
                        *([f"{UNTIL_WORDS[0] if ctx.lang == 'nl' else UNTIL_WORDS[1]}{until}"] if until else []),
                        *(["rapid"] if season.kind == "rapid" else [])])  # fmt: skip
    body = for_competition(ctx.lang, season.kind, ctx.t("notice_postpone_asked", name=own.name, command=command, **said))
    accounts = await core.store.director_accounts(ctx.club.id)
    for account in accounts:
        await core.store.queue_announcement(ctx.club.id, row.id, f"postpone-ask:{game.board}:{account}", body, ctx.now, recipient=account)
    key = "postpone_asked" if accounts else "postpone_ask_director"
    return Reply(lines=(_said(ctx, season.kind, key, command=command, **said),), private=True)


class PostponedReports:
    """The Keizer competition's timed work for postponed games: each not played when it was due is
    reported to the club's directors once (the club's channel, when the bot knows no director's chat
    account); recorded as reported in the transaction that queues the notices."""

    async def next_due_moment(self, core: Core, club_id: int | None = None) -> datetime | None:
        return await PostponedStore(core.store).next_due(club_id)

    async def run_due(self, core: Core, now: datetime) -> None:
        store = PostponedStore(core.store)
        async with core.store.transaction():
            for overdue in await store.overdue(now):
                if not await store.mark_reported(overdue.game.game_id, now):
                    continue
                club = await core.store.club(overdue.club_id)
                if club is None:
                    continue
                p = overdue.game
                body = for_competition(club.language, overdue.season_kind, t(
                    club.language, "notice_postponed_overdue", round=p.round_number, board=p.board, white=overdue.white,
                    black=overdue.black, date=p.until_date or "-", rapid=rapid_word(overdue.season_kind),
                ))  # fmt: skip
                accounts = await core.store.director_accounts(club.id)
                kind = f"postponed-overdue:{p.board}:{p.due_at.isoformat()}"  # once per round (its id), board and date
                for account in accounts:
                    await core.store.queue_announcement(club.id, p.round_id, f"{kind}:{account}", body, now, recipient=account)
                if not accounts:
                    await core.store.queue_announcement(club.id, p.round_id, kind, body, now)
