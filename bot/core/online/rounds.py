"""What a system that plays its rounds online gives the core's worker (``bot/core/online/challenges.py``):
its hooks, registered with ``registry.online_rounds[system] = hooks`` in its ``register(registry)``.

The system queues the games to make (``store.queue_online_games``, in the transaction that pairs a round) and
holds the round's announcement back; the worker makes the challenges on lichess and then calls the hooks,
each in the transaction that marks the rows concerned, so each is called once for what it is given:

- ``announce(core, club_id, round_ref, games, now)``: the round's pairing announcement and the players'
  private notices are due, with the links of ``games`` that were made (``OnlineGame.made``; the others are
  announced without a link, saying it follows). Called when none of the round's rows is still to be made, or
  ``ANNOUNCE_HOLD`` after they were queued (lichess down does not hold an announcement longer).
- ``late_links(core, club_id, round_ref, games, now)``: games made after their round was announced: their
  links, to the channel and the two players.
- ``not_made(core, club_id, round_ref, games, now)``: these games will not be made: lichess refused them
  (``status`` 'failed', lichess's reason in ``error``: told at once), or at the start of play they are still
  not made (lichess down): the director is told, once, in the club's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.core.online.games_store import OnlineGame

if TYPE_CHECKING:
    from bot.core.commands.dispatch import Core

ANNOUNCE_HOLD = timedelta(minutes=3)  # a round's announcement waits at most this long for its challenges


class OnlineRounds(Protocol):
    async def announce(self, core: Core, club_id: int, round_ref: int, games: Sequence[OnlineGame], now: datetime) -> None: ...

    async def late_links(self, core: Core, club_id: int, round_ref: int, games: Sequence[OnlineGame], now: datetime) -> None: ...

    async def not_made(self, core: Core, club_id: int, round_ref: int, games: Sequence[OnlineGame], now: datetime) -> None: ...
