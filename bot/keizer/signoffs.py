"""Signing on and off: ``/aanmelden`` (join the club, rejoin after an automatic sign-off, take back a
sign-off) and ``/afmelden`` (before the deadline; a director any time until the round is paired).

Each command reads as the seed's decisions one after another: what was typed, the season at hand with the
member's place and week (one query: ``season_at_hand``), each refusal (a small function of its own, before
any write, so a refused command changes nothing), the writes in one transaction, and the reply."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.commands.context import Context, UserError, keyword, parse_int
from bot.core.commands.dispatch import Core
from bot.core.club.linking import looks_like_code, member_of_code, redeem
from bot.core.club.membership import NEW_WORDS, check_joining, join_name, tell_directors_of_newcomer
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member
from bot.keizer.join_approval import approve, held, hold
from bot.keizer.late_joiners import late_joiner_line
from bot.keizer.formatting import for_competition, rapid_word
from bot.keizer.lookups import competition_of, keizer_store, round_by_number
from bot.keizer.season_reads import MemberWeek
from bot.keizer.store import RoundRow, Season, SeasonPlayer
from bot.keizer.week_store import ABSENT, WeekStore

TEAM_WORDS = {"teamwedstrijd", "team", "teammatch", "knsb", "fsb"}


# ---------------------------------------------------------------------------------------------- both commands
def _past_deadline(ctx: Context, row: RoundRow) -> bool:
    """Seed 004 rule k: signing off and on for a round runs until its deadline (17:00 on the playing day);
    after it only the director still can, until the round is paired."""
    return ctx.now >= row.deadline_at and not ctx.is_director


def _deadline_passed(ctx: Context, row: RoundRow) -> UserError:
    return UserError("error_deadline_passed", round=row.number, deadline=ctx.local(row.deadline_at))


def _refuse_paired_round(row: RoundRow) -> None:
    """Seed 004 rule l: the pairing published (from 18:00) is the definitive one; a round already paired
    takes no sign-off or sign-on, not even from the director."""
    if row.status == "paired":
        raise UserError("error_round_paired", round=row.number)


async def _season_at_hand(
    core: Core, ctx: Context, kind: str
) -> tuple[Season, RoundRow | None, SeasonPlayer | None, MemberWeek] | None:
    """The active season, its coming round, the asker's place in it and their word for that round: one query."""
    return await keizer_store(core).season_at_hand(ctx.club.id, ctx.member.id if ctx.member else None, kind)


async def _round_meant(core: Core, season: Season, coming: RoundRow | None, round_text: str | None) -> RoundRow | None:
    """The round a command names (refused when the season has no such round), else the coming one (None:
    every round is paired)."""
    return await round_by_number(core, season, round_text) if round_text else coming


def _season_over(season: Season) -> UserError:
    """Every round of the season is paired: there is no round left to sign off or on for."""
    return UserError("error_season_over", season=season.name)


async def _named_by_director(core: Core, ctx: Context, name_parts: tuple[str, ...], command: str) -> Member:
    """The member the director names in ``/aanmelden Naam`` or ``/afmelden Naam``; a member typing the
    director's form is told whose it is (``/afmelden Bert``), any other name is the usage."""
    name = " ".join(name_parts)
    if not ctx.is_director and await core.store.member_by_name(ctx.club.id, name) is not None:
        raise UserError("error_director_only", command=ctx.t(f"command_{command}_other"))
    if not ctx.is_director:
        raise UserError("error_usage", usage=ctx.t(f"usage_{command}"))
    return await ctx.find_member(name)


