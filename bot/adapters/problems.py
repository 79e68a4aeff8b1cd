"""Why a club's announcements are not being posted, kept for its directors (issue 46 §4), for every adapter.

A failed post is retried silently (the scheduler's retry); only when a club's posts have been failing for
``NOTICE_AFTER`` does the next director who types a command hear it, once per problem, in the club's
language: what is wrong and what to do, never the platform's raw error. The kinds of failure each adapter
tells apart (its ``<platform>_problem_<kind>`` messages):

- ``no_channel``: no channel chosen yet (Discord; Telegram posts in the club's group);
- ``no_rights``: the bot may not post (or send pictures) there;
- ``gone``: the channel was deleted, or the chat is unknown;
- ``removed``: the bot is no longer in the chat (Telegram: kicked from the group or channel);
- ``picture``: the text went, the picture waits for the right to send photos (Telegram);
- ``down``: the platform does not answer or answers with a server error or a long rate limit;
- ``other``: the platform refused the post for another reason (the log says which).

The members whose platform refused a private notice (``MemberNotices.private_closed``) are told to the
next director the same way, once each (``closed_accounts_note``); ``/leden`` keeps showing them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.i18n import t
from bot.core.running.clock import Clock
from bot.core.storage.store import Club, Store

NOTICE_AFTER = timedelta(minutes=5)  # failing for this long before a director is told
NAMED = 20  # members named in one note (the count says how many; /leden lists them all)


@dataclass
class Problem:
    key: str  # the message
    values: dict[str, object]
    since: datetime  # the first failure of the club's posts, kept while they keep failing
    told: bool = False


class Problems:
    """Club id -> its announcements' problem, noted by the adapter when a post fails, cleared when one goes."""

    def __init__(self, clock: Clock, notice_after: timedelta = NOTICE_AFTER) -> None:
        self.clock = clock
        self.notice_after = notice_after
        self._by_club: dict[int, Problem] = {}

    def note(self, club_id: int, key: str, values: dict[str, object]) -> None:
        """A post failed: remember why (a new reason is told again; the time it started failing stays)."""
        old = self._by_club.get(club_id)
        since = old.since if old is not None else self.clock.now()
        told = old is not None and old.key == key and old.values == values and old.told
        self._by_club[club_id] = Problem(key, values, since, told)

    def clear(self, club_id: int) -> None:
        """A post went: the club's announcements are fine again."""
        self._by_club.pop(club_id, None)

    def to_tell(self, club_id: int) -> Problem | None:
        """The problem a director should hear now: failing for ``notice_after`` and not told yet."""
        problem = self._by_club.get(club_id)
        if problem is None or problem.told or self.clock.now() - problem.since < self.notice_after:
            return None
        return problem

    def told(self, club_id: int) -> None:
        problem = self._by_club.get(club_id)
        if problem is not None:
            problem.told = True


async def closed_accounts_note(
    store: Store, club: Club, key: str, shown: Callable[[str], str] = str, **values: object
) -> tuple[str, list[str]] | None:
    """The note ``key`` naming the club's members the bot could not write to privately and no director has
    heard of yet (their names as ``shown``, the first ``NAMED``), with their accounts to mark told once it
    went; None if none."""
    rows = await store.private_closed_untold(club.id)
    if not rows:
        return None
    names = ", ".join(shown(name) for _, name in rows[:NAMED]) + (", …" if len(rows) > NAMED else "")
    return t(club.language, key, count=len(rows), names=names, **values), [account for account, _ in rows]
