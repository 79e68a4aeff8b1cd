"""Every refusal can be said (issue 30): each ``UserError``, ``ctx.t`` and ``t(lang, ...)`` with a literal
key in ``bot/`` passes every placeholder its Dutch and English templates use, found by reading the code
(``ast``), so a message never fails to format at the moment a user needs it."""

from __future__ import annotations

import ast
import string

from bot.core.i18n import LANGUAGES, catalogue
from tests.paths import REPO


def placeholders(text: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def message_calls() -> list[tuple[str, int, str, set[str]]]:
    """(file, line, key, keyword names) of each call that formats a message with a literal key and no
    ``**values``."""
    found = []
    for path in sorted((REPO / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name == "UserError" or (name == "t" and isinstance(func, ast.Attribute)):
                args = node.args[:1]
            elif name == "t":
                args = node.args[1:2]
            else:
                continue
            if not args or not isinstance(args[0], ast.Constant) or not isinstance(args[0].value, str):
                continue
            if any(k.arg is None for k in node.keywords):  # **values: not known here
                continue
            keywords = {k.arg for k in node.keywords if k.arg is not None}
            found.append((str(path.relative_to(REPO)), node.lineno, args[0].value, keywords))
    return found


def test_every_message_is_given_every_placeholder_of_both_languages() -> None:
    calls = message_calls()
    assert len(calls) > 500, "the scan found too few messages"
    missing = []
    for path, line, key, given in calls:
        for language in LANGUAGES:
            template = catalogue(language).get(key)
            if template is not None and placeholders(template) - given:
                missing.append(f"{path}:{line} {key} ({language}) lacks {sorted(placeholders(template) - given)}")
    assert not missing, "\n".join(sorted(set(missing)))