# ---------------------------------------------------------------------------------------------- /aanmelden
@dataclass(frozen=True)
class _SignOnWords:
    """What ``/aanmelden`` was typed with: the round (None: the coming one), a one-time link code from the
    director (``bot/core/club/linking.py``), ``nieuw`` (a newcomer says they are nobody the club has yet),
    and the words of the name of whom the director signs on (none: the asker)."""

    round_text: str | None
    code: str | None
    someone_new: bool
    name_parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundWord:
    """The member's word for the round signed on for: signed off, signed on, absent unless signed on
    (``/mijn aanwezig afgemeld``)."""

    signed_off: bool = False
    signed_on: bool = False
    absent_by_default: bool = False


@dataclass(frozen=True)
class SignOn:
    """What ``/aanmelden`` writes for the round signed on for, decided before any write."""

    season: Season
    target: RoundRow  # the round signed on for
    first_round: int  # the round the member plays from: the reply names it
    enrol: bool  # new to the season: plays from ``first_round``
    earlier_start: bool  # in the season from a later round: from ``first_round`` after all
    lift_automatic_signoff: bool
    take_back_signoff: bool
    # the member's "yes" for the round: what makes a member who is absent unless signed on play, and the answer
    # a club that asks for one (herinnering=iedereen) waits for
    sign_on: bool


def _aanmelden_words(ctx: Context) -> _SignOnWords:
    """At most one round number and at most one link code, besides ``nieuw``; the other words are a name
    (the director's ``/aanmelden Naam [ronde]``), which goes with neither a code nor ``nieuw``."""
    rest = [a for a in ctx.args if keyword(a) not in NEW_WORDS]
    codes = [a for a in rest if keyword(a) and looks_like_code(a)]  # "Beatrijs" in quotes: a name
    rounds = [a for a in rest if parse_int(a) is not None]
    names = tuple(a for a in rest if a not in codes and a not in rounds)
    if max(len(rounds), len(codes)) > 1 or (names and (codes or len(rest) < len(ctx.args))):
        raise UserError("error_usage", usage=ctx.t("usage_aanmelden"))
    return _SignOnWords(rounds[0] if rounds else None, codes[0] if codes else None, len(rest) < len(ctx.args), names)


def _refuse_without_season(kind: str, words: _SignOnWords) -> None:
    """No season is running: the rapid competition has nothing to join, nor has a round named; a plain
    ``/aanmelden`` still joins the club (placed once the director makes a season)."""
    if kind == "rapid":
        raise UserError("error_no_rapid_season")
    if words.round_text is not None:
        raise UserError("error_no_season")


async def _target_round(core: Core, season: Season | None, coming: RoundRow | None, words: _SignOnWords) -> RoundRow | None:
    """The round signed on for: the one named, else the coming one (None: no season, or every round paired)."""
    if season is None:
        return None
    target = await _round_meant(core, season, coming, words.round_text)
    if target is not None:
        _refuse_paired_round(target)
    return target


async def _check_joining_or_season_over(ctx: Context, season: Season | None, target: RoundRow | None, someone_new: bool) -> None:
    """A newcomer may join the club when their name is nobody's yet (``check_joining``), also when the season
    has no round left; a member cannot sign on for a season that is over."""
    if ctx.member is None:
        await check_joining(ctx, someone_new)
    elif season is not None and target is None:
        raise _season_over(season)


async def _word_for(
    core: Core, member: Member | None, target: RoundRow | None, coming: RoundRow | None, week: MemberWeek | None
) -> RoundWord:
    """The member's word for the round: for the coming round as ``season_at_hand`` read it with the season,
    for another round read on its own (and the attendance mode of a member without a round)."""
    if member is None:
        return RoundWord()
    if target is not None and target == coming and week is not None:
        return RoundWord(week.signoff is not None, week.signed_on, week.mode == ABSENT)
    attendance = WeekStore(core.store)
    if target is None:
        return RoundWord(absent_by_default=await attendance.mode(member.id) == ABSENT)
    signed_off = await keizer_store(core).signoff(target.id, member.id) is not None
    signed_on = member.id in await attendance.signons(target.id)
    return RoundWord(signed_off, signed_on, await attendance.mode(member.id) == ABSENT)


