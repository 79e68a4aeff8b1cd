"""The registry every system adds itself to: its commands (with their parameters, so each platform can offer
native options), its tables (``Table``: what the core may do with them, never naming them), its timed
work, the hooks it wants after each command, and what it shares with other systems through the core
(``bot/core/commands/competitions.py``).

A system is a package with a ``register(registry)`` function (``bot/keizer/__init__.py``,
``bot/nk/__init__.py``, ...). The core knows none of them: ``bot/systems.py`` lists the installed ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, Sequence

from bot.core.commands.context import Quoted
from bot.core.commands.replies import Reply
from bot.core.storage.table_rules import CORE, Table
from bot.core.storage.store import Club, Member

if TYPE_CHECKING:
    from bot.core.club.member_columns import MemberColumn
    from bot.core.commands.competitions import CompetitionSource
    from bot.core.commands.context import Context
    from bot.core.commands.dispatch import Core
    from bot.core.online.follow import OnlineResults
    from bot.core.online.rounds import OnlineRounds

Handler = Callable[["Core", "Context"], Awaitable[Reply]]
AfterCommand = Callable[["Core", "Context", str], Awaitable[None]]
# Suggestions while a parameter is typed: (core, club, what is typed so far, the options given so far)
# -> (label, value) pairs.
Completer = Callable[["Core", Club, str, dict[str, Any]], Awaitable[list[tuple[str, Any]]]]
# What a read-only command's reply depends on (None: do not cache this one), read on the read path.
CacheKey = Callable[["Core", "Context"], Awaitable[Hashable | None]]

# How a parameter's value becomes part of the command line the console would type.
POSITIONAL = "positional"  # the value itself: ``/stand A``
FLAG = "flag"  # a word when set: ``/afmelden teamwedstrijd``
KEYED = "keyed"  # ``key=value``: ``/seizoen naam=2026-27``
PREFIXED = "prefixed"  # the word and the value as one: ``/zet D4 #12`` (``word="#"``)
NAMED = "named"  # the word, then the value: ``/go uitdagen Bert voorgift 3``
WORDS = "words"  # each word of the value on its own: ``/zet D4 Q16`` (several points in one option)


@dataclass(frozen=True)
class Param:
    """One parameter of a command, as a platform with native options (Discord) offers it.

    ``kind``: "text", "int" (``low``..``high``), "bool" (a flag word), "choice" (``choices``: label key or
    label, value), "file" (an attachment; not part of the line), "channel" (a channel of the club's
    server; by default the one the command is used in), "user" (a chat account: ``<@id>`` in the line). ``complete`` suggests values while typing. The
    names of the option and its description are catalogue keys ``discord_param_<name>`` and
    ``discord_pdesc_<command>_<name>`` (or ``discord_pdesc_<name>``), in the system's own catalogue
    (``bot/<system>/i18n/<lang>/discord.json``), like its choices' labels; an option name several owners'
    commands share is the Discord adapter's (``bot/adapters/i18n/``)."""

    name: str
    kind: str = "text"
    required: bool = False
    style: str = POSITIONAL
    word: str | None = None  # FLAG: the word typed when set (default: the name); KEYED, NAMED: the key; PREFIXED: the prefix
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    complete: Completer | None = None
    member_name: bool = False  # POSITIONAL text: one member's name, in quotes in the line (never a keyword)

    def typed(self, value: Any) -> list[str]:
        """What this parameter adds to the command line for ``value`` (nothing when not given)."""
        if value is None or value is False or value == "" or self.kind == "file":
            return []
        if self.member_name:  # the option "speler: 3" names the member called 3, never round 3
            return [Quoted(" ".join(str(value).split()))]
        if self.style == FLAG:
            return [self.word or self.name]
        if self.style == KEYED:
            return [f"{self.word or self.name}={value}"]
        if self.style == PREFIXED:
            return [f"{self.word or ''}{value}"]
        if self.style == NAMED:
            return [self.word or self.name, str(value)]
        if self.style == WORDS:
            return str(value).split()
        return [str(value)]


