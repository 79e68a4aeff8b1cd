"""The bot's log: one line per event, with the club it concerns (``club=``), as plain text, key=value or
JSON (``[bot] log_format``). The club comes from ``CLUB``, set while a club's command or a club's
announcements are handled, so every line logged meanwhile carries it without each call naming it."""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence, TextIO

CLUB: ContextVar[int | None] = ContextVar("club", default=None)
FORMATS = ("text", "keyvalue", "json")


class _ClubFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "club"):
            record.club = CLUB.get()
        return True


def _fields(record: logging.LogRecord, formatter: logging.Formatter) -> dict[str, object]:
    fields: dict[str, object] = {
        "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
        "level": record.levelname,
        "logger": record.name,
        "club": getattr(record, "club", None),
        "message": record.getMessage(),
    }
    if record.exc_info:
        fields["error"] = formatter.formatException(record.exc_info)
    return fields


class KeyValueFormatter(logging.Formatter):
    """``time=... level=INFO logger=clubbot club=3 message="..."``: one line, values with spaces quoted."""

    def format(self, record: logging.LogRecord) -> str:
        parts = []
        for key, value in _fields(record, self).items():
            text = "-" if value is None else str(value)
            if not text or any(c in text for c in ' "=\n\t\\'):
                text = json.dumps(text, ensure_ascii=False)
            parts.append(f"{key}={text}")
        return " ".join(parts)


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(_fields(record, self), ensure_ascii=False)


class Redacting(logging.Formatter):
    """Another formatter's lines with the bot's secrets (its platforms' and lichess's tokens) written as
    ``***``: a library's error may quote a token (python-telegram-bot's refused token does, and a Telegram
    address holds it), and the log goes to the journal, which more people read than hold the tokens."""

    def __init__(self, inner: logging.Formatter, secrets: Sequence[str]) -> None:
        super().__init__()
        self.inner = inner
        self.secrets = sorted((s for s in secrets if len(s) >= 8), key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        line = self.inner.format(record)
        for secret in self.secrets:
            line = line.replace(secret, "***")
        return line


def configure_logging(level: str, form: str, stream: TextIO, secrets: Sequence[str] = ()) -> logging.Handler:
    """The root logger writes to ``stream`` in ``form`` (one of ``FORMATS``), ``secrets`` never shown;
    returns its handler."""
    handler = _formatted(logging.StreamHandler(stream), form, secrets)
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    return handler


def configure_console_logging(
    level: str, form: str, path: Path, stream: TextIO, secrets: Sequence[str] = ()
) -> tuple[logging.Handler, logging.Handler]:
    """The console's log: every line at ``level`` goes to the file ``path`` (made at its first line, so a
    start that stops before anything is logged leaves no file), and only warnings and errors to ``stream``,
    the terminal the conversation is on; returns both handlers."""
    to_file = _formatted(logging.FileHandler(path, encoding="utf-8", delay=True), form, secrets)
    to_stream = _formatted(logging.StreamHandler(stream), form, secrets)
    to_stream.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(to_file)
    root.addHandler(to_stream)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    return to_file, to_stream


def _formatted(handler: logging.Handler, form: str, secrets: Sequence[str]) -> logging.Handler:
    handler.addFilter(_ClubFilter())
    formatter: logging.Formatter
    if form == "json":
        formatter = JsonFormatter()
    elif form == "keyvalue":
        formatter = KeyValueFormatter()
    else:
        formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s club=%(club)s: %(message)s")
    handler.setFormatter(Redacting(formatter, secrets) if secrets else formatter)
    return handler
