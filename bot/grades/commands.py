"""Grades kept with the Dutch points promotion system (seed 002, ``engine/promotion.py``). See docs/grades.md.

Commands (Dutch, English alias):

- ``/graad [Naam]`` (``/grade``): a grade card: grade, points in the current series, games counted, points
  and games still needed, and the games of the series.
- ``/graden [alle]`` (``/grades [all]``), director (the grade committee): players close to promotion
  (at most 45 points short), or every player with points.
- ``/graadzetten Naam graad [vanaf=JJJJ-MM-DD] [geschat] [onbetrouwbaar|betrouwbaar]`` (``/setgrade``),
  director: set a member's grade (their series starts on ``vanaf``, default today) and the committee's
  exceptions for them as an opponent.
- ``/partij Naam datum=... tegen=... [graad=2d] uitslag=gewonnen|verloren|remise minuten=90 byoyomi=30
  [handicap=0] [officieel=ja] [toernooi=...] [geschat] [onbetrouwbaar]`` (``/game``), director: enter a game;
  ``/partij wijzig N veld=waarde ...``, ``/partij verwijder N``, ``/partij lijst Naam``.
- ``/partijenimport`` (``/importgames``) with a CSV file, director: enter many games at once.
- ``/speeltempo [seizoen=Naam | nk=Naam] minuten=90 byoyomi=30 [officieel=ja|nee]`` (``/timecontrol``),
  director: the time control of a Keizer season or NK tournament, so its confirmed games count.

Promotions are found after every change made with these commands, whenever someone looks at a card or the
list, and each time the scheduler wakes (``run_due``: confirmed competition results); each is recorded once
with the games that earned it and announced in the club's channel.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from engine import promotion as rules

from bot.core.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.dispatch import Core
from bot.core.registry import Command, Registry
from bot.core.i18n import t
from bot.core.replies import Reply, Table
from bot.core.store import Club, Member
from bot.grades.competition_games import time_controls, timed_games
from bot.grades.store import Flags, GradeEvent, GradeStore, ManualGame, TimedGame

CLOSE = 45  # /graden shows the players at most this many points short of a promotion
MAX_CSV_BYTES = 1_000_000
MAX_CSV_ROWS = 5000

_YES = {"ja", "j", "yes", "y", "1", "true", "waar"}
_NO = {"nee", "n", "no", "0", "false", "onwaar"}
_RESULTS = {
    "gewonnen": rules.WIN, "winst": rules.WIN, "won": rules.WIN, "win": rules.WIN, "w": rules.WIN, "1": rules.WIN,
    "verloren": rules.LOSS, "verlies": rules.LOSS, "lost": rules.LOSS, "loss": rules.LOSS, "l": rules.LOSS,
    "v": rules.LOSS, "0": rules.LOSS,
    "remise": rules.DRAW, "draw": rules.DRAW, "=": rules.DRAW, "½": rules.DRAW, "1/2": rules.DRAW,
}  # fmt: skip
# key=value options of /partij and the CSV columns: Dutch and English names -> field
_FIELDS = {
    "speler": "player", "player": "player",
    "datum": "played_on", "date": "played_on",
    "tegen": "opponent", "tegenstander": "opponent", "opponent": "opponent",
    "graad": "grade", "grade": "grade",
    "uitslag": "result", "result": "result",
    "handicap": "handicap",
    "minuten": "minutes", "minutes": "minutes",
    "byoyomi": "byoyomi", "byo-yomi": "byoyomi",
    "officieel": "official", "official": "official",
    "toernooi": "event", "event": "event",
    "geschat": "estimated", "estimated": "estimated",
    "onbetrouwbaar": "unreliable", "unreliable": "unreliable",
}  # fmt: skip
_FLAG_WORDS = {"geschat": "estimated", "estimated": "estimated", "onbetrouwbaar": "unreliable", "unreliable": "unreliable"}
_RELIABLE_WORDS = {"betrouwbaar", "reliable"}
_SUBS = {"wijzig": "wijzig", "correct": "wijzig", "verwijder": "verwijder", "delete": "verwijder",
         "lijst": "lijst", "list": "lijst"}  # fmt: skip
REQUIRED = ("played_on", "opponent", "result", "minutes", "byoyomi")


def register(registry: Registry) -> None:
    registry.add(Command("graad", cmd_graad, english="grade"))
    registry.add(Command("graden", cmd_graden, director=True, english="grades"))
    registry.add(Command("graadzetten", cmd_graadzetten, director=True, english="setgrade"))
    registry.add(Command("partij", cmd_partij, director=True, english="game"))
    registry.add(Command("partijenimport", cmd_partijenimport, director=True, english="importgames"))
    registry.add(Command("speeltempo", cmd_speeltempo, director=True, english="timecontrol"))
    registry.after_command.append(after_command)
    registry.timed.append(GradesSchedule())


# --------------------------------------------------------------------------- the club's grades, loaded once


@dataclass(frozen=True)
class Info:
    """How a game shows on a card: the opponent's name, the event, and the entered game's number."""

    opponent: str
    event: str
    number: int | None


@dataclass
class ClubGrades:
    events: dict[int, list[GradeEvent]]
    flags: dict[int, Flags]
    manual: list[ManualGame]
    competition: list[TimedGame]
    names: dict[int, str]
    zone: ZoneInfo

    def grade(self, member_id: int) -> int | None:
        history = self.events.get(member_id)
        return history[-1].grade if history else None

    def grade_on(self, member_id: int, day: date, key: str = "\uffff") -> int | None:
        """A member's grade when the game ``key`` of ``day`` was played: the latest setting or promotion
        before it (a setting holds from the start of its day; a promotion from the game after the one that
        earned it, so the promoting game itself was played at the old grade); before any, the first grade
        the committee recorded."""
        history = self.events.get(member_id)
        if not history:
            return None
        moment = (day.isoformat(), key)
        before = [e for e in history if (e.anchor_date, e.anchor_key) < moment]
        if not before:
            return min(history, key=lambda e: (e.anchor_date, e.id)).grade
        return max(before, key=lambda e: (e.anchor_date, e.id)).grade

    def _day(self, text: str) -> date:
        if len(text) > 10:  # an NK round: the UTC moment it was paired
            return datetime.fromisoformat(text).astimezone(self.zone).date()
        return date.fromisoformat(text)

    def games_of(self, member_id: int) -> tuple[list[rules.Game], dict[str, Info]]:
        games: list[rules.Game] = []
        info: dict[str, Info] = {}
        for g in self.manual:
            if g.member_id != member_id:
                continue
            day = date.fromisoformat(g.played_on)
            opponent_grade = g.opponent_grade
            unreliable = g.unreliable
            if g.opponent_id is not None:
                if opponent_grade is None:
                    opponent_grade = self.grade_on(g.opponent_id, day, f"m{g.id:08d}")
                unreliable = unreliable or self.flags.get(g.opponent_id, Flags()).unreliable
            key = f"m{g.id:08d}"
            games.append(
                rules.Game(key, day, opponent_grade, g.result, g.handicap, g.minutes, g.byoyomi, g.official, unreliable)
            )
            info[key] = Info(g.opponent_name, g.event, g.id)
        for c in self.competition:
            if member_id not in (c.white_id, c.black_id):
                continue
            opponent = c.black_id if c.white_id == member_id else c.white_id
            day = self._day(c.day)
            result = rules.DRAW if c.winner_id is None else rules.WIN if c.winner_id == member_id else rules.LOSS
            games.append(
                rules.Game(
                    c.key, day, self.grade_on(opponent, day, c.key), result, 0, c.minutes, c.byoyomi, c.official,
                    self.flags.get(opponent, Flags()).unreliable,
                )  # fmt: skip
            )
            info[c.key] = Info(self.names.get(opponent, "?"), c.event, None)
        return games, info

    def examine(self, member_id: int) -> rules.Examination | None:
        """Replay the member's games after their latest setting or promotion, from the grade it gave."""
        history = self.events.get(member_id)
        if not history:
            return None
        latest = history[-1]
        games, _ = self.games_of(member_id)
        after = [g for g in games if (g.played_on.isoformat(), g.key) > (latest.anchor_date, latest.anchor_key)]
        return rules.examine(latest.grade, after)


