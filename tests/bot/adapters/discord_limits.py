"""Rules of Discord's that its OpenAPI description (``spec/discord_openapi_subset.json``) does not say and its
documentation does, for ``discord_spec.documented_limits``: a message's components and embeds, a bulk
overwrite's list of application commands. Each broken rule is a ``Rule``: the text the fake keeps, with
the error Discord answers (status 400; its JSON ``code``, 50035 Invalid Form Body unless said; the field
error's ``code`` where Discord's is known, else ``INVALID``).

Sources: https://discord.com/developers/docs/components/reference#button ("Non-link and
non-premium buttons must have a custom_id, and cannot have a url or a sku_id. Link buttons must have a
url, and cannot have a custom_id"; "custom_id must be unique among components in the same message"),
https://discord.com/developers/docs/resources/message#embed-object-embed-limits (6,000 characters in
title, description, fields' names and values, footer text and author name of all a message's embeds),
https://discord.com/developers/docs/interactions/application-commands#registering-a-command (100 global
commands; names unique per type), https://discord.com/developers/docs/topics/opcodes-and-status-codes
(30032 "Maximum number of application commands reached (100)"). Discord's own words for them, as bots
met them in public bug reports: "Component custom id cannot be duplicated" (COMPONENT_CUSTOM_ID_DUPLICATED), "A custom id is
required", "Embed size exceeds maximum size of 6000", 30032 for a bulk overwrite of 130 commands,
"Application command names must be unique" (APPLICATION_COMMANDS_DUPLICATE_NAME).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

MAX_EMBED_CHARS = 6000  # in all the embeds of one message
MAX_COMMANDS = 100  # global application commands (of each type's ``name`` space together)
LINK, PREMIUM = 5, 6  # button styles without a custom_id
UNIQUE = "Application command names must be unique"


class Rule(str):
    """A broken rule's text (the fake's, with the endpoint and what was sent), and the error Discord answers for
    it: its words under the field's path in the answer's ``errors`` (discord.py shows them as "In
    components.1.components.0.custom_id: Component custom id cannot be duplicated"), or another JSON code."""

    words = ""  # Discord's message for the field
    field: tuple[str, ...] = ()  # where in the body: ("components", "1", "components", "0", "custom_id")
    error = "INVALID"  # the field error's code
    code = 50035  # the answer's JSON code
    message = "Invalid Form Body"  # the answer's JSON message

    def __new__(
        cls, text: str, words: str = "", field: tuple[str, ...] = (), error: str = "INVALID", code: int = 50035,
        message: str = "Invalid Form Body",
    ) -> "Rule":  # fmt: skip
        rule = super().__new__(cls, text)
        rule.words, rule.field, rule.error, rule.code, rule.message = words or text, field, error, code, message
        return rule


def components(items: list[Any], where: str, field: tuple[str, ...]) -> list[str]:
    """A message's components: buttons with a custom_id or a url as their style wants, and no custom_id twice."""
    errors: list[str] = []
    seen: set[str] = set()
    for component, path, at in _walk(items, where, field):
        custom_id = component.get("custom_id")
        if component.get("type") == 2:
            style = component.get("style")
            if style == LINK and (custom_id is not None or not component.get("url")):
                words = "Link buttons must have a url, and cannot have a custom_id"
                errors.append(Rule(f"{path}: {words}", words, at))
            elif style == PREMIUM and (custom_id is not None or component.get("url") is not None):
                words = "Premium buttons cannot have a custom_id or a url"
                errors.append(Rule(f"{path}: {words}", words, at))
            elif style not in (LINK, PREMIUM):
                if not custom_id:
                    errors.append(Rule(f"{path}.custom_id: A custom id is required", "A custom id is required", (*at, "custom_id")))
                if component.get("url") is not None:
                    words = "Non-link buttons cannot have a url"
                    errors.append(Rule(f"{path}.url: {words}", words, (*at, "url")))
        if custom_id:
            if custom_id in seen:
                words = "Component custom id cannot be duplicated"
                errors.append(Rule(f"{path}.custom_id: {words} ({custom_id!r})", words, (*at, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED"))
            seen.add(custom_id)
    return errors


def _walk(items: list[Any], where: str, field: tuple[str, ...]) -> list[tuple[dict[str, Any], str, tuple[str, ...]]]:
    found = []
    for i, item in enumerate(items):
        if isinstance(item, dict):
            found.append((item, f"{where}[{i}]", (*field, str(i))))
            found += _walk(item.get("components") or [], f"{where}[{i}].components", (*field, str(i), "components"))
    return found


def embeds(items: list[Any], where: str, field: tuple[str, ...]) -> list[str]:
    """At most 6,000 characters in the texts of all a message's embeds."""
    total = 0
    for embed in (e for e in items if isinstance(e, dict)):
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or [])
        total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    if total > MAX_EMBED_CHARS:
        words = f"Embed size exceeds maximum size of {MAX_EMBED_CHARS}"
        return [Rule(f"{where}: {words} ({total} characters)", words, field)]
    return []


def command_list(commands: list[Any], where: str) -> list[str]:
    """A bulk overwrite: at most 100 commands, no two of one type with one name."""
    errors: list[str] = []
    if len(commands) > MAX_COMMANDS:
        reached = f"Maximum number of application commands reached ({MAX_COMMANDS})"
        errors.append(Rule(f"{where}: {reached}; {len(commands)} sent", code=30032, message=reached))
    named = Counter((c.get("type", 1), c.get("name")) for c in commands if isinstance(c, dict))
    errors += [
        Rule(f"{where}: {UNIQUE} (/{name}, type {kind}, {count} times)", UNIQUE, (), "APPLICATION_COMMANDS_DUPLICATE_NAME")
        for (kind, name), count in named.items() if count > 1
    ]  # fmt: skip
    return errors
