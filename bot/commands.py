"""What every command means. Discord, Telegram, the console and the scheduler all come here.

``Commands.handle(actor, text)`` parses one command line (``/afmelden 3 teamwedstrijd``), checks the
actor's rights, reads and writes the store, calls the engine, and returns a ``Reply``. A refused command
(``Reply.ok`` False) has changed nothing: every change happens in one store transaction after all checks.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import re
import shlex
from dataclasses import dataclass, replace
from types import ModuleType
from datetime import date, datetime, time
from fractions import Fraction
from typing import Awaitable, Callable
from zoneinfo import ZoneInfo

from engine import pairing, season_file
from engine.keizer import KeizerSettings, Result

from bot import competition, season_io
from bot.calendar import local_text, parse_hhmm, parse_zone, season_rounds
from bot.clock import Clock
from bot.config import Config
from bot.i18n import LANGUAGES, t
from bot.pictures import table_png
from bot.replies import Button, Reply, Table
from bot.store import Club, GameRow, Member, RoundRow, Season, Store

log = logging.getLogger(__name__)

MAX_ARGS_LENGTH = 500
MAX_NAME_LENGTH = 60


@dataclass(frozen=True)
class SeasonOptions:
    name: str
    first_day: date
    rounds: int
    deadline: time
    publish: time
    zone_name: str
    zone: ZoneInfo
    kind: str
    rounds_given: bool
    start_order: str = "rating"  # "list": last season's final ranking (seed 004 Keizer rule a)


@dataclass(frozen=True)
class Actor:
    """Who typed the command, where: a platform user in a club (a Discord server, a Telegram group)."""

    platform: str
    club_external_id: str
    club_name: str
    user_id: str
    display_name: str
    is_director: bool = False  # from the platform: the director role, a group administrator


class UserError(Exception):
    """A refused command: the message key and its values. Raised before anything is changed."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass
class Context:
    actor: Actor
    club: Club
    member: Member | None
    now: datetime
    args: list[str]
    attachment: bytes | None = None

    @property
    def lang(self) -> str:
        return self.club.language

    @property
    def is_director(self) -> bool:
        return self.actor.is_director or (self.member is not None and self.member.is_director)

    def t(self, key: str, **values: object) -> str:
        return t(self.lang, key, **values)


Handler = Callable[["Commands", Context], Awaitable[Reply]]

# Dutch names are the commands; English names are aliases of them.
ALIASES = {
    "join": "aanmelden",
    "signon": "aanmelden",
    "withdraw": "afmelden",
    "signoff": "afmelden",
    "standings": "stand",
    "pairings": "indeling",
    "result": "uitslag",
    "confirm": "bevestig",
    "hulp": "help",
    "season": "seizoen",
    "player": "speler",
    "noshow": "nietverschenen",
    "standby": "invaller",
    "publish": "publiceer",
    "language": "taal",
    "channel": "kanaal",
    "prizes": "prijzen",
    "export": "exporteer",
    "import": "importeer",
}

PLAYER_COMMANDS = ("aanmelden", "afmelden", "stand", "indeling", "uitslag", "bevestig", "prijzen", "help")
DIRECTOR_COMMANDS = (
    "seizoen", "speler", "nietverschenen", "invaller", "publiceer", "exporteer", "importeer", "taal", "kanaal",
)  # fmt: skip

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
_TEAM_WORDS = {"teamwedstrijd", "team", "teammatch", "knsb", "fsb"}


