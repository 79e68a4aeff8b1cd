"""Signing on and off: ``/aanmelden`` (join the club, rejoin after an automatic sign-off, take back a
sign-off) and ``/afmelden`` (before the deadline; a director any time until the round is paired)."""

from __future__ import annotations

from dataclasses import replace

from bot.core.context import Context, UserError, parse_int
from bot.core.dispatch import Core
from bot.core.linking import looks_like_code, member_of_code, redeem
from bot.core.membership import NEW_WORDS, check_joining, join_name
from bot.core.replies import Reply
from bot.keizer.week_store import ABSENT, WeekStore
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import competition_of, keizer_store, round_by_number
from bot.keizer.store import RoundRow

_TEAM_WORDS = {"teamwedstrijd", "team", "teammatch", "knsb", "fsb"}


async def cmd_aanmelden(core: Core, ctx: Context) -> Reply:
    """Join the club (the chat identity becomes a member), rejoin after an automatic sign-off
    (seed 004 rule j), take back a sign-off before the deadline (seed 004 rule k), or, absent by default
    (``/mijn aanwezig afgemeld``), sign on for the round before its deadline; with ``rapid`` in the rapid
    competition.

    A player new to the season joins from the coming round, or from the round after it once the
    coming round's deadline has passed. Every check comes before the first write."""
    kind, ctx = competition_of(ctx)
    someone_new = any(a.lower() in NEW_WORDS for a in ctx.args)
    ctx = ctx.with_args([a for a in ctx.args if a.lower() not in NEW_WORDS])
    codes = [a for a in ctx.args if looks_like_code(a)]
    round_arg = [a for a in ctx.args if parse_int(a) is not None]
    if len(round_arg) + len(codes) != len(ctx.args) or len(round_arg) > 1 or len(codes) > 1:
        raise UserError("error_usage", usage=ctx.t("usage_aanmelden"))
    linked_to = await member_of_code(ctx, codes[0]) if codes else None
    if linked_to is not None:
        ctx = replace(ctx, member=linked_to)
    at_hand = await keizer_store(core).season_at_hand(ctx.club.id, ctx.member.id if ctx.member else None, kind)
    if at_hand is None and kind == "rapid":
        raise UserError("error_no_rapid_season")
    season, coming, sp, week = at_hand if at_hand is not None else (None, None, None, None)
    target: RoundRow | None = None
    if season is not None:
        target = await round_by_number(core, season, round_arg[0]) if round_arg else coming
        if target is not None and target.status == "paired":
            raise UserError("error_round_paired", round=target.number)
    elif round_arg:
        raise UserError("error_no_season")
    member = ctx.member
    if member is None:
        await check_joining(ctx, someone_new)
    elif season is not None and target is None:
        raise UserError("error_season_over", season=season.name)
    late = target is not None and ctx.now >= target.deadline_at and not ctx.is_director
    attendance = WeekStore(core.store)
    # /aanmelden answers "yes" for the round (a sign-on, before its deadline): what makes a member who is absent
    # unless signed on (/mijn aanwezig afgemeld) play, and the answer a club that asks for one (herinnering=iedereen)
    # waits for; for the absent-by-default it is refused after the deadline, as a sign-off is
    if week is not None and member is not None and target is not None and target == coming:  # read with the season
        signed_off, on_already, absent_by_default = week.signoff is not None, week.signed_on, week.mode == ABSENT
    else:
        signed_off = target is not None and member is not None and await keizer_store(core).signoff(target.id, member.id) is not None
        on_already = target is not None and member is not None and member.id in await attendance.signons(target.id)
        absent_by_default = member is not None and await attendance.mode(member.id) == ABSENT
    if (signed_off or (absent_by_default and not on_already and sp is not None)) and late:
        assert target is not None
        raise UserError("error_deadline_passed", round=target.number, deadline=ctx.local(target.deadline_at))
    lines: list[str] = []
    async with core.store.transaction():
        if linked_to is not None:
            await redeem(ctx, linked_to)
            lines.append(ctx.t("linked_by_code", name=linked_to.name))
            if sp is None:  # a code links; it does not enrol (an NK player need not play the competition)
                if season is not None:
                    lines.append(ctx.t("linked_not_enrolled"))
                return Reply(lines=tuple(lines), private=True)
        if member is None:
            member = await core.store.add_member(ctx.club.id, join_name(ctx), 0, ctx.now)
            await core.store.link_identity(ctx.club.id, ctx.actor.user_id, member.id)
            lines.append(ctx.t("joined", name=member.name))
        if season is None or target is None:
            lines.append(ctx.t("error_season_over", season=season.name) if season else ctx.t("no_season_yet"))
            return Reply(lines=tuple(lines), private=True)
        first_round = target.number + 1 if late else target.number
        if sp is None:
            await keizer_store(core).upsert_season_player(season.id, member.id, member.rating, first_round)
        elif first_round < sp.joined_round:  # /aanmelden 1 after /aanmelden 3: from round 1 after all
            await keizer_store(core).set_joined_round(season.id, member.id, first_round)
        elif sp.joined_round <= target.number:  # already playing: the reply names the coming round
            first_round = target.number
        if sp is not None and sp.auto_signed_off:
            await keizer_store(core).sign_on_again(season.id, member.id)
            lines.append(ctx.t("auto_signoff_lifted"))
        if signed_off:
            await keizer_store(core).delete_signoff(target.id, member.id)
        if not on_already and not late and first_round == target.number:
            await attendance.sign_on(target.id, member.id, ctx.now)
    first = target if first_round == target.number else await keizer_store(core).round_by_number(season.id, first_round)
    if first is None:
        lines.append(ctx.t("error_season_over", season=season.name))
    else:
        lines.append(for_competition(ctx.lang, kind, ctx.t("signed_on", round=first.number, date=first.play_date)))
    return Reply(lines=tuple(lines), private=True)


