"""Reads the TOML configuration (config.toml, else config.example.toml) into one frozen dataclass.

The file is checked strictly before anything starts (``SETTINGS``: every section and key the bot knows,
each with its check): an unknown section or key (a typo), a value of the wrong type or out of range is
refused with the file, the line and the key (``ConfigError``), so a mistake never starts quietly with a
default in its place. A new setting is declared once, in ``SETTINGS``, and in config.example.toml.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Config:
    db_path: Path
    default_language: str = "nl"
    default_timezone: str = "Europe/Amsterdam"
    log_level: str = "INFO"
    log_format: str = "keyvalue"  # one line per event: "keyvalue", "json" or "text"
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
    metrics_address: str | None = None  # HOST:PORT of /healthz and /metrics when the website is off
    web_base_url: str | None = None  # the public address printed in links (behind a reverse proxy: its URL)
    web_trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For names the visitor's address
    database_url: str | None = None  # postgresql://... (several processes, docs/deploy.md); None: the SQLite file
    shards: tuple[int, ...] | None = None  # the Discord shards this process runs (--shards 0-3); None: all
    shard_count: int | None = None  # how many shards the bot has in all (--shard-count 8)
    platforms: tuple[str, ...] | None = None  # the chats this process serves (--platforms discord); None: all
    lichess_url: str = "https://lichess.org"  # where online rounds are played (the tests: the fake lichess)
    lichess_token_env: str = "CLUBBOT_LICHESS_TOKEN"  # the variable that holds the bot's own lichess token
    lichess_token: str | None = None  # None: online play is off, and the bot makes no request to lichess

    @property
    def online_play(self) -> bool:
        """Whether this bot plays online on lichess: only with its own token (docs/online.md)."""
        return self.lichess_token is not None

    @property
    def database(self) -> str | Path:
        """Where the store is: the PostgreSQL URL when one is configured, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def chat_platforms(self) -> tuple[str, ...]:
        """The chat platforms this process serves: those whose token is set, of ``--platforms`` if given."""
        wanted = set(self.platforms) if self.platforms is not None else {"discord", "telegram"}
        tokens = {"discord": self.discord_token, "telegram": self.telegram_token}
        return tuple(name for name in ("discord", "telegram") if tokens[name] and name in wanted)


class ConfigError(ValueError):
    """A configuration mistake: one line that names the file, the line and the key."""


# A check takes the value read and says what is wrong with it ("" when nothing is).
Check = Callable[[object], str]


def _name(value: object) -> str:
    if not isinstance(value, str):
        return "must be text in quotes"
    return "" if value.strip() else "must not be empty"


def _one_of(*choices: str) -> Check:
    def check(value: object) -> str:
        return "" if value in choices else f"must be one of {', '.join(repr(c) for c in choices)}"

    return check


def _number(low: float, high: float, whole: bool = False) -> Check:
    def check(value: object) -> str:
        kinds = (int,) if whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
            return f"must be {'a whole number' if whole else 'a number'} from {low:g} to {high:g}"
        return ""

    return check


def _clock_time(value: object) -> str:
    ok = isinstance(value, str) and re.fullmatch(r"([01][0-9]|2[0-3]):[0-5][0-9]", value)
    return "" if ok else 'must be a time of day like "17:00"'


def _zone(value: object) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*", value):
        return 'must be a time zone by its IANA name, like "Europe/Amsterdam"'
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        return 'must be a time zone by its IANA name, like "Europe/Amsterdam"'
    return ""


def _env_name(value: object) -> str:
    ok = isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|", value)
    return "" if ok else "must be the name of an environment variable (the secret itself never goes in this file)"


def _url(*schemes: str, empty: bool = True) -> Check:
    def check(value: object) -> str:
        if isinstance(value, str) and ((empty and value == "") or re.fullmatch(rf"({'|'.join(schemes)})://\S+", value)):
            return ""
        return f"must be a {' or '.join(s + '://' for s in schemes)} address"

    return check


def web_address_problem(value: object) -> str:
    """What is wrong with a ``HOST:PORT`` the website would listen on ("" when nothing is)."""
    if not isinstance(value, str):
        return "must be HOST:PORT in quotes, like \"127.0.0.1:8080\""
    host, sep, port = value.rpartition(":")
    if not sep or not re.fullmatch(r"[0-9]{1,5}", port) or not 1 <= int(port) <= 65535:
        return f"must be HOST:PORT with a port from 1 to 65535, like \"127.0.0.1:8080\", not {value[:40]!r}"
    if host and not re.fullmatch(r"[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]", host):
        return f"must be HOST:PORT with a host name or address, like \"127.0.0.1:8080\", not {value[:40]!r}"
    return ""


