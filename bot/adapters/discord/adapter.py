"""The Discord adapter (discord.py 2.x): slash commands in, replies and announcements out. No rules here.

A Discord server (guild) is a club. Every registered command is an application command with a Dutch name
and an English localisation, built from its parameters in ``slash.py`` (texts in
``bot/adapters/i18n/*/discord.json``); its callback turns the options into the command line the console
would type (``/afmelden 3 teamwedstrijd``) and hands it to ``Core.handle`` as the user who used it. The
``Reply`` comes back as an interaction
response: ephemeral when it is private or refused, in the channel otherwise; a table as a code block,
a picture (``Reply.image``) and files as attachments, ``Reply.buttons`` as buttons whose ``custom_id``
holds the command they run for whoever presses them (so they keep working after a restart).

Announcements go through the REST API to the club's channel (set with ``/kanaal``), with a picture of
the pairing or standings and the text as fallback, and a nonce so that a repeated post after a lost
answer is not shown twice. A failure (no channel, a deleted channel, missing permissions, a long rate
limit) is logged and raised, so the announcement stays pending and the alarm retries it; the next
director who uses a command in that server is told what is wrong.

Directors: members with the configured role (``[discord] director_role``) or the Manage Server
permission; the director commands are guild-only and hidden by default for members without Manage
Server (``default_permissions``), which the server can widen to the role under Integrations.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any, Sequence

import aiohttp
import discord
from discord import app_commands

from bot.adapters.discord.announce import send_announcement
from bot.adapters.discord.channels import check_channel
from bot.adapters.discord.render import MAX_PARTS, blocks, escape, fit, messages, safe_file_name
from bot.adapters.discord.slash import ClubTranslator, SlashCommand, build_commands, clip
from bot.adapters.inflight import InFlight
from bot.adapters.lost import Lost, gateway_lost
from bot.adapters.problems import Problems, closed_accounts_note
from bot.core.commands.command_line import quote_word
from bot.core.commands.context import Actor, AfterReply
from bot.core.running.open_files import PLATFORM_CONNECTIONS
from bot.core.commands.dispatch import UNAVAILABLE, Core
from bot.config import Config
from bot.core.i18n import DEFAULT_LANGUAGE, t
from bot.core.commands.replies import Button, Reply
from bot.core.storage.outage import DatabaseDown
from bot.core.storage.store import Announcement, Club

log = logging.getLogger(__name__)

PLATFORM = "discord"
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
BUTTON_PREFIX = "clubbot:"
CANCEL = "cancel"
# the bot's own identity when it asks the commands layer for the picture of an announcement
# slow commands: after this many seconds the interaction is deferred (Discord wants an answer within 3)
DEFER_AFTER = 2.0
# a rate limit longer than this is not waited out: the announcement stays pending and is retried
MAX_RATELIMIT_WAIT = 30.0

# ---------------------------------------------------------------------------------------------- texts
def _language_of(locale: discord.Locale | None, default: str) -> str:
    if locale is None:
        return default
    return "en" if str(locale).startswith("en") else "nl" if str(locale).startswith("nl") else default


# ---------------------------------------------------------------------------------------------- buttons
class CommandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"clubbot:(?P<command>/.*|cancel)"):  # type: ignore[type-arg]  # discord.py's own form
    """A button that runs a command for whoever presses it; the command is in the ``custom_id``."""

    def __init__(self, label: str, command: str, style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(discord.ui.Button(label=clip(label, MAX_LABEL), custom_id=BUTTON_PREFIX + command, style=style))
        self.command = command

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "CommandButton":
        return cls(getattr(item, "label", None) or "", match["command"])

    async def callback(self, interaction: discord.Interaction) -> None:
        adapter: DiscordAdapter = interaction.client.adapter  # type: ignore[attr-defined]  # our clients carry it
        await adapter.press(interaction, self.command)


def buttons_view(buttons: tuple[Button, ...] | list[Button]) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    for button in buttons[:25]:
        if len(BUTTON_PREFIX + button.command) > MAX_CUSTOM_ID:
            log.warning("button command too long for a custom_id: %r", button.command[:120])
            continue
        style = discord.ButtonStyle.secondary if button.command == CANCEL else discord.ButtonStyle.primary
        view.add_item(CommandButton(button.label, button.command, style))
    return view if view.children else None


# ---------------------------------------------------------------------------------------------- the client
if TYPE_CHECKING:  # the typed base of the mixin: a discord.py client (ClubClient's or ShardedClubClient's)
    _Client = discord.Client
else:
    _Client = object


class _ClubCommands(_Client):
    """What the club's client adds to discord.py's: the command tree. Intents: only ``guilds`` (not
    privileged): slash commands and buttons arrive as interactions, which need no message content or
    member intents."""

    def __init__(self, adapter: "DiscordAdapter", sync_commands: bool = True, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
            **options,
        )
        self.adapter = adapter
        self.sync_commands = sync_commands
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = adapter.on_tree_error  # type: ignore[method-assign]  # discord.py's hook, set per tree
        for command in adapter.build_commands():
            self.tree.add_command(command)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(ClubTranslator())
        self.add_dynamic_items(CommandButton)
        if self.sync_commands:
            try:
                await self.tree.sync()
            except discord.HTTPException:
                log.exception("registering the slash commands with Discord failed; the old ones stay")


class ClubClient(_ClubCommands, discord.Client):
    """One process for all the bot's servers (one gateway connection)."""