@dataclass(frozen=True)
class Command:
    """A command: its Dutch name (what users type), English alias, who may use it, its handler.

    ``params`` None: one free-text option with what one would type after the name. ``confirm``: the
    catalogue keys of a question and a button a platform with buttons asks before running it.
    ``reads_only``: it never writes, so it runs on the read path (its own connection, no writer's lock,
    no transaction); ``cache_key`` then names what its reply depends on, and the reply is served from
    the cache until that changes. ``confirms_result``: it can confirm a competition game's result (a
    result entered or confirmed, a no-show, a go game's end): a system that follows results (grades:
    a promotion) acts after it in its transaction (``after_command`` hooks read the flag, never names)."""

    name: str
    handler: Handler
    director: bool = False
    english: str | None = None
    params: tuple[Param, ...] | None = None
    confirm: tuple[str, str] | None = None
    reads_only: bool = False
    cache_key: CacheKey | None = None
    pasted: bool = False  # the lines after the command's first come to it as its file (a pasted list)
    confirms_result: bool = False

    def line(self, values: dict[str, Any]) -> list[str]:
        """The arguments of the command line for the given parameter values, in parameter order."""
        args: list[str] = []
        for param in self.params or ():
            args.extend(param.typed(values.get(param.name)))
        return args


@dataclass(frozen=True)
class Route:
    """A system answering another system's command when its first word is one of ``words`` (``/stand nk``),
    and, with ``fallback``, when that command without arguments is refused (a club with only an NK:
    ``/stand`` is its table)."""

    words: frozenset[str]
    handler: Handler
    fallback: bool = False
    writes: bool = False  # it changes something: run in a transaction even when its command only reads


class Timed(Protocol):
    """A system's timed work on the scheduler's alarm (reminders, deadlines, publications, go clocks).

    With several processes on one database every process wakes; the alarm lets one of them do a
    system's work at a time (``store.claim``). A system whose work is split by itself (each round claimed
    on its own, so processes share a busy minute) says ``claims_its_own = True``."""

    async def next_due_moment(self, core: "Core", club_id: int | None = None) -> datetime | None:
        """The earliest moment its work falls due, in any club, or (``club_id``) in that club: after a
        command the alarm asks only for the command's club (issue 42 §1)."""

    async def run_due(self, core: "Core", now: datetime) -> None: ...


@dataclass(frozen=True)
class FormRound:
    """A coming round as the website shows it: on the club's home (how many signed off) and on a member's
    sign-off form (their state, and the command lines the form's buttons run as them)."""

    title: str  # "Ronde 3 (2026-12-17) — afmelden tot ..." in the club's language
    competition: str  # "" for the main competition, else its name ("Rapidcompetitie")
    open: bool  # before its deadline: the form may change it
    state: str  # the member's state, in words ("" on the home page)
    signed_off: int  # how many members signed off
    actions: tuple[tuple[str, str], ...] = ()  # (button label, command line) the member may run now
    when: str = ""  # its sign-off deadline and publication, in words ("afmelden tot do 3 dec 17:00, ...")
    day: date | None = None  # its playing day: the form shows the rounds of every competition by date


# A member's own calendar feed, for the website: (core, club id, the token in the feed's address) -> whose
# feed it is, or None (``/c/<club>/kalender/<token>.ics``; the Keizer system's ``/mijn kalender``).
FeedMember = Callable[["Core", int, str], Awaitable["Member | None"]]
# A system's coming rounds for the website: (core, club, member or None, now) -> rounds, soonest first.
WebRounds = Callable[["Core", Club, "Member | None", datetime], Awaitable[list[FormRound]]]


@dataclass(frozen=True)
class WebContent:
    """What a system's own web view gives (``WebPage.view``): a page (a title, a reply's lines and table,
    an SVG the system drew from numbers only, links from a table's cells to other pages of the club), or
    a file to download."""

    title: str = ""
    reply: Reply = Reply()
    svg: str = ""
    links: tuple[tuple[str, str], ...] = ()  # (a cell's text, a path under the club's address)
    file: tuple[str, bytes, str] | None = None  # (file name, body, content type)
    legend: str = ""  # what the table's abbreviations mean, in the club's language (as ``WebPage.legend``'s)


