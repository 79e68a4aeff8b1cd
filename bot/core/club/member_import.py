"""``/leden importeer`` (``/members import``): the director adds a club's members in one step, from a CSV
file sent with the command or a list pasted under it (one member a line: name, rating, optionally a chat
account), instead of a ``/speler`` and a ``/koppel`` per member.

The columns are separated by ``;`` (Dutch Excel), ``,`` or a tab, or, in a pasted list, the rating is the
last word of the name (``Anna de Vries 1800``); a first line of column names is skipped. An account is a
mention (``<@123>``) or the platform's user id. Columns 4-6, each optional, are the member's KNSB
relatienummer, FIDE ID and EGD PIN (``bot/core/club/federation.py``; ``-`` removes one, empty leaves it);
column 7 is the member's lichess username (``bot/core/club/lichess_accounts.py``; likewise); column 8 on
are the systems' (``bot/core/club/member_columns.py``: the Keizer group, ``A``-``D``; empty: unchanged). A member
already in the club (case and accents aside)
gets the new rating. A rating left empty (``Tim Koster;;``) is no rating: a new member is unrated (0: below
the rated players in the start order, no rating in a performance or the TRF file), a member already in the
club keeps theirs. All or nothing: one bad line and nothing is read, and the reply names every bad
line and what is wrong with it. The file is read with the limits of ``bot/core/commands/limits.py`` before it is
parsed; a name must be printable (no control characters) and at most ``MAX_NAME_LENGTH`` long.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass

from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError, printable
from bot.core.commands.dispatch import Core
from bot.core.club.federation import identity_value
from bot.core.club.lichess_accounts import lichess_username
from bot.core.club.lichess_tables import BY_DIRECTOR, user_id
from bot.core.commands.limits import MAX_FILE_BYTES
from bot.core.club.linking import account_of
from bot.core.club.member_list import member_list
from bot.core.club.name_key import name_key
from bot.core.club.name_rules import look_alikes, merge_hint, name_refusal, reserved_words
from bot.core.commands.registry import Command, Param, Registry
from bot.core.commands.replies import Reply
from bot.core.output.spreadsheet import file_text

MAX_MEMBER_LINES = 5000
MAX_RATING = 4000  # as /speler
SHOWN_BAD_LINES = 20
IMPORT_WORDS = frozenset({"importeer", "import"})
_RATING = re.compile(r"[0-9]{1,4}")
_ACCOUNT_ID = re.compile(r"[^<>@\s]{1,80}")
ID_COLUMNS = ("knsb_id", "fide_id", "egd_pin")  # columns 4-6: the federation identities (empty: unchanged)
LICHESS_COLUMN = 6  # column 7 (counted from 0): the lichess username (empty: unchanged)
_HEADER = frozenset({"naam", "name", "speler", "player", "lid", "member"})


def register(registry: Registry) -> None:
    registry.add(Command("leden", cmd_leden, director=True, english="members", pasted=True,
                         params=(Param("actie", "choice", choices=(("importeer", "importeer"),)),
                                 Param("bestand", "file"))))  # fmt: skip


@dataclass(frozen=True)
class Row:
    line: int
    name: str
    rating: int | None  # None: the cell left empty (a new member is unrated, 0; a member's rating stays)
    account: str | None
    ids: tuple[tuple[str, str | None], ...] = ()  # (column, value) of the KNSB, FIDE and EGD columns given
    lichess: tuple[str | None] | None = None  # column 7 given: (the lichess username, or None: removed)
    extra: tuple[tuple[int, str], ...] = ()  # (index among the systems' columns, cell) of those given


async def cmd_leden(core: Core, ctx: Context) -> Reply:
    if not ctx.args and not ctx.attachment:
        return await member_list(core, ctx)
    if [a.lower() for a in ctx.args] not in ([w] for w in IMPORT_WORDS):
        raise UserError("error_usage", usage=ctx.t("usage_leden"))
    if not ctx.attachment or not ctx.attachment.strip():
        raise UserError("members_import_nothing")
    if len(ctx.attachment) > MAX_FILE_BYTES:
        raise UserError("members_import_too_big", mb=MAX_FILE_BYTES // (1024 * 1024))
    columns = core.registry.member_columns
    parsed, bad = _rows(ctx, _text(ctx.attachment), [ctx.t(c.label) for c in columns])
    members = await core.store.members(ctx.club.id)
    existing = {name_key(m.name): m for m in members}
    reserved = reserved_words(ctx)
    for row in parsed:  # a new name: not a mention, a number or a command's word
        refusal = name_refusal(row.name, reserved) if name_key(row.name) not in existing else None
        if refusal is not None:
            bad.append((row.line, ctx.t(refusal.key, **refusal.values)))
    for row in parsed:
        if row.account is None:
            continue
        holder = await core.store.member_by_identity(ctx.club.id, row.account)
        if holder is not None and holder.id != getattr(existing.get(name_key(row.name)), "id", None):
            bad.append((row.line, ctx.t("members_import_account_taken", name=holder.name)))
    for row in parsed:
        for index, cell in row.extra:
            problem = await columns[index].check(core, ctx, cell)
            if problem is not None:
                bad.append((row.line, problem))
    for row in parsed:
        own = getattr(existing.get(name_key(row.name)), "id", None)
        for column, value in row.ids:
            other = await core.store.member_by_federation_id(ctx.club.id, column, value) if value else None
            if other is not None and other != own:
                taken = await core.store.member(other)
                bad.append((row.line, ctx.t("members_import_identity_taken", value=value, name=taken.name if taken else "?")))
        username = row.lichess[0] if row.lichess else None
        lichess_holder = await core.store.lichess_holder(ctx.club.id, username) if username else None
        if lichess_holder is not None and lichess_holder[0] != own:
            bad.append((row.line, ctx.t("members_import_identity_taken", value=username, name=lichess_holder[1])))
    if bad:
        bad.sort()
        lines = [ctx.t("members_import_bad_line", line=n, problem=p) for n, p in bad[:SHOWN_BAD_LINES]]
        if len(bad) > SHOWN_BAD_LINES:
            lines.append(ctx.t("members_import_more_bad", count=len(bad) - SHOWN_BAD_LINES))
        raise UserError("members_import_refused", count=len(bad), lines="\n".join(lines))
    added = updated = linked = 0
    changed: list[str] = []  # what the systems' columns changed (a group): the reply says it
    async with core.store.transaction():
        for row in parsed:
            member = existing.get(name_key(row.name))
            if member is None:
                member = await core.store.add_member(ctx.club.id, row.name, row.rating or 0, ctx.now)  # 0: unrated
                added += 1
            else:
                if row.rating is not None:
                    await core.store.update_member_rating(member.id, row.rating)
                updated += 1
            if row.account is not None:
                await core.store.move_member_to(ctx.club.id, row.account, member.id)
                linked += 1
            for column, value in row.ids:
                await core.store.set_identity(member.id, column, value)
            if row.lichess is not None:
                await core.store.set_lichess_account(ctx.club.id, member.id, row.lichess[0], BY_DIRECTOR, ctx.now)
            for index, cell in row.extra:
                changed.extend(await columns[index].write(core, ctx, member, cell))
    alike = [(row.name, other) for row in parsed if name_key(row.name) not in existing for other in look_alikes(row.name, members)]
    return Reply(lines=(ctx.t("members_imported", count=len(parsed), added=added, updated=updated, linked=linked), *changed,
                        *(ctx.t("name_looks_like", name=name, member=other, merge=merge_hint(ctx, name, other)) for name, other in alike)))


def _text(content: bytes) -> str:
    """The file as text (``spreadsheet.file_text``: UTF-8 with or without Excel's byte order mark, else
    Windows-1252, what a Dutch Excel saves as "CSV"); anything else, or a file with NUL bytes, is no text."""
    text = file_text(content)
    if text is None:
        raise UserError("members_import_not_text")
    return text


def _rows(ctx: Context, text: str, extra: list[str] | None = None) -> tuple[list[Row], list[tuple[int, str]]]:
    """The rows of the list and its bad lines; ``extra``: the names of the systems' columns after the core's."""
    lines = text.splitlines()
    if len(lines) > MAX_MEMBER_LINES:
        raise UserError("members_import_too_many", limit=MAX_MEMBER_LINES)
    rows: list[Row] = []
    bad: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    accounts: dict[str, int] = {}
    lichess: dict[str, int] = {}  # lichess user id -> its first line
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        cells = _cells(line)
        if number == 1 and cells and cells[0].strip().lower() in _HEADER:
            continue
        try:
            row = _row(number, cells, extra or [])
        except UserError as err:
            bad.append((number, ctx.t(err.key, **err.values)))
            continue
        key = name_key(row.name)
        if key in seen:
            bad.append((number, ctx.t("members_import_twice", name=row.name, first=seen[key])))
            continue
        seen[key] = number
        if row.account is not None:
            if row.account in accounts:
                bad.append((number, ctx.t("members_import_account_twice", first=accounts[row.account])))
                continue
            accounts[row.account] = number
        if row.lichess is not None and row.lichess[0] is not None:
            first = lichess.setdefault(user_id(row.lichess[0]), number)
            if first != number:
                bad.append((number, ctx.t("members_import_lichess_twice", username=row.lichess[0], first=first)))
                continue
        rows.append(row)
    if not rows and not bad:
        raise UserError("members_import_nothing")
    return rows, bad


def _cells(line: str) -> list[str]:
    """A line's cells: by ``;``, a tab or ``,`` (quoted as CSV may be), else ``Name Words 1800 [account]``."""
    for separator in (";", "\t", ","):
        if separator in line:
            try:
                return next(csv.reader([line], delimiter=separator))
            except (csv.Error, StopIteration):
                return [line]
    words = line.split()
    account = [words.pop()] if len(words) > 2 and account_of(words[-1]) is not None else []
    if len(words) >= 2 and _RATING.fullmatch(words[-1]):
        return [" ".join(words[:-1]), words[-1], *account]
    return [line, *account]