def _refuse_late_word(ctx: Context, target: RoundRow | None, place: SeasonPlayer | None, word: RoundWord) -> None:
    """After the deadline (``_past_deadline``) a member's word for the round stands: a sign-off is not
    taken back, and a player of the season who is absent unless signed on does not sign on. Anyone else
    signing on late plays from the round after (``decide_sign_on``)."""
    if target is None or not _past_deadline(ctx, target):
        return
    if word.signed_off or (word.absent_by_default and not word.signed_on and place is not None):
        raise _deadline_passed(ctx, target)


def _lifts_automatic_signoff(place: SeasonPlayer | None) -> bool:
    """Seed 004 rule j: a player signed off for the coming rounds after two no-shows in a row plays again
    once they sign on again (``/aanmelden``)."""
    return place is not None and place.auto_signed_off


def _plan_sign_on(
    ctx: Context, season: Season | None, target: RoundRow | None, place: SeasonPlayer | None, word: RoundWord,
    linked_to: Member | None,
) -> SignOn | None:
    """None when there is no round to sign on for: no season, or none left (a newcomer joins the club all
    the same), or a code that links a member not in the season: it links and does not enrol (an NK player
    need not play the competition)."""
    if season is None or target is None or (linked_to is not None and place is None):
        return None
    return decide_sign_on(season, target, place, word, late=_past_deadline(ctx, target))


def decide_sign_on(season: Season, target: RoundRow, place: SeasonPlayer | None, word: RoundWord, late: bool) -> SignOn:
    """A player new to the season joins from the round signed on for, or from the round after it once its
    deadline has passed; ``/aanmelden 1`` after ``/aanmelden 3`` plays from round 1 after all; a player
    already playing hears the round signed on for. The sign-on is written for that round before its
    deadline unless it is there already. ``late``: the round's deadline has passed for the asker
    (``_past_deadline``)."""
    first_round = target.number + 1 if late else target.number
    earlier_start = place is not None and first_round < place.joined_round
    if place is not None and not earlier_start and place.joined_round <= target.number:
        first_round = target.number
    return SignOn(
        season=season,
        target=target,
        first_round=first_round,
        enrol=place is None,
        earlier_start=earlier_start,
        lift_automatic_signoff=_lifts_automatic_signoff(place),
        take_back_signoff=word.signed_off,
        sign_on=not word.signed_on and not late and first_round == target.number,
    )


def _without_round(ctx: Context, season: Season | None, linked_to: Member | None) -> list[str]:
    """The reply's last line when there is no round to sign on for (``_plan_sign_on``): a member linked by code
    hears how to join the competition; anyone else that there is no season, or no round left."""
    if linked_to is not None:
        return [ctx.t("linked_not_enrolled")] if season is not None else []
    return [ctx.t("error_season_over", season=season.name) if season else ctx.t("no_season_yet")]


async def _link_or_join(core: Core, ctx: Context, linked_to: Member | None, lines: list[str]) -> Member:
    """The member signing on: the one the code linked this chat account to, or a newcomer added now."""
    if linked_to is not None:
        await redeem(ctx, linked_to)
        lines.append(ctx.t("linked_by_code", name=linked_to.name))
    if ctx.member is not None:
        return ctx.member
    member = await core.store.add_member(ctx.club.id, join_name(ctx), 0, ctx.now)
    await core.store.link_identity(ctx.club.id, ctx.actor.user_id, member.id)
    await tell_directors_of_newcomer(ctx, member)
    lines.append(ctx.t("joined", name=member.name))
    return member