# A system's own view: (core, club, the rest of the path, the address's query, the site's absolute address
# without "/" at the end: ``[web] base_url`` or the request's scheme and host) -> what to show, or None for a 404.
WebView = Callable[["Core", Club, str, Mapping[str, str], str], Awaitable[WebContent | None]]


@dataclass(frozen=True)
class WebPage:
    """A page of the club's website, ``/c/<club>/<path>``: a read-only command's reply, asked as nobody,
    or the system's own ``view``; ``shown`` says whether the club's menu lists it (a club without a rapid
    season has no rapid page to link to)."""

    path: str  # "stand", "nk", "go"
    command: str  # "/stand", "/stand nk"
    label: str  # the menu's message key
    numbered: bool = False  # /c/<club>/<path>/<n> asks "<command> <n>"
    words: tuple[str, ...] = ()  # further words /c/<club>/<path>/<word> adds to the command (a group)
    view: WebView | None = None
    shown: Callable[["Core", Club], Awaitable[bool]] | None = None
    # a numbered page's rounds that exist (published), in order: the page links to each and to the next
    rounds: Callable[["Core", Club], Awaitable[list[int]]] | None = None
    legend: str = ""  # the message key that explains the table's abbreviations (the cross table's)
    # lines the page shows under its title, asked with the page's rest ("", a round): the tournament's
    # dates, venue and time control, and when what the page shows last changed (issue 45 §1)
    details: Callable[["Core", Club, str], Awaitable[tuple[str, ...]]] | None = None
    # where the names in a command page's table link: name -> a path under the club's address (the NK's
    # players to their NK page); None: every member's name to their member page (``lid/<id>``)
    names: Callable[["Core", Club], Awaitable[dict[str, str]]] | None = None


@dataclass(frozen=True)
class ArchiveEntry:
    """A past competition on the website's archive (``/c/<club>/archief``): its year, its name, what it
    was (a message key: "NK", "Keizercompetitie") and the path of its standings under ``archief/``."""

    year: int
    name: str
    kind: str
    path: str  # "nk/3/stand"


@dataclass(frozen=True)
class WebArchive:
    """A system's past competitions on the website (issue 45 §1): ``entries`` lists them for the archive,
    ``view`` shows ``/c/<club>/archief/<word>/<rest>`` (read only), or None for a 404; ``any``: whether it
    has one (the menu asks on every page: one row at most), asked only when one of ``in_use`` (its pages'
    ``shown``, which the menu asks anyway) says the club uses the system."""

    word: str  # "nk", "keizer"
    entries: Callable[["Core", Club], Awaitable[list[ArchiveEntry]]]
    view: WebView
    any: Callable[["Core", Club], Awaitable[bool]]
    in_use: tuple[Callable[["Core", Club], Awaitable[bool]], ...] = ()


