"""The results that come in by themselves (issue 43 §3): ``OnlineFollower``, the core's timed work that follows
the games made on lichess (``online_games`` rows ``created``) until each has ended, and hands each ending to
the system that made it (``registry.online_results[system]``, ``OnlineResults``).

**Export by ids, not the stream.** lichess offers two ways to follow games: the stream of the games between
a list of users (``POST /api/stream/games-by-users``, 300 users a stream) and the export of games by their
ids (``POST /api/games/export/_ids``, 300 ids a request). A stream is a request that stays open: with lichess's
"one request at a time" the bot could hold only one, for 150 boards, and make no challenge meanwhile. The
export is one short request per 300 games the bot is waiting for, whichever clubs they are of, so the bot
follows the games of every club in turn on its one queue. It costs more requests than a stream would while
nothing happens, and the look is paced to keep that down (``next_look``): every ``EVERY_MINUTE`` from the
start of play until the latest start plus the longest game the clock allows (the playing evening), every
``BEFORE`` before the start of play, ``LATER`` after the evening for a day, then ``LATE``; always on the
whole minute (``on_the``), so that every club's games fall due together and go in full batches.
benchmarks/online_bench.py measures the requests per result (docs/performance.md).

What an ended game becomes (``ending``, then the system's hook, in the transaction that settles the row, so
a game is entered at most once however often it is seen or the bot restarts):

- not the game that was made (``Game.differences``: the two players in the asked colours, the clock, rated,
  standard chess): ``refused`` with what differs; the director is told and enters it with ``/uitslag``;
- ``mate``, ``resign``, ``outoftime``, ``stalemate``, ``draw``, ``insufficientMaterialClaim``: a ``result``,
  1-0, 0-1 or 1/2-1/2 by lichess's winner (out of time against a lone king has none: a draw);
- ``timeout`` (a win claimed after a disconnection), ``cheat``, ``aborted``, ``unknownFinish``, ``variantEnd``:
  ``held`` for the director, with lichess's status as the reason;
- ``noStart`` (a player did not move in time; the plies say who), or the challenge expired without a game
  (``EXPIRY_GRACE`` after its latest start lichess still has no game of that id, and the two players started
  none themselves): ``noshow``, the director proposed ``/nietverschenen`` for the player(s) who did not start.

**A game the players started themselves.** Two players may start a game between them without the challenge
(a seek, a challenge of their own: reversed colours, another clock); it has an id of its own, which the export
by ids never returns. So before a board's expired challenge becomes a no-show, the follower asks once for the
games between the two since the challenge was made (``Lichess.games_between``: the export of a user's games
with ``vs``, one request, in the client's turn like every other). A finished one is judged as the challenge's
game would be (``ending``): exactly the game that was asked for is entered like one; otherwise it is refused
and the director told why, with that game's link, never a no-show. One still being played is looked at again
later. Such a row ends ``expired`` (the challenge did), so ``/exporteer pgn``, which exports by the challenges'
ids, leaves its game out.

Lichess down (a 5xx, no answer) or a 429: the rows of the pass are looked at again ``RETRY_AFTER`` later; the
client itself keeps the minute after a 429. Only while online play is on and this process holds lichess's
turn, as the challenges' worker (``challenges.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.core.online.games_store import OnlineGame
from bot.core.online.lichess import EXPORT_BATCH, batches
from bot.core.online.lichess_answers import Game, LichessError, TimeControl
from bot.core.online.results_store import EXPIRED, FINISHED
from bot.core.storage.store import club_key

if TYPE_CHECKING:
    from bot.core.commands.dispatch import Core

log = logging.getLogger(__name__)

EVERY_MINUTE = timedelta(minutes=1)  # during the playing evening
BEFORE = timedelta(minutes=10)  # before the start of play (a game played early is still seen)
LATER = timedelta(minutes=10)  # the day after the evening (a game played later, or very long)
LATE = timedelta(hours=1)  # after that, until it ends
EXPIRY_GRACE = timedelta(minutes=2)  # past the latest start, lichess having no game of the challenge: nobody came
RETRY_AFTER = timedelta(minutes=1)  # lichess down or limiting
SINCE_BEFORE_START = timedelta(days=1)  # a row without the moment its challenge was made: its players' games since then
PASS_ROWS = 10 * EXPORT_BATCH  # rows looked at in one pass (the rest wait for the next)

RESULTS = frozenset(("mate", "resign", "outoftime", "stalemate", "draw", "insufficientMaterialClaim"))
HELD = frozenset(("timeout", "cheat", "aborted", "unknownFinish", "variantEnd"))
RESULT, HELD_, REFUSED, NOSHOW, KEPT = "result", "held", "refused", "noshow", "kept"


@dataclass(frozen=True)
class Ending:
    """How a followed game ended, as the core reads lichess: ``kind`` (``result``, ``held``, ``refused``,
    ``noshow``), the ``result`` (1-0, 0-1, 1/2-1/2) for a result, the ``reason`` (lichess's status, the
    differences joined by commas, ``expired``), the members who did not start (``absent``, a no-show; both
    when the challenge expired: lichess does not say who did not come) and lichess's game (None: expired)."""

    kind: str
    result: str | None
    reason: str
    absent: tuple[int, ...] = ()
    game: Game | None = None

    @property
    def outcome(self) -> str:
        return {RESULT: "entered"}.get(self.kind, self.kind)