def _addresses(value: object) -> str:
    """A list of IP addresses (the trusted proxies)."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        try:
            for v in value:
                ipaddress.ip_address(v)
            return ""
        except ValueError:
            pass
    return 'must be a list of IP addresses in quotes, like ["127.0.0.1"]'


SETTINGS: dict[str, dict[str, Check]] = {
    "database": {"path": _name, "url": _url("postgresql", "postgres"), "url_env": _env_name},
    "bot": {
        "default_language": _one_of("nl", "en"),
        "default_timezone": _zone,
        "log_level": _one_of("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"),
        "log_format": _one_of("keyvalue", "json", "text"),
        "login_timeout": _number(1, 86400),
    },
    "season": {
        "rounds": _number(1, 200, whole=True),
        "deadline": _clock_time,
        "publish": _clock_time,
        "reminder_hours": _number(0, 168),
    },
    "discord": {"token_env": _env_name, "director_role": _name},
    "telegram": {"token_env": _env_name, "base_url": _url("http", "https"), "base_file_url": _url("http", "https")},
    "console": {"director_name": _name, "club_name": _name},
    "web": {
        "address": lambda v: "" if v == "" else web_address_problem(v),
        "base_url": _url("http", "https"),
        "trusted_proxies": _addresses,
    },
    "metrics": {"address": lambda v: "" if v == "" else web_address_problem(v)},
    "lichess": {"url": _url("http", "https", empty=False), "token_env": _env_name},
}


def _line_of(text: str, section: str, key: str | None) -> int:
    """The line of ``[section]`` (or of ``key`` in it) in the file's text; 0 when it cannot be told."""
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.fullmatch(r"\[\s*([^\]]+?)\s*\]\s*(#.*)?", stripped)
        if header:
            current = header.group(1).strip('"')
            if key is None and current == section:
                return number
            continue
        if key is not None and current == section and re.match(rf'"?{re.escape(key)}"?\s*=', stripped):
            return number
    return 0


def check_settings(raw: dict[str, object], text: str, file: Path) -> None:
    """Refuse what the bot does not know or cannot use, naming the file, line and key."""

    def refuse(section: str, key: str | None, problem: str) -> None:
        line = _line_of(text, section, key)
        where = f"{file}:{line}" if line else str(file)
        raise ConfigError(f"{where}: [{section}]{f' {key}' if key else ''} {problem}")

    for section, values in raw.items():
        known = SETTINGS.get(section)
        if known is None:
            refuse(section, None, f"is not a section clubbot knows (it knows {', '.join(f'[{s}]' for s in SETTINGS)})")
        if not isinstance(values, dict):
            refuse(section, None, "must be a section ([name] on a line of its own)")
        assert isinstance(values, dict) and known is not None
        for key, value in values.items():
            check = known.get(key)
            if check is None:
                refuse(section, key, f"is not a setting of [{section}] (it has {', '.join(known)})")
            assert check is not None
            problem = check(value)
            if problem:
                refuse(section, key, problem)


def with_credentials(env: dict[str, str]) -> dict[str, str]:
    """The environment, and beneath it systemd's credentials (``LoadCredential=NAME:/path`` in the unit): a
    file ``$CREDENTIALS_DIRECTORY/NAME`` gives the variable NAME where the environment does not, so a token
    or the database URL need never be in the process's environment (docs/deploy.md)."""
    directory = env.get("CREDENTIALS_DIRECTORY", "")
    if not directory:
        return env
    merged = dict(env)
    try:
        files = [f for f in Path(directory).iterdir() if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", f.name)]
        for file in files:
            if not merged.get(file.name, "").strip() and file.is_file() and file.stat().st_size <= 65536:
                merged[file.name] = file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"the credentials in {directory} cannot be read ({exc.__class__.__name__}: {str(exc)[:100]})") from None
    return merged


def default_config_path() -> Path:
    own = REPO_ROOT / "config.toml"
    return own if own.exists() else REPO_ROOT / "config.example.toml"


