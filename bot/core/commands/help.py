"""``/help``: the commands of the systems the club uses, and one command explained.

A system is in use by a club when its ``registry.used_when`` check says so (the NK: a tournament; grades:
a member with a grade; go: a challenge); a system without a check (the Keizer competition, backups, the
club's own commands) always is. ``/help`` lists the commands of the systems in use (a director's too for
a director) and names the others with how to see theirs: ``/help go``. ``/help uitslag`` (or
``/help /result``) explains one command: what it does, how to type it, who may.
"""

from __future__ import annotations

from typing import Iterable

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.i18n import LANGUAGES, catalogue
from bot.core.commands.replies import Reply


async def cmd_help(core: Core, ctx: Context) -> Reply:
    registry = core.registry
    english = registry.english_names()

    def line(name: str) -> str:
        return ctx.t("help_line", command=name, alias=english.get(name, name), text=ctx.t(f"help_{name}"))

    word = " ".join(ctx.args).strip().lstrip("/").lower()
    if word:
        system = _system_named(registry.system_of.values(), word)
        if system is not None:
            names = [n for n, s in registry.system_of.items() if s == system]
            return Reply(lines=(ctx.t("help_system_title", system=ctx.t(f"system_{system}")), *map(line, names)), private=True)
        name = registry.aliases.get(word, word)
        command = registry.commands.get(name)
        if command is None:
            raise UserError("error_unknown_command", command=word[:40])
        lines = [line(name)]
        usage = _usage_key(name)
        if usage is not None:
            lines.append(ctx.t("error_usage", usage=ctx.t(usage)))
        lines.append(ctx.t("help_who_director" if command.director else "help_who_member"))
        return Reply(lines=tuple(lines), private=True)
    used: dict[str, bool] = {}
    for system in dict.fromkeys(registry.system_of.values()):
        check = registry.in_use.get(system)
        used[system] = check is None or await check(core, ctx.club)
    shown = [n for n, s in registry.system_of.items() if used[s]]
    lines = [ctx.t("help_title")]
    lines.extend(line(n) for n in shown if not registry.commands[n].director)
    if ctx.is_director:
        lines.append(ctx.t("help_director_title"))
        lines.extend(line(n) for n in shown if registry.commands[n].director)
    unused = [s for s, u in used.items() if not u]
    if unused:
        others = ", ".join(ctx.t("help_system_pointer", system=ctx.t(f"system_{s}")) for s in unused)
        lines.append(ctx.t("help_not_in_use", systems=others))
    return Reply(lines=tuple(lines), private=True)


def _system_named(systems: Iterable[str], word: str) -> str | None:
    """The system ``word`` names: its own name (``go``, ``grades``) or its name in either language."""
    for system in dict.fromkeys(systems):
        if system and word in {system, *(catalogue(lang).get(f"system_{system}", "").lower() for lang in LANGUAGES)}:
            return str(system)
    return None


def _usage_key(name: str) -> str | None:
    """The key of the command's usage line (``usage_uitslag``; a system's own prefix: ``grade_usage_partij``)."""
    keys = catalogue("nl")
    if f"usage_{name}" in keys:
        return f"usage_{name}"
    return next((k for k in keys if k.endswith(f"_usage_{name}")), None)
