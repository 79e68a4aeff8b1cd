"""The go clock on the scheduler's alarm: a reminder when a player has not moved for a while, and a loss
on time after the club's maximum thinking time (both told in the club's channel)."""

from __future__ import annotations

from datetime import datetime

from engine.go import Action
from engine.go.timing import GameClock, due, next_due

from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.go.store import GoStore

from bot.go.play import apply_actions
from bot.go.view import load_game, member_of, names_of


async def running_clocks(core: Core, club_id: int | None = None) -> list[GameClock]:
    """The clocks of the games being played: every club's, or one club's (their moments alone, not the
    games' records: the scheduler looks at every club's clocks each minute)."""
    gs = GoStore(core.store)
    clocks = await gs.running_clocks(club_id)
    settings = await gs.settings_of(sorted({club for _, club, _, _ in clocks}))
    return [
        GameClock(game_id, started, reminded_at, settings[club].remind_after, settings[club].max_think)
        for game_id, club, started, reminded_at in clocks
    ]


class GoSchedule:
    """Reminders to move and losses on time, for every club's running go games."""

    async def next_due_moment(self, core: Core, club_id: int | None = None) -> datetime | None:
        """When the next reminder or loss on time falls due (for the scheduler's alarm), in any club or in
        one."""
        return next_due(await running_clocks(core, club_id))


    async def run_due(self, core: Core, now: datetime) -> None:
        """Send the reminders that are due and record the games lost on time (the club's channel hears of
        both); a competition pairing lost on time gets its result. One transaction."""
        async with core.store.transaction():
            todo = due(now, await running_clocks(core))
            gs = GoStore(core.store)
            for game_id in (*todo.timeouts, *todo.reminders):
                row = await gs.game(game_id)  # only the games due are read whole
                if row is None:
                    continue
                club = await core.store.club(row.club_id)
                if club is None:
                    continue
                actor = Actor(club.platform, club.external_id, club.name, "clubbot", "clubbot", is_director=True)
                ctx = core.context_at(club, now, actor)
                game = load_game(row)
                who = game.to_act
                if who is None:
                    continue
                names = await names_of(core, row)
                name = names[member_of(row, who)]
                if game_id in todo.timeouts:
                    end = await apply_actions(core, ctx, row, game, [Action("timeout", who)])
                    body = [ctx.t("go_timeout", name=name, id=row.id), *end]
                    await core.store.queue_announcement(club.id, None, f"go_timeout_{row.id}", "\n".join(body), now)
                else:
                    started = row.turn_started_at or row.created_at
                    settings = await gs.settings(club.id)
                    left = ""
                    if settings.max_think is not None:
                        left = ctx.t("go_reminder_deadline", moment=ctx.local(started + settings.max_think))
                    opponent = names[row.opponent_of(member_of(row, who))]
                    reminder = ctx.t("go_reminder", name=name, opponent=opponent, id=row.id, deadline=left)
                    await core.store.queue_announcement(club.id, None, f"go_reminder_{row.id}", reminder, now)
                    await gs.mark_reminded(row.id, now)
