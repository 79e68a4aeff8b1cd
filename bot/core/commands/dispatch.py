"""Where every command arrives: Discord, Telegram, the console and the website all come here.

``Core.handle(actor, text)`` parses one command line (``/afmelden 3 teamwedstrijd``), finds the command in
the registry the systems filled, checks the actor's rights, and runs the system's handler inside one
store transaction, which returns a ``Reply``. A refused command (``Reply.ok`` False) has changed nothing:
a handler raises ``UserError`` before its first write, and any error rolls back everything it wrote.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import time
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import AsyncIterator, Awaitable, Callable

from bot.config import Config
from bot.core.running.clock import Clock
from bot.core.commands.command_line import split_words
from bot.core.commands.club_slots import ClubSlots
from bot.core.running.log_lines import CLUB
from bot.core.running.health import COMMAND_SECONDS, COMMANDS, TRANSACTION_SECONDS, Health
from bot.core.commands.context import MENTION, Actor, Context, Quoted, UserError, keyword, parse_id, storable
from bot.core.i18n import t
from bot.core.commands.registry import Command, Registry
from bot.core.commands.replies import OWNER_MARK, Reply
from bot.core.commands.reply_cache import ReplyCache
from bot.core.storage.outage import DatabaseDown, connection_lost, down
from bot.core.storage.store import Club, Member, Store, club_key
from bot.core.commands.user_limits import UserLimits
from bot.core.online.settings import Online

log = logging.getLogger(__name__)

MAX_ARGS_LENGTH = 500
UNSAVED = 0  # the id of a club not (yet) in the database: no row has it, so reads of it find nothing
UNAVAILABLE = "unavailable"  # Reply.extra: the database could not be reached (the website answers 503)


_FAILED: ContextVar[bool] = ContextVar("command_failed", default=False)  # the command ended in a bug
# The line ``_handle`` parsed and the command's name in it: ``handle`` names the command for its metrics
# without parsing the same line a second time.
_PARSED: ContextVar[tuple[str, str] | None] = ContextVar("command_parsed", default=None)


@asynccontextmanager
async def _timed_transaction(store: Store, key: str) -> AsyncIterator[None]:
    """A command's transaction, its time (waiting for the writer and the commit included) measured."""
    began = time.perf_counter()
    try:
        async with store.transaction(key=key):
            yield
    finally:
        TRANSACTION_SECONDS.observe(time.perf_counter() - began)


