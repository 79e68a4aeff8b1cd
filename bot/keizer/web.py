"""The Keizer competition on the club's website (``bot/web``): its pages (commands the website asks as
nobody) and its coming rounds (the home page's next round, a member's sign-off form, whose buttons run
``/afmelden`` and ``/aanmelden`` as that member: the same rules, checks and messages as in the chat)."""

from __future__ import annotations

from datetime import datetime

from bot.core.calendar import local_text
from bot.core.dispatch import Core
from bot.core.i18n import t
from bot.core.registry import FormRound, Registry, WebPage
from bot.core.store import Club, Member
from bot.keizer.lookups import keizer_store
from bot.keizer.rows import SeasonPlayer, Signoff


async def _has_season(core: Core, club: Club) -> bool:
    return await keizer_store(core).has_season(club.id, "main")  # the menu asks on every page: one row at most


async def _has_rapid(core: Core, club: Club) -> bool:
    return await keizer_store(core).active_season(club.id, "rapid") is not None


GROUPS = ("A", "B", "C", "D")
PAGES = (
    WebPage("stand", "/stand tabel", "web_link_stand", numbered=True, words=GROUPS, shown=_has_season),
    WebPage("indeling", "/indeling", "web_link_indeling", numbered=True, shown=_has_season),
    WebPage("prijzen", "/prijzen", "web_link_prijzen", shown=_has_season),
    WebPage("kruistabel", "/kruistabel", "web_link_kruistabel", shown=_has_season, legend="web_legend_kruistabel"),
    WebPage("rapid", "/stand tabel rapid", "web_link_rapid", numbered=True, shown=_has_rapid),
    WebPage("rapid-indeling", "/indeling rapid", "web_link_rapid_indeling", numbered=True, shown=_has_rapid),
)


def register(registry: Registry) -> None:
    registry.web_pages.extend(PAGES)
    registry.web_rounds.append(coming_rounds)


async def coming_rounds(core: Core, club: Club, member: Member | None, now: datetime) -> list[FormRound]:
    """Without a member: each competition's next round (for the home page). With one: every round of
    theirs still to be paired, with their state and what they may do now."""
    store = keizer_store(core)
    found: list[FormRound] = []
    lang = club.language
    for kind in ("main", "rapid"):
        season = await store.active_season(club.id, kind)
        if season is None:
            continue
        rounds = [r for r in await store.rounds(season.id) if r.status != "paired"]
        if member is None:
            rounds = rounds[:1]
        if not rounds:
            continue
        signoffs = await store.signoffs_of_season(season.id)
        place = await store.season_player(season.id, member.id) if member is not None else None
        word = " rapid" if kind == "rapid" else ""
        for row in rounds:
            of_round = [s for _, s in signoffs if s.round_id == row.id]
            own = next((s for s in of_round if member is not None and s.member_id == member.id), None)
            is_open = now < row.deadline_at
            title = t(lang, "web_form_round", round=row.number, date=row.play_date,
                      deadline=local_text(row.deadline_at, club.timezone), publish=local_text(row.publish_at, club.timezone))  # fmt: skip
            state, actions = _members_part(lang, row.number, word, is_open, place, own) if member is not None else ("", ())
            competition = t(lang, "web_form_rapid") if kind == "rapid" else ""
            found.append(FormRound(title, competition, is_open, state, len(of_round), actions))
    return found


def _members_part(
    lang: str, number: int, word: str, is_open: bool, place: SeasonPlayer | None, own: Signoff | None
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A member's state in one round, in words, and the buttons the form offers them for it now."""
    if place is None:  # not in this competition: the form can enrol them
        return t(lang, "web_form_not_playing"), ((t(lang, "web_form_join"), f"/aanmelden {number}{word}"),) if is_open else ()
    if number < place.joined_round:  # joined from a later round
        return t(lang, "web_form_not_playing"), ()
    if own is not None or place.auto_signed_off:
        state = t(lang, "web_form_signed_off_team" if own is not None and own.kind == "team" else "web_form_signed_off")
        return state, ((t(lang, "web_form_on"), f"/aanmelden {number}{word}"),) if is_open else ()
    off = ((t(lang, "web_form_off"), f"/afmelden {number}{word}"),
           (t(lang, "web_form_team"), f"/afmelden {number} teamwedstrijd{word}"))  # fmt: skip
    return t(lang, "web_form_playing"), off if is_open else ()