class ShardedClubClient(_ClubCommands, discord.AutoShardedClient):
    """One of several processes (docs/deploy.md): the shards ``--shards`` names, of ``--shard-count``."""


def club_client(adapter: "DiscordAdapter", config: Config, sync_commands: bool) -> discord.Client:
    if config.shard_count is None:
        return ClubClient(adapter, sync_commands)
    shards = list(config.shards) if config.shards is not None else list(range(config.shard_count))
    # the commands are registered with Discord once, by the process that runs shard 0
    return ShardedClubClient(adapter, sync_commands and 0 in shards, shard_ids=shards, shard_count=config.shard_count)


# ---------------------------------------------------------------------------------------------- the adapter
class DiscordAdapter:
    platform = PLATFORM

    def __init__(
        self, core: Core, config: Config, after_command: AfterReply, sync_commands: bool = True
    ) -> None:
        self.core = core
        self.config = config
        self.after_command = after_command
        self.defer_after = DEFER_AFTER
        self.client = club_client(self, config, sync_commands)
        self._gateway: asyncio.Task[None] | None = None
        self.lost = Lost()  # the gateway connection ended for good (a revoked token's 4004): the process exits
        self.in_flight = InFlight()
        self.problems = Problems(core.clock)  # why a club's announcements are not posted, for its directors
        core.channel_checks[PLATFORM] = lambda actor, channel: check_channel(self.client, actor, channel)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, connect: bool = True) -> None:
        """Log in (REST), register the commands, and connect to the gateway in the background."""
        if not self.config.discord_token:
            raise RuntimeError("no Discord token configured")
        if getattr(self.client.http, "connector", None) is discord.utils.MISSING:  # discord.py's own: unlimited
            self.client.http.connector = aiohttp.TCPConnector(limit=PLATFORM_CONNECTIONS)  # its open files bounded
        await self.client.login(self.config.discord_token)
        if connect:
            self._gateway = asyncio.create_task(self._connect(), name="discord-gateway")

    async def _connect(self) -> None:
        """The gateway connection, reconnected by discord.py; what it gives up on ends the bot's session
        for good (``self.lost``: a revoked token's 4004, ...): the process exits so that it is started again."""
        try:
            await self.client.connect(reconnect=True)
        except Exception as exc:
            self.lost(gateway_lost(exc))

    def connected(self) -> bool:
        """Logged in with the gateway's session ready and not closed (``/healthz``)."""
        return not self.lost and self.client.is_ready() and not self.client.is_closed()

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no command is being handled (before stopping; tests wait for button presses)."""
        await self.in_flight.idle(timeout)

    async def stop(self) -> None:
        try:
            await self.idle()
        except TimeoutError:
            log.warning("stopping with commands still running")
        await self.client.close()
        if self._gateway is not None:
            self._gateway.cancel()
            try:
                await self._gateway
            except (asyncio.CancelledError, Exception):
                pass

    # ------------------------------------------------------------------ who and where
    def is_director(self, interaction: discord.Interaction) -> bool:
        """The configured director role, or Manage Server (server administrators)."""
        if interaction.guild_id is None:
            return False
        permissions = interaction.permissions
        if permissions.manage_guild or permissions.administrator:
            return True
        role = self.config.discord_director_role.casefold()
        user = interaction.user
        return isinstance(user, discord.Member) and any(r.name.casefold() == role for r in user.roles)

    async def actor_for(self, interaction: discord.Interaction) -> Actor | str:
        """The actor of an interaction, or the key of the reason there is none (a private message from
        someone who is not a member of exactly one club the bot serves)."""
        user = interaction.user
        if interaction.guild_id is not None:
            guild = interaction.guild
            name = guild.name if guild is not None and guild.name else str(interaction.guild_id)
            return Actor(
                PLATFORM, str(interaction.guild_id), name, str(user.id), user.display_name, self.is_director(interaction)
            )
        clubs = await self.clubs_of(str(user.id))
        if not clubs:
            return "discord_dm_unknown"
        if len(clubs) > 1:
            return "discord_dm_several"
        club = clubs[0]
        return Actor(PLATFORM, club.external_id, club.name, str(user.id), user.display_name, False)

    async def clubs_of(self, user_id: str) -> list[Club]:
        """The clubs (servers the bot is in) where this Discord user is a known member."""
        found = []
        for guild in self.client.guilds:
            club = await self.core.store.club_by_external(PLATFORM, str(guild.id))
            if club is not None and await self.core.store.member_by_identity(club.id, user_id) is not None:
                found.append(club)
        return found

    async def club_of(self, interaction: discord.Interaction) -> Club | None:
        """The club an interaction is about, without creating one (for autocomplete)."""
        if interaction.guild_id is not None:
            return await self.core.store.club_by_external(PLATFORM, str(interaction.guild_id))
        clubs = await self.clubs_of(str(interaction.user.id))
        return clubs[0] if len(clubs) == 1 else None

    def fallback_language(self, interaction: discord.Interaction) -> str:
        return _language_of(interaction.locale, self.config.default_language or DEFAULT_LANGUAGE)

    # ------------------------------------------------------------------ commands in
    async def run(
        self,
        interaction: discord.Interaction,
        name: str,
        args: list[str],
        attachment: bytes | None = None,
        raw: str | None = None,
    ) -> None:
        """Run ``/name args`` (each option one argument) or ``/name raw`` for the user of the interaction,
        answer it, then let the scheduler do what has become due."""
        text = "/" + name
        if args:
            text += " " + " ".join(quote_word(a) for a in args)
        if raw:
            text += " " + raw
        actor = await self.actor_for(interaction)
        if isinstance(actor, str):
            lang = self.fallback_language(interaction)
            await self.answer(interaction, Reply(lines=(t(lang, actor),), ok=False, private=True), lang)
            return
        await self._run_as(interaction, actor, text, attachment, update=False)

    async def press(self, interaction: discord.Interaction, command: str) -> None:
        """A button: run its command as whoever pressed it."""
        actor = await self.actor_for(interaction)
        if isinstance(actor, str):
            lang = self.fallback_language(interaction)
            await self.answer(interaction, Reply(lines=(t(lang, actor),), ok=False, private=True), lang)
            return
        if command == CANCEL:
            club = await self.core.club_of(actor)
            await self.answer(interaction, Reply(lines=(t(club.language, "discord_cancelled"),)), club.language, update=True)
            return
        await self._run_as(interaction, actor, command, None, update=True)

    async def ask_first(
        self, interaction: discord.Interaction, name: str, question_key: str, button_key: str, args: Sequence[str] = ()
    ) -> None:
        """A director command that is confirmed with a button before it runs (``/publiceer``)."""
        actor = await self.actor_for(interaction)
        if isinstance(actor, str) or not actor.is_director:
            await self.run(interaction, name, list(args))
            return
        club = await self.core.club_of(actor)
        lang = club.language
        command = " ".join(["/" + name, *args])
        buttons = (Button(t(lang, button_key), command), Button(t(lang, "discord_button_cancel"), CANCEL))
        await self.answer(interaction, Reply(lines=(t(lang, question_key),), private=True, buttons=buttons), lang)

    async def _run_as(
        self, interaction: discord.Interaction, actor: Actor, text: str, attachment: bytes | None, update: bool
    ) -> None:
        try:
            await self.in_flight.run(self._run_counted(interaction, actor, text, attachment, update))
        except DatabaseDown:  # PostgreSQL out of reach (issue 46 §3): said in the club's language, not a crash
            lang = self.core.languages.get((PLATFORM, actor.club_external_id)) or self.fallback_language(interaction)
            down = Reply(lines=(t(lang, "error_database_down"),), ok=False, private=True)
            await self.answer(interaction, down, lang, deferred=interaction.response.is_done())

    async def _run_counted(
        self, interaction: discord.Interaction, actor: Actor, text: str, attachment: bytes | None, update: bool
    ) -> None:
        task = asyncio.ensure_future(self.core.handle(actor, text, attachment=attachment))
        done, _ = await asyncio.wait({task}, timeout=self.defer_after)
        deferred = False
        if not done:  # Discord wants an answer within 3 seconds: show "thinking" until the reply is there
            try:
                await interaction.response.defer(ephemeral=True, thinking=True)
                deferred = True
            except discord.HTTPException:
                log.exception("deferring the interaction failed")
        reply = await task
        club = await self.core.club_of(actor)
        await self.answer(interaction, reply, club.language, deferred=deferred, update=update)
        if actor.is_director and UNAVAILABLE not in reply.extra:  # the database out of reach: nothing to tell
            await self.tell_problem(interaction, club)
        await self.after(actor)

    async def after(self, actor: Actor) -> None:
        try:
            await self.after_command(actor)
        except Exception:
            log.exception("the work after a command failed")

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.error("slash command failed: %s", error, exc_info=error)
        lang = self.fallback_language(interaction)
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(t(lang, "error_internal"), ephemeral=True)
            except discord.HTTPException:
                pass

    # ------------------------------------------------------------------ replies out
    def render(self, reply: Reply, lang: str) -> tuple[list[str], list[discord.File]]:
        """The messages of a reply (its tables as code blocks narrowed for a phone; several messages when
        it is long, at most ``MAX_PARTS``, else the whole text as a file) and its files: the picture and
        the attachment."""
        files: list[discord.File] = []
        if reply.image is not None:
            files.append(discord.File(io.BytesIO(reply.image), filename="clubbot.png"))
        if reply.attachment is not None:
            name, data = reply.attachment
            files.append(discord.File(io.BytesIO(data), filename=safe_file_name(name)))
        pieces: list[tuple[str | None, str]] = [
            (None, line) for text in reply.lines for line in text.split("\n")
        ]
        if reply.table is not None:
            pieces += blocks(reply.table.as_text())
        parts = messages(pieces) or [""]
        if len(parts) > MAX_PARTS:
            content, extra = fit("\n".join(parts), reply.text, lang)
            return [content], files + extra
        return parts, files

    async def answer(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        lang: str,
        deferred: bool = False,
        update: bool = False,
    ) -> None:
        """Answer an interaction with a reply: ephemeral when private or refused; a long reply goes on in
        follow-up messages; a button's successful public reply replaces the message the button was on (and
        its buttons)."""
        ephemeral = reply.private or not reply.ok
        parts, files = self.render(reply, lang)
        content, rest = parts[0], parts[1:]
        view = buttons_view(reply.buttons)
        extra: dict[str, Any] = {}
        if view is not None:
            extra["view"] = view
        try:
            if deferred:
                if ephemeral:
                    await interaction.edit_original_response(content=content, attachments=files, **extra)
                else:
                    await interaction.edit_original_response(content=t(lang, "discord_done"))
                    await interaction.followup.send(content=content, files=files, suppress_embeds=True, **extra)
            elif update and reply.ok and not reply.private and not files and not rest and interaction.message is not None:
                before = interaction.message.content or ""
                merged, _ = fit((before + "\n" + content).strip(), content, lang)
                await interaction.response.edit_message(content=merged, view=view)
            else:
                await interaction.response.send_message(
                    content=content, files=files, ephemeral=ephemeral, suppress_embeds=True, **extra
                )
            for part in rest:
                await interaction.followup.send(content=part, ephemeral=ephemeral, suppress_embeds=True)
        except discord.HTTPException:
            log.exception("answering an interaction failed")

    # ------------------------------------------------------------------ announcements out
    async def send_announcement(self, club: Club, announcement: Announcement) -> str | None:
        """Post to the club's channel (``announce.py``: several messages when long, exactly once) and return
        the reference; raise if it was not posted (it stays pending and is retried). A member's private
        notice goes to their direct messages."""
        return await send_announcement(self, club, announcement)

    async def tell_problem(self, interaction: discord.Interaction, club: Club) -> None:
        """Tell a director (once per problem, after the posts failed for a few minutes: ``problems.py``) why
        the club's announcements are not being posted, and (once each) which members cannot get private
        notices because their direct messages are closed."""
        problem = self.problems.to_tell(club.id)
        closed = await closed_accounts_note(self.core.store, club, "discord_private_closed", escape)
        notes = ([t(club.language, problem.key, **problem.values)] if problem is not None else []) + ([closed[0]] if closed else [])
        if not notes:
            return
        try:
            await interaction.followup.send(content="\n\n".join(notes), ephemeral=True)
        except discord.HTTPException:
            log.exception("telling the director about announcement trouble failed")
            return
        if problem is not None:
            self.problems.told(club.id)
        if closed:
            await self.core.store.private_closed_told(club.id, closed[1])

    # ------------------------------------------------------------------ the slash commands
    def build_commands(self) -> list[SlashCommand]:
        return build_commands(self)

