"""Results: ``/uitslag`` (a player reports, the opponent confirms; a director enters or corrects any),
``/bevestig``, and the director's ``/nietverschenen`` (no-show) and ``/invaller`` (the standby plays)."""

from __future__ import annotations

from bot.core.commands.command_line import quote_word
from bot.core.commands.competitions import playing_in_chat
from bot.core.commands.context import Context, UserError, keyword, parse_int
from bot.core.commands.dispatch import Core
from bot.core.output.pictures import picture_spec
from bot.core.commands.replies import Button, Reply
from bot.keizer import competition, director_games
from bot.keizer.formatting import confirm_command, for_competition, outcome, rapid_word, shown_result
from bot.keizer.no_shows import recount_no_shows
from bot.keizer.open_results_store import OpenResultsStore
from bot.keizer.postponed_store import PostponedStore
from bot.keizer.online_round import sync_round
from bot.keizer.lookups import active_season, competition_of, game_of, keizer_store, names_of, postponed_round, result_round
from bot.keizer.store import GameRow, RoundRow, Season
from bot.keizer.views import standings_table

_RESULT_WORDS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    "remise": "1/2-1/2",
    "draw": "1/2-1/2",
}
# A player may also say it from their own side; turned into white's-score-first once the colour is known.
_OWN_SIDE = {"gewonnen": "won", "winst": "won", "won": "won", "win": "won",
             "verloren": "lost", "verlies": "lost", "lost": "lost", "loss": "lost"}  # fmt: skip
_FORFEITS = {"1-0f": "1-0F", "0-1f": "0-1F", "0-0f": "0-0F"}
WORDS = frozenset({*_RESULT_WORDS, *_OWN_SIDE, *_FORFEITS})  # read beside a name: no member may be called one
SOURCE_KIND = "season"  # the Keizer competition's kind among the core's competition sources (source.py)


async def cmd_uitslag(core: Core, ctx: Context) -> Reply:
    """A player reports the result of their own game (the opponent confirms with /bevestig or by
    reporting the same); a director enters or corrects any game: ``/uitslag Naam 1-0|gewonnen|verloren|remise
    [ronde] [toch]`` (``gewonnen``: Naam won; ``1-0`` stays white's score). A director's result that
    contradicts what the players said (a report not yet confirmed, or a result both agreed on) is refused
    until ``toch``, and then both players are told."""
    kind, ctx = competition_of(ctx)
    anyway = False
    if ctx.is_director:
        anyway, ctx = director_games.anyway(ctx)
    season = await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    result: str | None = None
    round_text: str | None = None
    name_parts: list[str] = []
    for arg in ctx.args:
        low = keyword(arg)  # a quoted word is a name ("Remise")
        if low in _RESULT_WORDS:
            result = _RESULT_WORDS[low]
        elif low in _OWN_SIDE and (not name_parts or ctx.is_director):
            result = _OWN_SIDE[low]
        elif low in _FORFEITS and ctx.is_director:
            result = _FORFEITS[low]
        elif parse_int(arg) is not None and round_text is None:
            round_text = arg
        else:
            name_parts.append(arg)
    if result is None:
        raise UserError("error_usage", usage=ctx.t("usage_uitslag"))
    if name_parts and not ctx.is_director and await core.store.member_by_name(ctx.club.id, " ".join(name_parts)) is not None:
        raise UserError("error_director_only", command=ctx.t("command_uitslag_other"))  # /uitslag Gijs 1-0
    if name_parts and not ctx.is_director:
        raise UserError("error_usage", usage=ctx.t("usage_uitslag"))
    if round_text is None:  # a postponed game's result goes to its own round (issue 44 §1)
        asked = await ctx.find_member(" ".join(name_parts)) if name_parts else ctx.member
        round_text = postponed_round(data, asked.id if asked is not None else None)
    row = await result_round(core, ctx, season, data, round_text)
    names = names_of(data)
    if name_parts or result in _FORFEITS.values():  # a director's own forfeit is entered, not reported
        member = await ctx.find_member(" ".join(name_parts)) if name_parts else ctx.require_member()
        game = await game_of(core, row, member)
        if result in ("won", "lost"):  # the named player's side: white's score once the colour is known
            result = _white_score(result, game, member.id)
        said = _players_said(game)
        overruled = said is not None and said != result
        if said is not None and overruled and not anyway:
            raise UserError("error_result_contradicts", round=row.number, board=game.board, said=_outcome(ctx, game, said, names),
                            who=_who_said(ctx, game, names),
                            outcome=_outcome(ctx, game, result, names), args=_again(name_parts, result, row.number, kind))  # fmt: skip
        still_agreed = game.agreed and game.result == result  # the director said the same: it stays theirs
        await keizer_store(core).set_result(game.id, result, ctx.now, agreed=still_agreed)
        notes = await after_result(core, ctx, season, row)
        shown = _outcome(ctx, game, result, names)
        lines = [_said(ctx, kind, "result_set", board=game.board, round=row.number, outcome=shown)]
        if said is not None and overruled:
            who = _who_said(ctx, game, names)
            told = await _tell_players_overruled(core, ctx, row, game, _outcome(ctx, game, said, names), who, shown, kind)
            lines.append(ctx.t("result_overruled", said=_outcome(ctx, game, said, names), who=who, told=told))
        return Reply(lines=(*lines, *notes))
    member = ctx.require_member()
    game = await game_of(core, row, member)
    if game.result is not None:
        raise UserError("error_result_confirmed", round=row.number, result=shown_result(game.result))
    await _refuse_while_played_in_chat(core, game)
    opponent = game.black_id if game.white_id == member.id else game.white_id
    if result in ("won", "lost"):
        result = _white_score(result, game, member.id)
    if game.reported_result is not None and game.reported_by == opponent:
        if game.reported_result != result:
            told = await _tell_directors_of_dispute(core, ctx, row, game, result, names, kind)
            await OpenResultsStore(core.store).mark_disputed(game.id, result, member.id)  # for /uitslagen
            reported, name = game.reported_result, names[str(opponent)]
            key = "result_disputed" if told else "result_disputed_ask"
            return Reply(lines=(_said(ctx, kind, key, reported=shown_result(reported), name=name, result=shown_result(result)),), private=True)
        await keizer_store(core).set_result(game.id, result, ctx.now, agreed=True)
        notes = await after_result(core, ctx, season, row)
        shown = _outcome(ctx, game, result, names)
        return Reply(lines=(_said(ctx, kind, "result_confirmed", board=game.board, round=row.number, outcome=shown), *notes))
    await keizer_store(core).report_result(game.id, result, member.id)
    return Reply(
        lines=(_said(ctx, kind, "result_reported", outcome=_outcome(ctx, game, result, names), name=names[str(opponent)],
                     rapid=rapid_word(kind)),),
        buttons=(Button.for_member(ctx.t("button_confirm", name=names[str(opponent)]), confirm_command(season, row.number), opponent),),
    )


