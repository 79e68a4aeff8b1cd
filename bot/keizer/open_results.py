"""Results a director can trust before publishing (issue 30 §4): ``/uitslagen`` (the open and disputed
results, with the commands that settle them), the director's private notice at a round's deadline, and
the club setting ``ontbrekend=indelen|wachten``: with ``wachten`` the scheduler holds a round's pairing
while results of earlier rounds are open, until they are settled or the director types ``/publiceer toch``."""

from __future__ import annotations

from datetime import datetime

from bot.core.commands.command_line import quote_word
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.replies import Reply
from bot.core.storage.store import Club, club_key
from bot.keizer.club_settings import club_setting, with_club_setting
from bot.keizer.formatting import for_competition, rapid_word, shown_result
from bot.keizer.lookups import active_season, competition_of, keizer_store
from bot.keizer.open_results_store import OpenGame, OpenResultsStore
from bot.keizer.online_why import online_why
from bot.keizer.store import RoundRow, Season

MISSING_KEY = "missing"  # the club setting's key in a season's settings_json (no Keizer rule: the engine ignores it)
MISSING_VALUES = {"indelen": "pair", "pair": "pair", "wachten": "wait", "wait": "wait"}


def waits_for_results(season: Season) -> bool:
    """``ontbrekend=wachten``: the season's pairing waits while earlier results are open."""
    return club_setting(season, MISSING_KEY, "pair") == "wait"


def with_missing_setting(settings_json: str, mode: str) -> str:
    """A season's stored settings with the ``ontbrekend`` setting (only ``wait`` is stored: pairing anyway
    is the default)."""
    return with_club_setting(settings_json, MISSING_KEY, "wait" if mode == "wait" else "pair", "pair")


def open_store(core: Core) -> OpenResultsStore:
    return OpenResultsStore(core.store)


def open_lines(lang: str, season: Season, games: list[OpenGame]) -> list[str]:
    """One line per open game: what is missing or disputed, and the ``/uitslag`` that settles it."""
    rapid = rapid_word(season.kind)
    lines = []
    for g in games:
        values = dict(round=g.round_number, board=g.board, white=g.white, black=g.black, player=quote_word(g.white), rapid=rapid)
        if g.disputed_result is not None:
            lines.append(t(lang, "open_result_disputed", first_name=g.reported_by, first=shown_result(g.reported_result),
                           second_name=g.disputed_by, second=shown_result(g.disputed_result), **values))  # fmt: skip
        elif g.reported_result is not None:
            lines.append(t(lang, "open_result_reported", name=g.reported_by, result=shown_result(g.reported_result), **values))
        else:
            lines.append(t(lang, "open_result_missing", **values))
        if g.online is not None:  # played on lichess, held or refused, or nobody came (issue 43 §3)
            lines[-1] += " " + t(lang, "open_result_online", why=online_why(lang, g.online))
        if g.postponed:  # to be played later (issue 44 §1)
            key = "open_result_postponed_until" if g.postponed_until else "open_result_postponed"
            lines[-1] += " " + t(lang, key, date=g.postponed_until)
    return lines


async def cmd_uitslagen(core: Core, ctx: Context) -> Reply:
    """The director's list of the results still open in the season's paired rounds (``/uitslagen [rapid]``):
    missing, waiting for the opponent's confirmation, or disputed, each with the command that settles it."""
    kind, ctx = competition_of(ctx)
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_uitslagen"))
    season = await active_season(core, ctx, kind)
    games = await open_store(core).open_games(season.id)
    if not games:
        return Reply(lines=(for_competition(ctx.lang, kind, ctx.t("open_results_none", season=season.name)),))
    title = for_competition(ctx.lang, kind, ctx.t("open_results_title", season=season.name, count=len(games)))
    return Reply(lines=(title, *open_lines(ctx.lang, season, games)))


async def queue_deadline_notices(core: Core, rows: list[RoundRow], now: datetime) -> None:
    """At the deadline of each of ``rows`` (closed just now), each director (``Store.director_accounts``)
    gets a private notice of the results of earlier rounds still open, with the commands to settle them
    (once per round). The rounds' seasons and open games are read in one query each, however many clubs
    share the deadline minute."""
    seasons = await keizer_store(core).seasons_by_id(sorted({row.season_id for row in rows}))
    open_games = await open_store(core).open_games_of(list(seasons))
    for row in rows:
        season = seasons[row.season_id]
        games = [g for g in open_games.get(season.id, []) if g.round_number < row.number and not g.postponed]
        if not games:
            continue
        club = await core.store.club(season.club_id)
        assert club is not None
        lang = club.language
        title = t(lang, "notice_open_results", round=row.number, season=season.name, count=len(games),
                  rapid=rapid_word(season.kind))  # fmt: skip
        body = "\n".join([for_competition(lang, season.kind, title), *open_lines(lang, season, games)])
        for account in await core.store.director_accounts(club.id):
            await core.store.queue_announcement(club.id, row.id, f"open-results:{account}", body, now, recipient=account)


async def held_for_results(core: Core, club: Club, season: Season, row: RoundRow, now: datetime) -> bool:
    """With ``ontbrekend=wachten`` and results of earlier rounds open, the scheduler does not pair ``row``:
    it is remembered as held (tried again once the season changes: a result comes in), and each director
    is told privately, once per round, what is missing and how to go on (the club's channel, when the bot
    knows no director's chat account)."""
    if not waits_for_results(season):
        return False
    games = [g for g in await open_store(core).open_games(season.id, before=row.number) if not g.postponed]
    if not games:  # a postponed game is played later: the pairing does not wait for it
        return False
    rapid = rapid_word(season.kind)
    async with core.store.transaction(key=club_key(club.platform, club.external_id)):
        await open_store(core).bump_version(season.id)  # /indeling now says the pairing waits
        if await keizer_store(core).record_pairing_failure(row.id, now):
            lang = club.language
            title = t(lang, "notice_pairing_held", round=row.number, season=season.name, count=len(games), rapid=rapid)
            body = "\n".join([for_competition(lang, season.kind, title), *open_lines(lang, season, games)])
            accounts = await core.store.director_accounts(club.id)
            for account in accounts:
                await core.store.queue_announcement(club.id, row.id, f"held:{account}", body, now, recipient=account)
            if not accounts:  # no director the bot can write to: the club's channel hears why nothing comes
                await core.store.queue_announcement(club.id, row.id, "held", body, now)
    return True


async def waiting_line(core: Core, ctx: Context, season: Season, coming: RoundRow | None) -> str | None:
    """For /indeling: the coming round's publication time has passed and its pairing waits for results."""
    if coming is None or coming.publish_at > ctx.now or not waits_for_results(season):
        return None
    if not [g for g in await open_store(core).open_games(season.id, before=coming.number) if not g.postponed]:
        return None
    return for_competition(ctx.lang, season.kind, ctx.t("pairing_waits_for_results", round=coming.number))
