"""Every request to the fake Discord checked as Discord would: against Discord's official OpenAPI description
(``spec/discord_openapi_subset.json``, API v10: the operations the fake serves; ``spec/refresh_discord_spec.py``
refreshes it) and the limits Discord's documentation adds to it; and every answer of the fake against the
same description (the fields it requires).

``check_request`` returns the rules a request breaks ("POST /channels/{channel_id}/messages: body.content:
2,001 characters > 2,000 (messages)"): an endpoint and method the description has, path and query
parameters of their types, a body that matches the request schema (types, required fields, lengths,
counts, patterns, enums) and the documented limits (``LIMITS`` below: message content, action rows,
application commands' names, descriptions, locales, option order and their 4,000 characters in all).
More of them, for components, embeds and the list of commands: ``discord_limits.py``.
``check_answer`` does the same for the fake's JSON answers. The fake refuses a request that breaks a rule
(400, code 50035, as Discord does) and the test fails at its end naming the rule (``fake`` fixture).

Where the description and Discord differ, Discord wins: an integer field also takes its digits as a string
(Discord parses both; discord.py sends permissions and snowflakes as strings).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bot.adapters import discord_limits as limits
from tests.bot.path_templates import fit

SPEC = json.loads((Path(__file__).parent / "spec" / "discord_openapi_subset.json").read_text())
SOURCE = SPEC["x-clubbot-source"]
PREFIX = "/api/v10"
MAX_MESSAGE = 2000  # https://discord.com/developers/docs/resources/message#create-message: content up to 2000
MAX_ROWS = 5  # action rows in a message (https://discord.com/developers/docs/components/reference)
MAX_COMMAND_CHARS = 4000  # names, descriptions and values of a command, its options and choices
LOCALES = {branch["const"] for branch in SPEC["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]}
TYPES = {"string": str, "boolean": bool, "array": list, "object": dict}


def _template(path: str) -> tuple[str, dict[str, str]] | None:
    """The description's path template a request's path fits, with the path parameters."""
    return fit(SPEC["paths"], path.removeprefix(PREFIX))


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        _, _, kind, name = node["$ref"].split("/", 3)
        node = SPEC["components"][kind][name]
    return node


def validate(schema: dict[str, Any], value: Any, where: str) -> list[str]:
    """What of ``schema`` (JSON Schema as the description writes it) ``value`` breaks."""
    schema = resolve(schema)
    if schema.get("format") == "snowflake" and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # Discord takes a snowflake as a number too
    errors: list[str] = []
    types = schema.get("type")
    if types is not None:
        allowed = types if isinstance(types, list) else [types]
        if not any(_is(kind, value) for kind in allowed):
            return [f"{where}: {type(value).__name__} {_short(value)} is not {' or '.join(allowed)}"]
    if value is None:
        return []
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: {_short(value)} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"] and str(value) not in map(str, schema["enum"]):
        errors.append(f"{where}: {_short(value)} is not one of {schema['enum'][:12]}")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            errors.append(f"{where}: {len(value)} characters > {schema['maxLength']}")
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{where}: {len(value)} characters < {schema['minLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{where}: {_short(value)} does not match {schema['pattern']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) or _is_digits(value, schema):
        number = float(value)
        if "minimum" in schema and number < schema["minimum"] or "maximum" in schema and number > schema["maximum"]:
            errors.append(f"{where}: {value} outside {schema.get('minimum')}..{schema.get('maximum')}")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            errors.append(f"{where}: {len(value)} items > {schema['maxItems']}")
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{where}: {len(value)} items < {schema['minItems']}")
        if "items" in schema:
            for i, item in enumerate(value):
                errors += validate(schema["items"], item, f"{where}[{i}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        errors += [f"{where}: required {name!r} missing" for name in schema.get("required", []) if name not in value]
        if len(value) > schema.get("maxProperties", len(value)):
            errors.append(f"{where}: {len(value)} properties > {schema['maxProperties']}")
        for key, item in value.items():
            if key in properties:
                errors += validate(properties[key], item, f"{where}.{key}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += validate(schema["additionalProperties"], item, f"{where}.{key}")
    for part in schema.get("allOf", []):
        errors += validate(part, value, where)
    branches = schema.get("oneOf") or schema.get("anyOf")
    if branches and not all("const" in resolve(b) for b in branches):  # a union: one branch must fit
        tried = [validate(branch, value, where) for branch in branches]
        if all(tried):  # report the branch of the value's own kind (its "type"), else the nearest
            own = [e for branch, e in zip(branches, tried) if _kind_of(branch, value)]
            errors += min(own or tried, key=len)
    elif branches and value not in [resolve(b)["const"] for b in branches]:
        errors.append(f"{where}: {_short(value)} is not one of the described values")
    return errors


def _kind_of(branch: dict[str, Any], value: Any) -> bool:
    """Whether a union's branch is the one for this value by its discriminating ``type`` field."""
    kind = resolve(branch).get("properties", {}).get("type", {})
    return isinstance(value, dict) and value.get("type") in kind.get("enum", [object()])