async def load(core: Core, club: Club) -> ClubGrades:
    gs = GradeStore(core.store)
    members = await core.store.members(club.id)
    return ClubGrades(
        await gs.events_of_club(club.id),
        await gs.flags_of_club(club.id),
        await gs.games_of_club(club.id),
        await timed_games(core, club.id),
        {m.id: m.name for m in members},
        ZoneInfo(club.timezone),
    )


async def record_promotions(core: Core, club: Club, now: datetime) -> list[str]:
    """Record and announce every promotion the members' games have earned and that is not recorded yet;
    the lines say who was promoted. Runs inside the caller's transaction."""
    gs = GradeStore(core.store)
    view = await load(core, club)
    lines: list[str] = []
    for member_id in sorted(view.events):
        exam = view.examine(member_id)
        if exam is None:
            continue
        _, info = view.games_of(member_id)
        name = view.names.get(member_id, "?")
        for p in exam.promotions:
            anchor_date, anchor_key = p.last.played_on.isoformat(), p.last.key
            if await gs.promotion_recorded(member_id, anchor_date, anchor_key):
                continue
            games: list[dict[str, object]] = [
                {
                    "key": s.game.key, "date": s.game.played_on.isoformat(), "opponent": info[s.game.key].opponent,
                    "opponent_grade": None if s.game.opponent_grade is None else rules.grade_name(s.game.opponent_grade),
                    "result": s.game.result, "points": s.points, "event": info[s.game.key].event,
                }  # fmt: skip
                for s in p.games
            ]
            event_id = await gs.add_event(
                member_id, p.to_grade, "promotion", anchor_date, anchor_key, now, points=p.points, games=games
            )
            values = dict(
                name=name, grade=rules.grade_name(p.to_grade), old=rules.grade_name(p.from_grade), points=p.points,
                games=len(p.games), first=p.games[0].game.played_on.isoformat(), last=anchor_date,
            )  # fmt: skip
            body = t(club.language, "grade_promotion_announcement", **values)
            await core.store.queue_announcement(club.id, None, f"promotion:{member_id}:{event_id}", body, now)
            lines.append(t(club.language, "grade_promoted", **values))
    return lines


