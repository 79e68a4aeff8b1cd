"""A season played on lichess (issue 43 §1), the director's words: with a new season ``/seizoen naam=...
start=... online=lichess tempo=15+10 [beoordeeld=ja|nee] [uiterlijk=22:30]`` (``/season ... online=lichess
time=15+10 rated=yes|no latest=22:30``), the rapid competition's with ``soort=rapid``; for the running season
``/seizoen online=lichess|uit [tempo=...] [beoordeeld=...] [uiterlijk=...] [soort=rapid]``, which holds from
the first round not yet paired (the rounds already published keep what they had); ``/seizoen`` alone shows
the running season with its online setting. Stored in ``season_online`` (``bot/keizer/online_season.py``).

The tempo is minutes + seconds a move, as lichess's open challenge takes its clock (the API description,
``POST /api/challenge/open``: ``clock.limit`` 0-10800 seconds, ``clock.increment`` 0-60 seconds; read by
``TimeControl.parse``): 0 to 180 minutes and 0 to 60 seconds, not both 0 (a game needs a clock). The latest start (the challenge's expiry)
is a time after the publication and at most ``LATEST_WITHIN`` after it (after midnight when earlier than the
publication); by default the end of the playing evening (``/speelavond``). Without the bot's lichess token
online play is off: turning it on is refused, saying so, and nothing changes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, time, timedelta

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.core.online.lichess_answers import TimeControl
from bot.core.output.calendar import parse_hhmm
from bot.keizer.calendar_store import FreeEveningStore, VenueStore
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import active_season, keizer_store
from bot.keizer.online_season import LICHESS, OnlineSetting, OnlineStore
from bot.keizer.rows import Season

# the words typed, in both languages, and what they set
ONLINE_KEYS = {"online": "online", "tempo": "tempo", "time": "tempo", "beoordeeld": "rated", "rated": "rated",
               "uiterlijk": "latest", "latest": "latest"}  # fmt: skip
_KIND_KEYS = {"soort", "kind"}
_PLATFORMS = {"lichess": LICHESS, "uit": None, "off": None, "nee": None, "no": None}
_YES_NO = {"ja": True, "yes": True, "nee": False, "no": False}
MAX_MINUTES, MAX_INCREMENT = 180, 60  # lichess: clock.limit at most 10800 s, clock.increment at most 60 s
LATEST_WITHIN = timedelta(hours=12)


def split_online(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """The online words of a command line (what they set -> the value typed), and the other words."""
    given: dict[str, str] = {}
    rest: list[str] = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in ONLINE_KEYS:
            given[ONLINE_KEYS[key.lower()]] = value
        else:
            rest.append(arg)
    return given, rest


def only_online(ctx: Context) -> bool:
    """``/seizoen online=uit [soort=rapid]``: the running season's online setting, no new season."""
    typed = {a.partition("=")[0].lower() for a in ctx.args}
    return bool(typed & set(ONLINE_KEYS)) and typed <= set(ONLINE_KEYS) | _KIND_KEYS and all("=" in a for a in ctx.args)


def _usage(ctx: Context) -> UserError:
    return UserError("error_usage", usage=ctx.t("usage_seizoen_online"))


def _tempo(ctx: Context, text: str) -> TimeControl:
    """A tempo as lichess's clock takes it (``TimeControl.parse``: 15+10, 0.5+0), not 0+0: a game needs a clock."""
    try:
        clock = TimeControl.parse(text)
    except ValueError:
        clock = TimeControl(0, 0)
    if clock == TimeControl(0, 0):
        raise UserError("error_online_tempo", value=text[:20], minutes=MAX_MINUTES, seconds=MAX_INCREMENT,
                        usage=ctx.t("usage_seizoen_online"))  # fmt: skip
    return clock