def _is(kind: str, value: Any) -> bool:
    if kind == "null":
        return value is None
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and bool(re.fullmatch(r"-?\d+", value)))
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[kind])


def _is_digits(value: Any, schema: dict[str, Any]) -> bool:
    return isinstance(value, str) and schema.get("type") in ("integer", ["integer", "null"]) and bool(re.fullmatch(r"-?\d+", value))


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _parameter(spec: dict[str, Any], value: str) -> Any:
    """A query or path parameter's text as the type its schema says."""
    kind = resolve(spec["schema"]).get("type")
    if kind == "integer" and re.fullmatch(r"-?\d+", value):
        return int(value)
    if kind == "boolean" and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return value


def check_request(method: str, path: str, query: dict[str, str], body: Any, multipart: bool) -> list[str]:
    """The rules a request breaks: the description's and the documented limits."""
    found = _template(path)
    if found is None or method.lower() not in SPEC["paths"][found[0]]:
        return [f"{method} {path}: no such endpoint in Discord's API v10"]
    template, path_params = found
    operation = SPEC["paths"][template][method.lower()]
    where = f"{method} {template}"
    parameters = [resolve(p) for p in SPEC["paths"][template].get("parameters", []) + operation.get("parameters", [])]
    errors = []
    for param in parameters:
        given = path_params.get(param["name"]) if param["in"] == "path" else query.get(param["name"])
        if given is None:
            if param.get("required"):
                errors.append(f"{where}: {param['in']} parameter {param['name']!r} missing")
            continue
        errors += validate(param["schema"], _parameter(param, given), f"{where}: {param['in']} {param['name']}")
    known = {p["name"] for p in parameters if p["in"] == "query"}
    errors += [f"{where}: unknown query parameter {name!r}" for name in query if name not in known]
    request = operation.get("requestBody")
    if request is None:
        if body is not None:
            errors.append(f"{where}: takes no body")
        return errors
    if body is None:
        return errors + ([f"{where}: body required"] if request.get("required") else [])
    content = request["content"]
    schema = content["multipart/form-data" if multipart and "multipart/form-data" in content else "application/json"]["schema"]
    errors += validate(schema, body, f"{where}: body")
    return errors + documented_limits(template, method, body, where)


def documented_limits(template: str, method: str, body: Any, where: str) -> list[str]:
    """What Discord's documentation limits beyond the description's schemas."""
    errors = []
    creates = method == "POST" and template in ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}")
    for message in _messages(template, body):
        content = message.get("content") or ""
        if (creates or body.get("type") == 4) and not any(
            message.get(field) for field in ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
        ):
            errors.append(f"{where}: an empty message (50006: no content, embeds, components or files)")
        if len(content) > MAX_MESSAGE:
            errors.append(f"{where}: body.content: {len(content)} characters > {MAX_MESSAGE} (a message)")
        rows = [c for c in message.get("components") or [] if c.get("type") == 1]
        if len(rows) > MAX_ROWS:
            errors.append(f"{where}: body.components: {len(rows)} action rows > {MAX_ROWS}")
        field = ("data",) if template.endswith("/callback") else ()  # where the message is in the body
        errors += limits.components(message.get("components") or [], f"{where}: body.components", (*field, "components"))
        errors += limits.embeds(message.get("embeds") or [], f"{where}: body.embeds", (*field, "embeds"))
    if template.endswith("/commands") and isinstance(body, list):
        errors += limits.command_list(body, f"{where}: body")
        for i, command in enumerate(body):
            errors += _command(command, f"{where}: body[{i}] /{command.get('name')}")
    return errors


def _messages(template: str, body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, dict):
        return []
    if template.endswith("/callback"):
        data = body.get("data")
        return [data] if isinstance(data, dict) and body.get("type") in (4, 7) else []
    return [body]


NAME = re.compile(r"[-_'\w]{1,32}")


