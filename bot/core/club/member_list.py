"""``/leden`` (``/members``) alone: the club's member list for a director, each member with their rating,
whether a chat account is linked, and whether the bot cannot send them private notices (their platform
refused a private message: Discord's closed direct messages, a Telegram member without a chat with the
bot; issue 46 §4), and the members whose names look the same but are not (issue 44: a Cyrillic ``ѕ``)."""

from __future__ import annotations

from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply, Table
from bot.core.club.name_rules import merge_hint, near_duplicates


async def member_list(core: Core, ctx: Context) -> Reply:
    members = await core.store.members(ctx.club.id)
    if not members:
        return Reply(lines=(ctx.t("members_list_empty"),), private=True)
    linked = await core.store.linked_accounts(ctx.club.id)  # member id -> private messages refused
    closed = {member_id for member_id, refused in linked.items() if refused}
    rows = tuple(
        (
            m.name,
            str(m.rating) if m.rating else ctx.t("members_list_unrated"),  # 0: no rating
            ctx.t("members_list_yes") if m.id in linked else ctx.t("members_list_no"),
            ctx.t("members_list_closed") if m.id in closed else "",
        )
        for m in members
    )
    headers = (ctx.t("members_list_name"), ctx.t("members_list_rating"), ctx.t("members_list_linked"), ctx.t("members_list_private"))
    lines = [ctx.t("members_list_title", count=len(members))]
    if closed:
        lines.append(ctx.t("members_list_closed_note", count=len(closed)))
    for name, other in near_duplicates(members):  # a Cyrillic ѕ in Vrieѕ: two members who look like one
        lines.append(ctx.t("members_list_look_alike", name=name, other=other, merge=merge_hint(ctx, other, name)))
    return Reply(lines=tuple(lines), table=Table(headers, rows), private=True)