def ending(row: OnlineGame, game: Game | None) -> Ending:
    """What the game of ``row`` came to (``game``: lichess's, finished; None: the challenge expired unplayed)."""
    if game is None:
        return Ending(NOSHOW, None, "expired", (row.white_id, row.black_id))
    differences = game.differences(row.white_user, row.black_user, row.clock, row.rated)
    if differences:
        return Ending(REFUSED, None, ",".join(differences), game=game)
    if game.status == "noStart":
        absent = row.white_id if not game.moved("white") else row.black_id
        return Ending(NOSHOW, None, game.status, (absent,), game=game)
    if game.status in RESULTS:
        result = {"white": "1-0", "black": "0-1"}.get(game.winner or "", "1/2-1/2")
        return Ending(RESULT, result, game.status, game=game)
    return Ending(HELD_, None, game.status, game=game)


def longest(clock: TimeControl) -> timedelta:
    """The longest a game on ``clock`` is taken to last: both clocks run out, with a hundred moves' increment."""
    return timedelta(seconds=2 * (clock.limit + 100 * clock.increment))


def on_the(step: timedelta, now: datetime) -> datetime:
    """The first whole ``step`` after ``now`` (18:07:23 and 10 minutes: 18:10): every game looked at on the
    same beat, so that one pass asks about all of them in full batches of 300, rather than a pass every few
    seconds for the few games whose look fell due then."""
    epoch = datetime(2000, 1, 1, tzinfo=now.tzinfo)
    return now + (step - (now - epoch) % step)


def next_look(row: OnlineGame, now: datetime) -> datetime:
    """When to look at an unfinished game again (see the module's docstring), on the minute."""
    if now < row.starts_at:
        return min(row.starts_at, on_the(BEFORE, now))
    evening = row.expires_at + longest(row.clock)
    if now < evening:
        return on_the(EVERY_MINUTE, now)
    return on_the(LATER if now < evening + timedelta(days=1) else LATE, now)


class OnlineResults(Protocol):
    """What a system that plays online does with its games' endings (``registry.online_results[system]``)."""

    async def settle(self, core: Core, game: OnlineGame, ending: Ending, now: datetime) -> str:
        """In the transaction that settles the row: a ``result`` entered as a confirmed result (as a confirmed
        ``/uitslag``: the round's standings once it is complete), unless the game has one already (entered by
        a director or confirmed by the players: never written over); a ``held``, ``refused`` or ``noshow``
        told to the director in the club's language. Returns the outcome recorded: ``Ending.outcome``, or
        ``kept`` (a result was there already), or ``gone`` (the system's game is no longer this pairing)."""
        ...