# --------------------------------------------------------------------------- the scheduler


# Commands after which a competition game may have got its result.
RESULT_COMMANDS = frozenset({"uitslag", "bevestig", "nietverschenen", "nk", "zet", "pas", "opgeven", "akkoord"})


async def after_command(core: Core, ctx: Context, name: str) -> None:
    """A confirmed competition result can complete a promotion: record and announce it at once, in the
    command's transaction (the scheduler's ``run_due`` catches anything else)."""
    if name not in RESULT_COMMANDS:
        return
    if ctx.club.id in await GradeStore(core.store).clubs_with_grades():
        await record_promotions(core, ctx.club, ctx.now)


class GradesSchedule:
    """Grades have no alarm of their own; ``run_due`` runs whenever the scheduler wakes."""

    async def next_due_moment(self, core: Core) -> datetime | None:
        return None

    async def run_due(self, core: Core, now: datetime) -> None:
        """Record and announce promotions earned in competition games confirmed since the last look."""
        gs = GradeStore(core.store)
        for club_id in await gs.clubs_with_grades():
            club = await core.store.club(club_id)
            if club is None:
                continue
            async with core.store.transaction():
                await record_promotions(core, club, now)


# --------------------------------------------------------------------------- parsing


def _today(ctx: Context) -> date:
    return ctx.now.astimezone(ZoneInfo(ctx.club.timezone)).date()


def _date(ctx: Context, text: str) -> date:
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
            raise ValueError(text)
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise UserError("grade_error_date", value=text[:20])
    if day > _today(ctx):
        raise UserError("grade_error_future", value=day.isoformat())
    return day


def _grade(text: str) -> int:
    grade = rules.parse_grade(text)
    if grade is None:
        raise UserError("grade_error_grade", value=text[:20])
    return grade


