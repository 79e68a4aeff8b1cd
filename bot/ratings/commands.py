"""``/ratings importeer`` (``/ratings import``): the director sends a federation's rating list with the
command (attached, or on the console ``/ratings importeer pad/naar/lijst``) and the ratings of the members
with an identity in that federation (``/speler Naam knsb=...``) become the list's; for the members without
one the bot proposes the listed player of the same name, which the director confirms with ``/ratings
bevestig`` (all of them, or ``/ratings bevestig Naam``). The reply names the list and its date ("ratings
of 2026-11-01"): from the file where its format has one, else the director's ``datum=``.

A member's rating is the club's (``members.rating``): what a new season and a newcomer start from; a
running season keeps the ratings its players started with (its start order and tie-breaks do not move
under it mid-season). A file that is no rating list, too large, binary or of an unknown encoding is
refused and changes nothing."""

from __future__ import annotations

import asyncio
import re
from datetime import date

from bot.core.output.calendar import parse_day
from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.federation import IDENTITY_WORDS
from bot.core.commands.limits import MAX_FILE_BYTES
from bot.core.club.name_key import name_key
from bot.core.commands.registry import KEYED, Command, Param, Registry
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member
from bot.ratings import egd, fide, knsb
from bot.ratings.lists import Listed, RatingList, name_keys, text_of
from bot.ratings.store import RatingsStore

IMPORT_WORDS = frozenset({"importeer", "import"})
CONFIRM_WORDS = frozenset({"bevestig", "confirm"})
SOURCES = ("knsb", "fide", "egd")
COLUMN = {"knsb": "knsb_id", "fide": "fide_id", "egd": "egd_pin"}
SHOWN = 20
_FEDERATION = re.compile(r"[A-Z]{3}")  # proposals and missing members named in a reply


def register(registry: Registry) -> None:
    registry.add(Command("ratings", cmd_ratings, director=True, english="ratings",
                         params=(Param("actie", "choice", required=True,
                                       choices=(("discord_choice_ratings_import", "importeer"), ("discord_choice_ratings_confirm", "bevestig"))),
                                 Param("ratinglijst", "file"), Param("naam"),
                                 Param("lijst", "choice", choices=(("KNSB", "knsb"), ("FIDE", "fide"), ("EGD", "egd"))),
                                 Param("datum", style=KEYED))))  # fmt: skip


async def cmd_ratings(core: Core, ctx: Context) -> Reply:
    word = ctx.args[0].lower() if ctx.args else ""
    if word in IMPORT_WORDS:
        return await _import(core, ctx, ctx.args[1:])
    if word in CONFIRM_WORDS:
        return await _confirm(core, ctx, " ".join(ctx.args[1:]))
    raise UserError("error_usage", usage=ctx.t("usage_ratings"))


def _options(ctx: Context, args: list[str]) -> tuple[str | None, date | None]:
    source: str | None = None
    day: date | None = None
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in ("datum", "date"):
            day = parse_day(value)
            if day is None:
                raise UserError("ratings_bad_date", value=value[:20])
        elif not sep and arg.lower() in SOURCES:
            source = arg.lower()
        else:
            raise UserError("error_usage", usage=ctx.t("usage_ratings"))
    return source, day


def read_list(content: bytes, source: str | None) -> RatingList:
    """The rating list in ``content``, of the format named or else the one it looks like."""
    text = text_of(content)
    if source in (None, "fide") and fide.looks_like_xml(text):
        return fide.parse_xml(text)
    if source in (None, "fide") and fide.looks_like_txt(text):
        return fide.parse_txt(text)
    if source in (None, "knsb") and knsb.looks_like(text):
        return knsb.parse(text)
    if source in (None, "egd") and egd.looks_like(text):
        return egd.parse(text)
    raise UserError("ratings_unknown_format")