async def cmd_bevestig(core: Core, ctx: Context) -> Reply:
    kind, ctx = competition_of(ctx)
    season = await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    member = ctx.require_member()
    round_text = ctx.args[0] if ctx.args else None
    if len(ctx.args) > 1:
        raise UserError("error_usage", usage=ctx.t("usage_bevestig"))
    if round_text is None:
        round_text = postponed_round(data, member.id)
    row = await result_round(core, ctx, season, data, round_text)
    game = await game_of(core, row, member)
    if game.result is not None:
        raise UserError("error_result_confirmed", round=row.number, result=shown_result(game.result))
    if game.reported_result is None or game.reported_by == member.id:
        raise UserError("error_nothing_to_confirm")
    await _refuse_while_played_in_chat(core, game)
    await keizer_store(core).set_result(game.id, game.reported_result, ctx.now, agreed=True)
    notes = await after_result(core, ctx, season, row)
    shown = _outcome(ctx, game, game.reported_result, names_of(data))
    return Reply(lines=(_said(ctx, kind, "result_confirmed", board=game.board, round=row.number, outcome=shown), *notes))


def _white_score(side: str, game: GameRow, member_id: int) -> str:
    """``won`` or ``lost`` said of ``member_id``'s side as white's score."""
    return "1-0" if (side == "won") == (game.white_id == member_id) else "0-1"


def _players_said(game: GameRow) -> str | None:
    """What the players said of the game: the result both agreed on, or one's report still waiting for the
    other's confirmation. None when they said nothing, disagree (the director settles a dispute) or the
    result is a director's or lichess's."""
    if game.result is not None:
        return game.result if game.agreed else None
    if game.reported_result is not None and game.disputed_result in (None, game.reported_result):
        return game.reported_result
    return None


