"""Reads the TOML configuration (config.toml, else config.example.toml) into one frozen dataclass."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Config:
    db_path: Path
    default_language: str = "nl"
    default_timezone: str = "Europe/Amsterdam"
    log_level: str = "INFO"
    login_timeout: float = 300.0  # seconds a chat platform may stay unreachable at start before the bot exits 1
    season_rounds: int = 28
    season_deadline: str = "17:00"
    season_publish: str = "18:00"
    reminder_hours: float = 5.0  # the channel is reminded of the sign-off deadline this long before it; 0: off
    discord_token: str | None = None
    discord_director_role: str = "wedstrijdleider"
    telegram_token: str | None = None
    telegram_base_url: str | None = None  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081/bot
    telegram_base_file_url: str | None = None
    console_director_name: str = "Wedstrijdleider"
    console_club_name: str = "Console club"
    web_address: str | None = None  # HOST:PORT the club websites are served on; None: no website
    web_base_url: str | None = None  # the public address printed in links (behind a reverse proxy: its URL)
    database_url: str | None = None  # postgresql://... (several processes, docs/deploy.md); None: the SQLite file
    shards: tuple[int, ...] | None = None  # the Discord shards this process runs (--shards 0-3); None: all
    shard_count: int | None = None  # how many shards the bot has in all (--shard-count 8)
    platforms: tuple[str, ...] | None = None  # the chats this process serves (--platforms discord); None: all

    @property
    def database(self) -> str | Path:
        """Where the store is: the PostgreSQL URL when one is configured, else the SQLite file."""
        return self.database_url or self.db_path


def default_config_path() -> Path:
    own = REPO_ROOT / "config.toml"
    return own if own.exists() else REPO_ROOT / "config.example.toml"


def load_config(path: str | Path | None = None, env: dict[str, str] | None = None) -> Config:
    """Load the config file; tokens come from the environment variables it names."""
    env = dict(os.environ) if env is None else env
    file = Path(path) if path else default_config_path()
    with open(file, "rb") as fh:
        raw = tomllib.load(fh)
    db = raw.get("database", {})
    bot = raw.get("bot", {})
    season = raw.get("season", {})
    discord = raw.get("discord", {})
    telegram = raw.get("telegram", {})
    console = raw.get("console", {})
    web = raw.get("web", {})
    db_path = Path(db.get("path", "data/clubbot.sqlite3"))
    if not db_path.is_absolute():
        db_path = REPO_ROOT / db_path

    def token(section: dict[str, str]) -> str | None:
        name = section.get("token_env", "")
        value = env.get(name, "").strip() if name else ""
        return value or None

    return Config(
        db_path=db_path,
        default_language=bot.get("default_language", "nl"),
        default_timezone=bot.get("default_timezone", "Europe/Amsterdam"),
        log_level=bot.get("log_level", "INFO"),
        login_timeout=float(bot.get("login_timeout", 300)),
        season_rounds=int(season.get("rounds", 28)),
        season_deadline=season.get("deadline", "17:00"),
        season_publish=season.get("publish", "18:00"),
        reminder_hours=float(season.get("reminder_hours", 5)),
        discord_token=token(discord),
        discord_director_role=discord.get("director_role", "wedstrijdleider"),
        telegram_token=token(telegram),
        telegram_base_url=telegram.get("base_url") or None,
        telegram_base_file_url=telegram.get("base_file_url") or None,
        console_director_name=console.get("director_name", "Wedstrijdleider"),
        console_club_name=console.get("club_name", "Console club"),
        web_address=web.get("address") or None,
        web_base_url=(web.get("base_url") or "").rstrip("/") or None,
        database_url=_database_url(db, env),
    )


def _database_url(section: dict[str, str], env: dict[str, str]) -> str | None:
    """``[database] url`` (or the environment variable ``url_env`` names, to keep a password out of the
    file): a ``postgresql://`` URL; anything else is refused at start."""
    url = (env.get(section["url_env"], "") if section.get("url_env") else section.get("url", "")).strip()
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValueError(f"[database] url must be a postgresql:// URL (or left out for the SQLite file), not {url[:30]!r}")
    return url
