"""``/nk`` (``/championship``): the NK championship tournament of seed 000, run from the chat.

Sub-commands (Dutch, English alias):

- ``/nk nieuw Naam [rondes=7] [groep=16]`` (``new``), director: create the club's tournament.
- ``/nk inschrijven rating [recht=top|groep1]`` (``register``), member: register yourself; the director
  confirms eligibility. Director: ``/nk inschrijven Naam rating [sterkte=N] [recht=...]``: registered
  and confirmed at once.
- ``/nk goedkeuren Naam|alle`` (``approve``), director: confirm a registration (eligible to play).
- ``/nk ronde`` (``round``), director: pair the next round and announce it (the first closes registration).
- ``/nk indeling [naam] [ronde]`` (``pairings``): the boards of the current (or a given) round, of the
  current tournament or a past one by its name.
- ``/nk uitslag gewonnen|verloren`` (``result won|lost``): report your game; the opponent confirms.
  Director: ``/nk uitslag Naam gewonnen|verloren [reglementair] [ronde]`` enters or corrects any game.
- ``/nk bevestig`` (``confirm``): confirm the result your opponent reported.
- ``/nk stand [naam]`` (``standings``): the table, and who can still become champion; a past tournament's by its name.
- ``/nk egf`` (``egf``), director: the results in the EGF format, as a file.
"""

from __future__ import annotations

import asyncio
import logging
import re

from engine import mcmahon

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.membership import check_joining, join_name
from bot.core.club.name_key import name_key
from bot.core.club.name_rules import check_name
from bot.core.commands.registry import Command, Registry
from bot.core.i18n import t
from bot.core.output.pictures import picture_spec
from bot.core.commands.replies import Button, Reply
from bot.nk import params
from bot.nk.adjustments import MAX_NAME, swap, withdraw
from bot.nk.lookups import current as _current
from bot.nk.lookups import running as _running
from bot.nk.pairings import indeling
from bot.nk.players import egf_details, split_egf, store_egf
from bot.nk.source import NkSource
from bot.nk.store import NK_KOMI, NkGame, NkStore, NkTournament
from bot.nk.tables import _egf, _stand, _standings_reply, round_announcement

_log = logging.getLogger(__name__)

SUB = {
    "nieuw": "nieuw", "new": "nieuw",
    "inschrijven": "inschrijven", "register": "inschrijven",
    "goedkeuren": "goedkeuren", "approve": "goedkeuren",
    "ronde": "ronde", "round": "ronde",
    "indeling": "indeling", "pairings": "indeling",
    "uitslag": "uitslag", "result": "uitslag",
    "bevestig": "bevestig", "confirm": "bevestig",
    "stand": "stand", "standings": "stand",
    "egf": "egf",
    "terugtrekken": "terugtrekken", "withdraw": "terugtrekken",
    "wissel": "wissel", "swap": "wissel",
    "speler": "speler", "player": "speler",
}  # fmt: skip
DIRECTOR_SUBS = {"nieuw", "goedkeuren", "ronde", "egf", "terugtrekken", "wissel", "speler"}
_WON = {"gewonnen", "winst", "won", "win"}
_LOST = {"verloren", "verlies", "lost", "loss"}
_FORFEIT = {"reglementair", "forfeit"}
_DOUBLE = {"dubbel", "double", "beiden"}  # a double forfeit: neither came, both lose
_JIGO = {"jigo", "gelijk", "remise", "draw"}  # half a point each
_EARNED = {"top": mcmahon.EARNED_TOP, "topgroep": mcmahon.EARNED_TOP, "groep1": mcmahon.EARNED_GROUP1,
           "group1": mcmahon.EARNED_GROUP1, "1": mcmahon.EARNED_GROUP1, "0": mcmahon.EARNED_TOP}  # fmt: skip


def register(registry: Registry) -> None:
    registry.add(Command("nk", cmd_nk, english="championship", confirms_result=True, params=params.NK))  # /nk uitslag: a result
    # /stand nk: the NK's table; and in a club that runs only an NK tournament, /stand is its table
    registry.route("stand", ("nk", "championship"), nk_standings, fallback=True)
    registry.competitions.append(NkSource())