def _who_said(ctx: Context, game: GameRow, names: dict[str, str]) -> str:
    """Who said what ``_players_said`` found: both players (agreed, or both reported it), or the one whose report
    still waits for the other's confirmation, by name (not "the players" when one of them said nothing)."""
    both = game.agreed if game.result is not None else game.disputed_result == game.reported_result
    if both or game.reported_by is None:
        return ctx.t("result_said_both")
    return ctx.t("result_said_one", name=names.get(str(game.reported_by), "?"))


def _again(name_parts: list[str], result: str, number: int, kind: str) -> str:
    """The words of the director's command once more (the message adds the command and ``toch``), white's
    score first."""
    words = [quote_word(" ".join(name_parts))] if name_parts else []
    return " ".join([*words, result, str(number), *(["rapid"] if kind == "rapid" else [])])


async def _tell_players_overruled(
    core: Core, ctx: Context, row: RoundRow, game: GameRow, said: str, who: str, outcome_text: str, kind: str
) -> int:
    """Both players of a game whose result the director set against what they said get a private notice;
    the number of them the bot could tell (a chat account, reminders not turned off)."""
    body = for_competition(ctx.lang, kind, ctx.t("notice_result_overruled", round=row.number, board=game.board,
                                                 said=said, who=who, outcome=outcome_text))  # fmt: skip
    players = [game.white_id, game.black_id]
    accounts = await core.store.accounts_to_notify(ctx.club.id, players, reminders=True)
    for member_id in players:
        if member_id in accounts:
            kind_key = f"overruled:{game.id}:{member_id}:{ctx.now.isoformat()}"
            await core.store.queue_announcement(ctx.club.id, row.id, kind_key, body, ctx.now, recipient=accounts[member_id])
    return sum(1 for m in players if m in accounts)


def _said(ctx: Context, kind: str, key: str, **values: object) -> str:
    """A reply of the competition ``kind``: the rapid competition's name it (issue 30 §3)."""
    return for_competition(ctx.lang, kind, ctx.t(key, **values))


async def _refuse_while_played_in_chat(core: Core, game: GameRow) -> None:
    """A player's report or confirmation waits while the game is being played in the chat (go): that
    game's end enters the result. The director may still enter one."""
    number = await playing_in_chat(core, SOURCE_KIND, game.id)
    if number is not None:
        raise UserError("error_result_played_in_chat", number=number)


def _outcome(ctx: Context, game: GameRow, result: str, names: dict[str, str]) -> str:
    return outcome(ctx.lang, result, names[str(game.white_id)], names[str(game.black_id)])


async def _tell_directors_of_dispute(
    core: Core, ctx: Context, row: RoundRow, game: GameRow, result: str, names: dict[str, str], kind: str
) -> bool:
    """Two reports of one game that disagree: each director gets a private notice (once per dispute).
    False when no director has a chat account the bot knows."""
    assert game.reported_result is not None and game.reported_by is not None
    member = ctx.require_member()
    body = ctx.t(
        "notice_result_disputed", round=row.number, board=game.board, white=names[str(game.white_id)],
        black=names[str(game.black_id)], first_name=names[str(game.reported_by)], first=shown_result(game.reported_result),
        second_name=member.name, second=shown_result(result), rapid=rapid_word(kind),
    )  # fmt: skip
    body = for_competition(ctx.lang, kind, body)
    accounts = await core.store.director_accounts(ctx.club.id)
    for account in accounts:
        kind = f"dispute:{game.id}:{game.reported_result}:{result}:{account}"
        await core.store.queue_announcement(ctx.club.id, row.id, kind, body, ctx.now, recipient=account)
    return bool(accounts)


async def after_result(core: Core, ctx: Context, season: Season, row: RoundRow) -> tuple[str, ...]:
    """After every result: the no-show rule is counted again (a line for each sign-off it made or lifted);
    when the last result of a round is in, the standings are announced (``announce_when_complete``)."""
    notes = await recount_no_shows(core, ctx, season)
    await announce_when_complete(core, ctx, season, row)
    return notes


async def announce_when_complete(core: Core, ctx: Context, season: Season, row: RoundRow) -> None:
    """When every game of the round has its result, or is postponed (issue 44 §1: the standings say
    "voorlopig" and name it), the round's standings are announced (once per round)."""
    games = await keizer_store(core).games_of_round(row.id)
    later = await PostponedStore(core.store).of_round(row.id)
    if games and all(g.result is not None or g.id in later for g in games):
        args = ["rapid", str(row.number)] if season.kind == "rapid" else [str(row.number)]
        title, table = await standings_table(core, ctx.with_args(args))
        body = title + "\n" + table.as_text()
        await core.store.queue_announcement(
            ctx.club.id, row.id, "standings", body, ctx.now, picture=picture_spec(title, table)
        )