async def _write_sign_on(core: Core, ctx: Context, member: Member, plan: SignOn, lines: list[str], named: bool) -> None:
    store, season, target = keizer_store(core), plan.season, plan.target
    if plan.enrol:
        await store.upsert_season_player(season.id, member.id, member.rating, plan.first_round)
    elif plan.earlier_start:
        await store.set_joined_round(season.id, member.id, plan.first_round)
    if plan.lift_automatic_signoff:
        await store.sign_on_again(season.id, member.id)
        lines.append(ctx.t("auto_signoff_lifted_named", name=member.name) if named else ctx.t("auto_signoff_lifted"))
    if plan.take_back_signoff:
        await store.delete_signoff(target.id, member.id)
    if plan.sign_on:
        await WeekStore(core.store).sign_on(target.id, member.id, ctx.now)


async def _signed_on_line(core: Core, ctx: Context, kind: str, plan: SignOn, named: Member | None) -> str:
    """The round the member plays from (none left: the season is over for them); ``named``: the member the
    director signed on."""
    first: RoundRow | None = plan.target
    if plan.first_round != plan.target.number:
        first = await keizer_store(core).round_by_number(plan.season.id, plan.first_round)
    if first is None:
        return ctx.t("error_season_over", season=plan.season.name)
    said = ctx.t("signed_on_named", name=named.name, round=first.number, date=first.play_date) if named else \
        ctx.t("signed_on", round=first.number, date=first.play_date)
    return for_competition(ctx.lang, kind, said)


async def cmd_aanmelden(core: Core, ctx: Context) -> Reply:
    """Join the club (the chat identity becomes a member), rejoin after an automatic sign-off, take back a
    sign-off, or, absent by default (``/mijn aanwezig afgemeld``), sign on for the round; with ``rapid`` in
    the rapid competition. The director signs a member on by name (``/aanmelden Naam [ronde]``), also one
    without a chat account. Every check comes before the first write."""
    kind, ctx = competition_of(ctx)
    words = _aanmelden_words(ctx)
    if words.code and ctx.is_director and not words.someone_new and await core.store.member_by_name(ctx.club.id, words.code):
        words = replace(words, code=None, name_parts=(words.code,))  # /aanmelden Beatrijs: a name, not a code
    linked_to = await member_of_code(ctx, words.code) if words.code else None
    if linked_to is not None:
        ctx = replace(ctx, member=linked_to)
    named = await _named_by_director(core, ctx, words.name_parts, "aanmelden") if words.name_parts else None
    if named is not None:  # the director signs a member on: a member without a chat account too
        ctx = replace(ctx, member=named, actor=replace(ctx.actor, is_director=True))  # still the director's word
    at_hand = await _season_at_hand(core, ctx, kind)
    if at_hand is None:
        _refuse_without_season(kind, words)
    season, coming, place, week = at_hand if at_hand is not None else (None, None, None, None)
    target = await _target_round(core, season, coming, words)
    await _check_joining_or_season_over(ctx, season, target, words.someone_new)
    word = await _word_for(core, ctx.member, target, coming, week)
    _refuse_late_word(ctx, target, place, word)
    plan = _plan_sign_on(ctx, season, target, place, word, linked_to)
    waits = plan is not None and held(ctx, plan.season, plan.enrol)  # /seizoen aanmelden=goedkeuring
    lines: list[str] = []
    approved: str | None = None
    async with core.store.transaction():
        member = await _link_or_join(core, ctx, linked_to, lines)
        if plan is not None and waits:
            lines.append(await hold(core, ctx, plan.season, member))
        elif plan is not None:
            await _write_sign_on(core, ctx, member, plan, lines, named is not None)
            if named is not None and plan.enrol:  # the director approves a player who waits
                approved = await approve(core, ctx, plan.season, member, plan.first_round)
    if plan is None or waits:
        return Reply(lines=(*lines, *([] if waits else _without_round(ctx, season, linked_to))), private=True)
    lines.append(await _signed_on_line(core, ctx, kind, plan, named))
    lines += [approved] if approved else []
    joiner = await late_joiner_line(core, ctx, plan.season, member.id) if plan.enrol else None
    return Reply(lines=(*lines, *([joiner] if joiner else [])), private=True)


