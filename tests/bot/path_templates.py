"""Which of an API description's path templates (``/channels/{channel_id}/messages``) a request's path fits,
with the values of its parameters: shared by the strict fakes of Discord and lichess."""

from __future__ import annotations

from collections.abc import Iterable


def fit(templates: Iterable[str], path: str) -> tuple[str, dict[str, str]] | None:
    """The first template ``path`` fits and the path's parameters, or None."""
    parts = path.strip("/").split("/")
    for template in templates:
        names = template.strip("/").split("/")
        if len(names) != len(parts):
            continue
        params = {}
        for name, part in zip(names, parts):
            if name.startswith("{"):
                params[name[1:-1]] = part
            elif name != part:
                break
        else:
            return template, params
    return None