async def cmd_nietverschenen(core: Core, ctx: Context) -> Reply:
    """Mark a paired player who did not come without notice: their game is lost by forfeit (seed 004
    Keizer rule f); the player with the bye who did not come loses the bye and is absent without notice. After ``no_show_limit`` (2) such rounds in a row the player is signed off for the
    coming rounds until they sign on again with /aanmelden (seed 004 rule j)."""
    kind, ctx = competition_of(ctx)
    season = await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    round_text = None
    names = []
    for arg in ctx.args:
        if parse_int(arg) is not None and round_text is None:
            round_text = arg
        else:
            names.append(arg)
    if not names:
        raise UserError("error_usage", usage=ctx.t("usage_nietverschenen"))
    member = await ctx.find_member(" ".join(names))
    row = await result_round(core, ctx, season, data, round_text)
    store = keizer_store(core)
    if await store.bye_of_round(row.id) == member.id:  # seed 004 rule l: the bye holder must be there too
        async with core.store.transaction():
            await store.bye_holder_absent(row.id, member.id, ctx.now)
            notes = await after_result(core, ctx, season, row)
        return Reply(lines=(_said(ctx, kind, "no_show_bye", name=member.name, round=row.number), *notes))
    signoff = await store.signoff(row.id, member.id)
    if signoff is not None and signoff.kind == "unexcused":
        raise UserError("error_already_no_show", name=member.name, round=row.number)
    game = await game_of(core, row, member)
    if game.result is not None and not game.result.endswith("F"):  # played: a no-show would overwrite it
        raise UserError("error_no_show_played", name=member.name, round=row.number, board=game.board, result=shown_result(game.result))
    result = _no_show_result(game, member.id)
    async with core.store.transaction():
        await keizer_store(core).set_result(game.id, result, ctx.now)
        notes = await after_result(core, ctx, season, row)
    return Reply(lines=(_said(ctx, kind, "no_show_marked", name=member.name, round=row.number, result=result), *notes))


def _no_show_result(game: GameRow, absent: int) -> str:
    """The result when ``absent`` did not come: a forfeit loss, or 0-0F when the opponent was already
    marked as not come (neither came; both are no-shows)."""
    opponent_absent = "1-0F" if game.white_id == absent else "0-1F"  # the opponent lost by forfeit
    if game.result in (opponent_absent, "0-0F"):
        return "0-0F"
    return "0-1F" if game.white_id == absent else "1-0F"


async def cmd_invaller(core: Core, ctx: Context) -> Reply:
    """Seed 004 rule l: the player with the bye is the standby; when a paired player does not come,
    the director pairs the standby in their place: ``/invaller Naam-van-de-afwezige``."""
    kind, ctx = competition_of(ctx)
    repeat_ok, ctx = director_games.anyway(ctx)
    season = await active_season(core, ctx, kind)
    data = await competition.load(core.store, season)
    if not ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_invaller"))
    member = await ctx.find_member(" ".join(ctx.args))
    row = competition.current_round(data)
    if row is None:
        raise UserError("error_no_game")
    game = await game_of(core, row, member)
    if game.result is not None:
        raise UserError("error_result_confirmed", round=row.number, result=shown_result(game.result))
    if any(p.game_id == game.id for p in data.postponed):  # played later by these two (issue 44 §1)
        raise UserError("error_standby_postponed", round=row.number, board=game.board, name=member.name)
    standby = await keizer_store(core).bye_of_round(row.id)
    if standby is None:
        raise UserError("error_no_standby", round=row.number)
    opponent = game.black_id if game.white_id == member.id else game.white_id
    if not repeat_ok:
        command = director_games.command_line("invaller", [member.name], kind == "rapid")
        question = director_games.ask_before_repeat(ctx, data, row, [(standby, opponent)], command)
        if question is not None:
            return question
    white, black = director_games.colours(data, row, standby, opponent)
    async with core.store.transaction():
        await keizer_store(core).replace_with_standby(game.id, white, black, member.id, row.id, ctx.now)
        await sync_round(core, ctx.club, season, row, ctx.now)  # on lichess: that board's challenge replaced
        notes = await recount_no_shows(core, ctx, season)
    names = names_of(data)
    return Reply(lines=(_said(ctx, kind, "standby_paired", standby=names[str(standby)], name=member.name, board=game.board), *notes))