def _number(text: str, low: int, high: int) -> int:
    if not re.fullmatch(r"\d{1,6}", text.strip()) or not low <= int(text) <= high:
        raise UserError("error_bad_number", value=text[:20], low=low, high=high)
    return int(text)


def _yes_no(text: str) -> bool:
    low = text.strip().lower()
    if low in _YES:
        return True
    if low in _NO:
        return False
    raise UserError("grade_error_yes_no", value=text[:20])


def _split(args: list[str], usage: str, ctx: Context) -> tuple[list[str], dict[str, str]]:
    """Words and ``key=value`` options (Dutch or English keys); a bare flag word is ``flag=ja``."""
    words: list[str] = []
    values: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep:
            field = _FIELDS.get(key.strip().lower())
            if field is None or field == "player":
                raise UserError("error_usage", usage=ctx.t(usage))
            values[field] = value.strip()
        elif arg.lower() in _FLAG_WORDS:
            values[_FLAG_WORDS[arg.lower()]] = "ja"
        else:
            words.append(arg)
    return words, values


async def _game_values(core: Core, ctx: Context, fields: dict[str, str], complete: bool) -> dict[str, object]:
    """The columns of an entered game from its fields (``/partij`` options or a CSV row). ``complete``: a
    new game, which needs date, opponent, result, minutes and byo-yomi, and a grade for the opponent."""
    if complete:
        missing = [f for f in REQUIRED if not fields.get(f)]
        if missing:
            raise UserError("grade_error_missing", fields=", ".join(missing))
    values: dict[str, object] = {}
    if fields.get("played_on"):
        values["played_on"] = _date(ctx, fields["played_on"]).isoformat()
    if fields.get("opponent"):
        name = " ".join(fields["opponent"].split())
        if len(name) > MAX_NAME_LENGTH:
            raise UserError("error_bad_name", limit=MAX_NAME_LENGTH)
        opponent = await core.store.member_by_name(ctx.club.id, name)
        values["opponent_name"] = opponent.name if opponent else name
        values["opponent_id"] = opponent.id if opponent else None
    if fields.get("grade"):
        values["opponent_grade"] = _grade(fields["grade"])
    elif complete:
        opponent_id = values.get("opponent_id")
        if opponent_id is None:
            raise UserError("grade_error_opponent_grade", name=str(values["opponent_name"]))
        values["opponent_grade"] = None  # the member's grade on the day
    if fields.get("result"):
        result = _RESULTS.get(fields["result"].strip().lower())
        if result is None:
            raise UserError("grade_error_result", value=fields["result"][:20])
        values["result"] = result
    for field, high in (("handicap", 9), ("minutes", 1000), ("byoyomi", 3600)):
        if fields.get(field):
            values[field] = _number(fields[field], 0, high)
    for field in ("official", "estimated", "unreliable"):
        if fields.get(field):
            values[field] = int(_yes_no(fields[field]))
    if "event" in fields:
        values["event"] = " ".join(fields["event"].split())[:100]
    return values


async def _member(core: Core, ctx: Context, name: str) -> Member:
    return await ctx.find_member(" ".join(name.split()))


# --------------------------------------------------------------------------- /graad


def _reason(ctx: Context, scored: rules.Scored) -> str:
    if scored.points is not None:
        return f"{scored.points:+d}"
    return ctx.t(f"grade_reason_{scored.reason}")


def _result_word(ctx: Context, result: str) -> str:
    return ctx.t(f"grade_result_{result}")


def _games_table(ctx: Context, scored: list[rules.Scored], info: dict[str, Info], numbers: bool = False) -> Table:
    headers: tuple[str, ...] = (ctx.t("grade_col_date"), ctx.t("grade_col_opponent"), ctx.t("grade_col_grade"),
               ctx.t("grade_col_result"), ctx.t("grade_col_points"), ctx.t("grade_col_event"))  # fmt: skip
    rows: list[tuple[str, ...]] = []
    for s in scored:
        i = info[s.game.key]
        grade = "?" if s.game.opponent_grade is None else rules.grade_name(s.game.opponent_grade)
        row: tuple[str, ...] = (s.game.played_on.isoformat(), i.opponent, grade, _result_word(ctx, s.game.result), _reason(ctx, s), i.event)
        if numbers:
            row = ("" if i.number is None else f"#{i.number}", *row)
        rows.append(row)
    if numbers:
        headers = (ctx.t("grade_col_number"), *headers)
    return Table(headers=headers, rows=tuple(rows))


