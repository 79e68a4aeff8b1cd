"""The director's hands on the member list: rename, merge two records of one person, remove a member
who never played (``/speler Oud hernoem Nieuw``, ``/speler A samenvoegen B``, ``/speler Naam verwijder``:
the Keizer system's ``/speler`` hands these words here; the core does the work for every system).

A merge moves everything of A to B (games, sign-offs, grades, chat accounts: every table that refers to
members) and is refused when A and B played in the same round of a competition (one person cannot have
played twice), or against each other. What a table's rows say of a member (history, in a round) is what
its owner declared to the registry (``bot/core/storage/table_rules.py``).
"""

from __future__ import annotations

from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.name_rules import check_name
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member

RENAME_WORDS = frozenset({"hernoem", "rename"})
MERGE_WORDS = frozenset({"samenvoegen", "merge"})
REMOVE_WORDS = frozenset({"verwijder", "verwijderen", "remove"})


def admin_words(words: list[str]) -> tuple[str, list[str], list[str]] | None:
    """(action, the name before the word, the name after it) when ``words`` ask for one of these."""
    for i, word in enumerate(words):
        low = word.lower()
        if low in RENAME_WORDS or low in MERGE_WORDS:
            return ("rename" if low in RENAME_WORDS else "merge"), words[:i], words[i + 1 :]
    if words and words[-1].lower() in REMOVE_WORDS:
        return "remove", words[:-1], []
    return None


async def _named(core: Core, ctx: Context, words: list[str]) -> Member:
    name = " ".join(" ".join(words).split())
    member = await core.store.member_by_name(ctx.club.id, name) if name else None
    if member is None:
        raise UserError("error_unknown_player", name=name[:MAX_NAME_LENGTH] or "?")
    return member


async def run_admin(core: Core, ctx: Context, action: str, before: list[str], after: list[str]) -> Reply:
    member = await _named(core, ctx, before)
    if action == "rename":
        new = " ".join(" ".join(after).split())
        if not new or len(new) > MAX_NAME_LENGTH:
            raise UserError("error_bad_name", limit=MAX_NAME_LENGTH)
        check_name(ctx, new)  # not a mention, a number or a command's word
        other = await core.store.member_by_name(ctx.club.id, new)
        if other is not None and other.id != member.id:
            raise UserError("error_name_in_use", name=other.name)
        async with core.store.transaction():
            await core.store.rename_member(member.id, new)
        return Reply(lines=(ctx.t("member_renamed", old=member.name, new=new),))
    if action == "merge":
        target = await _named(core, ctx, after)
        if target.id == member.id:
            raise UserError("error_merge_same", name=member.name)
        if await core.store.shared_round(member.id, target.id, core.registry.tables):
            raise UserError("error_merge_same_round", a=member.name, b=target.name)
        async with core.store.transaction():
            await core.store.merge_member_into(member.id, target.id)
        return Reply(lines=(ctx.t("member_merged", a=member.name, b=target.name),))
    if member.is_director or await core.store.has_history(member.id, core.registry.removed_with_member()):  # games, byes, grades: they stay
        raise UserError("error_remove_played", name=member.name)
    async with core.store.transaction():
        await core.store.remove_member(member.id)
    return Reply(lines=(ctx.t("member_removed", name=member.name),))
