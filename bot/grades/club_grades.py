"""A club's grades loaded once per look: every member's history, flags, entered and competition games;
the promotions they earn, recorded and announced once (after a command, and each time the scheduler wakes)."""



from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from engine import promotion as rules

from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.storage.store import Club
from bot.grades.competition_games import timed_games
from bot.grades.store import Flags, GradeEvent, GradeStore, ManualGame, TimedGame


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


async def after_command(core: Core, ctx: Context, name: str) -> None:
    """A confirmed competition result can complete a promotion: after a command that can confirm one
    (``Command.confirms_result``, whichever system's), record and announce it at once, in the command's
    transaction (the scheduler's ``run_due`` catches anything else)."""
    command = core.registry.commands.get(name)
    if command is None or not command.confirms_result:
        return
    if await GradeStore(core.store).keeps_grades(ctx.club.id):
        await record_promotions(core, ctx.club, ctx.now)


# How often the scheduler looks at every club's grades: a safety net only, since every command that can
# complete a promotion records it (a command that confirms a result, and grades' own commands).
LOOK_EVERY = timedelta(hours=1)


class GradesSchedule:
    """Grades' look at every club, in the scheduler's passes but at most once an hour (``LOOK_EVERY``):
    the commands record promotions as they complete them, so this catches only what a failed command left
    behind, and a bot with 10,000 clubs does not read every club's grades at each wake (issue 42 §1).
    Grades set no alarm of their own: the look comes with the other systems' work."""

    def __init__(self) -> None:
        self._next_look: datetime | None = None  # None: at the first pass

    async def next_due_moment(self, core: Core, club_id: int | None = None) -> datetime | None:
        return None

    async def run_due(self, core: Core, now: datetime) -> None:
        """Record and announce promotions earned in competition games confirmed since the last look."""
        if self._next_look is not None and now < self._next_look:
            return
        self._next_look = now + LOOK_EVERY
        gs = GradeStore(core.store)
        for club_id in await gs.clubs_with_grades():
            club = await core.store.club(club_id)
            if club is None:
                continue
            async with core.store.transaction():
                await record_promotions(core, club, now)
