"""Publishing a round: ``/publiceer`` (the director pairs now), and the scheduler's work for every club
(``KeizerSchedule``): the reminder before the sign-off deadline, closing sign-offs at the deadline, and
pairing and announcing each round at its publication time (seed 004 rules k, l)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from datetime import datetime, timedelta

from engine.keizer import pairing

from bot.core.output.calendar import local_text
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.output.pictures import picture_spec
from bot.core.commands.replies import Reply, Table
from bot.keizer import competition
from bot.keizer.formatting import for_competition, rapid_word
from bot.keizer.lookups import ANYWAY_WORDS, active_season, competition_of, keizer_store
from bot.keizer.online_round import link_line, online_plan, own_link, queue_missing_accounts, queue_round, sync_round
from bot.keizer.open_results import held_for_results, queue_deadline_notices
from bot.keizer.reminders import RESULTS_AFTER, queue_answer_reminders, queue_result_reminders
from bot.keizer.source import KeizerSource
from bot.keizer.store import Notice, RoundRow, Season
from bot.keizer.week_store import WeekStore
from bot.core.online.games_store import OnlineGame
from bot.core.storage.store import Club, club_key

log = logging.getLogger(__name__)


UNDO_WORDS = {"ongedaan", "undo"}
PAIRED_AT_ONCE = 8  # due rounds paired side by side by the scheduler (``run_due``)
CLAIMED_AT_ONCE = 32  # seasons whose due rounds are claimed together (``run_due``)


async def cmd_publiceer(core: Core, ctx: Context) -> Reply:
    """Pair the coming round now (sign-offs close) and announce it, without waiting for 18:00:
    ``/publiceer [rapid] [toch]``; ``/publiceer ongedaan`` takes the latest pairing back.

    A round is never paired while an earlier round's playing day is still ahead (two /publiceer in a
    row would pair next week's round from standings without this week's results), nor on that day while
    its results are not all in (``toch`` neither: it would close next week's sign-offs a week early). When an earlier
    round's results are missing, the director is told which and pairs only with ``toch``."""
    kind, ctx = competition_of(ctx)
    words = {a.lower() for a in ctx.args}
    if len(ctx.args) > 1 or not words <= UNDO_WORDS | ANYWAY_WORDS:
        raise UserError("error_usage", usage=ctx.t("usage_publiceer"))
    season = await active_season(core, ctx, kind)
    if words & UNDO_WORDS:
        return await _undo(core, ctx, season)
    data = await competition.load(core.store, season)
    row = competition.coming_round(data)
    if row is None:
        raise UserError("error_season_over", season=season.name)
    today = local_text(ctx.now, season.timezone)[:10]
    ahead = [r for r in data.round_rows if r.number < row.number and r.play_date > today]
    if ahead:
        raise UserError("error_earlier_round_ahead", round=row.number, earlier=ahead[0].number, date=ahead[0].play_date)
    missing = missing_results(data, row.number)
    tonight = [r for r in data.round_rows if r.number < row.number and r.play_date == today]
    if tonight and missing:  # being played tonight: not even toch closes next week's sign-offs now
        raise UserError("error_earlier_round_tonight", round=row.number, earlier=tonight[0].number, count=len(missing))
    if missing and not words & ANYWAY_WORDS:
        shown = "; ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise UserError("error_results_missing", round=row.number, count=len(missing), games=shown)
    result = await pair_and_queue(core, season, row, ctx.now)
    if result is None:
        raise UserError("error_round_paired", round=row.number)
    return Reply(lines=(for_competition(ctx.lang, kind, ctx.t("published", round=row.number)),))


def missing_results(data: competition.SeasonData, before: int) -> list[str]:
    """The games of the rounds before ``before`` without a result: ``ronde 3: Anna - Bert``; a postponed
    game (``bot/keizer/postponed.py``) is not missing: it is played later."""
    names = {p.id: p.name for p in data.players}
    later = {(p.round_number, competition.player_id(p.white_id), competition.player_id(p.black_id)) for p in data.postponed}
    return [
        f"{rnd.number}: {names.get(g.white, g.white)} - {names.get(g.black, g.black)}"
        for rnd in data.rounds
        if rnd.number < before
        for g in rnd.games
        if g.result is None and (rnd.number, g.white, g.black) not in later
    ]


async def _undo(core: Core, ctx: Context, season: Season) -> Reply:
    """Take back the latest pairing while none of its results are in: its games and bye are gone, the
    round is open again (or closed, past its deadline) and is paired anew by /publiceer or at its
    publication time; its announcement is withdrawn, or, once posted, corrected in the channel."""
    store = keizer_store(core)
    data = await competition.load(core.store, season)
    row = competition.current_round(data)
    if row is None:
        raise UserError("error_nothing_to_undo")
    games = await store.games_of_round(row.id)
    if any(g.result is not None or g.reported_result is not None for g in games):
        raise UserError("error_undo_results_in", round=row.number)
    in_chat = set()
    for played_in_chat in core.registry.chat_played:
        in_chat |= await played_in_chat(core, ctx.club.id)
    if any((KeizerSource.kind, g.id) in in_chat for g in games):
        raise UserError("error_undo_chat_game", round=row.number)
    status = "closed" if ctx.now >= row.deadline_at else "open"
    body = for_competition(ctx.lang, season.kind, ctx.t("pairing_withdrawn", round=row.number, date=row.play_date))
    async with core.store.transaction():
        posted = await store.withdraw_pairing(row.id, status, ctx.club.id, body, ctx.now)
        await sync_round(core, ctx.club, season, row, ctx.now, withdrawn=True)  # its challenges cancelled
        await WeekStore(core.store).drop_default_signoffs(row.id)  # absent by default: decided at the pairing
        late = ctx.now >= row.publish_at
        if late:  # past its publication time the scheduler would pair it again at once: held until a change
            await store.record_pairing_failure(row.id, ctx.now)
    key = "pairing_withdrawn_posted" if posted else "pairing_withdrawn_unposted"
    lines = [ctx.t(key, round=row.number), ctx.t("pairing_withdrawn_held" if late else "pairing_withdrawn_again", round=row.number)]
    return Reply(lines=tuple(for_competition(ctx.lang, season.kind, line) for line in lines))


async def pair_and_queue(core: Core, season: Season, row: RoundRow, now: datetime) -> pairing.Pairing | None:
    """Pair a round and queue its announcement (the scheduler and /publiceer both come here)."""
    club = await core.store.club(season.club_id)
    assert club is not None

    def render(data: competition.SeasonData, result: pairing.Pairing) -> tuple[str, str | None]:
        names = {p.id: p.name for p in data.players}
        games = [(names[g.white], names[g.black]) for g in result.games]
        return pairing_announcement(club.language, row, games, names[result.bye] if result.bye is not None else None, season.kind)

    def notify(data: competition.SeasonData, result: pairing.Pairing, accounts: dict[int, str]) -> list[Notice]:
        names = {int(p.id): p.name for p in data.players}
        pairs = [(int(g.white), int(g.black)) for g in result.games]
        return private_notices(club, season.kind, row, names, pairs, int(result.bye) if result.bye is not None else None, accounts)

    plan = await online_plan(core, club, season, row)  # played on lichess: announced once its challenges are made

    def held(result: pairing.Pairing) -> bool:
        return plan is not None and any(plan.online(int(g.white), int(g.black)) for g in result.games)

    paired = await competition.pair(core.store, season, row, now, render, notify, held)
    if paired is not None and plan is not None:
        if held(paired):
            await queue_round(core, club, row, plan, now)
        await queue_missing_accounts(core, [row], now)  # told at the deadline already, unless /publiceer came first
    return paired


def private_notices(
    club: Club, kind: str, row: RoundRow, names: dict[int, str], games: list[tuple[int, int]], bye: int | None,
    accounts: dict[int, str], links: Mapping[int, OnlineGame] | None = None,
) -> list[Notice]:  # fmt: skip
    """Each paired member who allows it (``/mijn meldingen aan``: their chat account in ``accounts``) gets a
    private message with their opponent, colour and board, or their bye (queued in the pairing's
    transaction: exactly once); a board played on lichess with its link for that player's colour (or
    that the link follows: ``links``, by board)."""
    lang = club.language
    notices: list[Notice] = []
    for board, (white, black) in enumerate(games, start=1):
        online = (links or {}).get(board)
        for me, other, colour in ((white, black, "colour_white"), (black, white, "colour_black")):
            if me in accounts:
                body = for_competition(lang, kind, t(lang, "notice_paired", round=row.number, date=row.play_date,
                                                     board=board, name=names[other], colour=t(lang, colour)))  # fmt: skip
                notices.append((f"notice:{me}", body + own_link(lang, online, colour), accounts[me]))
    if bye is not None and bye in accounts:
        body = for_competition(lang, kind, t(lang, "notice_bye", round=row.number, date=row.play_date))
        notices.append((f"notice:{bye}", body, accounts[bye]))
    return notices


def pairing_announcement(
    lang: str, row: RoundRow, games: list[tuple[str, str]], bye: str | None, kind: str,
    links: Mapping[int, OnlineGame] | None = None,
) -> tuple[str, str | None]:  # fmt: skip
    """A round's pairing announcement: its text, and what its picture shows (None: no picture); a board
    played on lichess with its link (``links``, by board), or saying that it follows."""
    title = for_competition(lang, kind, t(lang, "pairing_title", round=row.number, date=row.play_date))
    lines = [title]
    for board, (white, black) in enumerate(games, start=1):
        lines.append(t(lang, "pairing_line", board=board, white=white, black=black) + link_line(lang, (links or {}).get(board)))
    notes: tuple[str, ...] = ()
    if bye is not None:
        notes = (t(lang, "bye_line", name=bye),)
        lines.extend(notes)
    if not games and bye is None:
        lines.append(t(lang, "pairing_empty"))
        return "\n".join(lines), None
    table = Table(
        headers=(t(lang, "col_board"), t(lang, "col_white"), t(lang, "col_black")),
        rows=tuple((str(board), white, black) for board, (white, black) in enumerate(games, start=1)),
    )
    return "\n".join(lines), picture_spec(title, table, notes)


async def queue_reminder(core: Core, row: RoundRow, now: datetime) -> None:
    """The channel's reminder that sign-offs for a round close at its deadline (once per round)."""
    season = await keizer_store(core).season(row.season_id)
    assert season is not None
    club = await core.store.club(season.club_id)
    assert club is not None
    body = for_competition(club.language, season.kind, t(
        club.language, "reminder", round=row.number, date=row.play_date,
        deadline=local_text(row.deadline_at, season.timezone)[-5:], rapid=rapid_word(season.kind),
    ))  # fmt: skip
    await core.store.queue_announcement(club.id, row.id, "reminder", body, now)
    await queue_answer_reminders(core, club, season, row, now)  # privately, to who has not answered


class KeizerSchedule:
    """The Keizer competition's timed work for every club, on the scheduler's alarm: the reminder
    ``reminder_hours`` before a round's deadline (once per round; with it the private reminders to who has not
    answered, ``bot/keizer/reminders.py``), closing sign-offs at the deadline, pairing and announcing at the
    publication time, and the day after, the private reminders of missing results. A round is paired once: its status moves to 'paired'
    in the same transaction that stores the games and queues the announcement."""

    def _remind_before(self, core: Core) -> timedelta | None:
        hours = core.config.reminder_hours
        return timedelta(hours=hours) if hours > 0 else None

    async def next_due_moment(self, core: Core, club_id: int | None = None) -> datetime | None:
        store = keizer_store(core)
        moments = [
            await store.next_due_moment(club_id), await WeekStore(core.store).next_results_reminder(RESULTS_AFTER, club_id)
        ]  # fmt: skip
        before = self._remind_before(core)
        if before is not None:
            deadline = await store.next_reminder_deadline(club_id)
            moments.append(deadline - before if deadline is not None else None)
        return min((m for m in moments if m is not None), default=None)

    claims_its_own = True  # several processes share a publication minute: each round is claimed alone

    async def run_due(self, core: Core, now: datetime) -> None:
        store = keizer_store(core)
        before = self._remind_before(core)
        async with core.store.claim("due:keizer-calendar") as mine:
            if mine:  # else another process is closing and reminding right now
                async with core.store.transaction():
                    if before is not None:
                        for row in await store.rounds_to_remind(now, before):
                            await queue_reminder(core, row, now)
                    closed = await store.close_due_rounds(now)
                    await queue_deadline_notices(core, closed, now)
                    await queue_missing_accounts(core, closed, now)  # online rounds: who has no lichess account
                    await queue_result_reminders(core, now)  # the day after a round: results still missing
        turns = asyncio.Semaphore(PAIRED_AT_ONCE)
        seasons = await store.seasons_to_pair(now)

        async def pair(row: RoundRow) -> None:
            season = seasons.get(row.season_id)
            club = await core.store.club(season.club_id) if season is not None else None
            if season is None or club is None:
                return
            try:  # each round in a transaction of its own: one club's trouble does not stop the others
                if await held_for_results(core, club, season, row, now):
                    return
                async with core.store.transaction(key=club_key(club.platform, club.external_id)):
                    await pair_and_queue(core, season, row, now)
            except Exception as err:
                log.exception("pairing round %s of season %s failed", row.number, season.id)
                await _report_failure(core, club, season.kind, row, err, now)

        async def pair_season(rows: list[RoundRow]) -> None:
            async with turns:
                for row in rows:  # a season's rounds one after another, in their order
                    await pair(row)

        # A few seasons at a time, so that their COMMITs are shared (group commit) and one round's wait
        # for its COMMIT is another's turn to be paired. Their rounds are claimed a share at a time (one
        # round trip for the share): each round is paired by one process, and two processes pairing the
        # same minute take turns share by share.
        by_season: dict[int, list[RoundRow]] = {}
        for row in await store.rounds_to_pair(now):
            by_season.setdefault(row.season_id, []).append(row)
        shares = list(by_season.values())
        for start in range(0, len(shares), CLAIMED_AT_ONCE):
            share = shares[start : start + CLAIMED_AT_ONCE]
            async with core.store.claim_many(f"keizer-round:{r.id}" for rows in share for r in rows) as ours:
                if not ours:  # another process is pairing this share
                    continue
                ids = [r.id for rows in share for r in rows if f"keizer-round:{r.id}" in ours]
                if core.store.dialect != "sqlite":  # another process may have paired some before we claimed them
                    left = await store.unpaired(ids)
                    ids = [i for i in ids if i in left]
                await core.store.read_clubs([seasons[r.season_id].club_id for rows in share for r in rows if r.season_id in seasons])
                await asyncio.gather(*(pair_season([r for r in rows if r.id in ids]) for rows in share))


async def _report_failure(core: Core, club: Club, kind: str, row: RoundRow, err: Exception, now: datetime) -> None:
    """A round the scheduler could not pair: not tried again until its season changes, and the director
    is told in the club's channel (once per round) why and what to do."""
    reason = t(club.language, err.key, **err.values) if isinstance(err, UserError) else t(club.language, "pairing_failed_unknown")
    try:
        async with core.store.transaction(key=club_key(club.platform, club.external_id)):
            if await keizer_store(core).record_pairing_failure(row.id, now):
                body = t(club.language, "pairing_failed", round=row.number, date=row.play_date, reason=reason)
                body = for_competition(club.language, kind, body)
                await core.store.queue_announcement(club.id, row.id, "pairing_failed", body, now)
    except Exception:
        log.exception("recording the failed pairing of round %s failed", row.id)
