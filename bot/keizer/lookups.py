"""What the Keizer commands look up again and again: the club's active season (or its rapid one, named
by the word ``rapid``), a round by number, the round a result is about, a member's game in a round, the
postponed games still to be played (issue 44 §1, ``bot/keizer/postponed.py``)."""

from __future__ import annotations

from dataclasses import replace

from engine.keizer import Player

from bot.core.commands.context import Context, UserError, keyword, parse_int
from bot.core.commands.dispatch import Core
from bot.core.club.name_key import name_key
from bot.core.storage.store import Member
from bot.keizer import competition
from bot.keizer.store import GameRow, KeizerStore, RoundRow, Season


ANYWAY_WORDS = {"toch", "anyway"}  # do it although the bot asks first (/publiceer toch, /invaller Naam toch)


def keizer_store(core: Core) -> KeizerStore:
    return KeizerStore(core.store)


async def active_season(core: Core, ctx: Context, kind: str = "main") -> Season:
    season = await keizer_store(core).active_season(ctx.club.id, kind)
    if season is None:
        raise no_season(kind)
    return season


def no_season(kind: str) -> UserError:
    """The refusal when the club has no active season of that kind."""
    return UserError("error_no_rapid_season" if kind == "rapid" else "error_no_season")


async def season_named(core: Core, ctx: Context, name: str) -> Season:
    """The club's season, running or past, of either kind, that ``name`` names (compared as names are);
    an unknown name is refused with the names there are."""
    seasons = await keizer_store(core).seasons(ctx.club.id)
    found = next((s for s in seasons if name_key(s.name) == name_key(name)), None)
    if found is None:
        raise UserError("error_unknown_season", name=name[:60], names=", ".join(s.name for s in seasons) or "-")
    return found


def competition_of(ctx: Context) -> tuple[str, Context]:
    """The word ``rapid`` among a round command's arguments addresses the rapid competition (its own
    season, rounds and sign-offs); the other arguments stay as they were."""
    rest = [a for a in ctx.args if keyword(a) != "rapid"]  # "rapid" in quotes: a name
    return ("main", ctx) if len(rest) == len(ctx.args) else ("rapid", replace(ctx, args=rest))


async def round_by_number(core: Core, season: Season, text: str) -> RoundRow:
    number = parse_int(text)
    row = await keizer_store(core).round_by_number(season.id, number) if number is not None else None
    if row is None:
        raise UserError("error_unknown_round", round=text[:10], count=season.rounds_count)
    return row


def player_named(ctx: Context, data: competition.SeasonData, words: list[str], whose: str) -> Player:
    """The season's player the words name, or without words the asker; refused with ``whose`` when the
    asker plays no part in the season."""
    if words:
        wanted = name_key(" ".join(words))
        player = next((p for p in data.players if name_key(p.name) == wanted), None)
        if player is None:
            raise UserError("error_unknown_player", name=" ".join(words)[:60])
        return player
    player = next((p for p in data.players if ctx.member is not None and int(p.id) == ctx.member.id), None)
    if player is None:
        raise UserError(whose)
    return player


def names_of(data: competition.SeasonData) -> dict[str, str]:
    return {p.id: p.name for p in data.players}


async def result_round(
    core: Core, ctx: Context, season: Season, data: competition.SeasonData, round_text: str | None
) -> RoundRow:
    if round_text is not None:
        row = await round_by_number(core, season, round_text)
        if row.status != "paired":
            raise UserError("error_round_not_paired", round=row.number, publish=ctx.local(row.publish_at))
        return row
    current = competition.current_round(data)
    if current is None:
        raise UserError("error_no_game")
    return current


async def game_of(core: Core, row: RoundRow, member: Member) -> GameRow:
    for game in await keizer_store(core).games_of_round(row.id):
        if member.id in (game.white_id, game.black_id):
            return game
    raise UserError("error_no_game_in_round", name=member.name, round=row.number)


def postponed_round(data: competition.SeasonData, member_id: int | None) -> str | None:
    """The round of the member's postponed game not played yet, while they have no game in the last
    paired round: where their ``/uitslag`` or ``/bevestig`` without a round number goes."""
    if member_id is None:
        return None
    mine = [p for p in data.postponed if member_id in (p.white_id, p.black_id)]
    last = data.rounds[-1] if data.rounds else None
    me = competition.player_id(member_id)
    if not mine or (last is not None and any(me in (g.white, g.black) for g in last.games)):
        return None
    return str(mine[0].round_number)


def postponed_names(data: competition.SeasonData, upto: int) -> list[str]:
    """The postponed games not played yet of the rounds up to ``upto``: ``3: Anna - Bert``."""
    names = names_of(data)
    return [f"{p.round_number}: {names.get(str(p.white_id), '?')} - {names.get(str(p.black_id), '?')}"
            for p in data.postponed if p.round_number <= upto]  # fmt: skip
