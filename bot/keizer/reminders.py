"""Private reminders that reach the right people (issue 34 §2), on the scheduler's alarm (``KeizerSchedule``):

- Before the sign-off deadline, with the channel's reminder (``reminder_hours`` before it), a private
  message to each player who has not answered, when the club asks for answers: the club setting
  ``/seizoen herinnering=uit|aanmelden|iedereen`` (``reminder=off|signon|everyone``; ``uit`` by default).
  ``aanmelden``: the players absent unless they sign on (``/mijn aanwezig afgemeld``, or signed off by the
  no-show rule) who did not sign on or off for the round. ``iedereen`` (Spond style: the club wants a yes or
  no from everyone): those, and every other player of the round who has neither signed on (``/aanmelden``)
  nor off (``/afmelden``).
- The day after a round (``RESULTS_AFTER`` its publication), one private message to each player whose
  result is missing: both players of a game nobody reported, the opponent of one who reported (to confirm).
  A disputed game is the director's (the open-results notice at the deadline); a postponed game is played
  later (``bot/keizer/postponed.py``).

Each member can turn them off (``/mijn meldingen herinneringen uit``, or all private messages with ``/mijn
meldingen uit``). Each is queued once: the announcements outbox keeps one per round, kind and member (the
``remind:<member>`` and ``result:<member>`` kinds), queued in the transaction that records the round as
reminded (its channel reminder, ``rounds.results_reminded_at``), under the scheduler's claim, so a restart
or a second process on PostgreSQL sends none twice."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.output.calendar import local_text
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.storage.store import Club
from bot.keizer.club_settings import club_setting, with_club_setting
from bot.keizer.competition import withdrawn
from bot.keizer.formatting import for_competition, rapid_word, shown_result
from bot.keizer.lookups import keizer_store
from bot.keizer.postponed_store import PostponedStore
from bot.keizer.store import RoundRow, Season
from bot.keizer.week_store import WeekStore

REMINDER_KEY = "reminder"  # the club setting's key in a season's settings_json (no Keizer rule)
REMINDER_KEYS = {"herinnering", "reminder"}  # /seizoen herinnering=... (bot/keizer/seasons.py)
REMINDER_VALUES = {"uit": "off", "off": "off", "aanmelden": "signon", "signon": "signon",
                   "iedereen": "everyone", "everyone": "everyone"}  # fmt: skip
RESULTS_AFTER = timedelta(days=1)  # the day after the round, at its publication time


def reminder_mode(season: Season) -> str:
    return club_setting(season, REMINDER_KEY, "off")


def with_reminder_setting(settings_json: str, mode: str) -> str:
    """A season's stored settings with the ``herinnering`` setting (``off``, the default, is not stored)."""
    return with_club_setting(settings_json, REMINDER_KEY, mode, "off")


async def queue_answer_reminders(core: Core, club: Club, season: Season, row: RoundRow, now: datetime) -> None:
    """The private reminders before ``row``'s deadline to the players who have not answered (see above)."""
    mode = reminder_mode(season)
    if mode == "off":
        return
    store, week = keizer_store(core), WeekStore(core.store)
    by_default = await week.absent_by_default(season.id)
    answered = await week.signons(row.id) | {so.member_id for so in await store.signoffs(row.id)}
    keys: dict[int, str] = {}
    for sp in await store.season_players(season.id):
        if sp.joined_round > row.number or withdrawn(sp, row.number) or sp.member_id in answered:
            continue
        if sp.member_id in by_default or sp.auto_signed_off:
            keys[sp.member_id] = "notice_answer_signon"
        elif mode == "everyone":
            keys[sp.member_id] = "notice_answer_everyone"
    accounts = await core.store.accounts_to_notify(club.id, list(keys), reminders=True)
    deadline = local_text(row.deadline_at, season.timezone)[-5:]
    for member_id, key in keys.items():
        if member_id in accounts:
            said = t(club.language, key, round=row.number, date=row.play_date, deadline=deadline, rapid=rapid_word(season.kind))
            body = for_competition(club.language, season.kind, said)
            await core.store.queue_announcement(club.id, row.id, f"remind:{member_id}", body, now, recipient=accounts[member_id])


async def queue_result_reminders(core: Core, now: datetime) -> None:
    """The day after each paired round: a private message to each player whose result is missing (once)."""
    store, week = keizer_store(core), WeekStore(core.store)
    for row in await week.rounds_to_remind_of_results(now, RESULTS_AFTER):
        season = await store.season(row.season_id)
        club = await core.store.club(season.club_id) if season is not None else None
        if season is None or club is None or not await week.mark_results_reminded(row.id, now):
            continue
        names = {m.id: m.name for m in await core.store.members(club.id)}
        wanted: dict[int, str] = {}
        disputed = await week.disputed_games(row.id)
        later = await PostponedStore(core.store).of_round(row.id)  # postponed: played later (issue 44 §1)
        for game in await store.games_of_round(row.id):
            if game.result is not None or game.id in disputed or game.id in later:
                continue
            for me, other in ((game.white_id, game.black_id), (game.black_id, game.white_id)):
                if game.reported_result is None:
                    wanted[me] = t(club.language, "notice_result_missing", round=row.number, date=row.play_date,
                                   name=names.get(other, "?"), rapid=rapid_word(season.kind))  # fmt: skip
                elif game.reported_by == other:
                    wanted[me] = t(club.language, "notice_result_confirm", round=row.number, date=row.play_date,
                                   name=names.get(other, "?"), result=shown_result(game.reported_result), rapid=rapid_word(season.kind))  # fmt: skip
        accounts = await core.store.accounts_to_notify(club.id, list(wanted), reminders=True)
        for member_id, said in wanted.items():
            if member_id in accounts:
                body = for_competition(club.language, season.kind, said)
                await core.store.queue_announcement(club.id, row.id, f"result:{member_id}", body, now, recipient=accounts[member_id])