def parse_command(text: str, aliases: dict[str, str] = ALIASES) -> tuple[str, list[str]]:
    """``/Afmelden@clubbot 3 "teamwedstrijd"`` -> ("afmelden", ["3", "teamwedstrijd"])."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        raise UserError("error_not_a_command")
    head, _, rest = stripped[1:].partition(" ")
    name = head.split("@", 1)[0].lower()
    if len(rest) > MAX_ARGS_LENGTH:
        raise UserError("error_too_long", limit=MAX_ARGS_LENGTH)
    try:
        args = shlex.split(rest)
    except ValueError:
        raise UserError("error_malformed")
    return aliases.get(name, name), args


class Commands:
    def __init__(self, store: Store, config: Config, clock: Clock) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self._handlers: dict[str, tuple[Handler, bool]] = {
            "aanmelden": (Commands.cmd_aanmelden, False),
            "afmelden": (Commands.cmd_afmelden, False),
            "stand": (Commands.cmd_stand, False),
            "indeling": (Commands.cmd_indeling, False),
            "uitslag": (Commands.cmd_uitslag, False),
            "bevestig": (Commands.cmd_bevestig, False),
            "prijzen": (Commands.cmd_prijzen, False),
            "help": (Commands.cmd_help, False),
            "seizoen": (Commands.cmd_seizoen, True),
            "speler": (Commands.cmd_speler, True),
            "nietverschenen": (Commands.cmd_nietverschenen, True),
            "invaller": (Commands.cmd_invaller, True),
            "publiceer": (Commands.cmd_publiceer, True),
            "exporteer": (Commands.cmd_exporteer, True),
            "importeer": (Commands.cmd_importeer, True),
            "taal": (Commands.cmd_taal, True),
            "kanaal": (Commands.cmd_kanaal, True),
        }
        self.aliases: dict[str, str] = dict(ALIASES)
        self.player_commands: list[str] = list(PLAYER_COMMANDS)
        self.director_commands: list[str] = list(DIRECTOR_COMMANDS)
        self.features: list[ModuleType] = _feature_modules()
        for module in self.features:
            module.register(self)

    def add(self, name: str, handler: Handler, director_only: bool = False, english: str | None = None) -> None:
        """Add a command (a feature module's ``register(commands)`` calls this): the Dutch ``name``, its
        English alias, and whether only a director may use it. Its help text is the key ``help_<name>``."""
        if name in self._handlers or name in self.aliases:
            raise ValueError(f"command /{name} exists already")
        self._handlers[name] = (handler, director_only)
        if english is not None and english != name:
            if english in self.aliases or english in self._handlers:
                raise ValueError(f"alias /{english} exists already")
            self.aliases[english] = name
        (self.director_commands if director_only else self.player_commands).append(name)

    # ------------------------------------------------------------------ entry point
    async def club_for(self, actor: Actor) -> Club:
        return await self.store.get_or_create_club(
            actor.platform,
            actor.club_external_id,
            actor.club_name,
            self.config.default_language,
            self.config.default_timezone,
            self.clock.now(),
        )

    async def handle(self, actor: Actor, text: str, attachment: bytes | None = None) -> Reply:
        """Answer one command line; ``attachment`` is a file that came with it (for /importeer).

        The handler runs inside one store transaction: atomic, and serialised with every other
        command and with the scheduler's work."""
        club = await self.club_for(actor)
        try:
            name, args = parse_command(text, self.aliases)
            entry = self._handlers.get(name)
            if entry is None:
                raise UserError("error_unknown_command", command=name[:40])
            handler, director_only = entry
            member = await self.store.member_by_identity(club.id, actor.user_id)
            ctx = Context(actor, club, member, self.clock.now(), args, attachment)
            if director_only and not ctx.is_director:
                raise UserError("error_director_only", command=name)
            # One transaction per command: commands run one at a time, see no one else's half-done
            # work, and whatever goes wrong (a refusal or a bug) rolls back everything they wrote.
            async with self.store.transaction():
                reply = await handler(self, ctx)
                if reply.ok:
                    for feature in self.features:  # e.g. grades: a confirmed result may earn a promotion
                        if hasattr(feature, "after_command"):
                            await feature.after_command(self, ctx, name)
                return reply
        except UserError as err:
            return Reply(lines=(t(club.language, err.key, **err.values),), ok=False, private=True)
        except Exception:  # a bug must not crash the bot; the transaction has rolled back
            log.exception("command failed: %r", text[:200])
            return Reply(lines=(t(club.language, "error_internal"),), ok=False, private=True)

    # ------------------------------------------------------------------ shared lookups
    async def _season(self, ctx: Context, kind: str = "main") -> Season:
        season = await self.store.active_season(ctx.club.id, kind)
        if season is None:
            raise UserError("error_no_rapid_season" if kind == "rapid" else "error_no_season")
        return season

    @staticmethod
    def _competition(ctx: Context) -> tuple[str, Context]:
        """The word ``rapid`` among a round command's arguments addresses the rapid competition (its own
        season, rounds and sign-offs); the other arguments stay as they were."""
        rest = [a for a in ctx.args if a.lower() != "rapid"]
        return ("main", ctx) if len(rest) == len(ctx.args) else ("rapid", replace(ctx, args=rest))

    def _require_member(self, ctx: Context) -> Member:
        if ctx.member is None:
            raise UserError("error_not_a_member")
        return ctx.member

    async def _find_member(self, ctx: Context, name: str) -> Member:
        member = await self.store.member_by_name(ctx.club.id, name)
        if member is None:
            raise UserError("error_unknown_player", name=name[:MAX_NAME_LENGTH])
        return member

    async def _round_by_number(self, ctx: Context, season: Season, text: str) -> RoundRow:
        number = _parse_int(text)
        row = await self.store.round_by_number(season.id, number) if number is not None else None
        if row is None:
            raise UserError("error_unknown_round", round=text[:10], count=season.rounds_count)
        return row

    async def _names(self, data: competition.SeasonData) -> dict[str, str]:
        return {p.id: p.name for p in data.players}

    # ------------------------------------------------------------------ /aanmelden
    async def cmd_aanmelden(self, ctx: Context) -> Reply:
        """Join the club (the chat identity becomes a member), rejoin after an automatic sign-off
        (seed 004 rule j), or take back a sign-off before the deadline (seed 004 rule k); with ``rapid``
        in the rapid competition.

        A player new to the season joins from the coming round, or from the round after it once the
        coming round's deadline has passed. Every check comes before the first write."""
        kind, ctx = self._competition(ctx)
        round_arg = [a for a in ctx.args if _parse_int(a) is not None]
        if len(round_arg) != len(ctx.args) or len(round_arg) > 1:
            raise UserError("error_usage", usage=ctx.t("usage_aanmelden"))
        at_hand = await self.store.season_at_hand(ctx.club.id, ctx.member.id if ctx.member else None, kind)
        if at_hand is None and kind == "rapid":
            raise UserError("error_no_rapid_season")
        season, coming, sp = at_hand if at_hand is not None else (None, None, None)
        target: RoundRow | None = None
        if season is not None:
            target = await self._round_by_number(ctx, season, round_arg[0]) if round_arg else coming
            if target is not None and target.status == "paired":
                raise UserError("error_round_paired", round=target.number)
        elif round_arg:
            raise UserError("error_no_season")
        member = ctx.member
        existing: Member | None = None
        if member is None:
            existing = await self._joining(ctx)
        elif season is not None and target is None:
            raise UserError("error_season_over")
        signoff = await self.store.signoff(target.id, member.id) if target and member else None
        late = target is not None and ctx.now >= target.deadline_at and not ctx.is_director
        if signoff is not None and late:
            assert target is not None
            raise UserError("error_deadline_passed", round=target.number, deadline=self._local(ctx, target.deadline_at))
        lines: list[str] = []
        async with self.store.transaction():
            if member is None:
                name = self._join_name(ctx)
                member = existing or await self.store.add_member(ctx.club.id, name, 0, ctx.now)
                await self.store.link_identity(ctx.club.id, ctx.actor.user_id, member.id)
                lines.append(ctx.t("joined", name=member.name))
            if season is None or target is None:
                lines.append(ctx.t("no_season_yet"))
                return Reply(lines=tuple(lines), private=True)
            first_round = target.number
            if sp is None:
                first_round = target.number + 1 if late else target.number
                await self.store.upsert_season_player(season.id, member.id, member.rating, first_round)
            elif sp.auto_signed_off:
                await self.store.set_auto_signed_off(season.id, member.id, False)
                lines.append(ctx.t("auto_signoff_lifted"))
            if signoff is not None:
                await self.store.delete_signoff(target.id, member.id)
        first = target if first_round == target.number else await self.store.round_by_number(season.id, first_round)
        if first is None:
            lines.append(ctx.t("error_season_over"))
        else:
            lines.append(ctx.t("signed_on", round=first.number, date=first.play_date))
        return Reply(lines=tuple(lines), private=True)

    def _join_name(self, ctx: Context) -> str:
        return " ".join(ctx.actor.display_name.split())[:MAX_NAME_LENGTH] or ctx.actor.user_id[:MAX_NAME_LENGTH]

    async def _joining(self, ctx: Context) -> Member | None:
        """Check that a new chat identity can join; the unlinked member of the same name, if any."""
        name = self._join_name(ctx)
        existing = await self.store.member_by_name(ctx.club.id, name)
        if existing is not None and await self.store.member_is_linked(existing.id):
            raise UserError("error_name_taken", name=name)
        return existing

    # ------------------------------------------------------------------ /afmelden
    async def cmd_afmelden(self, ctx: Context) -> Reply:
        """Sign off for the coming round or a named one, before its deadline (seed 004 rule k);
        ``teamwedstrijd`` marks a club team match (seed 004 Keizer rule e). A director may sign off any
        player, also after the deadline, as long as the round is not paired. ``rapid``: in the rapid
        competition."""
        kind, ctx = self._competition(ctx)
        at_hand = await self.store.season_at_hand(ctx.club.id, ctx.member.id if ctx.member else None, kind)
        if at_hand is None:
            raise UserError("error_no_rapid_season" if kind == "rapid" else "error_no_season")
        season, coming, own_place = at_hand
        kind = "notice"
        round_text: str | None = None
        name_parts: list[str] = []
        for arg in ctx.args:
            if arg.lower() in _TEAM_WORDS:
                kind = "team"
            elif _parse_int(arg) is not None and round_text is None:
                round_text = arg
            else:
                name_parts.append(arg)
        if name_parts:
            if not ctx.is_director:
                raise UserError("error_usage", usage=ctx.t("usage_afmelden"))
            member = await self._find_member(ctx, " ".join(name_parts))
        else:
            member = self._require_member(ctx)
        target = await self._round_by_number(ctx, season, round_text) if round_text else coming
        if target is None:
            raise UserError("error_season_over")
        if target.status == "paired":
            raise UserError("error_round_paired", round=target.number)
        if ctx.now >= target.deadline_at and not ctx.is_director:
            raise UserError("error_deadline_passed", round=target.number, deadline=self._local(ctx, target.deadline_at))
        sp = own_place if member is ctx.member else await self.store.season_player(season.id, member.id)
        async with self.store.transaction():
            if sp is None:
                await self.store.upsert_season_player(season.id, member.id, member.rating, target.number)
            await self.store.set_signoff(target.id, member.id, kind, ctx.member.id if ctx.member else None, ctx.now)
        key = "signed_off_team" if kind == "team" else "signed_off"
        return Reply(lines=(ctx.t(key, name=member.name, round=target.number, date=target.play_date),), private=True)

    # ------------------------------------------------------------------ /stand
    async def cmd_stand(self, ctx: Context) -> Reply:
        """The standings after the last paired round; ``/stand A`` one group, ``/stand rapid`` the rapid
        competition, ``/stand 5`` after round 5."""
        group: str | None = None
        after: int | None = None
        if ctx.args and ctx.args[0].lower() in ("nk", "championship") and "nk" in self._handlers:
            return await self._nk_standings(ctx, ctx.args[1:])
        if not ctx.args and "nk" in self._handlers and await self.store.active_season(ctx.club.id) is None:
            try:  # a club that runs only an NK tournament: /stand is its table
                return await self._nk_standings(ctx, [])
            except UserError:
                pass
        kind, ctx = self._competition(ctx)
        for arg in ctx.args:
            if _parse_int(arg) is not None:
                after = _parse_int(arg)
            elif len(arg) == 1 and arg.upper() in "ABCD":
                group = arg.upper()
            else:
                raise UserError("error_usage", usage=ctx.t("usage_stand"))
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        played = [r.number for r in data.rounds]
        if after is not None and after not in played:
            raise UserError("error_unknown_round", round=after, count=season.rounds_count)
        rows = competition.standings(data, after_round=after)
        if group is not None:
            rows = [s for s in rows if s.player.group == group]
        shown_after = after if after is not None else (max(played) if played else 0)
        table = Table(
            headers=(ctx.t("col_rank"), ctx.t("col_name"), ctx.t("col_score"), ctx.t("col_value"), ctx.t("col_played")),
            rows=tuple((str(s.rank), s.player.name, fmt_points(s.score), str(s.value), str(s.played)) for s in rows),
        )
        title = ctx.t("standings_title", season=season.name, round=shown_after)
        if group is not None:
            title += " " + ctx.t("group_suffix", group=group)
        return Reply(lines=(title,), table=table, image=table_png(title, table))

    # ------------------------------------------------------------------ /prijzen
    async def cmd_prijzen(self, ctx: Context) -> Reply:
        """The prizes as they stand (seed 004 rules d, e): club champion, group winners, riser prize and
        rapid champion, among the players who played at least 2/3 of the season's rounds."""
        from engine import season as season_rules

        if ctx.args:
            raise UserError("error_usage", usage=ctx.t("usage_prijzen"))
        season = await self._season(ctx)
        data = await competition.load(self.store, season)
        rapid = None
        rapid_season = await self.store.active_season(ctx.club.id, "rapid")
        names = {p.id: p.name for p in data.players}
        if rapid_season is not None:
            rdata = await competition.load(self.store, rapid_season)
            rapid = (rdata.players, rdata.rounds, rdata.settings)
            names.update({p.id: p.name for p in rdata.players})
        prizes = season_rules.prizes_from_rounds(
            data.players, data.rounds, data.settings, season_rounds=season.rounds_count, rapid=rapid
        )

        def line(label: str, prize: season_rules.Prize | None) -> str:
            if prize is None or prize.winner is None:
                return ctx.t("prize_line_none", prize=label)
            return ctx.t("prize_line", prize=label, name=names.get(prize.winner, prize.winner))

        played = max((r.number for r in data.rounds), default=0)
        lines = [ctx.t("prizes_title", season=season.name, round=played, required=prizes.required)]
        lines.append(line(ctx.t("prize_champion"), prizes.champion))
        for prize in prizes.group_winners:
            lines.append(line(ctx.t("prize_group", group=prize.group), prize))
        lines.append(line(ctx.t("prize_riser"), prizes.riser))
        if prizes.rapid_champion is not None:
            lines.append(line(ctx.t("prize_rapid"), prizes.rapid_champion))
        return Reply(lines=tuple(lines))

    async def _nk_standings(self, ctx: Context, rest: list[str]) -> Reply:
        """``/stand nk``: the NK tournament's table (the mcmahon feature's ``/nk stand``)."""
        handler, _ = self._handlers["nk"]
        return await handler(self, Context(ctx.actor, ctx.club, ctx.member, ctx.now, ["stand", *rest], ctx.attachment))

    # ------------------------------------------------------------------ /indeling
    async def cmd_indeling(self, ctx: Context) -> Reply:
        kind, ctx = self._competition(ctx)
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        if ctx.args:
            if len(ctx.args) != 1:
                raise UserError("error_usage", usage=ctx.t("usage_indeling"))
            row = await self._round_by_number(ctx, season, ctx.args[0])
            if row.status != "paired":
                raise UserError("error_round_not_paired", round=row.number, publish=self._local(ctx, row.publish_at))
        else:
            row = competition.current_round(data)
            if row is None:
                coming = competition.coming_round(data)
                if coming is None:
                    raise UserError("error_season_over")
                raise UserError("error_round_not_paired", round=coming.number, publish=self._local(ctx, coming.publish_at))
        return await self._pairing_reply(ctx, data, row)

    async def _pairing_reply(self, ctx: Context, data: competition.SeasonData, row: RoundRow) -> Reply:
        names = {int(p.id): p.name for p in data.players}
        games = await self.store.games_of_round(row.id)
        table = Table(
            headers=(ctx.t("col_board"), ctx.t("col_white"), ctx.t("col_black"), ctx.t("col_result")),
            rows=tuple(
                (str(g.board), names[g.white_id], names[g.black_id], _result_text(ctx.lang, g)) for g in games
            ),
        )
        lines = [ctx.t("pairing_title", round=row.number, date=row.play_date)]
        bye = await self.store.bye_of_round(row.id)
        if bye is not None:
            lines.append(ctx.t("bye_line", name=names[bye]))
        return Reply(lines=tuple(lines), table=table)

    # ------------------------------------------------------------------ /uitslag and /bevestig
    async def cmd_uitslag(self, ctx: Context) -> Reply:
        """A player reports the result of their own game (the opponent confirms with /bevestig or by
        reporting the same); a director enters or corrects any game: ``/uitslag Naam 1-0 [ronde]``."""
        kind, ctx = self._competition(ctx)
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        result: str | None = None
        round_text: str | None = None
        name_parts: list[str] = []
        for arg in ctx.args:
            low = arg.lower()
            if low in _RESULT_WORDS:
                result = _RESULT_WORDS[low]
            elif low in _OWN_SIDE and not name_parts:
                result = _OWN_SIDE[low]
            elif low in _FORFEITS and ctx.is_director:
                result = _FORFEITS[low]
            elif _parse_int(arg) is not None and round_text is None:
                round_text = arg
            else:
                name_parts.append(arg)
        if result is None:
            raise UserError("error_usage", usage=ctx.t("usage_uitslag"))
        if name_parts and (not ctx.is_director or result in ("won", "lost")):
            raise UserError("error_usage", usage=ctx.t("usage_uitslag"))
        row = await self._result_round(ctx, season, data, round_text)
        if name_parts:
            member = await self._find_member(ctx, " ".join(name_parts))
            game = await self._game_of(ctx, row, member)
            await self.store.set_result(game.id, result, ctx.now)
            await self._after_result(ctx, season, row)
            return Reply(lines=(ctx.t("result_set", board=game.board, round=row.number, result=result),))
        member = self._require_member(ctx)
        game = await self._game_of(ctx, row, member)
        if game.result is not None:
            raise UserError("error_result_confirmed", round=row.number, result=game.result)
        opponent = game.black_id if game.white_id == member.id else game.white_id
        if result in ("won", "lost"):
            white_won = (result == "won") == (game.white_id == member.id)
            result = "1-0" if white_won else "0-1"
        names = await self._names(data)
        if game.reported_result is not None and game.reported_by == opponent:
            if game.reported_result != result:
                raise UserError(
                    "error_result_conflict", reported=game.reported_result, name=names[str(opponent)], result=result
                )
            await self.store.set_result(game.id, result, ctx.now)
            await self._after_result(ctx, season, row)
            return Reply(lines=(ctx.t("result_confirmed", board=game.board, round=row.number, result=result),))
        await self.store.report_result(game.id, result, member.id)
        return Reply(
            lines=(ctx.t("result_reported", result=result, name=names[str(opponent)]),),
            buttons=(Button(ctx.t("button_confirm", name=names[str(opponent)]), _confirm_command(season, row.number)),),
        )

    async def cmd_bevestig(self, ctx: Context) -> Reply:
        kind, ctx = self._competition(ctx)
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        member = self._require_member(ctx)
        round_text = ctx.args[0] if ctx.args else None
        if len(ctx.args) > 1:
            raise UserError("error_usage", usage=ctx.t("usage_bevestig"))
        row = await self._result_round(ctx, season, data, round_text)
        game = await self._game_of(ctx, row, member)
        if game.result is not None:
            raise UserError("error_result_confirmed", round=row.number, result=game.result)
        if game.reported_result is None or game.reported_by == member.id:
            raise UserError("error_nothing_to_confirm")
        await self.store.set_result(game.id, game.reported_result, ctx.now)
        await self._after_result(ctx, season, row)
        return Reply(lines=(ctx.t("result_confirmed", board=game.board, round=row.number, result=game.reported_result),))

    async def _result_round(
        self, ctx: Context, season: Season, data: competition.SeasonData, round_text: str | None
    ) -> RoundRow:
        if round_text is not None:
            row = await self._round_by_number(ctx, season, round_text)
            if row.status != "paired":
                raise UserError("error_round_not_paired", round=row.number, publish=self._local(ctx, row.publish_at))
            return row
        row = competition.current_round(data)
        if row is None:
            raise UserError("error_no_game")
        return row

    async def _game_of(self, ctx: Context, row: RoundRow, member: Member) -> GameRow:
        for game in await self.store.games_of_round(row.id):
            if member.id in (game.white_id, game.black_id):
                return game
        raise UserError("error_no_game_in_round", name=member.name, round=row.number)

    async def _after_result(self, ctx: Context, season: Season, row: RoundRow) -> None:
        """When the last result of a round is in, the standings are announced (once per round)."""
        games = await self.store.games_of_round(row.id)
        if games and all(g.result is not None for g in games):
            args = ["rapid", str(row.number)] if season.kind == "rapid" else [str(row.number)]
            reply = await self.cmd_stand(Context(ctx.actor, ctx.club, ctx.member, ctx.now, args))
            await self.store.queue_announcement(ctx.club.id, row.id, "standings", reply.text, ctx.now, reply.image)

    # ------------------------------------------------------------------ director: /seizoen
    async def cmd_seizoen(self, ctx: Context) -> Reply:
        """Create a season: ``/seizoen naam=2026-27 start=2026-12-03 rondes=28 deadline=17:00
        publicatie=18:00 tijdzone=Europe/Amsterdam soort=rapid``. One round a week from the start date."""
        opts = await self._season_options(ctx, "usage_seizoen", need_name=True)
        calendar = season_rounds(opts.first_day, opts.rounds, opts.deadline, opts.publish, opts.zone)
        if calendar[0][2] <= ctx.now:
            raise UserError("error_start_in_past", date=opts.first_day.isoformat())
        previous = await self.store.active_season(ctx.club.id, opts.kind)
        # Everyone who played last season (or, for a first season, every member) is in the new one;
        # with startvolgorde=eindstand in the order of last season's final ranking.
        positions: dict[int, int] = {}
        if previous is not None:
            last = await competition.load(self.store, previous)
            carried = [(sp.member_id, sp.rating, sp.group_name) for sp in last.season_players]
            if opts.start_order == "list":
                final = competition.standings(last)
                positions = {int(s.player.id): s.rank for s in final}
        else:
            if opts.start_order == "list":
                raise UserError("error_no_previous_season")
            carried = [(m.id, m.rating, None) for m in await self.store.members(ctx.club.id) if not m.is_director]
        settings = season_io.settings_json(KeizerSettings(start_order=opts.start_order))
        async with self.store.transaction():
            season = await self.store.create_season(
                ctx.club.id, opts.name, opts.kind, calendar, opts.deadline.strftime("%H:%M"),
                opts.publish.strftime("%H:%M"), opts.zone_name, settings, ctx.now,
            )  # fmt: skip
            for member_id, rating, group in carried:
                await self.store.upsert_season_player(season.id, member_id, rating, 1, group, positions.get(member_id))
        return Reply(lines=(self._season_created(ctx, opts, calendar, len(carried)),))

    def _season_created(self, ctx: Context, opts: "SeasonOptions", calendar: list, players: int) -> str:
        return ctx.t(
            "season_created", name=opts.name, rounds=opts.rounds, first=calendar[0][1],
            weekday=ctx.t(f"weekday_{opts.first_day.weekday()}"), deadline=opts.deadline.strftime("%H:%M"),
            publish=opts.publish.strftime("%H:%M"), timezone=opts.zone_name, players=players,
        )  # fmt: skip

    async def _season_options(self, ctx: Context, usage: str, need_name: bool) -> "SeasonOptions":
        """The key=value options of /seizoen and /importeer, checked."""
        keys = {
            "naam": "name", "name": "name", "start": "start", "rondes": "rounds", "rounds": "rounds",
            "deadline": "deadline", "publicatie": "publish", "publish": "publish", "tijdzone": "timezone",
            "timezone": "timezone", "soort": "kind", "kind": "kind", "startvolgorde": "start_order",
            "start_order": "start_order",
        }  # fmt: skip
        values: dict[str, str] = {}
        for arg in ctx.args:
            key, sep, value = arg.partition("=")
            if not sep or key.lower() not in keys or not value:
                raise UserError("error_usage", usage=ctx.t(usage))
            values[keys[key.lower()]] = value
        if (need_name and "name" not in values) or "start" not in values:
            raise UserError("error_usage", usage=ctx.t(usage))
        name = values.get("name", "")[:MAX_NAME_LENGTH]
        try:
            first_day = date.fromisoformat(values["start"])
        except ValueError:
            raise UserError("error_bad_date", value=values["start"][:20])
        rounds = _parse_int(values.get("rounds", str(self.config.season_rounds)))
        if rounds is None or not 1 <= rounds <= 200:
            raise UserError("error_bad_number", value=values.get("rounds", "")[:20], low=1, high=200)
        deadline = parse_hhmm(values.get("deadline", self.config.season_deadline))
        publish = parse_hhmm(values.get("publish", self.config.season_publish))
        if deadline is None or publish is None:
            raise UserError("error_bad_time")
        if publish < deadline:
            raise UserError("error_publish_before_deadline")
        zone_name = values.get("timezone", ctx.club.timezone)
        zone = parse_zone(zone_name)
        if zone is None:
            raise UserError("error_bad_timezone", value=zone_name[:40])
        kind = {"rapid": "rapid", "main": "main", "hoofd": "main"}.get(values.get("kind", "main").lower())
        if kind is None:
            raise UserError("error_usage", usage=ctx.t(usage))
        start_order = {"rating": "rating", "eindstand": "list", "ranking": "list"}.get(
            values.get("start_order", "rating").lower()
        )
        if start_order is None:
            raise UserError("error_usage", usage=ctx.t(usage))
        if name and await self.store.season_by_name(ctx.club.id, name) is not None:
            raise UserError("error_season_exists", name=name)
        return SeasonOptions(
            name, first_day, rounds, deadline, publish, zone_name, zone, kind, "rounds" in values, start_order
        )

    # ------------------------------------------------------------------ director: /exporteer, /importeer
    async def cmd_exporteer(self, ctx: Context) -> Reply:
        """The season as a season file (docs/season-file.md): ``/exporteer [rapid]``."""
        kind = "rapid" if [a.lower() for a in ctx.args] == ["rapid"] else "main"
        if ctx.args and kind == "main":
            raise UserError("error_usage", usage=ctx.t("usage_exporteer"))
        season = await self._season(ctx, kind)
        text = await season_io.export_text(self.store, season)
        filename = re.sub(r"[^A-Za-z0-9._-]+", "_", season.name).strip("_") + ".json"
        return Reply(lines=(ctx.t("exported", name=season.name),), attachment=(filename, text.encode("utf-8")))

    async def cmd_importeer(self, ctx: Context) -> Reply:
        """A new season from a season file sent with the command: ``/importeer start=2027-01-07
        [naam=...] [rondes=28] ...``; start is the date of the first round still to play."""
        if ctx.attachment is None:
            raise UserError("error_no_attachment")
        try:
            text = ctx.attachment.decode("utf-8")
        except UnicodeDecodeError:
            raise UserError("error_season_file", detail="not UTF-8 text")
        try:
            file = season_file.parse_season(text)
        except season_file.SeasonFileError as err:
            raise UserError("error_season_file", detail=str(err)[:500])
        opts = await self._season_options(ctx, "usage_importeer", need_name=False)
        name = opts.name or (file.name or "")[:MAX_NAME_LENGTH]
        if not name:
            raise UserError("error_usage", usage=ctx.t("usage_importeer"))
        if await self.store.season_by_name(ctx.club.id, name) is not None:
            raise UserError("error_season_exists", name=name)
        played = len(file.rounds)
        rounds = opts.rounds if opts.rounds_given else max(file.settings.cycles * file.settings.cycle_length, played + 1)
        if rounds <= played:
            raise UserError("error_bad_number", value=rounds, low=played + 1, high=200)
        first = season_rounds(opts.first_day, 1, opts.deadline, opts.publish, opts.zone)
        if first[0][2] <= ctx.now:
            raise UserError("error_start_in_past", date=opts.first_day.isoformat())
        season = await season_io.import_file(
            self.store, ctx.club.id, file, name, opts.kind, opts.first_day, rounds, opts.deadline, opts.publish,
            opts.zone_name, ctx.now,
        )  # fmt: skip
        return Reply(lines=(ctx.t("imported", name=season.name, players=len(file.players), played=played, rounds=rounds),))

    # ------------------------------------------------------------------ director: /speler
    async def cmd_speler(self, ctx: Context) -> Reply:
        """Add a player or change their rating: ``/speler Jan de Vries 1850 [groep=A]``; the player joins the
        main season, or with ``rapid`` the rapid competition."""
        kind, ctx = self._competition(ctx)
        group: str | None = None
        rest: list[str] = []
        for arg in ctx.args:
            key, sep, value = arg.partition("=")
            if sep and key.lower() in ("groep", "group"):
                if value.upper() not in ("A", "B", "C", "D"):
                    raise UserError("error_bad_group", value=value[:10])
                group = value.upper()
            else:
                rest.append(arg)
        if len(rest) < 2 or _parse_int(rest[-1]) is None:
            raise UserError("error_usage", usage=ctx.t("usage_speler"))
        rating = _parse_int(rest[-1])
        assert rating is not None
        if not 0 <= rating <= 4000:
            raise UserError("error_bad_number", value=rest[-1][:20], low=0, high=4000)
        name = " ".join(" ".join(rest[:-1]).split())
        if not name or len(name) > MAX_NAME_LENGTH:
            raise UserError("error_bad_name", limit=MAX_NAME_LENGTH)
        season = await self._season(ctx, kind) if kind == "rapid" else await self.store.active_season(ctx.club.id)
        member = await self.store.member_by_name(ctx.club.id, name)
        async with self.store.transaction():
            if member is None:
                member = await self.store.add_member(ctx.club.id, name, rating, ctx.now)
                key = "player_added"
            else:
                await self.store.update_member_rating(member.id, rating)
                key = "player_updated"
            if season is not None:
                data = await competition.load(self.store, season)
                coming = competition.coming_round(data)
                sp = await self.store.season_player(season.id, member.id)
                joined = sp.joined_round if sp else (coming.number if coming else season.rounds_count + 1)
                await self.store.upsert_season_player(season.id, member.id, rating, joined, group)
        return Reply(lines=(ctx.t(key, name=name, rating=rating),))

    # ------------------------------------------------------------------ director: no-shows and standby
    async def cmd_nietverschenen(self, ctx: Context) -> Reply:
        """Mark a paired player who did not come without notice: their game is lost by forfeit (seed 004
        Keizer rule f). After ``no_show_limit`` (2) such rounds in a row the player is signed off for the
        coming rounds until they sign on again with /aanmelden (seed 004 rule j)."""
        kind, ctx = self._competition(ctx)
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        round_text = None
        names = []
        for arg in ctx.args:
            if _parse_int(arg) is not None and round_text is None:
                round_text = arg
            else:
                names.append(arg)
        if not names:
            raise UserError("error_usage", usage=ctx.t("usage_nietverschenen"))
        member = await self._find_member(ctx, " ".join(names))
        row = await self._result_round(ctx, season, data, round_text)
        game = await self._game_of(ctx, row, member)
        result = "0-1F" if game.white_id == member.id else "1-0F"
        async with self.store.transaction():
            await self.store.set_result(game.id, result, ctx.now)
            auto = await self._check_no_shows(season, member.id)
            await self._after_result(ctx, season, row)
        lines = [ctx.t("no_show_marked", name=member.name, round=row.number, result=result)]
        if auto:
            lines.append(ctx.t("auto_signed_off", name=member.name))
        return Reply(lines=tuple(lines))

    async def _check_no_shows(self, season: Season, member_id: int) -> bool:
        """Seed 004 rule j, counted by the engine over the stored rounds; True when it now applies."""
        from engine import season as season_rules

        data = await competition.load(self.store, season)
        count = season_rules.consecutive_no_shows(competition.player_id(member_id), data.rounds)
        if count >= data.settings.no_show_limit:
            await self.store.set_auto_signed_off(season.id, member_id, True)
            return True
        return False

    async def cmd_invaller(self, ctx: Context) -> Reply:
        """Seed 004 rule l: the player with the bye is the standby; when a paired player does not come,
        the director pairs the standby in their place: ``/invaller Naam-van-de-afwezige``."""
        kind, ctx = self._competition(ctx)
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        if not ctx.args:
            raise UserError("error_usage", usage=ctx.t("usage_invaller"))
        member = await self._find_member(ctx, " ".join(ctx.args))
        row = competition.current_round(data)
        if row is None:
            raise UserError("error_no_game")
        game = await self._game_of(ctx, row, member)
        if game.result is not None:
            raise UserError("error_result_confirmed", round=row.number, result=game.result)
        standby = await self.store.bye_of_round(row.id)
        if standby is None:
            raise UserError("error_no_standby", round=row.number)
        async with self.store.transaction():
            await self.store.replace_with_standby(game.id, member.id, standby, row.id, ctx.now)
            auto = await self._check_no_shows(season, member.id)
        names = await self._names(data)
        lines = [ctx.t("standby_paired", standby=names[str(standby)], name=member.name, board=game.board)]
        if auto:
            lines.append(ctx.t("auto_signed_off", name=member.name))
        return Reply(lines=tuple(lines))

    # ------------------------------------------------------------------ director: /publiceer
    async def cmd_publiceer(self, ctx: Context) -> Reply:
        """Pair the coming round now (sign-offs close) and announce it, without waiting for 18:00."""
        kind, ctx = self._competition(ctx)
        season = await self._season(ctx, kind)
        data = await competition.load(self.store, season)
        row = competition.coming_round(data)
        if row is None:
            raise UserError("error_season_over")
        result = await self.pair_and_queue(season, row, ctx.now)
        if result is None:
            raise UserError("error_round_paired", round=row.number)
        return Reply(lines=(ctx.t("published", round=row.number),))

    async def pair_and_queue(self, season: Season, row: RoundRow, now: datetime) -> pairing.Pairing | None:
        """Pair a round and queue its announcement (the scheduler and /publiceer both come here)."""
        club = await self.store.club(season.club_id)
        assert club is not None

        def render(data: competition.SeasonData, result: pairing.Pairing) -> tuple[str, bytes | None]:
            names = {p.id: p.name for p in data.players}
            lang = club.language
            title = t(lang, "pairing_title", round=row.number, date=row.play_date)
            lines = [title]
            for board, game in enumerate(result.games, start=1):
                lines.append(t(lang, "pairing_line", board=board, white=names[game.white], black=names[game.black]))
            notes: tuple[str, ...] = ()
            if result.bye is not None:
                notes = (t(lang, "bye_line", name=names[result.bye]),)
                lines.extend(notes)
            if not result.games and result.bye is None:
                lines.append(t(lang, "pairing_empty"))
                return "\n".join(lines), None
            table = Table(
                headers=(t(lang, "col_board"), t(lang, "col_white"), t(lang, "col_black")),
                rows=tuple(
                    (str(board), names[g.white], names[g.black]) for board, g in enumerate(result.games, start=1)
                ),
            )
            return "\n".join(lines), table_png(title, table, notes)

        return await competition.pair(self.store, season, row, now, render)

    async def queue_reminder(self, row: RoundRow, now: datetime) -> None:
        """The channel's reminder that sign-offs for a round close at its deadline (once per round)."""
        season = await self.store.season(row.season_id)
        assert season is not None
        club = await self.store.club(season.club_id)
        assert club is not None
        body = t(
            club.language, "reminder", round=row.number, date=row.play_date,
            deadline=local_text(row.deadline_at, season.timezone)[-5:],
        )  # fmt: skip
        await self.store.queue_announcement(club.id, row.id, "reminder", body, now)

    # ------------------------------------------------------------------ director: club settings
    async def cmd_taal(self, ctx: Context) -> Reply:
        if len(ctx.args) != 1 or ctx.args[0].lower() not in LANGUAGES:
            raise UserError("error_usage", usage=ctx.t("usage_taal"))
        language = ctx.args[0].lower()
        await self.store.set_club_language(ctx.club.id, language)
        return Reply(lines=(t(language, "language_set"),))

    async def cmd_kanaal(self, ctx: Context) -> Reply:
        channel = ctx.args[0] if ctx.args else ctx.actor.club_external_id
        await self.store.set_club_channel(ctx.club.id, channel[:100])
        return Reply(lines=(ctx.t("channel_set"),))

    # ------------------------------------------------------------------ /help
    async def cmd_help(self, ctx: Context) -> Reply:
        english = {v: k for k, v in reversed(list(self.aliases.items()))}
        lines = [ctx.t("help_title")]
        for name in self.player_commands:
            lines.append(ctx.t("help_line", command=name, alias=english.get(name, name), text=ctx.t(f"help_{name}")))
        if ctx.is_director:
            lines.append(ctx.t("help_director_title"))
            for name in self.director_commands:
                lines.append(
                    ctx.t("help_line", command=name, alias=english.get(name, name), text=ctx.t(f"help_{name}"))
                )
        return Reply(lines=tuple(lines), private=True)

    # ------------------------------------------------------------------ formatting
    def _local(self, ctx: Context, moment: datetime) -> str:
        return local_text(moment, ctx.club.timezone)


def _feature_modules() -> list[ModuleType]:
    """Every module in ``bot/features/``: each adds its commands with ``register(commands)``."""
    import bot.features

    names = sorted(info.name for info in pkgutil.iter_modules(bot.features.__path__))
    return [importlib.import_module(f"bot.features.{name}") for name in names]


def _parse_int(text: str | None) -> int | None:
    if text is None or not re.fullmatch(r"[+-]?\d{1,9}", text.strip()):
        return None
    return int(text)


def fmt_points(value: Fraction) -> str:
    """Keizer points for display: exact inside, two decimals at most outside."""
    rounded = round(float(value), 2)
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


def _result_text(lang: str, game: GameRow) -> str:
    if game.result is not None:
        return Result(game.result).value
    if game.reported_result is not None:
        return t(lang, "result_pending", result=game.reported_result)
    return ""


def _confirm_command(season: Season, number: int) -> str:
    """What the opponent's confirmation button runs."""
    return f"/bevestig rapid {number}" if season.kind == "rapid" else f"/bevestig {number}"
