"""The console adapter: the club's chat in a terminal, on the same commands layer as Discord and Telegram.

You start as the director named in the config. Console-only commands:
``/als Naam [wedstrijdleider]`` (``/as Name [director]``) acts as someone else; ``/klok`` (``/clock``) shows
the bot's time and ``/klok +2d`` / ``+3h`` / ``+30m`` / ``+1w`` / ``2026-12-03 18:00`` moves it forward, so a
whole week (deadline, pairing, announcement) runs in seconds; ``/stop`` quits. Lines from a script on
standard input are echoed after ``> ``; lines starting with ``#`` are comments. Announcements to the
club's channel are printed after ``[kanaal]``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from pathlib import Path
from datetime import datetime, timedelta
from typing import Awaitable, Callable, TextIO
from zoneinfo import ZoneInfo

from bot.core.output.calendar import FIRST_YEAR, LAST_YEAR, in_range
from bot.core.running.clock import ShiftedClock
from bot.core.commands.command_line import split_words
from bot.core.commands.context import Actor, AfterReply, UserError
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.limits import MAX_FILE_BYTES
from bot.core.commands.replies import Reply
from bot.core.storage.store import Announcement, Club

log = logging.getLogger(__name__)

PLATFORM = "console"
CLUB_ID = "console"
_DELTA = re.compile(r"^\+([0-9]{1,4})([wdhm])$")
_UNITS = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes"}


class ConsoleAdapter:
    def __init__(
        self,
        core: Core,
        clock: ShiftedClock,
        director_name: str,
        club_name: str,
        out: TextIO = sys.stdout,
        files_dir: Path | None = None,
    ) -> None:
        self.core = core
        self.clock = clock
        self.club_name = club_name
        self.out = out
        self.files_dir = files_dir or Path("exports")
        self.director_name = director_name
        self.actor = self._actor(director_name, director=True)
        self.after_command: AfterReply | None = None  # after a command: its club's due work
        self.after_clock: Callable[[], Awaitable[None]] | None = None  # after /klok: everything due

    def _actor(self, name: str, director: bool) -> Actor:
        user = "console:" + " ".join(name.split()).lower()
        return Actor(PLATFORM, CLUB_ID, self.club_name, user, " ".join(name.split()), is_director=director)

    async def club(self) -> Club:
        return await self.core.club_for(self.actor)

    def print(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def send_announcement(self, club: Club, announcement: Announcement) -> None:
        """Print it in one write. A terminal cannot be asked what it shows, so after a crash between
        printing and recording an announcement it is printed again (at least once)."""
        channel = club.channel_id or "kanaal"
        if announcement.recipient is not None:  # a member's private notice
            channel = "privé " + announcement.recipient.removeprefix("console:")
        self.print("\n".join(f"[{channel}] {line}" for line in announcement.body.splitlines()))

    async def start(self) -> None:
        """Make sure the console club exists with its channel, and that the director is a member."""
        club = await self.club()
        if club.channel_id is None:
            await self.core.store.set_club_channel(club.id, "kanaal")
        if await self.core.store.member_by_identity(club.id, self.actor.user_id) is None:
            member = await self.core.store.member_by_name(club.id, self.actor.display_name)
            if member is None:
                member = await self.core.store.add_member(
                    club.id, self.actor.display_name, 0, self.clock.now(), is_director=True
                )
            await self.core.store.link_identity(club.id, self.actor.user_id, member.id)

    async def handle_line(self, line: str) -> bool:
        """One line of input; False when the console should stop. Whatever goes wrong is logged and
        answered as a chat would ("something went wrong"); the console goes on with the next line."""
        try:
            return await self._handle_line(line)
        except Exception:
            log.exception("console line failed: %r", line[:200])
            self.print("bot! " + t(self.core.config.default_language, "error_internal"))
            return True

    async def _handle_line(self, line: str) -> bool:
        text = line.strip()
        if not text or text.startswith("#"):
            return True
        club = await self.club()
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("/stop", "/quit", "/exit"):
            return False
        if word in ("/als", "/as"):
            self._switch(club, rest)
        elif word in ("/klok", "/clock"):
            self._clock(club, rest.strip())
        elif word in ("/importeer", "/import"):
            await self._import(club, rest)
        elif word in ("/leden", "/members", "/ratings") and rest.split()[:1] and rest.split()[0].lower() in ("importeer", "import"):
            sub, _, path = rest.strip().partition(" ")  # /leden importeer pad/naar/leden.csv, /ratings importeer ...
            await self._import(club, path, command=f"{word} {sub}")
        elif word == "/website" and [w.lower() for w in rest.split()[:2]] in (["stijl", "logo"], ["style", "logo"]) and len(rest.split()) > 2:
            sub, logo, path = rest.strip().split(maxsplit=2)  # /website stijl logo pad/naar/logo.png [kleur=...]
            await self._import(club, path, command=f"{word} {sub} {logo}")
        else:
            if word in ("/koppel", "/link"):
                text = self._mention(text)
            else:
                text = await self._mentions(club, text)
            reply = await self.core.handle(self.actor, text)
            self.render(reply, club.language)
        if word in ("/klok", "/clock"):  # the clock moved for every club: the scheduler's whole pass
            if self.after_clock is not None:
                await self.after_clock()
        elif self.after_command is not None:
            await self.after_command(self.actor)
        return True

    def render(self, reply: Reply, language: str) -> None:
        """Text, then what a chat would show as a picture or buttons: the board as text, each button
        as ``[label] /command`` (type the command to press it), files saved under ``files_dir``."""
        prefix = "bot> " if reply.ok else "bot! "
        for line in reply.text.splitlines() or [""]:
            self.print(prefix + line)
        for line in reply.extra.get("board_text", "").splitlines():
            self.print(prefix + line)
        for button in reply.buttons:
            self.print(f"{prefix}[{button.label}] {button.command}")
        if reply.attachment is not None:
            name, content = reply.attachment
            self.files_dir.mkdir(parents=True, exist_ok=True)
            path = self.files_dir / name
            path.write_bytes(content)
            self.print(prefix + t(language, "console_attachment_saved", path=path))

    async def _import(self, club: Club, rest: str, command: str = "/importeer") -> None:
        """The console's way to attach a file: ``/importeer pad/naar/seizoen.json start=...``,
        ``/leden importeer pad/naar/leden.csv``, ``/website stijl logo pad/naar/logo.png``."""
        path, _, options = rest.strip().partition(" ")
        content: bytes | None = None
        if path and "=" not in path:
            try:  # at most one byte over the limit is read: /dev/zero is refused, not read forever
                with Path(path).expanduser().open("rb") as file:
                    content = file.read(MAX_FILE_BYTES + 1)
            except (OSError, ValueError, RuntimeError):  # ValueError: a NUL byte; RuntimeError: ~nobody
                self.print("bot! " + t(club.language, "console_file_unreadable", path=path.replace("\x00", "\\0")))
                return
        else:
            options = rest
        reply = await self.core.handle(self.actor, f"{command} {options}".strip(), attachment=content)
        self.render(reply, club.language)

    def _mention(self, text: str) -> str:
        """The console's mention of a chat account: ``/koppel Anna @Anna`` names the account ``/als Anna``
        acts as (a Discord mention, a Telegram answer to the member's message)."""
        head, sep, name = text.rpartition(" @")
        return f"{head} <@{self._actor(name, False).user_id}>" if sep and name.strip() else text

    async def _mentions(self, club: Club, text: str) -> str:
        """``@Bert`` in any other command: the account ``/als Bert`` acts as, when it is linked to a member
        (``/go uitdagen @Bert`` after ``/koppel "Bert Jansen" @Bert``), as a chat's mention is; else the
        word as typed (a member's name after an @)."""
        words = text.split(" ")
        for i, word in enumerate(words):
            if i and len(word) > 1 and word.startswith("@"):
                account = self._actor(word[1:], False).user_id
                if await self.core.store.member_by_identity(club.id, account) is not None:
                    words[i] = f"<@{account}>"
        return " ".join(words)

    def _switch(self, club: Club, rest: str) -> None:
        try:  # /als "Bert Jansen": a name in double quotes, as every command reads one (not the quotes as a name)
            words = split_words(rest)
        except UserError:  # a quote left open
            words = []
        director = bool(words) and words[-1].lower() in ("wedstrijdleider", "director")
        if director:
            words = words[:-1] or self.director_name.split()  # "/als Wedstrijdleider": the console's director
        if not words:
            self.print("bot! " + t(club.language, "console_as_usage"))
            return
        self.actor = self._actor(" ".join(words), director)
        suffix = t(club.language, "console_director_suffix") if director else ""
        self.print("bot> " + t(club.language, "console_as", name=self.actor.display_name, director=suffix))

    def _clock(self, club: Club, rest: str) -> None:
        zone = ZoneInfo(club.timezone)
        if rest:
            match = _DELTA.match(rest)
            try:
                if match:
                    target = self.clock.now() + timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
                else:
                    target = datetime.fromisoformat(rest)
                    if target.tzinfo is None:
                        target = target.replace(tzinfo=zone)
                if not in_range(target):  # 9999-12-31 23:59 would overflow every calendar after it
                    self.print("bot! " + t(club.language, "console_clock_range", first=FIRST_YEAR, last=LAST_YEAR))
                    return
                if target < self.clock.now():
                    self.print("bot! " + t(club.language, "console_clock_backwards"))
                    return
                self.clock.set(target)
            except (ValueError, OverflowError):
                self.print("bot! " + t(club.language, "console_clock_usage"))
                return
        local = self.clock.now().astimezone(zone)  # the weekday in the club's language, not the C locale's "Thu"
        now = f"{t(club.language, f'weekday_{local.weekday()}')} {local.strftime('%Y-%m-%d %H:%M')}"
        self.print("bot> " + t(club.language, "console_now", now=now, timezone=club.timezone))

    async def run(self, stream: TextIO = sys.stdin) -> None:
        club = await self.club()
        interactive = stream.isatty()
        self.print(t(club.language, "console_welcome", name=self.actor.display_name))
        while True:
            if interactive:
                try:
                    line = await asyncio.to_thread(input, "> ")
                except EOFError:
                    break
            else:
                line = await asyncio.to_thread(stream.readline)
                if not line:
                    break
                if line.strip():
                    self.print("> " + line.rstrip("\n"))
            if not await self.handle_line(line):
                break
