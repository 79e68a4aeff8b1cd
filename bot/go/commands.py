"""Turn-based go in the chat (seed 001, issue 7): challenges, moves, passes, dead stones and agreement,
board pictures, SGF, reminders and time-outs, and competition pairings played as go games.

The rules are the engine's (``engine/go``); a game is stored as its list of actions and replayed for
every command, so what is stored is exactly what was played. Every refusal raises ``UserError`` before
anything is written. ``run_due(core, now)`` is for the scheduler: reminders and losses on time.
"""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction

from engine.go import BLACK, WHITE, default_komi

from bot.core.commands.competitions import CompetitionGame
from bot.core.commands.context import Context, UserError, parse_id
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Command, Registry
from bot.core.commands.replies import Button, Reply
from bot.go import params
from bot.go.store import GoClubSettings, GoGameRow, GoStore

from bot.go.clock import GoSchedule
from bot.go.play import cmd_afwijzen, cmd_akkoord, cmd_bord, cmd_dood, cmd_opgeven, cmd_pas, cmd_zet
from bot.go.view import chat_source, only_one, board_reply, colour_name, colour_of, fmt_komi, load_game, names_of, narrow, sgf_file, split_args

SIZES = ("19", "13", "9")
_DURATION = re.compile(r"^([0-9]{1,9})(m|min|u|h|d|w)?$")
_UNIT_MINUTES = {"m": 1, "min": 1, "u": 60, "h": 60, "d": 1440, "w": 10080, None: 60}
_OFF = {"uit", "off", "geen", "none", "0"}
_SUB = {
    "uitdagen": "challenge", "challenge": "challenge",
    "accepteren": "accept", "accept": "accept", "aannemen": "accept",
    "weigeren": "decline", "decline": "decline", "intrekken": "decline", "withdraw": "decline",
    "lijst": "list", "list": "list", "partijen": "list", "games": "list",
    "sgf": "sgf",
    "bedenktijd": "think", "thinkingtime": "think",
    "herinnering": "remind", "reminder": "remind",
    "voorgiftkomi": "hkomi", "handicapkomi": "hkomi",
    "instellingen": "settings", "settings": "settings",
}  # fmt: skip
_DIRECTOR_SUBS = ("think", "remind", "hkomi")


def register(registry: Registry) -> None:
    registry.add(Command("go", cmd_go, params=params.GO))
    registry.add(Command("zet", cmd_zet, english="move", params=params.ZET))
    registry.add(Command("pas", cmd_pas, english="pass", params=params.GAME_OR_OPPONENT))
    registry.add(Command("opgeven", cmd_opgeven, english="resign", confirms_result=True,  # a competition game's end
                         params=params.GAME_OR_OPPONENT))  # fmt: skip
    registry.add(Command("dood", cmd_dood, english="dead", params=params.DOOD))
    registry.add(Command("akkoord", cmd_akkoord, english="agree", confirms_result=True,  # the marking accepted: the end
                         params=params.GAME_ONLY))  # fmt: skip
    registry.add(Command("afwijzen", cmd_afwijzen, english="reject", params=params.GAME_ONLY))
    registry.add(Command("bord", cmd_bord, english="board", params=params.GAME_OR_OPPONENT))
    registry.timed.append(GoSchedule())
    registry.chat_played.append(played_in_chat)
    registry.chat_playing.append(playing_in_chat)


async def played_in_chat(core: Core, club_id: int) -> set[tuple[str, int]]:
    """The competition games of the club that are (or were) played as go games in the chat."""
    source = chat_source(core)
    if source is None:
        return set()
    return {(source.kind, game_id) for game_id in await GoStore(core.store).competition_game_ids(club_id)}


async def playing_in_chat(core: Core, kind: str, game_id: int) -> int | None:
    """The go game being played now for that competition game (its number), or None."""
    source = chat_source(core)
    if source is None or source.kind != kind:
        return None
    return await GoStore(core.store).playing_for_keizer(game_id)


# ------------------------------------------------------------------ /go
async def cmd_go(core: Core, ctx: Context) -> Reply:
    """``/go uitdagen|accepteren|weigeren|lijst|sgf`` and, for the director, ``/go bedenktijd|herinnering|
    voorgiftkomi|instellingen``."""
    if not ctx.args or ctx.args[0].lower() not in _SUB:
        raise UserError("error_usage", usage=ctx.t("usage_go"))
    sub = _SUB[ctx.args[0].lower()]
    args = ctx.args[1:]
    if sub in _DIRECTOR_SUBS and not ctx.is_director:
        raise UserError("error_director_only", command=f"go {ctx.args[0].lower()[:20]}")
    if sub == "challenge":
        return await _challenge(core, ctx, args)
    if sub in ("accept", "decline"):
        return await _answer(core, ctx, args, sub == "accept")
    if sub == "list":
        return await _list(core, ctx)
    if sub == "sgf":
        return await _sgf_command(core, ctx, args)
    return await _setting(core, ctx, sub, args)