async def cmd_graad(core: Core, ctx: Context) -> Reply:
    """A grade card: ``/graad`` (one's own) or ``/graad Naam``."""
    if ctx.args:
        member = await _member(core, ctx, " ".join(ctx.args))
    else:
        member = ctx.require_member()
    lines = await record_promotions(core, ctx.club, ctx.now)
    view = await load(core, ctx.club)
    exam = view.examine(member.id)
    if exam is None:
        return Reply(lines=(*lines, ctx.t("grade_none", name=member.name)), private=True)
    flags = view.flags.get(member.id, Flags())
    head = ctx.t("grade_card_title", name=member.name, grade=rules.grade_name(exam.grade))
    if flags.estimated:
        head += " " + ctx.t("grade_estimated_suffix")
    if flags.unreliable:
        head += " " + ctx.t("grade_unreliable_suffix")
    lines.append(head)
    promotions = [e for e in view.events[member.id] if e.kind == "promotion"]
    if promotions:
        last = promotions[-1]
        lines.append(ctx.t("grade_last_promotion", grade=rules.grade_name(last.grade), date=last.anchor_date))
    if exam.grade < rules.LOWEST_TRACKED:
        lines.append(ctx.t("grade_not_tracked"))
        return Reply(lines=tuple(lines), private=True)
    if exam.grade >= rules.HIGHEST:
        lines.append(ctx.t("grade_top"))
        return Reply(lines=tuple(lines), private=True)
    status = rules.series_now(exam, _today(ctx))
    lines.append(ctx.t("grade_series", points=status.points, games=len(status.games)))
    lines.append(ctx.t("grade_needed", points=status.points_needed, grade=rules.grade_name(exam.grade + 1)))
    if status.games_needed:
        lines.append(ctx.t("grade_games_needed", games=status.games_needed))
    if not status.games:
        return Reply(lines=tuple(lines), private=True)
    _, info = view.games_of(member.id)
    return Reply(lines=tuple(lines), table=_games_table(ctx, list(status.games), info), private=True)


# --------------------------------------------------------------------------- /graden


async def cmd_graden(core: Core, ctx: Context) -> Reply:
    """The committee's list: players at most 45 points short of a promotion (``alle``: every player with
    points), fewest points short first."""
    if ctx.args and [a.lower() for a in ctx.args] not in (["alle"], ["all"]):
        raise UserError("error_usage", usage=ctx.t("grade_usage_graden"))
    everyone = bool(ctx.args)
    lines = await record_promotions(core, ctx.club, ctx.now)
    view = await load(core, ctx.club)
    rows = []
    for member_id in view.events:
        exam = view.examine(member_id)
        if exam is None:
            continue
        status = rules.series_now(exam, _today(ctx))
        if not status.tracked or (not everyone and (status.points_needed > CLOSE or not status.games)):
            continue
        name = view.names.get(member_id, "?")
        rows.append((status.points_needed, name.lower(), name, exam.grade, status))
    rows.sort(key=lambda r: (r[0], r[1]))
    title = ctx.t("grade_list_title_all" if everyone else "grade_list_title", points=CLOSE)
    if not rows:
        return Reply(lines=(*lines, title, ctx.t("grade_list_empty")))
    table = Table(
        headers=(ctx.t("grade_col_name"), ctx.t("grade_col_grade"), ctx.t("grade_col_games"),
                 ctx.t("grade_col_points"), ctx.t("grade_col_needed")),  # fmt: skip
        rows=tuple(
            (name, rules.grade_name(grade), str(len(s.games)), str(s.points), str(s.points_needed))
            for _, _, name, grade, s in rows
        ),
    )
    return Reply(lines=(*lines, title), table=table)


# --------------------------------------------------------------------------- /graadzetten