# ---------------------------------------------------------------------------------------------- /afmelden
@dataclass(frozen=True)
class _SignOffWords:
    """What ``/afmelden`` was typed with: the round (None: the coming one), the kind of absence, and the
    words of the name of whom the director signs off (none: the asker)."""

    round_text: str | None
    absence: str  # the sign-off's kind: "notice", or "team" for a club team match
    name_parts: tuple[str, ...]


def _afmelden_words(ctx: Context) -> _SignOffWords:
    """The first number is the round; ``teamwedstrijd`` (or ``team``, ``knsb``, ``fsb``) marks an absence
    for a club team match (seed 004 Keizer rule e); the other words are a name."""
    absence = "notice"
    round_text: str | None = None
    name_parts: list[str] = []
    for arg in ctx.args:
        if keyword(arg) in TEAM_WORDS:
            absence = "team"
        elif parse_int(arg) is not None and round_text is None:
            round_text = arg
        else:
            name_parts.append(arg)
    return _SignOffWords(round_text, absence, tuple(name_parts))


async def _signing_off(core: Core, ctx: Context, name_parts: tuple[str, ...]) -> Member:
    """Whom the sign-off is for: the asker, or the member the director names."""
    if not name_parts:
        return ctx.require_member()
    return await _named_by_director(core, ctx, name_parts, "afmelden")


def _open_round(ctx: Context, season: Season, target: RoundRow | None) -> RoundRow:
    """The round signed off for, refused unless it is still open to sign-offs: the season has one left, it
    is not paired, its deadline has not passed."""
    if target is None:
        raise _season_over(season)
    _refuse_paired_round(target)
    if _past_deadline(ctx, target):
        raise _deadline_passed(ctx, target)
    return target


def _refuse_outside_season(season: Season, member: Member, place: SeasonPlayer | None, row: RoundRow, named: bool) -> None:
    """Only ``/aanmelden`` and the director's ``/speler`` put someone in a season (issue 30); and the engine
    cannot read an absence from before one's first round."""
    if place is None:
        key = "error_signoff_not_in_season" if named else "error_signoff_join_first"
        raise UserError(key, name=member.name, season=season.name, rapid=rapid_word(season.kind))
    if row.number < place.joined_round:
        raise UserError("error_signoff_before_joining", name=member.name, round=row.number, joined=place.joined_round)


async def cmd_afmelden(core: Core, ctx: Context) -> Reply:
    """Sign off for the coming round or a named one, before its deadline; ``teamwedstrijd`` marks a club
    team match. A director may sign off any player, also after the deadline, as long as the round is not
    paired. ``rapid``: in the rapid competition."""
    competition, ctx = competition_of(ctx)
    at_hand = await _season_at_hand(core, ctx, competition)
    if at_hand is None:
        raise UserError("error_no_rapid_season" if competition == "rapid" else "error_no_season")
    season, coming, own_place, week = at_hand
    words = _afmelden_words(ctx)
    member = await _signing_off(core, ctx, words.name_parts)
    target = _open_round(ctx, season, await _round_meant(core, season, coming, words.round_text))
    place = own_place if member is ctx.member else await keizer_store(core).season_player(season.id, member.id)
    _refuse_outside_season(season, member, place, target, named=bool(words.name_parts))
    async with core.store.transaction():
        await keizer_store(core).set_signoff(target.id, member.id, words.absence, ctx.member.id if ctx.member else None, ctx.now)
        if member is not ctx.member or target != coming or week.signed_on:  # /afmelden takes back /aanmelden
            await WeekStore(core.store).drop_signon(target.id, member.id)
    key = "signed_off_team" if words.absence == "team" else "signed_off"
    said = ctx.t(key, name=member.name, round=target.number, date=target.play_date)
    return Reply(lines=(for_competition(ctx.lang, season.kind, said),), private=True)