async def _challenge(core: Core, ctx: Context, args: list[str]) -> Reply:
    """``/go uitdagen @speler [19|13|9] [voorgift N] [zwart|wit] [vrij]``."""
    member = ctx.require_member()
    size, handicap, colour, friendly = 19, 0, None, False
    rest: list[str] = []
    i = 0
    while i < len(args):
        word = args[i].lower()
        if word in SIZES or word in ("19x19", "13x13", "9x9"):
            size = int(word.split("x")[0])
        elif word in ("voorgift", "handicap"):
            value = args[i + 1] if i + 1 < len(args) else ""
            given = parse_id(value, 1)
            handicap = given if given is not None else -1
            if handicap not in (0, *range(2, 10)):  # one stone is no handicap (SGF's HA starts at 2)
                raise UserError("go_error_bad_handicap", value=value[:10])
            i += 1
        elif word in ("zwart", "black", "wit", "white"):
            colour = BLACK if word in ("zwart", "black") else WHITE
        elif word in ("vrij", "friendly", "vriendschappelijk"):
            friendly = True
        else:
            rest.append(args[i])
        i += 1
    name = " ".join(" ".join(rest).lstrip("@").split())
    if not name:
        raise UserError("error_usage", usage=ctx.t("usage_go"))
    try:
        opponent = await ctx.find_member(name)
    except UserError:
        if any(re.fullmatch(r"[0-9]{1,3}(x[0-9]{1,3})?", w.lower()) for w in rest):  # @Eva 7: no board of 7x7
            raise UserError("go_error_bad_size") from None
        raise
    if opponent.id == member.id:
        raise UserError("go_error_self")
    gs = GoStore(core.store)
    for g in await gs.games_of(ctx.club.id, member.id, ("challenged",)):
        if g.opponent_of(member.id) == opponent.id:
            raise UserError("go_error_open_challenge", name=opponent.name, id=g.id)
    pairing = None if friendly else await _pairing_between(core, ctx, member.id, opponent.id, opponent.name)
    if pairing is not None:
        if colour is not None:
            raise UserError("go_error_colour_fixed")
        black_id, white_id = pairing.black_id, pairing.white_id
        if handicap and (await _rating(core, black_id)) > (await _rating(core, white_id)):
            black_id, white_id = white_id, black_id  # the handicap goes to the weaker player, who is black
    else:
        challenger_black = colour != WHITE
        if colour is None and handicap:
            challenger_black = member.rating <= opponent.rating
        black_id, white_id = (member.id, opponent.id) if challenger_black else (opponent.id, member.id)
    settings = await gs.settings(ctx.club.id)
    komi = default_komi(size, handicap, settings.handicap_komi)
    game_id = await gs.create(
        ctx.club.id, black_id, white_id, member.id, size, handicap, komi, pairing.game_id if pairing else None, ctx.now
    )
    names = {member.id: member.name, opponent.id: opponent.name}
    lines = [ctx.t("go_challenged", challenger=member.name, name=opponent.name, size=size, handicap=handicap,
                   komi=fmt_komi(komi), black=names[black_id], white=names[white_id], id=game_id)]  # fmt: skip
    if pairing is not None:
        lines.append(ctx.t("go_for_round", round=pairing.round_number, board=pairing.board))
    return Reply(
        lines=tuple(lines),
        buttons=(
            Button.for_member(ctx.t("go_button_accept", name=opponent.name), f"/go accepteren #{game_id}", opponent.id),
            Button.for_member(ctx.t("go_button_decline"), f"/go weigeren #{game_id}", opponent.id),
        ),
    )


async def _rating(core: Core, member_id: int) -> int:
    m = await core.store.member(member_id)
    return m.rating if m else 0


async def _pairing_between(core: Core, ctx: Context, a: int, b: int, name: str) -> CompetitionGame | None:
    """The unplayed game of the current competition round between ``a`` and ``b``, if any; refused when
    it is already being played (or challenged) as a go game: a second game is friendly only if asked."""
    source = chat_source(core)
    game = await source.open_game_between(core, ctx.club.id, a, b) if source is not None else None
    if game is None:
        return None
    running = await GoStore(core.store).game_for_keizer(game.game_id)
    if running is not None:
        raise UserError("go_error_pairing_in_play", name=name, id=running.id, round=game.round_number)
    return game



