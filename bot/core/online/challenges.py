"""The worker that makes a round's games on lichess (issue 43 §2): ``OnlineChallenges``, timed work on the
scheduler's alarm (``bot/core/running/scheduler.py``), registered by the core after every system's, so the
pass that publishes a round makes its challenges and queues its announcement at once.

One pass, for every club; steps 1-4 only while online play is on and this process holds lichess's turn
(``core.online.turn``: one process of several talks to lichess; the alarm's claim ``due:OnlineChallenges``
keeps two passes apart), step 5 always (a round queued before online play went off is still announced):

1. Rows still pending at their latest start fail (``online_unmade_expired``): never made now.
2. Stale challenges are cancelled at lichess (``POST /api/challenge/{id}/cancel``); a challenge lichess no
   longer knows (expired) counts as cancelled.
3. Rows to make: each marked attempted and committed, then ``POST /api/challenge/open``
   (``Lichess.create_challenge``), then recorded (id and links) in a commit of its own. Exactly once, as the
   announcements' outbox: a restart finds a row attempted and not recorded and makes it again. Lichess gives
   no way to find an open challenge made just before a crash (an open challenge has no challenger, and the
   list of one's challenges, ``GET /api/challenge``, is of challenges made by or to the account), so a crash
   between the request and its record leaves at most one extra challenge on lichess per crash, never
   recorded and so never announced; it expires at the latest start (docs/online.md, docs/reliability.md).
   At most ``PASS_BUDGET`` seconds of requests a pass, so the alarm's posts are never held up longer.
4. Lichess down (a 5xx, no answer) or a 429: this row and the rest of the pass wait ``RETRY_AFTER`` (the
   client itself keeps its minute after a 429); lichess refusing a row (a closed account): it fails.
5. The system's hooks (``bot/core/online/rounds.py``), each in the transaction that marks its rows: a round
   whose rows are all settled, or held ``ANNOUNCE_HOLD``, is announced; links made after their round's
   announcement follow; rows lichess refused (at once) or not made by the start of play are reported to
   the director, once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.core.online.games_store import OnlineGame
from bot.core.online.lichess_answers import LichessError, Refused
from bot.core.online.rounds import ANNOUNCE_HOLD

if TYPE_CHECKING:
    from bot.core.commands.dispatch import Core

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(minutes=1)  # lichess down or limiting: the rows of the pass are tried again this much later
# Seconds of requests in one pass at most: the alarm posts every club's announcements after its timed work, so
# a publication minute's thousands of challenges are made a share per pass, with the posts in between (the
# rest is due at once: the next pass follows within a second).
PASS_BUDGET = 10.0


def _by_round(games: Sequence[OnlineGame]) -> dict[tuple[int, str, int], list[OnlineGame]]:
    rounds: dict[tuple[int, str, int], list[OnlineGame]] = {}
    for game in games:
        rounds.setdefault((game.club_id, game.system, game.round_ref), []).append(game)
    return rounds


class OnlineChallenges:
    """The core's timed work for online rounds (``Registry.timed``)."""

    async def next_due_moment(self, core: Core, club_id: int | None = None) -> datetime | None:
        """With online play off (no token) nothing is made or asked of lichess, but a round queued while it
        was on is still announced (after the hold, without links) and its boards reported at the start of play."""
        return await core.store.next_online_moment(ANNOUNCE_HOLD, club_id, making=core.online.on)

    async def run_due(self, core: Core, now: datetime) -> None:
        store = core.store
        online = core.online.on and await core.online.turn.mine()  # else another process talks to lichess
        if online:
            await store.online_unmade_expired(now)
            if await self._cancel(core, now):
                await self._make(core, now)
            else:  # lichess down or pausing: nothing more is asked of it in this pass
                await self._later(core, await store.online_games_to_make(now), now, "lichess unavailable")
        for club_id, system, round_ref in await store.online_rounds_to_announce(now - ANNOUNCE_HOLD):
            hooks = core.registry.online_rounds.get(system)
            async with store.transaction():
                await store.mark_online_announced(club_id, system, round_ref, now)
                if hooks is not None:
                    games = await store.online_games_of_round(club_id, system, round_ref)
                    # pending links follow while online play is on, whichever process holds lichess's turn; off: none
                    live = [g for g in games if g.status == "created" or core.online.on and g.status == "pending"]
                    await hooks.announce(core, club_id, round_ref, live, now)
        for (club_id, system, round_ref), games in _by_round(await store.online_links_late()).items():
            hooks = core.registry.online_rounds.get(system)
            async with store.transaction():
                sent = [g for g in games if await store.mark_online_links_sent(g.id, now)]
                if hooks is not None and sent:
                    await hooks.late_links(core, club_id, round_ref, sent, now)
        for (club_id, system, round_ref), games in _by_round(await store.online_games_not_made(now)).items():
            hooks = core.registry.online_rounds.get(system)
            async with store.transaction():
                await store.mark_online_reported([g.id for g in games], now)
                if hooks is not None:
                    await hooks.not_made(core, club_id, round_ref, games, now)

    async def _cancel(self, core: Core, now: datetime) -> bool:
        """Cancel the stale challenges; False when lichess is down or pausing after a 429 (the rest waits
        ``RETRY_AFTER``: the alarm's pass never sleeps through lichess's minute)."""
        client, store = core.online.client(), core.store
        todo = await store.online_games_to_cancel(now)
        if client.paused_for() > 0:
            await self._later(core, todo, now, "lichess's minute after a 429")
            return False
        for done, game in enumerate(todo):
            assert game.lichess_id is not None
            try:
                await client.cancel_challenge(game.lichess_id)
            except Refused as refused:  # started and played on: it can no longer be aborted
                log.warning("lichess would not cancel challenge %s: %s", game.lichess_id, refused)
            except LichessError as down:
                log.warning("cancelling challenge %s waits: %s", game.lichess_id, down)
                await self._later(core, todo[done:], now, str(down))
                return False
            await store.mark_online_cancelled(game.id, now)
        return True

    async def _later(self, core: Core, games: Sequence[OnlineGame], now: datetime, why: str) -> None:
        for game in games:
            await core.store.online_try_later(game.id, now + RETRY_AFTER, why)

    async def _make(self, core: Core, now: datetime) -> None:
        client, store = core.online.client(), core.store
        todo = await store.online_games_to_make(now)
        if client.paused_for() > 0:
            await self._later(core, todo, now, "lichess's minute after a 429")
            return
        until = time.monotonic() + PASS_BUDGET
        for done, game in enumerate(todo):
            if done and time.monotonic() > until:  # the rest in the next pass, the announcements posted in between
                return
            if not await store.mark_online_attempted(game.id, now):  # cancelled meanwhile
                continue
            try:
                challenge = await client.create_challenge(game.white_user, game.black_user, game.clock, rated=game.rated,
                                                          name=game.name, expires_at=game.expires_at)  # fmt: skip
            except Refused as refused:
                log.warning("lichess refused the challenge of online game %s: %s", game.id, refused)
                await store.online_failed(game.id, refused.error)
                continue
            except LichessError as down:
                log.warning("lichess is unavailable (%s); %d challenge(s) wait %s", down, len(todo) - done, RETRY_AFTER)
                await self._later(core, todo[done:], now, str(down))
                return
            if not await store.record_online_challenge(game.id, challenge, now):
                log.info("online game %s was cancelled while its challenge was made: cancelled at lichess next", game.id)