async def cmd_graadzetten(core: Core, ctx: Context) -> Reply:
    """Set a member's grade from a date on (their series starts there), and the committee's exceptions for
    them as an opponent: ``geschat`` (estimated) and ``onbetrouwbaar`` / ``betrouwbaar``."""
    grade: int | None = None
    since: date | None = None
    estimated: bool | None = None
    unreliable: bool | None = None
    words: list[str] = []
    for arg in ctx.args:
        key, sep, value = arg.partition("=")
        low = arg.lower()
        if sep and key.lower() in ("vanaf", "from", "since"):
            since = _date(ctx, value)
        elif sep:
            raise UserError("error_usage", usage=ctx.t("grade_usage_graadzetten"))
        elif low in ("geschat", "estimated"):
            estimated = True
        elif low in ("officieel", "official"):
            estimated = False
        elif low in ("onbetrouwbaar", "unreliable"):
            unreliable = True
        elif low in _RELIABLE_WORDS:
            unreliable = False
        elif rules.parse_grade(arg) is not None and grade is None:
            grade = rules.parse_grade(arg)
        else:
            words.append(arg)
    if len(words) >= 2 and grade is None and rules.parse_grade(" ".join(words[-2:])) is not None:
        grade = rules.parse_grade(" ".join(words[-2:]))  # "2 kyu" in two words
        words = words[:-2]
    if not words or (grade is None and estimated is None and unreliable is None):
        raise UserError("error_usage", usage=ctx.t("grade_usage_graadzetten"))
    if since is not None and grade is None:
        raise UserError("error_usage", usage=ctx.t("grade_usage_graadzetten"))
    member = await _member(core, ctx, " ".join(words))
    gs = GradeStore(core.store)
    old = (await gs.flags_of_club(ctx.club.id)).get(member.id, Flags())
    flags = Flags(
        old.unreliable if unreliable is None else unreliable, old.estimated if estimated is None else estimated
    )
    lines: list[str] = []
    if grade is not None:
        day = since or _today(ctx)
        await gs.add_event(member.id, grade, "set", day.isoformat(), "", ctx.now, by=ctx.member.id if ctx.member else None)
        lines.append(ctx.t("grade_set", name=member.name, grade=rules.grade_name(grade), date=day.isoformat()))
    if flags != old:
        await gs.set_flags(member.id, flags)
    if estimated is not None or unreliable is not None:
        key = "grade_flags_unreliable" if flags.unreliable else "grade_flags_reliable"
        lines.append(ctx.t(key, name=member.name))
        if flags.estimated:
            lines.append(ctx.t("grade_flags_estimated", name=member.name))
    lines.extend(await record_promotions(core, ctx.club, ctx.now))
    return Reply(lines=tuple(lines))


# --------------------------------------------------------------------------- /partij


async def cmd_partij(core: Core, ctx: Context) -> Reply:
    """The director enters, corrects, deletes and lists games for grades."""
    sub = _SUBS.get(ctx.args[0].lower()) if ctx.args else None
    gs = GradeStore(core.store)
    if sub == "lijst":
        if len(ctx.args) < 2:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        member = await _member(core, ctx, " ".join(ctx.args[1:]))
        lines = await record_promotions(core, ctx.club, ctx.now)
        view = await load(core, ctx.club)
        games, info = view.games_of(member.id)
        grade = view.grade(member.id)
        if not games:
            return Reply(lines=(*lines, ctx.t("grade_games_none", name=member.name)), private=True)
        # every game scored at the member's grade when it was played (before their first grade: not at all)
        scored = []
        for g in sorted(games, key=lambda g: (g.played_on, g.key)):
            own = view.grade_on(member.id, g.played_on, g.key) if grade is not None else None
            scored.append(rules.score_game(own if own is not None else -1, g))
        title = ctx.t("grade_games_title", name=member.name, count=len(games))
        return Reply(lines=(*lines, title), table=_games_table(ctx, scored, info, numbers=True), private=True)
    if sub == "verwijder":
        if len(ctx.args) != 2:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        game = await _entered(gs, ctx, ctx.args[1])
        await gs.delete_game(game.id)
        lines = [ctx.t("grade_game_deleted", number=game.id, name=await _name(core, game.member_id))]
        lines.extend(await record_promotions(core, ctx.club, ctx.now))
        return Reply(lines=tuple(lines))
    if sub == "wijzig":
        if len(ctx.args) < 3:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        game = await _entered(gs, ctx, ctx.args[1])
        words, fields = _split(ctx.args[2:], "grade_usage_partij", ctx)
        if words or not fields:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        values = await _game_values(core, ctx, fields, complete=False)
        if "opponent_id" in values and "opponent_grade" not in values and values["opponent_id"] is None:
            if game.opponent_grade is None:
                raise UserError("grade_error_opponent_grade", name=str(values["opponent_name"]))
        await gs.update_game(game.id, **values)
        return await _after_game(core, ctx, game.member_id, game.id, "grade_game_corrected")
    words, fields = _split(ctx.args, "grade_usage_partij", ctx)
    if not words:
        raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
    member = await _member(core, ctx, " ".join(words))
    values = await _game_values(core, ctx, fields, complete=True)
    if values.get("opponent_id") == member.id:
        raise UserError("grade_error_self")
    game_id = await gs.add_game(ctx.club.id, member.id, "manual", ctx.now, ctx.member.id if ctx.member else None, **values)
    return await _after_game(core, ctx, member.id, game_id, "grade_game_added")