def _row(number: int, cells: list[str], extra_columns: list[str]) -> Row:
    name = " ".join(cells[0].split()) if cells else ""
    if not name:
        raise UserError("members_import_no_name")
    if printable(name) != name:
        raise UserError("members_import_control")
    if len(name) > MAX_NAME_LENGTH:
        raise UserError("members_import_long_name", limit=MAX_NAME_LENGTH)
    rating_text = cells[1].strip() if len(cells) > 1 else ""
    if rating_text and (not _RATING.fullmatch(rating_text) or int(rating_text) > MAX_RATING):
        raise UserError("members_import_rating", value=rating_text[:20])
    account_text = cells[2].strip() if len(cells) > 2 else ""
    account = (account_of(account_text) or account_text) if account_text else None
    if account is not None and not _ACCOUNT_ID.fullmatch(account):
        raise UserError("members_import_account", value=account_text[:40])
    last = LICHESS_COLUMN + 1 + len(extra_columns)  # the systems' columns after the core's seven
    if len(cells) > last and any(c.strip() for c in cells[last:]):
        raise UserError("members_import_columns", count=last, more="".join(", " + c for c in extra_columns))
    ids = tuple((column, identity_value(column, cell)) for column, cell in zip(ID_COLUMNS, cells[3:]) if cell.strip())
    lichess_cell = cells[LICHESS_COLUMN].strip() if len(cells) > LICHESS_COLUMN else ""
    lichess = (lichess_username(lichess_cell),) if lichess_cell else None
    extra = tuple((i, cell.strip()) for i, cell in enumerate(cells[LICHESS_COLUMN + 1 : last]) if cell.strip())
    return Row(number, name, int(rating_text) if rating_text else None, account, ids, lichess, extra)