async def nk_standings(core: Core, ctx: Context) -> Reply:
    return await cmd_nk(core, ctx.with_args(["stand", *ctx.args]))


def _int(text: str) -> int | None:
    return int(text) if re.fullmatch(r"[+-]?[0-9]{1,6}", text.strip()) else None


def _points(text: str) -> float | None:
    """Last year's points: whole or half (after a jigo): ``3``, ``3.5``, ``3,5``, ``3½``, ``-1.5``."""
    match = re.fullmatch(r"([+-]?)([0-9]{1,3})(?:[.,]([05])|(½))?", text.strip())
    if match is None:
        return None
    sign, whole, decimal, half = match.groups()
    value = int(whole) + (0.5 if decimal == "5" or half else 0)
    return -value if sign == "-" else value


async def cmd_nk(core: Core, ctx: Context) -> Reply:
    if not ctx.args or ctx.args[0].lower() not in SUB:
        raise UserError("error_usage", usage=ctx.t("nk_usage"))
    sub = SUB[ctx.args[0].lower()]
    if sub in DIRECTOR_SUBS and not ctx.is_director:
        raise UserError("error_director_only", command=f"nk {sub}")
    args = ctx.args[1:]
    nk = NkStore(core.store)
    handler = {
        "nieuw": _nieuw, "inschrijven": _inschrijven, "goedkeuren": _goedkeuren, "ronde": _ronde,
        "indeling": indeling, "uitslag": _uitslag, "bevestig": _bevestig, "stand": _stand, "egf": _egf,
        "terugtrekken": withdraw, "wissel": swap, "speler": egf_details,
    }[sub]  # fmt: skip
    return await handler(core, nk, ctx, args)


