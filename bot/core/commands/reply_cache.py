"""Replies computed once per change: a read-only command whose system can name what its reply depends on
(``Command.cache_key``: for /stand the season and its change version, the arguments, the language) is
answered from here until that changes. Bounded by bytes (pictures are most of it), least recently used
out first."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from itertools import chain

from bot.core.commands.replies import Reply

DEFAULT_BUDGET = 64 * 1024 * 1024


def reply_size(reply: Reply) -> int:
    size = sum(map(len, reply.lines)) + sum(map(len, reply.extra.values())) + 200
    if reply.table is not None:  # every cell of a big table: counted in C, not a generator's steps
        size += sum(map(len, chain.from_iterable(reply.table.rows)))
    if reply.image is not None:
        size += len(reply.image)
    if reply.attachment is not None:
        size += len(reply.attachment[1])
    return size


class ReplyCache:
    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.used = 0
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, tuple[Reply, int]] = OrderedDict()

    def get(self, key: Hashable) -> Reply | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return entry[0]

    def put(self, key: Hashable, reply: Reply) -> None:
        size = reply_size(reply)
        if size > self.budget // 4:
            return  # one huge reply would push out everything else
        old = self._entries.pop(key, None)
        if old is not None:
            self.used -= old[1]
        self._entries[key] = (reply, size)
        self.used += size
        while self.used > self.budget and self._entries:
            _, (_, gone) = self._entries.popitem(last=False)
            self.used -= gone

    def __len__(self) -> int:
        return len(self._entries)