async def _answer(core: Core, ctx: Context, args: list[str], accept: bool) -> Reply:
    member = ctx.require_member()
    _, game_id, name = split_args(args)
    gs = GoStore(core.store)
    games = await gs.games_of(ctx.club.id, member.id, ("challenged",))
    if accept:  # only the one challenged accepts; either may call it off
        games = [g for g in games if g.challenged_id == member.id]
    games = await narrow(core, ctx, member.id, games, game_id, name)
    if not games:
        raise UserError("go_error_no_challenge")
    await only_one(core, member.id, games)
    row = games[0]
    names = await names_of(core, row)
    if not accept:
        await gs.decline(row.id, ctx.now)
        return Reply(lines=(ctx.t("go_declined", name=member.name, id=row.id),))
    await gs.start(row.id, ctx.now)
    started = await gs.game(row.id)
    assert started is not None
    game = load_game(started)
    head = [ctx.t("go_started", black=names[row.black_id], white=names[row.white_id], size=row.size,
                  komi=fmt_komi(row.komi), handicap=row.handicap, id=row.id)]  # fmt: skip
    return board_reply(ctx, started, game, names, head)


async def _list(core: Core, ctx: Context) -> Reply:
    member = ctx.require_member()
    gs = GoStore(core.store)
    games = await gs.games_of(ctx.club.id, member.id, ("challenged", "playing"))
    if not games:
        return Reply(lines=(ctx.t("go_list_empty"),), private=True)
    lines = [ctx.t("go_list_title")]
    for g in games:
        opponent = await core.store.member(g.opponent_of(member.id))
        if g.status == "challenged":
            state = ctx.t("go_list_challenged")
        else:
            to_act = load_game(g).to_act
            state = ctx.t("go_list_your_turn") if to_act == colour_of(g, member.id) else ctx.t("go_list_waiting")
        lines.append(ctx.t("go_list_line", id=g.id, name=opponent.name if opponent else "?", size=g.size,
                           colour=colour_name(ctx, colour_of(g, member.id)), state=state))  # fmt: skip
    return Reply(lines=tuple(lines), private=True)


async def _sgf_command(core: Core, ctx: Context, args: list[str]) -> Reply:
    """``/go sgf [#id]``: the record of a game of this club (the member's last one without an id)."""
    _, game_id, name = split_args(args)
    gs = GoStore(core.store)
    row: GoGameRow | None = None
    if game_id is not None:
        row = await gs.game(game_id)
        if row is not None and (row.club_id != ctx.club.id or row.status not in ("playing", "finished")):
            row = None
    else:
        member = ctx.require_member()
        games = await gs.games_of(ctx.club.id, member.id, ("playing", "finished"))
        if name:
            opponent = await ctx.find_member(name)
            games = [g for g in games if g.opponent_of(member.id) == opponent.id]
        row = games[-1] if games else None
    if row is None:
        raise UserError("go_error_no_game")
    game = load_game(row)
    names = await names_of(core, row)
    return Reply(lines=(ctx.t("go_sgf_attached"),), attachment=await sgf_file(core, ctx.club, row, game, names, row.result or ""), private=True)


def _parse_duration(text: str) -> timedelta | None:
    match = _DURATION.match(text.lower())
    if not match:
        raise UserError("go_error_bad_duration", value=text[:20])
    minutes = int(match.group(1)) * _UNIT_MINUTES[match.group(2)]
    if not 1 <= minutes <= 60 * 24 * 365:  # a duration, but none a game waits for: at most a year
        raise UserError("go_error_duration_range", value=text[:20])
    return timedelta(minutes=minutes)


def _duration_text(ctx: Context, value: timedelta | None) -> str:
    if value is None:
        return ctx.t("go_off")
    minutes = int(value.total_seconds() // 60)
    if minutes % 1440 == 0:
        return ctx.t("go_days", n=minutes // 1440)
    if minutes % 60 == 0:
        return ctx.t("go_hours", n=minutes // 60)
    return ctx.t("go_minutes", n=minutes)


async def _setting(core: Core, ctx: Context, sub: str, args: list[str]) -> Reply:
    gs = GoStore(core.store)
    current = await gs.settings(ctx.club.id)
    if sub != "settings":
        if len(args) != 1:
            raise UserError("error_usage", usage=ctx.t("usage_go"))
        value = args[0]
        if sub == "hkomi":
            try:
                komi = Fraction(value.replace(",", "."))
            except (ValueError, ZeroDivisionError):
                raise UserError("go_error_bad_komi", value=value[:20])
            if komi.denominator not in (1, 2) or not -20 <= komi <= 20:
                raise UserError("go_error_bad_komi", value=value[:20])
            current = GoClubSettings(current.remind_after, current.max_think, komi)
        else:
            duration = None if value.lower() in _OFF else _parse_duration(value)
            if sub == "think":
                current = GoClubSettings(current.remind_after, duration, current.handicap_komi)
            else:
                current = GoClubSettings(duration, current.max_think, current.handicap_komi)
        await gs.save_settings(ctx.club.id, current)
    return Reply(lines=(ctx.t("go_settings", remind=_duration_text(ctx, current.remind_after),
                              think=_duration_text(ctx, current.max_think),
                              komi=fmt_komi(current.handicap_komi)),))  # fmt: skip