def _options(args: list[str], keys: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    rest: list[str] = []
    values: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep:
            if key.lower() not in keys or not value:
                raise UserError("error_usage", usage="")
            values[keys[key.lower()]] = value
        else:
            rest.append(arg)
    return rest, values


# --------------------------------------------------------------------------- director: create, register, approve

MAX_TIME_CONTROL = 40
_KOMI = re.compile(r"1?[0-9](\.[05])?|20(\.0)?")  # 0 to 20 points, whole or half: komi=6.5, komi=7


async def _nieuw(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    try:
        rest, values = _options(args, {"rondes": "rounds", "rounds": "rounds", "groep": "size", "group": "size", "komi": "komi",
                                       "tempo": "time_control", "timecontrol": "time_control"})  # fmt: skip
    except UserError:
        raise UserError("error_usage", usage=ctx.t("nk_usage_nieuw"))
    name = " ".join(" ".join(rest).split())
    if not name or len(name) > MAX_NAME:
        raise UserError("error_usage", usage=ctx.t("nk_usage_nieuw"))
    rounds = _int(values.get("rounds", "7"))
    size = _int(values.get("size", "16"))
    if rounds is None or not 1 <= rounds <= 20:
        raise UserError("error_bad_number", value=values.get("rounds", "")[:20], low=1, high=20)
    if size is None or not 2 <= size <= 1000:
        raise UserError("error_bad_number", value=values.get("size", "")[:20], low=2, high=1000)
    komi = values.get("komi", NK_KOMI).replace(",", ".")
    if not _KOMI.fullmatch(komi):  # a whole or half number of points: 6.5 (the default, no jigo), 7, 0.5
        raise UserError("nk_error_komi", given=values.get("komi", "")[:10])
    komi = komi.removesuffix(".0")
    time_control = " ".join(values.get("time_control", "").split())  # one line, as the director wrote it
    if len(time_control) > MAX_TIME_CONTROL:
        raise UserError("nk_error_time_control_long", most=MAX_TIME_CONTROL)
    running = await nk.active(ctx.club.id)
    if running is not None:
        raise UserError("nk_error_running", name=running.name)
    if await nk.by_name(ctx.club.id, name) is not None:
        raise UserError("nk_error_exists", name=name)
    await nk.create(ctx.club.id, name, rounds, size, ctx.now, komi, time_control)
    rights = await _last_years_rights(nk, ctx.club.id)
    lines = [ctx.t("nk_created", name=name, rounds=rounds, size=size)]
    if komi != NK_KOMI:
        lines.append(ctx.t("nk_created_komi", komi=komi))
    if time_control:
        lines.append(ctx.t("nk_created_time_control", time_control=time_control))
    if rights:
        lines.append(ctx.t("nk_rights_carried", count=len(rights)))
    return Reply(lines=tuple(lines))


async def _last_years_rights(nk: NkStore, club_id: int, before: int | None = None) -> dict[int, str]:
    """Member id -> the right they earned in the club's last finished tournament (before ``before``):
    taken over when they register for the next one, unless the director enters another."""
    finished = [t for t in await nk.tournaments(club_id) if t.status == "finished" and (before is None or t.id < before)]
    if not finished:
        return {}
    rights = mcmahon.next_year_rights(await nk.load(finished[-1]))
    return {int(pid): right for pid, right in rights.items()}


def _registration(ctx: Context, args: list[str], usage: str) -> tuple[list[str], int, int | None, str | None]:
    """Name words, rating, strength override, earned right from ``... rating [sterkte=N] [recht=top]``."""
    keys = {"sterkte": "strength", "strength": "strength", "recht": "earned", "right": "earned",
            "punten": "points", "points": "points"}  # fmt: skip
    try:
        rest, values = _options(args, keys)
    except UserError:
        raise UserError("error_usage", usage=ctx.t(usage))
    if not rest or _int(rest[-1]) is None:
        raise UserError("error_usage", usage=ctx.t(usage))
    rating = _int(rest[-1])
    assert rating is not None
    if not -900 <= rating <= 3500:
        raise UserError("error_bad_number", value=rest[-1][:20], low=-900, high=3500)
    strength: int | None = None
    if "strength" in values:
        strength = _int(values["strength"])
        if strength is None or not -900 <= strength <= 3500:
            raise UserError("error_bad_number", value=values["strength"][:20], low=-900, high=3500)
    earned: str | None = None
    if "earned" in values:
        earned = _EARNED.get(values["earned"].lower())
        if earned is None:
            raise UserError("error_usage", usage=ctx.t(usage))
    if "points" in values:
        points = _points(values["points"])
        if points is None or not -20 <= points <= 20:
            raise UserError("nk_error_bad_points", value=values["points"][:20])
        earned = mcmahon.earned_right(points)
    return rest[:-1], rating, strength, earned


async def _inschrijven(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    tour = await _running(nk, ctx)
    if tour.status != "registration":
        raise UserError("nk_error_registration_closed", name=tour.name)
    usage = "nk_usage_inschrijven_director" if ctx.is_director else "nk_usage_inschrijven"
    args, egf = split_egf(ctx, args)  # club= land= pin=, for the EGF file
    words, rating, strength, earned = _registration(ctx, args, usage)
    store = core.store
    if words:
        if not ctx.is_director:
            raise UserError("error_usage", usage=ctx.t(usage))
        name = " ".join(" ".join(words).split())
        if len(name) > MAX_NAME:
            raise UserError("error_bad_name", limit=MAX_NAME)
        member = await store.member_by_name(ctx.club.id, name)
        if earned is None and member is not None:  # last year's right, unless the director enters another
            earned = (await _last_years_rights(nk, ctx.club.id, tour.id)).get(member.id)
        if new := member is None:
            check_name(ctx, name)  # a new name: not a mention, a number or a command's word
        async with store.transaction():
            if member is None:
                member = await store.add_member(ctx.club.id, name, rating, ctx.now)
            await nk.upsert_player(tour.id, member.id, rating, strength, earned, True, ctx.now)
            await store_egf(nk, tour.id, member.id, egf)
        said = ctx.t("nk_registered_by_director", name=member.name, tournament=tour.name, rating=rating)
        # a name nobody in the club has is a new player: said, so that a typo does not go unseen
        return Reply(lines=(said, ctx.t("nk_registered_new_player", name=member.name)) if new else (said,))
    if strength is not None and not ctx.is_director:
        raise UserError("error_director_only", command="nk inschrijven sterkte=")
    if earned is not None and not ctx.is_director:  # an earned right is the director's to enter
        raise UserError("error_director_only", command="nk inschrijven recht=")
    member = ctx.member
    if member is None:
        await check_joining(ctx)
    registered = await nk.player(tour.id, member.id) if member is not None else None
    if registered is not None and not ctx.is_director:
        if registered.confirmed:
            raise UserError("nk_error_already_confirmed", name=registered.name)
        # registered before (by themselves or the director): only the rating they give changes; the
        # director's strength override and earned right stay
        strength, earned = registered.strength, registered.earned
    elif member is not None and not ctx.is_director:
        earned = (await _last_years_rights(nk, ctx.club.id, tour.id)).get(member.id)  # what they earned last year
    async with store.transaction():
        if member is None:
            member = await store.add_member(ctx.club.id, join_name(ctx), 0, ctx.now)
            await store.link_identity(ctx.club.id, ctx.actor.user_id, member.id)
        await nk.upsert_player(tour.id, member.id, rating, strength, earned, ctx.is_director, ctx.now)
        await store_egf(nk, tour.id, member.id, egf)
    key = "nk_registered_by_director" if ctx.is_director else "nk_registered"
    return Reply(lines=(ctx.t(key, name=member.name, tournament=tour.name, rating=rating),), private=not ctx.is_director)


async def _goedkeuren(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    tour = await _running(nk, ctx)
    if tour.status != "registration":
        raise UserError("nk_error_registration_closed", name=tour.name)
    if not args:
        raise UserError("error_usage", usage=ctx.t("nk_usage_goedkeuren"))
    players = await nk.players(tour.id)
    if [a.lower() for a in args] in (["alle"], ["all"]):
        todo = [p for p in players if not p.confirmed]
    else:
        name = " ".join(args)
        todo = [p for p in players if name_key(p.name) == name_key(name)]
        if not todo:
            raise UserError("nk_error_not_registered", name=name[:MAX_NAME])
    async with core.store.transaction():
        for p in todo:
            await nk.confirm_player(tour.id, p.member_id)
    return Reply(lines=(ctx.t("nk_approved", count=len(todo), names=", ".join(p.name for p in todo) or "-"),))


# --------------------------------------------------------------------------- director: pair a round


async def _ronde(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    if args:
        raise UserError("error_usage", usage=ctx.t("nk_usage"))
    tour = await _current(nk, ctx)
    if tour.status == "finished":
        raise UserError("nk_error_over", name=tour.name)
    data = await nk.load(tour)
    field = mcmahon.field_of(data.players)
    if len(field) < 2:
        raise UserError("nk_error_too_few", count=len(field))
    stat = mcmahon.status(data)
    if stat.next_round is None:
        raise UserError("nk_error_over", name=tour.name)
    open_round = next((r.number for r in data.rounds if not all(mcmahon.decided(g) for g in r.games)), None)
    if open_round is not None:
        raise UserError("nk_error_round_open", round=open_round)
    present = [p for p in field if p.withdrawn_from is None or p.withdrawn_from > stat.next_round]
    if len(present) < 2:
        raise UserError("nk_error_too_few_left", count=len(present), withdrawn=len(field) - len(present))
    forbidden = await nk.forbidden(tour)  # /indeling verbied: kept apart in the NK as in the Keizer pairing
    try:
        pairing = await asyncio.to_thread(mcmahon.pair_next, data, forbidden)  # a 500-player round: off the event loop
    except Exception:  # an engine error is a bug: logged, and said as what it is, not "Er ging iets mis"
        _log.exception("pairing NK tournament %s round %s", tour.id, stat.next_round)
        raise UserError("nk_error_cannot_pair", round=stat.next_round)
    names = {p.id: p.name for p in data.players}
    club = ctx.club
    title_key = "nk_title_round_title" if pairing.title_round else "nk_pairing_title"
    body, picture = round_announcement(
        club.language, t(club.language, title_key, name=tour.name, round=pairing.round), (),
        [(g.board, names[g.black], names[g.white]) for g in pairing.games],
        names[pairing.bye] if pairing.bye is not None else None,
    )  # fmt: skip
    async with core.store.transaction():
        if tour.status == "registration":
            await nk.set_status(tour.id, "running")
        await nk.save_round(tour.id, pairing, ctx.now)
        await nk.announce_once(club.id, f"nk:{tour.id}:round:{pairing.round}", body, ctx.now, picture)
    return Reply(lines=(ctx.t("nk_round_paired", round=pairing.round, games=len(pairing.games)),))


# --------------------------------------------------------------------------- pairings, results


async def _game_of(nk: NkStore, ctx: Context, tour: NkTournament, member_id: int, number: int | None) -> NkGame:
    games = await nk.games(tour.id)
    rounds = [r[1] for r in await nk.rounds(tour.id)]
    if not rounds:
        raise UserError("nk_error_no_round")
    number = rounds[-1] if number is None else number
    if number not in rounds:
        raise UserError("nk_error_unknown_round", round=number, count=len(rounds))
    for g in games:
        if g.number == number and member_id in (g.black_id, g.white_id):
            return g
    if ctx.member is not None and member_id == ctx.member.id:
        raise UserError("nk_error_no_game", round=number)
    member = await ctx.core.store.member(member_id) if ctx.core is not None else None
    raise UserError("nk_error_no_game_of", name=member.name if member else "?", round=number)


def _whole(komi: str) -> bool:
    """Is the komi a whole number (``7``: a jigo can happen), not ``6.5`` or ``6,5``?"""
    try:
        return float(komi.replace(",", ".")).is_integer()
    except ValueError:
        return True  # a komi the bot cannot read does not stop a result


async def _uitslag(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    tour = await _current(nk, ctx)
    won: bool | None = None
    forfeit = double = jigo = False
    number: int | None = None
    words: list[str] = []
    for arg in args:
        low = arg.lower()
        if low in _WON and won is None:
            won = True
        elif low in _LOST and won is None:
            won = False
        elif low in _FORFEIT:
            forfeit = True
        elif low in _DOUBLE and won is None:
            won, forfeit, double = False, True, True
        elif low in _JIGO and won is None:
            won, jigo = False, True
        elif _int(arg) is not None and number is None:
            number = _int(arg)
        else:
            words.append(arg)
    if won is None or ((words or forfeit) and not ctx.is_director) or (double and not words) or (jigo and forfeit):
        raise UserError("error_usage", usage=ctx.t("nk_usage_uitslag"))
    if jigo and not _whole(tour.komi):
        raise UserError("nk_error_jigo_komi", komi=tour.komi)  # 6.5: the score on the board is never equal
    store = core.store
    if words:
        member = await store.member_by_name(ctx.club.id, " ".join(words))
        if member is None:
            raise UserError("error_unknown_player", name=" ".join(words)[:MAX_NAME])
        game = await _game_of(nk, ctx, tour, member.id, number)
        other = game.white_id if game.black_id == member.id else game.black_id
        winner = None if double or jigo else (member.id if won else other)
        async with store.transaction():
            await nk.set_result(game.id, winner, forfeit, ctx.now, jigo=jigo)
            await _after_result(core, nk, ctx, tour, game.number)
        if double:
            return Reply(lines=(ctx.t("nk_result_double", board=game.board, round=game.number),))
        if jigo:
            return Reply(lines=(ctx.t("nk_result_jigo", board=game.board, round=game.number),))
        name = member.name if won else (await store.member(other)).name  # type: ignore[union-attr]  # a game's player is a member
        return Reply(lines=(ctx.t("nk_result_set", board=game.board, round=game.number, name=name),))
    if ctx.member is None:
        raise UserError("nk_error_not_a_member")
    me = ctx.member.id
    game = await _game_of(nk, ctx, tour, me, number)
    if game.has_result:
        raise UserError("nk_error_result_confirmed", round=game.number)
    other = game.white_id if game.black_id == me else game.black_id
    winner = None if jigo else me if won else other
    other_name = (await store.member(other)).name  # type: ignore[union-attr]  # a game's player is a member
    if game.reported and game.reported_by == other:
        if (game.reported_winner, game.reported_jigo) != (winner, jigo):
            raise UserError("nk_error_conflict", name=other_name)
        async with store.transaction():
            await nk.set_result(game.id, winner, False, ctx.now, jigo=jigo)
            await _after_result(core, nk, ctx, tour, game.number)
        return Reply(lines=(ctx.t("nk_result_confirmed", board=game.board, round=game.number),))
    await nk.report(game.id, winner, me, jigo)
    return Reply(
        lines=(ctx.t("nk_result_reported", name=other_name),),
        buttons=(Button.for_member(ctx.t("button_confirm", name=other_name), f"/nk bevestig {game.number}", other),),
    )


async def _bevestig(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    tour = await _current(nk, ctx)
    if len(args) > 1 or (args and _int(args[0]) is None):
        raise UserError("error_usage", usage=ctx.t("nk_usage"))
    if ctx.member is None:
        raise UserError("nk_error_not_a_member")
    game = await _game_of(nk, ctx, tour, ctx.member.id, _int(args[0]) if args else None)
    if game.has_result:
        raise UserError("nk_error_result_confirmed", round=game.number)
    if not game.reported or game.reported_by == ctx.member.id:
        raise UserError("error_nothing_to_confirm")
    async with core.store.transaction():
        await nk.set_result(game.id, game.reported_winner, False, ctx.now, jigo=game.reported_jigo)
        await _after_result(core, nk, ctx, tour, game.number)
    return Reply(lines=(ctx.t("nk_result_confirmed", board=game.board, round=game.number),))


async def _after_result(core: Core, nk: NkStore, ctx: Context, tour: NkTournament, number: int) -> None:
    """When a round's last result is in: announce the table (once per round); when the champion is
    known and every round is played, the tournament is finished and the champion announced (once)."""
    if not await nk.round_decided(tour.id, number):  # one query, not the whole tournament, while results come in
        return
    data = await nk.load(tour)
    lang = ctx.club.language
    standings = _standings_reply(ctx, tour, data, lang)
    assert standings.table is not None
    spec = picture_spec(standings.lines[0], standings.table, standings.lines[1:])  # drawn when it is sent
    await nk.announce_once(ctx.club.id, f"nk:{tour.id}:standings:{number}", standings.text, ctx.now, spec)
    stat = mcmahon.status(data)
    names = {p.id: p.name for p in data.players}
    # A correction re-evaluates everything: a champion announced before who is no longer the champion
    # gets a correction announcement, and a tournament that needs another round runs again.
    made = await nk.champion_announcements(ctx.club.id, tour.id)
    last = made[-1].split(":") if made else []
    said_open = bool(last) and last[-1] == "open"
    said_champion = None if said_open or not last else (last[3] if len(last) > 3 else stat.champion)  # old rows: no id
    if stat.champion is not None and (not made or said_open or said_champion != stat.champion):
        key = "nk_champion_corrected" if made else "nk_champion_announcement"
        body = t(lang, key, name=names[stat.champion], tournament=tour.name, round=stat.champion_after)
        kind = f"nk:{tour.id}:champion:{stat.champion}" + (f":{len(made)}" if made else "")
        await nk.announce_once(ctx.club.id, kind, body, ctx.now)
    elif stat.champion is None and made and not said_open:
        body = t(lang, "nk_champion_withdrawn", tournament=tour.name, round=stat.next_round or "-")
        await nk.announce_once(ctx.club.id, f"nk:{tour.id}:champion:{len(made)}:open", body, ctx.now)
    if stat.next_round is None and tour.status != "finished":
        await nk.set_status(tour.id, "finished")
    elif stat.next_round is not None and tour.status == "finished":
        await nk.set_status(tour.id, "running")  # the director pairs the round the correction needs
