"""Logging in to the chat platforms at start: retried with backoff while a platform is unreachable (a
server that boots before its network), given up after ``[bot] login_timeout`` so that the process exits
non-zero and systemd restarts it. A refused token is not retried: that platform stays off (``/healthz`` says
it is not connected), and with no platform left the bot stops, exit 1."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from bot.app import PlatformAdapter

log = logging.getLogger("clubbot")

FIRST_WAIT = 1.0  # seconds before the second try; doubled after each failure
LONGEST_WAIT = 30.0


class PlatformUnreachable(Exception):
    """A platform did not answer a login within the configured time."""


def refused_login(exc: BaseException) -> bool:
    """The platform answered and refused the token: retrying would not help."""
    import discord
    from telegram.error import InvalidToken

    return isinstance(exc, (discord.LoginFailure, InvalidToken))


async def log_in(platform: str, make: Callable[[], "PlatformAdapter"], patience: float) -> "PlatformAdapter | None":
    """A started adapter (a fresh one per try), or None when its token was refused; raises
    PlatformUnreachable once ``patience`` seconds passed without a login."""
    began = time.monotonic()
    wait = FIRST_WAIT
    tries = 0
    while True:
        adapter = make()
        tries += 1
        try:
            await adapter.start()
            if tries > 1:
                log.info("event=login platform=%s tries=%d", platform, tries)
            return adapter
        except Exception as exc:
            try:
                await adapter.stop()  # close what the failed try opened
            except Exception:
                pass
            if refused_login(exc):
                log.error("the %s adapter did not start: %s refused the bot's token (its announcements stay pending)", platform, platform)
                return None
            waited = time.monotonic() - began
            if waited >= patience:
                raise PlatformUnreachable(
                    f"{platform} stayed unreachable for {waited:.0f} s ({tries} logins): {exc}"
                ) from exc
            log.warning("event=login_failed platform=%s try=%d retry_in=%.0fs error=%r", platform, tries, wait, str(exc))
            await asyncio.sleep(min(wait, patience - waited))
            wait = min(wait * 2, LONGEST_WAIT)