async def cmd_afmelden(core: Core, ctx: Context) -> Reply:
    """Sign off for the coming round or a named one, before its deadline (seed 004 rule k);
    ``teamwedstrijd`` marks a club team match (seed 004 Keizer rule e). A director may sign off any
    player, also after the deadline, as long as the round is not paired. ``rapid``: in the rapid
    competition."""
    kind, ctx = competition_of(ctx)
    at_hand = await keizer_store(core).season_at_hand(ctx.club.id, ctx.member.id if ctx.member else None, kind)
    if at_hand is None:
        raise UserError("error_no_rapid_season" if kind == "rapid" else "error_no_season")
    season, coming, own_place, week = at_hand
    kind = "notice"
    round_text: str | None = None
    name_parts: list[str] = []
    for arg in ctx.args:
        if arg.lower() in _TEAM_WORDS:
            kind = "team"
        elif parse_int(arg) is not None and round_text is None:
            round_text = arg
        else:
            name_parts.append(arg)
    if name_parts:
        if not ctx.is_director and await core.store.member_by_name(ctx.club.id, " ".join(name_parts)) is not None:
            raise UserError("error_director_only", command=ctx.t("command_afmelden_other"))  # /afmelden Bert
        if not ctx.is_director:
            raise UserError("error_usage", usage=ctx.t("usage_afmelden"))
        member = await ctx.find_member(" ".join(name_parts))
    else:
        member = ctx.require_member()
    target = await round_by_number(core, season, round_text) if round_text else coming
    if target is None:
        raise UserError("error_season_over", season=season.name)
    if target.status == "paired":
        raise UserError("error_round_paired", round=target.number)
    if ctx.now >= target.deadline_at and not ctx.is_director:
        raise UserError("error_deadline_passed", round=target.number, deadline=ctx.local(target.deadline_at))
    sp = own_place if member is ctx.member else await keizer_store(core).season_player(season.id, member.id)
    if sp is None:  # only /aanmelden and the director's /speler put someone in a season (issue 30)
        rapid = " rapid" if season.kind == "rapid" else ""
        key = "error_signoff_not_in_season" if name_parts else "error_signoff_join_first"
        raise UserError(key, name=member.name, season=season.name, rapid=rapid)
    if target.number < sp.joined_round:  # the engine cannot read an absence from before one's first round
        raise UserError("error_signoff_before_joining", name=member.name, round=target.number, joined=sp.joined_round)
    async with core.store.transaction():
        await keizer_store(core).set_signoff(target.id, member.id, kind, ctx.member.id if ctx.member else None, ctx.now)
        if member is not ctx.member or target != coming or week.signed_on:  # /afmelden takes back /aanmelden
            await WeekStore(core.store).drop_signon(target.id, member.id)
    key = "signed_off_team" if kind == "team" else "signed_off"
    said = ctx.t(key, name=member.name, round=target.number, date=target.play_date)
    return Reply(lines=(for_competition(ctx.lang, season.kind, said),), private=True)
