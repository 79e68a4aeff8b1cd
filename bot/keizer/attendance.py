"""A member's attendance mode (issue 34 §2): ``/mijn aanwezig standaard|afgemeld`` (``/me attendance
default|absent``). "standaard": paired unless signed off (``/afmelden``), as every member was before.
"afgemeld": absent from every round unless signed on for it (``/aanmelden [ronde]``, before the deadline),
for members who play every other week. An absent-by-default member who did not sign on is an ordinary
absence, signed off in time (seed 004 Keizer rule e: 1/3 of one's own value), written as a sign-off when the
round is paired (``competition.pair``). The mode is the member's, for every competition of the club.

A change of mode starts with the rounds whose deadline is still ahead (to "afgemeld": absent from each of
them until signed on again, an earlier ``/aanmelden`` for them no longer counts): a round already closed keeps
the state the member had in it (a sign-on or a sign-off is written for it)."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.keizer.week_store import ABSENT, PRESENT, WeekStore
from bot.keizer.lookups import keizer_store

ATTENDANCE_WORDS = ("aanwezig", "attendance")
_MODES = {"standaard": PRESENT, "default": PRESENT, "afgemeld": ABSENT, "absent": ABSENT}
ATTENDANCE_PRESENT = ("aanwezig=standaard", "attendance=default")  # as Discord's option sends it
ATTENDANCE_ABSENT = ("aanwezig=afgemeld", "attendance=absent")


async def cmd_attendance(core: Core, ctx: Context) -> Reply:
    """``/mijn aanwezig``: the member's mode; ``/mijn aanwezig standaard|afgemeld``: change it."""
    member = ctx.require_member()
    attendance = WeekStore(core.store)
    if not ctx.args:
        key = "attendance_is_absent" if await attendance.mode(member.id) == ABSENT else "attendance_is_present"
        return Reply(lines=(ctx.t(key),), private=True)
    if len(ctx.args) != 1 or ctx.args[0].lower() not in _MODES:
        raise UserError("error_usage", usage=ctx.t("usage_mijn"))
    mode = _MODES[ctx.args[0].lower()]
    if mode == await attendance.mode(member.id):
        key = "attendance_already_absent" if mode == ABSENT else "attendance_already_present"
        return Reply(lines=(ctx.t(key),), private=True)
    store = keizer_store(core)
    async with core.store.transaction():
        for kind in ("main", "rapid"):
            season = await store.active_season(ctx.club.id, kind)
            if season is None or await store.season_player(season.id, member.id) is None:
                continue
            for row in await store.rounds(season.id):
                if row.status == "paired":
                    continue  # its record stands
                if ctx.now < row.deadline_at:  # still open: the new mode holds for it, from a clean slate
                    if mode == ABSENT:
                        await attendance.drop_signon(row.id, member.id)
                    continue
                signed_off = await store.signoff(row.id, member.id) is not None
                if mode == ABSENT and not signed_off:  # was playing: stays on
                    await attendance.sign_on(row.id, member.id, ctx.now)
                elif mode == PRESENT and not signed_off and member.id not in await attendance.signons(row.id):
                    await store.set_signoff(row.id, member.id, "notice", member.id, ctx.now)  # was off: stays off
        await attendance.set_mode(member.id, mode)
    return Reply(lines=(ctx.t("attendance_set_absent" if mode == ABSENT else "attendance_set_present"),), private=True)


async def cmd_attendance_present(core: Core, ctx: Context) -> Reply:
    return await cmd_attendance(core, ctx.with_args(["standaard", *ctx.args]))


async def cmd_attendance_absent(core: Core, ctx: Context) -> Reply:
    return await cmd_attendance(core, ctx.with_args(["afgemeld", *ctx.args]))