def load_config(path: str | Path | None = None, env: dict[str, str] | None = None, *, url_needed: bool = True) -> Config:
    """Load the config file; tokens come from the environment variables it names. ``url_needed=False``:
    the database is given otherwise (``clubbot run --db``), so an unset ``[database] url_env`` is not read."""
    env = with_credentials(dict(os.environ) if env is None else env)
    file = Path(path) if path else default_config_path()
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot be read ({exc.__class__.__name__}: {str(exc)[:100]})") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # its message names the line and column
        raise ConfigError(f"{file}: is not valid TOML: {exc}") from None
    check_settings(raw, text, file)
    _check_together(raw, text, file)
    db = raw.get("database", {})
    bot = raw.get("bot", {})
    season = raw.get("season", {})
    discord = raw.get("discord", {})
    telegram = raw.get("telegram", {})
    console = raw.get("console", {})
    web = raw.get("web", {})
    lichess = raw.get("lichess", {})
    db_path = Path(db.get("path", "data/clubbot.sqlite3"))
    if not db_path.is_absolute():
        db_path = REPO_ROOT / db_path

    def token(section: dict[str, str], default: str) -> str | None:
        name = section.get("token_env", default)  # a file without the section reads the usual variable
        value = env.get(name, "").strip() if name else ""
        return value or None

    return Config(
        db_path=db_path,
        default_language=bot.get("default_language", "nl"),
        default_timezone=bot.get("default_timezone", "Europe/Amsterdam"),
        log_level=bot.get("log_level", "INFO"),
        log_format=bot.get("log_format", "keyvalue"),
        login_timeout=float(bot.get("login_timeout", 300)),
        season_rounds=int(season.get("rounds", 28)),
        season_deadline=season.get("deadline", "17:00"),
        season_publish=season.get("publish", "18:00"),
        reminder_hours=float(season.get("reminder_hours", 5)),
        discord_token=token(discord, "CLUBBOT_DISCORD_TOKEN"),
        discord_director_role=discord.get("director_role", "wedstrijdleider"),
        telegram_token=token(telegram, "CLUBBOT_TELEGRAM_TOKEN"),
        telegram_base_url=telegram.get("base_url") or None,
        telegram_base_file_url=telegram.get("base_file_url") or None,
        console_director_name=console.get("director_name", "Wedstrijdleider"),
        console_club_name=console.get("club_name", "Console club"),
        web_address=web.get("address") or None,
        metrics_address=raw.get("metrics", {}).get("address") or None,
        web_base_url=(web.get("base_url") or "").rstrip("/") or None,
        web_trusted_proxies=tuple(str(a) for a in web.get("trusted_proxies", ())),
        database_url=_database_url(db, env, text, file) if url_needed else None,
        lichess_url=str(lichess.get("url", "https://lichess.org")).rstrip("/"),
        lichess_token_env=lichess.get("token_env", "CLUBBOT_LICHESS_TOKEN"),
        lichess_token=token(lichess, "CLUBBOT_LICHESS_TOKEN"),
    )


def _check_together(raw: dict[str, object], text: str, file: Path) -> None:
    """What is wrong only in two settings together: sign-offs that would close when or after the pairing
    is made (``/seizoen`` refuses such a season too)."""
    season = raw.get("season", {})
    assert isinstance(season, dict)
    deadline, publish = season.get("deadline", "17:00"), season.get("publish", "18:00")
    if deadline >= publish:  # both "HH:MM" (checked), so they compare as times of day
        key = "deadline" if "deadline" in season else "publish"
        raise ConfigError(f"{file}:{_line_of(text, 'season', key)}: [season] deadline {deadline} is not before publish "
                          f"{publish}: sign-offs must close before the pairing is made; set a deadline earlier than publish")  # fmt: skip


def is_postgres(target: str | Path) -> bool:
    """A PostgreSQL database's address, where anything else is a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


def _database_url(section: dict[str, str], env: dict[str, str], text: str, file: Path) -> str | None:
    """``[database] url`` (or the environment variable ``url_env`` names, to keep a password out of the
    file): a ``postgresql://`` URL; anything else is refused at start. ``url_env`` naming a variable that
    is unset or empty is refused too: the bot would start on the SQLite file, and in a several-process
    setup acknowledge members' commands into a database no other process reads (issue 46 §1)."""
    name = section.get("url_env")
    line = _line_of(text, "database", "url_env" if name else "url")
    where = f"{file}:{line}" if line else str(file)
    if name:
        url = env.get(name, "").strip()
        if not url:
            raise ConfigError(f"{where}: [database] url_env names {name}, which is {'empty' if name in env else 'not set'} "
                              f"in the bot's environment: set {name} to the postgresql:// URL (under systemd in the "
                              "unit's EnvironmentFile or a LoadCredential), or remove url_env to use the SQLite file")  # fmt: skip
    else:
        url = section.get("url", "").strip()
    if not url:
        return None
    if not is_postgres(url):
        scheme = url.partition(":")[0][:20]  # never the rest: it may hold a password
        raise ConfigError(f"{where}: [database] {f'url_env ({name})' if name else 'url'} must give a postgresql:// "
                          f"URL (or be left out for the SQLite file), not one starting {scheme!r}")  # fmt: skip
    return url