@dataclass
class Registry:
    commands: dict[str, Command] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # English name -> Dutch name
    routes: dict[str, list[Route]] = field(default_factory=dict)
    after_command: list[AfterCommand] = field(default_factory=list)
    timed: list[Timed] = field(default_factory=list)
    competitions: list["CompetitionSource"] = field(default_factory=list)
    # Games of a competition played as chat games (go in the chat): (competition kind, game id) per club.
    chat_played: list[Callable[["Core", int], Awaitable[set[tuple[str, int]]]]] = field(default_factory=list)
    # The chat game (its number) in which a competition game (competition kind, game id) is being played
    # now, or None: ``bot/core/commands/competitions.py`` ``playing_in_chat`` asks each.
    chat_playing: list[Callable[["Core", str, int], Awaitable[int | None]]] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    web_pages: list[WebPage] = field(default_factory=list)  # the club website's pages, in menu order
    web_rounds: list[WebRounds] = field(default_factory=list)
    web_archive: list[WebArchive] = field(default_factory=list)  # past competitions: the website's archive
    feed_members: list[FeedMember] = field(default_factory=list)  # ask with ``member_of_feed``
    # Which system added each command ("keizer", "go", ...; "" for the club's own), and when a system is in
    # use by a club (``used_when``; a system without one always is): what /help lists.
    current: str = ""  # the system registering now (``bot/systems.py`` sets it)
    system_of: dict[str, str] = field(default_factory=dict)
    in_use: dict[str, Callable[["Core", Club], Awaitable[bool]]] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)  # every table, by name, as its owner declared it
    # The systems that play rounds online: their hooks, by system name (bot/core/online/rounds.py)
    online_rounds: dict[str, "OnlineRounds"] = field(default_factory=dict)
    # ... and take their games' results from lichess: their hooks (bot/core/online/follow.py OnlineResults)
    online_results: dict[str, "OnlineResults"] = field(default_factory=dict)
    # Words a system's commands read beside a name (``teamwedstrijd``, ``rapid``, a group's letter): no
    # member may be called one (``bot/core/club/name_rules.py``); every route's words are such words too.
    reserved: set[str] = field(default_factory=set)
    # The member list's columns after the core's seven, read by systems (bot/core/club/member_columns.py)
    member_columns: list["MemberColumn"] = field(default_factory=list)

    def add(self, command: Command) -> None:
        """Add a command; its name and English alias must be new. Its help text is ``help_<name>``."""
        if command.name in self.commands or command.name in self.aliases:
            raise ValueError(f"command /{command.name} exists already")
        if command.english is not None and command.english != command.name:
            if command.english in self.aliases or command.english in self.commands:
                raise ValueError(f"alias /{command.english} exists already")
            self.aliases[command.english] = command.name
        self.commands[command.name] = command
        self.system_of[command.name] = self.current

    def table(self, name: str, **rules: Any) -> None:
        """The registering system owns table ``name`` (its migrations make it; only its SQL names it), with
        ``rules`` (``Table``'s fields) for what the core does with every table: remove a member, merge
        two, check rows a restore or a copy brings in."""
        if name in self.tables:
            raise ValueError(f"table {name} is declared already (by {self.tables[name].owner})")
        self.tables[name] = Table(name, owner=self.current or CORE, **rules)

    def removed_with_member(self) -> frozenset[str]:
        """The tables whose rows of a member go with the member (``Table.goes_with_member``)."""
        return frozenset(name for name, table in self.tables.items() if table.goes_with_member)

    def reserve(self, words: Iterable[str]) -> None:
        """Words the registering system's commands read beside a member's name: no new member is called one."""
        self.reserved.update(w.lower() for w in words)

    def name_words(self) -> frozenset[str]:
        """Every word a command reads beside a name: the reserved words and the routes' words."""
        return frozenset(self.reserved).union(*(r.words for routes in self.routes.values() for r in routes))

    def used_when(self, check: Callable[["Core", Club], Awaitable[bool]]) -> None:
        """The registering system is in use by a club when ``check`` says so (a chess club sees no go
        commands in /help until someone challenges someone)."""
        self.in_use[self.current] = check

    def alias(self, english: str, name: str) -> None:
        """A further English (or short) name for a command."""
        if english in self.aliases or english in self.commands:
            raise ValueError(f"alias /{english} exists already")
        self.aliases[english] = name

    def route(
        self, command: str, words: Sequence[str], handler: Handler, fallback: bool = False, writes: bool = False
    ) -> None:
        self.routes.setdefault(command, []).append(Route(frozenset(w.lower() for w in words), handler, fallback, writes))

    async def member_of_feed(self, core: "Core", club_id: int, token: str) -> Member | None:
        """The member whose own calendar feed has the address with ``token``, by the systems that give
        such feeds (``feed_members``), or None."""
        for ask in self.feed_members:
            member = await ask(core, club_id, token)
            if member is not None:
                return member
        return None

    def competition(self, kind: str) -> "CompetitionSource | None":
        return next((c for c in self.competitions if c.kind == kind), None)

    def english_names(self) -> dict[str, str]:
        """Dutch name -> its first English alias (the one the help shows)."""
        return {v: k for k, v in reversed(list(self.aliases.items()))}

    def player_commands(self) -> list[str]:
        return [c.name for c in self.commands.values() if not c.director]

    def director_commands(self) -> list[str]:
        return [c.name for c in self.commands.values() if c.director]