class OnlineFollower:
    """The core's timed work that reads the games' endings back (``Registry.timed``)."""

    async def next_due_moment(self, core: Core, club_id: int | None = None) -> datetime | None:
        if not core.online.on:
            return None
        return await core.store.next_online_follow(club_id)

    async def run_due(self, core: Core, now: datetime) -> None:
        if not core.online.on or not await core.online.turn.mine():
            return
        rows = await core.store.online_games_to_follow(now, PASS_ROWS)
        by_id = {row.lichess_id: row for row in rows if row.lichess_id is not None}
        client = core.online.client()
        todo = batches(list(by_id), EXPORT_BATCH)
        for done, batch in enumerate(todo):
            waiting = [by_id[i] for b in todo[done:] for i in b]
            if client.paused_for() > 0:  # lichess's minute after a 429: the alarm's pass never sleeps through it
                await core.store.follow_online_later((row.id, now + RETRY_AFTER, None) for row in waiting)
                return
            try:
                found = {game.id: game for game in await client.export_games(batch)}
            except LichessError as down:
                log.warning("lichess is unavailable (%s); %d followed game(s) wait %s", down, len(waiting), RETRY_AFTER)
                await core.store.follow_online_later((row.id, now + RETRY_AFTER, None) for row in waiting)
                return
            later: list[tuple[int, datetime, str | None]] = []
            for lichess_id in batch:
                row, game = by_id[lichess_id], found.get(lichess_id)
                try:
                    if game is not None and game.finished:
                        await self._settle(core, row, ending(row, game), FINISHED, now)
                    elif game is None and now >= row.expires_at + EXPIRY_GRACE:
                        if (look := await self._unplayed(core, row, now)) is not None:
                            later.append(look)
                    else:
                        later.append((row.id, next_look(row, now), game.status if game is not None else None))
                except Exception:  # one club's trouble stops no other's results: this game is looked at again later
                    log.exception("settling online game %s (%s) failed; tried again in %s", row.id, lichess_id, LATER)
                    later.append((row.id, now + LATER, None))
            await core.store.follow_online_later(later)

    async def _unplayed(self, core: Core, row: OnlineGame, now: datetime) -> tuple[int, datetime, str | None] | None:
        """The board's challenge expired without a game: the games the two players started themselves since it
        was made decide (see the module's docstring); nothing found, the no-show. The row's next look when it
        is not settled now (lichess down or limiting, or a game of theirs still being played)."""
        client = core.online.client()
        if client.paused_for() > 0:
            return row.id, now + RETRY_AFTER, None
        since = row.made_at or row.starts_at - SINCE_BEFORE_START
        try:
            games = await client.games_between(row.white_user, row.black_user, since, now)
        except LichessError as down:
            log.warning("lichess is unavailable (%s); the games of online game %s's players wait %s", down, row.id, RETRY_AFTER)
            return row.id, now + RETRY_AFTER, None
        pair = {row.white_user.lower(), row.black_user.lower()}
        theirs = sorted((g for g in games if g.id != row.lichess_id and {g.white, g.black} == pair), key=lambda g: g.created_at)
        if any(not g.finished for g in theirs):
            return row.id, next_look(row, now), "started"
        exact = [g for g in theirs if ending(row, g).kind != REFUSED]
        chosen = exact[0] if exact else theirs[-1] if theirs else None
        if chosen is None:
            await self._settle(core, row, ending(row, None), EXPIRED, now)
        else:
            await self._settle(core, replace(row, url=f"{client.url}/{chosen.id}"), ending(row, chosen), EXPIRED, now)
        return None

    async def _settle(self, core: Core, row: OnlineGame, end: Ending, status: str, now: datetime) -> None:
        store = core.store
        club = await store.club(row.club_id)
        hooks = core.registry.online_results.get(row.system)
        key = club_key(club.platform, club.external_id) if club is not None else None
        async with store.transaction(key=key):
            game_status = end.game.status if end.game is not None else None
            if not await store.settle_online_game(row.id, status, end.outcome, end.result, end.reason, game_status, now):
                return  # settled meanwhile
            if hooks is not None and club is not None:
                outcome = await hooks.settle(core, row, end, now)
                if outcome != end.outcome:
                    await store.set_online_outcome(row.id, outcome)
        log.info("online game %s (%s) ended: %s %s", row.id, row.lichess_id, end.outcome, end.result or end.reason)


def settled_rows(games: Sequence[OnlineGame]) -> list[OnlineGame]:
    """The rows whose game was played on lichess (for the PGN export): made, and followed to their end."""
    return [g for g in games if g.lichess_id is not None and g.status == FINISHED]