async def _import(core: Core, ctx: Context, args: list[str]) -> Reply:
    source, given_day = _options(ctx, args)
    if not ctx.attachment or not ctx.attachment.strip():
        raise UserError("ratings_nothing")
    if len(ctx.attachment) > MAX_FILE_BYTES:
        raise UserError("ratings_too_big", mb=MAX_FILE_BYTES // (1024 * 1024))
    listing = await asyncio.to_thread(read_list, ctx.attachment, source)
    if not listing.players:
        raise UserError("ratings_empty", source=listing.source.upper())
    day = given_day or listing.day
    if day is None:
        raise UserError("ratings_need_date", source=listing.source.upper())
    column = COLUMN[listing.source]
    by_identity = {p.identity: p for p in listing.players}
    members = await core.store.members(ctx.club.id)
    identities = await core.store.club_identities(ctx.club.id)
    held = {getattr(i, column): m for m, i in identities.items() if getattr(i, column)}
    # A member with a KNSB or FIDE number plays chess: the EGD's list (go) gives them no rating (the club's
    # rating is the chess one; docs/federations.md). A member with an EGD PIN only takes the go rating.
    chess_players = {m for m, i in identities.items() if i.knsb_id or i.fide_id}
    kept: list[str] = []
    updated: list[tuple[int, int]] = []
    federations: list[tuple[int, str]] = []  # a chess list's federation of each member found, for the TRF file
    same = 0
    missing: list[str] = []
    by_id = {m.id: m for m in members}
    for identity, member_id in held.items():
        member = by_id[member_id]
        listed = by_identity.get(identity)
        if listed is None:
            missing.append(member.name)
            continue
        if listing.source != "egd" and _FEDERATION.fullmatch(listed.federation):
            federations.append((member_id, listed.federation))
        if listing.source == "egd" and member_id in chess_players:
            if listed.rating is not None and listed.rating != member.rating:
                kept.append(member.name)
            else:
                same += 1
        elif listed.rating is None or listed.rating == member.rating:
            same += 1
        else:
            updated.append((member_id, listed.rating))
    proposals = await asyncio.to_thread(_by_name, listing, [m for m in members if m.id not in held.values()], set(held))
    async with core.store.transaction():
        for member_id, rating in updated:
            await core.store.update_member_rating(member_id, rating)
        for member_id, federation in federations:
            await core.store.set_member_federation(member_id, federation)
        await RatingsStore(core.store).replace_proposals(ctx.club.id, listing.source, day, proposals)
    lines = [ctx.t("ratings_imported", source=listing.source.upper(), day=day.isoformat(), listed=len(listing.players),
                   updated=len(updated), same=same)]  # fmt: skip
    if kept:
        kept.sort(key=name_key)
        lines.append(ctx.t("ratings_kept_chess", count=len(kept), names=", ".join(kept[:SHOWN])))
    if missing:
        missing.sort(key=name_key)
        lines.append(ctx.t("ratings_not_listed", count=len(missing), names=", ".join(missing[:SHOWN])))
    if proposals:
        lines.append(ctx.t("ratings_proposals", count=len(proposals)))
        for member_id, identity, listed_name, listed_rating, _ in proposals[:SHOWN]:
            lines.append(ctx.t("ratings_proposal", name=by_id[member_id].name, listed=listed_name, source=listing.source.upper(),
                               identity=identity, rating=listed_rating if listed_rating is not None else "-"))  # fmt: skip
    return Reply(lines=tuple(lines))


def _by_name(
    listing: RatingList, members: list[Member], taken: set[str]
) -> list[tuple[int, str, str, int | None, str]]:
    """(member, identity, listed name, rating, federation) for each member whose name matches exactly one listed
    player's (``name_keys``) whose identity no member has."""
    wanted = {name_key(m.name): m for m in members}
    found: dict[int, list[Listed]] = {}
    for p in listing.players:
        if p.identity in taken:
            continue
        for key in name_keys(p.name):
            member = wanted.get(key)
            if member is not None:
                hits = found.setdefault(member.id, [])
                if p not in hits:
                    hits.append(p)
    chess = listing.source != "egd"  # the EGD's two letters are no FIDE federation
    proposals = [(member_id, h[0].identity, h[0].name, h[0].rating, h[0].federation if chess and _FEDERATION.fullmatch(h[0].federation) else "")
                 for member_id, h in found.items() if len(h) == 1]  # fmt: skip
    by_identity: dict[str, int] = {}
    for _, identity, _, _, _ in proposals:
        by_identity[identity] = by_identity.get(identity, 0) + 1
    names = {m.id: m.name for m in members}
    return sorted((p for p in proposals if by_identity[p[1]] == 1), key=lambda p: name_key(names[p[0]]))


async def _confirm(core: Core, ctx: Context, name: str) -> Reply:
    """``/ratings bevestig [Naam]``: the proposals of the last imports (all, or the named member's) become
    the members' identities and ratings."""
    store = RatingsStore(core.store)
    proposals = await store.proposals(ctx.club.id)
    if name:
        proposals = [p for p in proposals if name_key(p.name) == name_key(name)]
        if not proposals:
            raise UserError("ratings_no_proposal_for", name=name[:MAX_NAME_LENGTH])
    if not proposals:
        raise UserError("ratings_no_proposals")
    done: list[str] = []
    identities = await core.store.club_identities(ctx.club.id)
    async with core.store.transaction():
        for p in proposals:
            column = COLUMN[p.source]
            holder = await core.store.member_by_federation_id(ctx.club.id, column, p.identity)
            if holder is None:  # taken meanwhile by /speler: that one stands
                await core.store.set_identity(p.member_id, column, p.identity)
                own = identities.get(p.member_id)
                chess_player = own is not None and bool(own.knsb_id or own.fide_id)
                if p.rating is not None and not (p.source == "egd" and chess_player):
                    await core.store.update_member_rating(p.member_id, p.rating)
                if p.federation:
                    await core.store.set_member_federation(p.member_id, p.federation)
                done.append(p.name)
            await store.drop_proposal(ctx.club.id, p.member_id, p.source)
    return Reply(lines=(ctx.t("ratings_confirmed", count=len(done), names=", ".join(done[:SHOWN])),))


assert set(COLUMN.values()) <= set(IDENTITY_WORDS.values())