async def _name(core: Core, member_id: int) -> str:
    member = await core.store.member(member_id)
    return member.name if member else "?"


async def _entered(gs: GradeStore, ctx: Context, text: str) -> ManualGame:
    number = text.lstrip("#")
    game = await gs.game(ctx.club.id, int(number)) if re.fullmatch(r"\d{1,9}", number) else None
    if game is None:
        raise UserError("grade_error_no_game", number=text[:12])
    return game


async def _after_game(core: Core, ctx: Context, member_id: int, game_id: int, key: str) -> Reply:
    """The reply to an entered or corrected game: what it is worth now, and any promotion it completed."""
    promoted = await record_promotions(core, ctx.club, ctx.now)
    view = await load(core, ctx.club)
    games, _ = view.games_of(member_id)
    game = next(g for g in games if g.key == f"m{game_id:08d}")
    own = view.grade_on(member_id, game.played_on, game.key)
    name = view.names.get(member_id, "?")
    if own is None:
        worth = ctx.t("grade_game_no_grade", name=name)
    else:
        worth = _reason(ctx, rules.score_game(own, game))
    return Reply(lines=(ctx.t(key, number=game_id, name=name, date=game.played_on.isoformat(), worth=worth), *promoted))


# --------------------------------------------------------------------------- /partijenimport


async def cmd_partijenimport(core: Core, ctx: Context) -> Reply:
    """Games from a CSV file (docs/grades.md, examples/grades.csv), all or nothing: a wrong line refuses
    the whole file, naming the line. A line that repeats a game already entered (same player, date,
    opponent, result and event) is skipped."""
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("grade_usage_partijenimport"))
    if ctx.attachment is None:
        raise UserError("grade_error_no_file")
    if len(ctx.attachment) > MAX_CSV_BYTES:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_too_big", limit=MAX_CSV_BYTES))
    try:
        text = ctx.attachment.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_not_utf8"))
    sample = text[:2000]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows = [r for r in reader if any(cell.strip() for cell in r)]
    if not rows:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_empty"))
    header = [_FIELDS.get(h.strip().lower(), "") for h in rows[0]]
    unknown = [h for h, f in zip(rows[0], header) if not f]
    if unknown:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_columns", columns=", ".join(unknown)[:200]))
    missing = [f for f in ("player", *REQUIRED) if f not in header]
    if missing:
        raise UserError("grade_error_csv", detail=ctx.t("grade_error_missing", fields=", ".join(missing)))
    if len(rows) - 1 > MAX_CSV_ROWS:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_too_many", limit=MAX_CSV_ROWS))
    gs = GradeStore(core.store)
    seen: set[tuple[object, ...]] = {
        (g.member_id, g.played_on, g.opponent_name.lower(), g.result, g.event) for g in await gs.games_of_club(ctx.club.id)
    }
    todo: list[tuple[int, dict[str, object]]] = []
    skipped = 0
    for line_number, row in enumerate(rows[1:], start=2):
        try:
            if len(row) != len(header):
                raise UserError("grade_csv_cells", count=len(row), expected=len(header))
            fields = {f: cell.strip() for f, cell in zip(header, row)}
            member = await _member(core, ctx, fields.pop("player"))
            values = await _game_values(core, ctx, fields, complete=True)
            if values.get("opponent_id") == member.id:
                raise UserError("grade_error_self")
        except UserError as err:
            raise UserError("grade_error_csv_line", line=line_number, detail=ctx.t(err.key, **err.values))
        same = (member.id, values["played_on"], str(values["opponent_name"]).lower(), values["result"], values.get("event", ""))
        if same in seen:
            skipped += 1
            continue
        seen.add(same)
        todo.append((member.id, values))
    by = ctx.member.id if ctx.member else None
    for member_id, values in todo:
        await gs.add_game(ctx.club.id, member_id, "csv", ctx.now, by, **values)
    lines = [ctx.t("grade_imported", count=len(todo), skipped=skipped)]
    lines.extend(await record_promotions(core, ctx.club, ctx.now))
    return Reply(lines=tuple(lines))


