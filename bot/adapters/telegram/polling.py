"""When Telegram stops the bot's polling for good (issue 46 §3): python-telegram-bot ends its polling on a
token Telegram refuses (getUpdates answers 401 Unauthorized, or 404 for a malformed token) and logs it,
while the updater still says it runs: a deaf bot nobody hears of. ``Polling`` watches that task and says
what ended through the adapter's ``Lost`` (``bot/adapters/lost.py``), and counts a 409 Conflict (another
process polling with the same token, or a webhook set) as the end once it has lasted ``CONFLICT_PATIENCE``
seconds: a restart's overlap with the process before it is shorter."""

from __future__ import annotations

import asyncio
import logging
import time

from telegram.error import Conflict, InvalidToken, TelegramError
from telegram.ext import Updater

from bot.adapters.lost import Lost

log = logging.getLogger(__name__)

CONFLICT_PATIENCE = 90.0  # seconds of 409 Conflict on getUpdates before the bot gives up
REVOKED = ("Telegram refused the bot's token while it ran (getUpdates: {error}): it was revoked or replaced "
           "at @BotFather; put the new token in CLUBBOT_TELEGRAM_TOKEN and start the bot again")  # fmt: skip
CONFLICTED = ("Telegram kept refusing getUpdates for {seconds:.0f} s ({error}): another process polls with this "
              "token, or a webhook is set; stop the other bot (or deleteWebhook) and start this one again")  # fmt: skip


class _QuietInvalidToken(logging.Filter):
    """PTB's own traceback for the refused token: ``Polling`` says it in one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Invalid token" not in record.getMessage()


logging.getLogger("telegram.ext").addFilter(_QuietInvalidToken())


class Polling:
    """The watch over one adapter's polling."""

    def __init__(self, lost: Lost, conflict_patience: float = CONFLICT_PATIENCE) -> None:
        self.lost = lost
        self.conflict_patience = conflict_patience
        self._conflict_since: float | None = None
        self._last_conflict = 0.0

    def watch(self, updater: Updater) -> None:
        """Once polling has started: hear when its task ends."""
        # PTB keeps the polling task to itself (name-mangled); its end is what we need to hear
        task: asyncio.Task[None] | None = getattr(updater, "_Updater__polling_task", None)
        if task is None:
            log.warning("cannot watch Telegram's polling task: a revoked token would go unnoticed")
            return
        task.add_done_callback(self._ended)

    def _ended(self, task: "asyncio.Task[None]") -> None:
        if task.cancelled() or task.exception() is None:  # stopped by us
            return
        error = task.exception()
        if isinstance(error, InvalidToken):
            self.lost(REVOKED.format(error=error))
        else:
            self.lost(f"Telegram's polling ended and does not restart by itself: {error!r}")

    def error(self, error: TelegramError) -> None:
        """PTB's error callback: it retries; a lasting Conflict is the end."""
        if not isinstance(error, Conflict):
            self._conflict_since = None
            log.warning("fetching updates from Telegram failed (PTB retries): %s", error)
            return
        now = time.monotonic()
        if self._conflict_since is None or now - self._last_conflict > 60.0:  # a new run of conflicts
            self._conflict_since = now
            log.warning("fetching updates from Telegram: %s (another process polls with this token?)", error)
        self._last_conflict = now
        if now - self._conflict_since >= self.conflict_patience:
            self.lost(CONFLICTED.format(seconds=now - self._conflict_since, error=error))
