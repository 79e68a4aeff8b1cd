"""The club's own settings a season keeps beside the Keizer rules in its ``settings_json`` (the engine
ignores them): ``ontbrekend``, ``herinnering``, ``aanmelden``. A setting at its default is not stored."""

from __future__ import annotations

import json

from bot.keizer.store import Season


def club_setting(season: Season, key: str, default: str) -> str:
    """The season's value of ``key``, ``default`` when it is not stored."""
    return str(json.loads(season.settings_json or "{}").get(key, default))


def with_club_setting(settings_json: str, key: str, value: str, default: str) -> str:
    """A season's stored settings with ``key`` set to ``value`` (removed when that is ``default``)."""
    settings = json.loads(settings_json or "{}")
    settings.pop(key, None)
    if value != default:
        settings[key] = value
    return json.dumps(settings, sort_keys=True)