def _latest(ctx: Context, text: str, publish: str) -> time | None:
    if text.strip() == "-":
        return None
    latest, published = parse_hhmm(text.strip()), parse_hhmm(publish)
    if latest is None or published is None:
        raise _usage(ctx)
    day = datetime(2000, 1, 1)
    after = (datetime.combine(day, latest) - datetime.combine(day, published)) % timedelta(days=1)
    if not timedelta(0) < after <= LATEST_WITHIN:
        raise UserError("error_online_latest", value=text[:10], publish=publish, hours=LATEST_WITHIN.seconds // 3600)
    return latest


def decide(core: Core, ctx: Context, given: dict[str, str], current: OnlineSetting | None, publish: str,
           from_round: int) -> OnlineSetting:  # fmt: skip
    """The setting the director's words make of ``current`` (None: the season plays at the club), from
    round ``from_round``; a refusal before anything is written."""
    if any(not value for value in given.values()):
        raise _usage(ctx)
    setting = current or OnlineSetting(None)
    if "online" in given:
        typed = given["online"].lower()
        if typed not in _PLATFORMS:
            raise _usage(ctx)
        setting = replace(setting, platform=_PLATFORMS[typed])
    if "tempo" in given:
        clock = _tempo(ctx, given["tempo"])
        setting = replace(setting, clock_limit=clock.limit, clock_increment=clock.increment)
    if "rated" in given:
        rated = _YES_NO.get(given["rated"].lower())
        if rated is None:
            raise _usage(ctx)
        setting = replace(setting, rated=rated)
    if "latest" in given:
        setting = replace(setting, latest_start=_latest(ctx, given["latest"], publish))
    if setting.online and not core.online.on:
        raise UserError("error_online_disabled")
    if not setting.online and "online" not in given:  # tempo=... for a season played at the club
        raise UserError("error_online_not_on", usage=ctx.t("usage_seizoen_online"))
    if setting.online and setting.clock_limit is None:
        raise UserError("error_online_tempo_needed", usage=ctx.t("usage_seizoen_online"))
    return replace(setting, from_round=from_round)


def describe(ctx: Context, setting: OnlineSetting | None, evening_end: time) -> str:
    """The online setting in a line: where the games are played, the clock, rated, the latest start."""
    if setting is None:
        return ctx.t("online_at_club")
    if not setting.online:
        return ctx.t("online_at_club_from", round=setting.from_round)
    latest = (ctx.t("online_latest_evening", time=evening_end.strftime("%H:%M")) if setting.latest_start is None
              else setting.latest_start.strftime("%H:%M"))  # fmt: skip
    return ctx.t("online_on_lichess", round=setting.from_round, tempo=setting.tempo(),
                 rated=ctx.t("online_rated" if setting.rated else "online_casual"), latest=latest)  # fmt: skip


async def _evening_end(core: Core, ctx: Context) -> time:
    return (await VenueStore(core.store).venue(ctx.club.id)).ends


async def cmd_online(core: Core, ctx: Context) -> Reply:
    """``/seizoen online=lichess|uit [tempo=15+10] [beoordeeld=ja|nee] [uiterlijk=22:30] [soort=rapid]``:
    the running season's online setting, from the first round not yet paired."""
    given, rest = split_online(ctx.args)
    kinds = [a.partition("=")[2].lower() for a in rest]
    kind = {"rapid": "rapid", "main": "main", "hoofd": "main"}.get(kinds[0] if kinds else "main")
    if kind is None or len(kinds) > 1:
        raise _usage(ctx)
    season = await active_season(core, ctx, kind)
    coming = await keizer_store(core).coming_round(season.id)
    if coming is None:
        raise UserError("error_season_over", season=season.name)
    store = OnlineStore(core.store)
    setting = decide(core, ctx, given, await store.setting(season.id, coming.number), season.publish_time, coming.number)
    async with core.store.transaction():
        await store.set_setting(season.id, setting)
    said = ctx.t("online_switched", season=season.name, setting=describe(ctx, setting, await _evening_end(core, ctx)))
    return Reply(lines=(for_competition(ctx.lang, kind, said),))


def new_season_online(core: Core, ctx: Context, given: dict[str, str], publish: str) -> OnlineSetting | None:
    """The online setting of a new season from round 1 (None: none given); checked before it is made."""
    return decide(core, ctx, given, None, publish, 1) if given else None


async def save_new_season_online(core: Core, season: Season, setting: OnlineSetting | None) -> None:
    if setting is not None:
        await OnlineStore(core.store).set_setting(season.id, setting)


async def cmd_show_season(core: Core, ctx: Context) -> Reply:
    """``/seizoen [soort=rapid]``: the running season, its times and its online setting for the coming round."""
    kinds = [a.partition("=")[2].lower() for a in ctx.args if a.partition("=")[0].lower() in _KIND_KEYS]
    kind = {"rapid": "rapid", "main": "main", "hoofd": "main"}.get(kinds[0] if kinds else "main")
    if kind is None or len(kinds) != len(ctx.args):
        raise UserError("error_usage", usage=ctx.t("usage_seizoen"))
    season = await keizer_store(core).active_season(ctx.club.id, kind)
    if season is None:  # no season to show: how to make one
        raise UserError("error_usage", usage=ctx.t("usage_seizoen"))
    coming = await keizer_store(core).coming_round(season.id)
    number = coming.number if coming else season.rounds_count
    setting = await OnlineStore(core.store).setting(season.id, number)
    dates = [r.play_date for r in await keizer_store(core).rounds(season.id)]  # after free evenings: where it ends
    lines = [ctx.t("season_shown", name=season.name, rounds=season.rounds_count, deadline=season.deadline_time,
                   publish=season.publish_time, timezone=season.timezone, first=min(dates, default="-"),
                   last=max(dates, default="-")),  # fmt: skip
             describe(ctx, setting, await _evening_end(core, ctx))]
    if setting is not None and setting.online and not core.online.on:
        lines.append(ctx.t("online_disabled_note"))
    free = await FreeEveningStore(core.store).free_evenings(season.id)  # /seizoen vrij (bot/keizer/free_evenings.py)
    if free:
        lines.append(ctx.t("free_listed", season=season.name, days=", ".join(d.isoformat() for d in free)))
    return Reply(lines=tuple(for_competition(ctx.lang, kind, line) for line in lines[:1]) + tuple(lines[1:]))