def _command(command: dict[str, Any], where: str) -> list[str]:
    """An application command: names (lowercase, letters, digits, ``-_'``, 1-32), descriptions 1-100, valid
    locales, required options first, and 4,000 characters in all per locale."""
    errors = []
    chat_input = command.get("type", 1) == 1
    for node, path in [(command, where), *_options(command, where)]:
        names = [node.get("name") or "", *(node.get("name_localizations") or {}).values()]
        is_choice = "value" in node and "type" not in node
        for name in names if not is_choice and chat_input else []:
            if not NAME.fullmatch(name) or name != name.lower():
                errors.append(f"{path}: name {name!r} is not lowercase letters, digits, -, _ or ' (1-32)")
        if not is_choice and chat_input and not 1 <= len(node.get("description") or "") <= 100:
            errors.append(f"{path}: description must be 1-100 characters")
        for field in ("name_localizations", "description_localizations"):
            errors += [f"{path}: {field}: {key!r} is not a Discord locale" for key in node.get(field) or {} if key not in LOCALES]
        options = node.get("options") or []
        required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
        if required != sorted(required, reverse=True):
            errors.append(f"{path}: a required option after an optional one")
    for locale in {None, *LOCALES}:
        total = sum(_characters(node, locale) for node, _ in [(command, where), *_options(command, where)])
        if total > MAX_COMMAND_CHARS:
            errors.append(f"{where}: {total} characters in names, descriptions and values ({locale or 'default'}) > {MAX_COMMAND_CHARS}")
    return errors


def _options(node: dict[str, Any], where: str) -> list[tuple[dict[str, Any], str]]:
    found = []
    for option in node.get("options") or []:
        path = f"{where} option {option.get('name')!r}"
        found.append((option, path))
        found += _options(option, path)
        found += [(choice, f"{path} choice {choice.get('name')!r}") for choice in option.get("choices") or []]
    return found


def _characters(node: dict[str, Any], locale: str | None) -> int:
    name = (node.get("name_localizations") or {}).get(locale) or node.get("name") or ""
    description = (node.get("description_localizations") or {}).get(locale) or node.get("description") or ""
    value = node.get("value") if "value" in node and "type" not in node else ""
    return len(name) + len(description) + len(str(value))


def check_answer(method: str, path: str, status: int, answer: Any) -> list[str]:
    """What a (fake's) JSON answer lacks or gets wrong by the description."""
    found = _template(path)
    if found is None or status == 204 or not isinstance(answer, (dict, list)):
        return []
    operation = SPEC["paths"][found[0]].get(method.lower())
    responses = (operation or {}).get("responses", {})
    response = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
    if response is None:
        return [f"{method} {found[0]}: answer {status} not described"]
    schema = resolve(response).get("content", {}).get("application/json", {}).get("schema")
    return validate(schema, answer, f"answer to {method} {found[0]}") if schema else []


_FOUND: dict[bytes, list[str]] = {}


def remembered(check: Callable[..., list[str]], *args: Any) -> list[str]:
    """``check(*args)`` (``check_request``, ``check_answer``), worked out once per test process for the
    same arguments: a check is a function of what it is given alone (the description does not change), and
    much of it comes again and again (the list of some fifty commands every bot syncs as it starts, and its
    answer, were most of the fake's CPU). Arguments are the same when their ``repr`` is: that tells a number
    from its digits, ``True`` from ``1``, and keeps the order of a dict's keys that the errors follow."""
    key = hashlib.blake2b(repr((check.__name__, args)).encode(), digest_size=20).digest()
    if key not in _FOUND:
        _FOUND[key] = check(*args)
    return list(_FOUND[key])


CHECKED = [0]  # requests checked in this test session (every fake's)


class _Summary:
    @property
    def total(self) -> int:  # what tests/conftest.py adds up over pytest-xdist's workers
        return CHECKED[0]

    @total.setter
    def total(self, value: int) -> None:
        CHECKED[0] = value

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if CHECKED[0]:
            terminalreporter.write_line(
                f"Discord fake: {CHECKED[0]} requests checked against Discord's OpenAPI description "
                f"(API v{SOURCE['api_version']}, discord-api-spec {SOURCE['commit'][:10]}) and its documented limits"
            )


def report_count(config: Any) -> None:
    """Say at the end of the test session how many requests were checked."""
    if not config.pluginmanager.has_plugin("discord-spec-summary"):
        config.pluginmanager.register(_Summary(), "discord-spec-summary")
