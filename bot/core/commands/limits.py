"""The sizes the bot accepts from its users, in one place: each refusal names its limit.

A file sent with a command (a season file, a games CSV) is read with this limit before anything parses
it; a season holds at most ``MAX_ROUNDS`` rounds; an imported season at most ``MAX_IMPORT_PLAYERS``
players. Dates are between ``bot.core.output.calendar.FIRST_YEAR`` and ``LAST_YEAR``.
"""

from __future__ import annotations

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_ROUNDS = 200
MAX_IMPORT_PLAYERS = 2000