# --------------------------------------------------------------------------- /speeltempo


async def cmd_speeltempo(core: Core, ctx: Context) -> Reply:
    """The time control of a Keizer season (default: the running main season) or an NK tournament, so its
    confirmed games count for grades: ``/speeltempo [seizoen=Naam | nk=Naam] minuten=90 byoyomi=30
    [officieel=ja|nee]``. A club competition is not an official event in seed 002's sense, so a season
    counts only with ``officieel=ja``; an NK (a national championship) is official unless ``officieel=nee``.
    Without options: the time controls set."""
    gs = GradeStore(core.store)
    if not ctx.args:
        controls = await time_controls(core, ctx.club.id)
        if not controls:
            return Reply(lines=(ctx.t("grade_time_none"),))
        return Reply(lines=tuple(
            ctx.t("grade_time_line", kind=ctx.t(f"grade_kind_{c.kind}"), name=c.name, minutes=c.minutes,
                  byoyomi=c.byoyomi, official=ctx.t("grade_yes" if c.official else "grade_no"))
            for c in controls
        ))  # fmt: skip
    values: dict[str, str] = {}
    keys = {"seizoen": "season", "season": "season", "nk": "nk", "minuten": "minutes", "minutes": "minutes",
            "byoyomi": "byoyomi", "officieel": "official", "official": "official"}  # fmt: skip
    for arg in ctx.args:
        key, sep, value = arg.partition("=")
        if not sep or key.lower() not in keys or not value.strip():
            raise UserError("error_usage", usage=ctx.t("grade_usage_speeltempo"))
        values[keys[key.lower()]] = value.strip()
    if "minutes" not in values or "byoyomi" not in values or ("season" in values and "nk" in values):
        raise UserError("error_usage", usage=ctx.t("grade_usage_speeltempo"))
    minutes = _number(values["minutes"], 0, 1000)
    byoyomi = _number(values["byoyomi"], 0, 3600)
    kind = "nk" if "nk" in values else "season"
    source = core.registry.competition(kind)
    if source is None:
        raise UserError("error_usage", usage=ctx.t("grade_usage_speeltempo"))
    found = await source.find(core, ctx, values.get(kind))
    ref_id, name = found.id, found.name
    # A club competition is not an official event in seed 002's sense; a national championship is.
    official = _yes_no(values.get("official", "ja" if kind == "nk" else "nee"))
    await gs.set_time_control(ctx.club.id, kind, ref_id, minutes, byoyomi, official)
    lines = [
        ctx.t("grade_time_set", kind=ctx.t(f"grade_kind_{kind}"), name=name, minutes=minutes, byoyomi=byoyomi,
              official=ctx.t("grade_yes" if official else "grade_no"))
    ]  # fmt: skip
    lines.extend(await record_promotions(core, ctx.club, ctx.now))
    return Reply(lines=tuple(lines))
