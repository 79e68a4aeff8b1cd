"""The commands every club has whatever systems it runs: ``/help``, ``/taal``, ``/kanaal`` and ``/koppel``
(``bot/core/linking.py``)."""

from __future__ import annotations

from bot.core import linking
from bot.core.context import Context, UserError
from bot.core.dispatch import Core
from bot.core.i18n import LANGUAGES, t
from bot.core.registry import Command, Param, Registry
from bot.core.replies import Reply


def register(registry: Registry) -> None:
    registry.add(Command("help", cmd_help, english="hulp", params=(), reads_only=True))
    registry.add(Command("taal", cmd_taal, director=True, english="language",
                         params=(Param("taal", "choice", required=True, choices=(("nl", "nl"), ("en", "en"))),)))  # fmt: skip
    registry.add(Command("kanaal", cmd_kanaal, director=True, english="channel", params=(Param("kanaal", "channel"),)))
    linking.register(registry)


async def cmd_help(core: Core, ctx: Context) -> Reply:
    """The command list: a member's commands, and a director's too for a director."""
    english = core.registry.english_names()

    def line(name: str) -> str:
        return ctx.t("help_line", command=name, alias=english.get(name, name), text=ctx.t(f"help_{name}"))

    lines = [ctx.t("help_title")]
    lines.extend(line(name) for name in core.registry.player_commands())
    if ctx.is_director:
        lines.append(ctx.t("help_director_title"))
        lines.extend(line(name) for name in core.registry.director_commands())
    return Reply(lines=tuple(lines), private=True)


async def cmd_taal(core: Core, ctx: Context) -> Reply:
    """The club's language: ``/taal nl|en``."""
    if len(ctx.args) != 1 or ctx.args[0].lower() not in LANGUAGES:
        raise UserError("error_usage", usage=ctx.t("usage_taal"))
    language = ctx.args[0].lower()
    await core.store.set_club_language(ctx.club.id, language)
    return Reply(lines=(t(language, "language_set"),))


async def cmd_kanaal(core: Core, ctx: Context) -> Reply:
    """Where announcements go: ``/kanaal [kanaal]`` (default: where the command was typed)."""
    channel = ctx.args[0] if ctx.args else ctx.actor.club_external_id
    if len(channel) > 100:
        raise UserError("error_channel_not_here")
    check = core.channel_checks.get(ctx.actor.platform)
    problem = await check(ctx.actor, channel) if check is not None else None
    if problem is not None:
        raise UserError(problem)
    await core.store.set_club_channel(ctx.club.id, channel)
    return Reply(lines=(ctx.t("channel_set"),))
