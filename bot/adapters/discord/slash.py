"""Slash commands built from the registry: one application command per command a system registered, its
options from the command's parameters (``bot/core/commands/registry.py``), so every system gets native options
the same way and the adapter knows no command of its own.

A command without declared parameters gets one free-text option ``argumenten`` with what one would type
after its name. Names, descriptions and choices are Dutch by default, English for en-US/en-GB
(``ClubTranslator``): a command's English name is ``discord_cmd_<name>`` or its English alias, its
description ``discord_desc_<name>`` or its help text.
"""

from __future__ import annotations

import inspect
import logging
import re
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range, locale_str

from bot.core.commands.limits import MAX_FILE_BYTES
from bot.core.i18n import catalogue, t
from bot.core.commands.registry import Command, Param
from bot.core.commands.replies import Reply

if TYPE_CHECKING:
    from bot.adapters.discord.adapter import DiscordAdapter

log = logging.getLogger(__name__)

MAX_DESCRIPTION = 100
MAX_CHOICES = 25  # autocomplete suggestions
MAX_IMPORT_BYTES = MAX_FILE_BYTES
ENGLISH = (discord.Locale.american_english, discord.Locale.british_english)
SLASH_NAME = re.compile(r"[-_a-z0-9]{1,32}")
SlashCommand = app_commands.Command[Any, ..., None]


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _ls(key: str, **extras: Any) -> locale_str:
    """A translatable string: the Dutch text is the default, the translator gives the English."""
    return locale_str(clip(t("nl", key), extras.get("limit", MAX_DESCRIPTION)), key=key, **extras)


class ClubTranslator(app_commands.Translator):
    """Names, descriptions and choices from the catalogues: Dutch by default, English for en-US/en-GB."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> Optional[str]:
        if locale not in ENGLISH:
            return None
        if "en" in string.extras:
            return str(string.extras["en"])
        key = string.extras.get("key")
        text = catalogue("en").get(key) if key else None
        return clip(text, string.extras.get("limit", MAX_DESCRIPTION)) if text else None


def _label(text: str) -> str | locale_str:
    """A choice's label: a catalogue key (translated), or the text itself (``1-0``)."""
    return _ls(text) if text in catalogue("nl") else text


def _annotation(param: Param) -> Any:
    """The Python annotation discord.py turns into the option's type."""
    if param.kind == "int":
        kind: Any = Range[int, param.low, param.high] if param.low is not None and param.high is not None else int
    elif param.kind == "bool":
        return bool
    elif param.kind == "file":
        kind = discord.Attachment
    elif param.kind == "channel":
        kind = discord.TextChannel
    elif param.kind == "user":
        kind = discord.Member
    else:
        kind = str
    return kind if param.required else Optional[kind]


def _signature(params: list[inspect.Parameter]) -> inspect.Signature:
    interaction = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    return inspect.Signature([interaction, *params])


def build_commands(adapter: "DiscordAdapter") -> list[SlashCommand]:
    """One slash command per registered command whose name Discord allows."""
    built = []
    for command in adapter.core.registry.commands.values():
        if not SLASH_NAME.fullmatch(command.name):
            log.warning("command /%s cannot be a Discord slash command name; left out", command.name)
            continue
        built.append(slash_command(adapter, command))
    return built


def slash_command(adapter: "DiscordAdapter", command: Command) -> SlashCommand:
    if command.params is None:
        callback = _free_text_callback(adapter, command)
    else:
        callback = _options_callback(adapter, command)
    texts = catalogue("nl")
    english = catalogue("en").get(f"discord_cmd_{command.name}") or command.english
    extras: dict[str, Any] = {"en": english} if english and SLASH_NAME.fullmatch(english) else {}
    key = f"discord_desc_{command.name}" if f"discord_desc_{command.name}" in texts else f"help_{command.name}"
    slash: SlashCommand = app_commands.Command(
        name=locale_str(command.name, **extras),
        description=locale_str(clip(texts.get(key) or command.name, MAX_DESCRIPTION), key=key),
        callback=callback,
    )
    for param in command.params or ():
        if param.choices:
            app_commands.choices(**{param.name: [Choice(name=_label(label), value=value) for label, value in param.choices]})(slash)
        if param.complete is not None:
            slash.autocomplete(param.name)(_completer(adapter, param))
    finish(slash, command.director)
    return slash


def _free_text_callback(adapter: "DiscordAdapter", command: Command) -> Any:
    async def callback(interaction: discord.Interaction, argumenten: Optional[Range[str, 0, 500]] = None) -> None:
        await adapter.run(interaction, command.name, [], raw=argumenten)

    return callback


def _options_callback(adapter: "DiscordAdapter", command: Command) -> Any:
    params = command.params or ()

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        values: dict[str, Any] = {}
        attachment: bytes | None = None
        for param in params:
            value = options.get(param.name)
            if param.kind == "channel":
                channel_id = value.id if value is not None else interaction.channel_id
                value = str(channel_id) if channel_id is not None else None
            elif param.kind == "user" and value is not None:
                value = f"<@{value.id}>"
            elif param.kind == "file" and value is not None:
                if value.size > MAX_IMPORT_BYTES:
                    await _refuse_file(adapter, interaction)
                    return
                attachment = await value.read()
            values[param.name] = value
        args = command.line(values)
        if command.confirm is not None:
            question, button = command.confirm
            await adapter.ask_first(interaction, command.name, question, button, args)
        else:
            await adapter.run(interaction, command.name, args, attachment=attachment)

    callback.__signature__ = _signature(  # type: ignore[attr-defined]  # what discord.py reads the options from
        [
            inspect.Parameter(
                p.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(p),
                default=inspect.Parameter.empty if p.required else (False if p.kind == "bool" else None),
            )  # fmt: skip
            for p in params
        ]
    )
    callback.__name__ = callback.__qualname__ = f"slash_{command.name}"
    return callback


async def _refuse_file(adapter: "DiscordAdapter", interaction: discord.Interaction) -> None:
    club = await adapter.club_of(interaction)
    lang = club.language if club else adapter.fallback_language(interaction)
    reply = Reply(lines=(t(lang, "discord_file_too_large", limit=MAX_IMPORT_BYTES // (1024 * 1024)),), ok=False)
    await adapter.answer(interaction, reply, lang)


def _completer(adapter: "DiscordAdapter", param: Param) -> Any:
    async def complete(interaction: discord.Interaction, current: Any) -> list[Choice[Any]]:
        club = await adapter.club_of(interaction)
        if club is None or param.complete is None:
            return []
        given = {key: value for key, value in interaction.namespace}
        found = await param.complete(adapter.core, club, str(current or ""), given)
        return [Choice(name=str(label)[:100], value=value) for label, value in found[:MAX_CHOICES]]

    return complete


def finish(command: SlashCommand, director: bool) -> None:
    """Localised option names and descriptions; director commands: guild-only and, by default, only for
    members who may manage the server (the server can allow the director role under Integrations)."""
    texts = catalogue("nl")
    names = [p.name for p in command.parameters]
    if names:
        descriptions = {}
        for param in names:
            own = f"discord_pdesc_{command.name}_{param}"
            descriptions[param] = _ls(own if own in texts else f"discord_pdesc_{param}")
        app_commands.describe(**descriptions)(command)
        app_commands.rename(**{p: _ls(f"discord_param_{p}", limit=32) for p in names})(command)
    if director:
        app_commands.default_permissions(manage_guild=True)(command)
        app_commands.guild_only(command)
    else:
        app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)(command)
    app_commands.allowed_installs(guilds=True, users=False)(command)
