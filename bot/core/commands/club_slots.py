"""Fair turns between clubs: at most a few commands of one club are worked on at a time.

asyncio runs whatever is ready in the order it became ready. When 200 members of one club ask /stand at
the same moment, 200 tasks are ready at once, and another club's sign-off waits behind all of them at
every step it takes (every await puts it at the back of that queue again). With a few slots per club,
the rest of a busy club's commands wait in the club's own queue (first come, first served), out of the
event loop's way: another club's command waits behind a handful of steps, not hundreds.
"""

from __future__ import annotations

import asyncio
from typing import Hashable

SLOTS_PER_CLUB = 8


class ClubSlots:
    def __init__(self, slots: int = SLOTS_PER_CLUB) -> None:
        self._slots = slots
        self._clubs: dict[Hashable, _Club] = {}  # only clubs with a command under way or waiting

    async def enter(self, club: Hashable) -> None:
        """Wait for one of ``club``'s slots; give it back with ``leave`` (in a ``finally``)."""
        entry = self._clubs.get(club)
        if entry is None:
            entry = self._clubs[club] = _Club(asyncio.Semaphore(self._slots))
        entry.users += 1
        try:
            await entry.semaphore.acquire()
        except BaseException:
            self._drop(club, entry)
            raise

    def leave(self, club: Hashable) -> None:
        entry = self._clubs[club]
        entry.semaphore.release()
        self._drop(club, entry)

    def _drop(self, club: Hashable, entry: _Club) -> None:
        entry.users -= 1
        if entry.users == 0:
            del self._clubs[club]

    def busy_clubs(self) -> int:
        return len(self._clubs)


class _Club:
    __slots__ = ("semaphore", "users")

    def __init__(self, semaphore: asyncio.Semaphore) -> None:
        self.semaphore = semaphore
        self.users = 0