def parse_command(text: str, aliases: dict[str, str] | None = None) -> tuple[str, list[str]]:
    """``/Afmelden@clubbot 3 "teamwedstrijd"`` -> ("afmelden", ["3", "teamwedstrijd"])."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        raise UserError("error_not_a_command")
    if "\x00" in stripped or not storable(stripped):  # a broken or hostile client's lone surrogates
        raise UserError("error_bad_characters")
    head, _, rest = stripped[1:].partition(" ")
    name = head.split("@", 1)[0].lower()
    if len(rest) > MAX_ARGS_LENGTH:
        raise UserError("error_too_long", limit=MAX_ARGS_LENGTH)
    args = split_words(rest)
    return (aliases or {}).get(name, name), args


ChannelCheck = Callable[[Actor, str], Awaitable[str | None]]
Done = Callable[[Reply], Awaitable[None]]  # what an adapter writes in a command's transaction (Core.handle)




class Core:
    """The store, the configuration, the clock and the registry of commands, for every system."""

    def __init__(self, store: Store, config: Config, clock: Clock, registry: Registry) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.registry = registry
        self.health = Health()
        self.replies = ReplyCache()
        self.slots = ClubSlots()
        self.user_limits = UserLimits()
        # Per platform, the adapter's answer to "may this club's announcements go to that channel?":
        # ``await check(actor, channel)`` is None when they may, or the key of the message that says why not.
        # A platform without one (the console: one chat) accepts any channel.
        self.channel_checks: dict[str, ChannelCheck] = {}
        # Each club's language as last read, to say "try again in a minute" in it while the database that
        # holds it cannot be reached (``database_down``).
        self.languages: dict[tuple[str, str], str] = {}
        # Online play on lichess: ``online.on`` (a token is set), the process's one client, whose turn it is
        self.online = Online(config, store)

    async def club_of(self, actor: Actor) -> Club:
        """The actor's club, or, for a chat the bot has never accepted anything in, the club it would be
        (``UNSAVED``: nothing of it is in the database)."""
        club = await self.store.club_by_external(actor.platform, actor.club_external_id)
        if club is not None:
            return club
        language, zone = self.config.default_language, self.config.default_timezone
        return Club(UNSAVED, actor.platform, actor.club_external_id, actor.club_name, language, zone, None)

    async def club_for(self, actor: Actor) -> Club:
        """The actor's club, created if it is new (inside a command: rolled back if the command is refused)."""
        return await self.store.get_or_create_club(
            actor.platform,
            actor.club_external_id,
            actor.club_name,
            self.config.default_language,
            self.config.default_timezone,
            self.clock.now(),
        )

    async def context(self, actor: Actor, args: list[str], attachment: bytes | None = None) -> Context:
        """The context of a command by ``actor`` (for work on a member's behalf outside ``handle``)."""
        club = await self.club_for(actor)
        member = await self.member_of(club, actor)
        return Context(actor, club, member, self.clock.now(), args, attachment, self)

    async def member_of(self, club: Club, actor: Actor) -> Member | None:
        """The member the actor is: by their chat account, or on the website by the member its personal
        link was checked for (``Actor.member_id``; never another club's)."""
        if actor.member_id is not None:
            member = await self.store.member(actor.member_id)
            return member if member is not None and member.club_id == club.id else None
        return await self.store.member_by_identity(club.id, actor.user_id)

    def context_at(self, club: Club, now: datetime, actor: Actor | None = None) -> Context:
        """The context of the bot's own work for a club (the scheduler's announcements)."""
        who = actor or Actor(club.platform, club.external_id, club.name, "clubbot", "clubbot")
        return Context(who, club, None, now, [], None, self)

    async def handle(
        self, actor: Actor, text: str, attachment: bytes | None = None, limited: bool = True, done: Done | None = None
    ) -> Reply:
        """Answer one command line; ``attachment`` is a file that came with it (for /importeer). ``done``,
        for a command that changes something, runs inside its transaction with its reply: what the adapter
        records with the change (that this message is handled), committed with it or not at all.

        A command waits for one of its club's few slots (``bot/core/commands/club_slots.py``), so a busy club
        never fills the event loop. A command that changes something runs inside one store transaction:
        atomic, and serialised with every other command and with the scheduler's work; a command that
        only reads runs on the read path."""
        wait = self.user_limits.wait_for(actor.platform, actor.user_id) if limited else 0  # the website limits by address
        if wait:  # a tight loop of commands: refused before it costs a club slot or a store trip
            club = await self.club_of(actor)
            return Reply(lines=(t(club.language, "error_slow_down", seconds=wait),), ok=False, private=True)
        slot = (actor.platform, actor.club_external_id)
        began = time.perf_counter()
        await self.slots.enter(slot)
        failed = _FAILED.set(False)
        parsed = _PARSED.set(None)
        try:
            reply = await self._handle(actor, text, attachment, done)
        except DatabaseDown as exc:  # PostgreSQL stopped or restarting: nothing changed; said, not a crash
            _FAILED.set(True)
            log.warning("event=database_down command=%r error=%s", text.strip()[:40], exc)
            reply = self.database_down(actor)
        finally:
            self.slots.leave(slot)
        first = text.strip().partition("\n")[0]
        seen = _PARSED.get()
        _PARSED.reset(parsed)
        if seen is not None and seen[0] == first:  # the very line _handle parsed: the same name
            name = seen[1]
        else:
            try:
                name = parse_command(first, self.registry.aliases)[0]
            except Exception:  # not a command at all
                name = ""
        outcome = "error" if _FAILED.get() else "ok" if reply.ok else "refused"
        _FAILED.reset(failed)
        name = name if name in self.registry.commands else "unknown"
        took = time.perf_counter() - began
        COMMANDS.labels(name, outcome).inc()
        COMMAND_SECONDS.observe(took)
        log.info("event=command command=%s outcome=%s ms=%.0f platform=%s", name, outcome, took * 1000, actor.platform)
        return reply

    def database_down(self, actor: Actor) -> Reply:
        """The answer while the database cannot be reached, in the club's language as last read."""
        language = self.languages.get((actor.platform, actor.club_external_id), self.config.default_language)
        return Reply(lines=(t(language, "error_database_down"),), ok=False, private=True, extra={UNAVAILABLE: "database"})

    async def _handle(self, actor: Actor, text: str, attachment: bytes | None, done: Done | None) -> Reply:
        club = await self.club_of(actor)
        if club.id != UNSAVED:
            self.languages[(actor.platform, actor.club_external_id)] = club.language
        CLUB.set(club.id if club.id != UNSAVED else None)  # the log's club= of this command's lines
        try:
            text, attachment = self._pasted(text, attachment)
            name, args = parse_command(text, self.registry.aliases)
            _PARSED.set((text, name))
            command = self.registry.commands.get(name)
            if command is None:
                raise UserError("error_unknown_command", command=name[:40])
            member = await self.member_of(club, actor)
            if member is None and actor.member_id is not None:  # a link's member removed meanwhile: never join anew
                raise UserError("web_link_unknown")
            owner = parse_id(args[-1][1:]) if args and args[-1].startswith(OWNER_MARK) else None
            if owner is not None:  # a button with its owner
                args.pop()
                if member is None or member.id != owner:
                    meant = await self.store.member(owner)
                    raise UserError("error_button_not_yours", name=meant.name if meant and meant.club_id == club.id else "?")
            if name != "koppel":  # /koppel links an account; anywhere else a mention stands for the member's name
                args = [await self._mentioned(club, arg) for arg in args]
            ctx = Context(actor, club, member, self.clock.now(), args, attachment, self)
            if command.director and not ctx.is_director:  # named as typed: /grades in English, /graden in Dutch
                typed = parse_command(text)[0]  # without the aliases: the name as typed
                raise UserError("error_director_only", command=typed if self.registry.aliases.get(typed) == name else name)
            if command.reads_only and not self._writing_route(command.name, args):
                return await self.read(command, ctx)
            # One transaction per command: commands run one at a time, see no one else's half-done
            # work, and whatever goes wrong (a refusal or a bug) rolls back everything they wrote.
            async with self.store.transaction(key=club_key(actor.platform, actor.club_external_id)):
                if club.id == UNSAVED:  # a club is made only by a command it accepts: a refusal rolls it back
                    ctx = ctx.with_club(await self.club_for(actor))
                    CLUB.set(ctx.club.id)
                reply = await self.run(command, ctx)
                if reply.ok and actor.member_id is None:  # a chat account (not the website): is it a director's?
                    await self.store.remember_director(ctx.club.id, actor.user_id, ctx.is_director, ctx.now)
                if reply.ok:
                    for hook in self.registry.after_command:  # e.g. grades: a result may earn a promotion
                        await hook(self, ctx, name)
                if done is not None:
                    await done(reply)
                return reply
        except UserError as err:
            try:
                return Reply(lines=(t(club.language, err.key, **err.values),), ok=False, private=True)
            except (KeyError, IndexError, ValueError):  # a refusal whose message cannot be said is a bug too
                log.exception("the message of a refusal of %r cannot be formatted", text[:200])
                return Reply(lines=(t(club.language, "error_internal"),), ok=False, private=True)
        except Exception as exc:  # a bug must not crash the bot; the transaction has rolled back
            if connection_lost(exc):  # the database went away during the command: nothing was kept
                raise down(exc) from exc
            _FAILED.set(True)
            log.exception("command failed: %r", text[:200])
            return Reply(lines=(t(club.language, "error_internal"),), ok=False, private=True)

    def _pasted(self, text: str, attachment: bytes | None) -> tuple[str, bytes | None]:
        """For a command that reads a pasted list (``Command.pasted``: ``/leden importeer`` and a member
        per line), its first line as the command and the lines after it as its file."""
        first, newline, body = text.strip().partition("\n")
        if not newline or attachment is not None or not body.strip():
            return text, attachment
        name, _ = parse_command(first, self.registry.aliases)
        command = self.registry.commands.get(name)
        return (first, body.encode("utf-8", "replace")) if command is not None and command.pasted else (text, attachment)

    async def _mentioned(self, club: Club, arg: str) -> str:
        """``<@123>`` (a Discord mention, a Telegram text mention) as the name of the member that account
        is linked to, a name (``Quoted``: never read as a keyword); any other word as it is, and a quoted
        one too (``"<@123>"``: a name that looks like a mention). A mention of an account that is no
        member is refused."""
        match = None if isinstance(arg, Quoted) else MENTION.fullmatch(arg)
        if match is None:
            return arg
        member = await self.store.member_by_identity(club.id, match.group(1))
        if member is None:
            raise UserError("error_mention_unknown")
        return Quoted(member.name)

    def _writing_route(self, name: str, args: list[str]) -> bool:
        """Whether the first word routes a read-only command to a change (``/indeling wissel A B``)."""
        return bool(args) and any(r.writes and keyword(args[0]) in r.words for r in self.registry.routes.get(name, []))

    async def read(self, command: Command, ctx: Context) -> Reply:
        """A read-only command on the read path: no transaction, no writer's lock, its own connection; its
        reply from the cache while what it depends on is unchanged."""
        async with self.store.reading():
            routed = bool(ctx.args) and any(keyword(ctx.args[0]) in r.words for r in self.registry.routes.get(command.name, []))
            key = None if routed or command.cache_key is None else await command.cache_key(self, ctx)
            if key is not None:
                cached = self.replies.get((command.name, ctx.club.id, key))
                if cached is not None:
                    return _with_own_row(cached, ctx)
            reply = await self.run(command, ctx)
            if key is not None and reply.ok:
                self.replies.put((command.name, ctx.club.id, key), reply)
            return _with_own_row(reply, ctx)

    async def run(self, command: Command, ctx: Context) -> Reply:
        """The command's handler, or another system's route for its first word (``/stand nk``); a route
        with ``fallback`` answers the bare command when its own handler refuses it."""
        routes = self.registry.routes.get(command.name, [])
        if ctx.args:
            for route in routes:
                if keyword(ctx.args[0]) in route.words:
                    return await route.handler(self, ctx.with_args(ctx.args[1:]))
        try:
            return await command.handler(self, ctx)
        except UserError:
            if not ctx.args:
                for route in routes:
                    if route.fallback:
                        try:
                            return await route.handler(self, ctx)
                        except UserError:
                            pass
            raise


OWN_ROWS = "own_rows"  # Reply.extra: JSON {member name (casefolded): line}: each asker also sees their own


def _with_own_row(reply: Reply, ctx: Context) -> Reply:
    """A shared reply (one page of a big table, from the cache) with the asker's own row added when it
    is not on the page: the same reply serves every member, and each sees where they stand."""
    rows = reply.extra.get(OWN_ROWS)
    if not rows or ctx.member is None:
        return reply
    line = _own_rows(rows).get(ctx.member.name.casefold())
    return dataclasses.replace(reply, lines=(*reply.lines, line)) if line else reply


@functools.lru_cache(maxsize=256)  # the same cached reply's text each time: parsed once (a str keeps its hash)
def _own_rows(rows: str) -> dict[str, str]:
    parsed: dict[str, str] = json.loads(rows)
    return parsed
