"""The Keizer competition on the club's website (``bot/web``): its pages (commands the website asks as
nobody) and its coming rounds (the home page's next round, a member's sign-off form, whose buttons run
``/afmelden`` and ``/aanmelden`` as that member: the same rules, checks and messages as in the chat)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

from bot.core.output.calendar import day_text, moment_text
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.registry import FormRound, Registry, WebArchive, WebContent, WebPage
from bot.core.commands.replies import Reply
from bot.core.club.web_links import club_path
from bot.core.storage.store import Club, Member
from bot.keizer.week_store import WeekStore
from bot.keizer.lookups import keizer_store
from bot.keizer.rows import SeasonPlayer, Signoff
from bot.keizer.web_details import details


async def _has_season(core: Core, club: Club) -> bool:
    return await keizer_store(core).has_season(club.id, "main")  # the menu asks on every page: one row at most


async def _has_rapid(core: Core, club: Club) -> bool:
    return await keizer_store(core).active_season(club.id, "rapid") is not None


async def _published(core: Core, club: Club, kind: str) -> list[int]:
    """The season's rounds whose pairing is out (paired at its publication), in order."""
    season = await keizer_store(core).active_season(club.id, kind)
    return [r.number for r in await keizer_store(core).rounds(season.id) if r.status == "paired"] if season else []


async def _main_rounds(core: Core, club: Club) -> list[int]:
    return await _published(core, club, "main")


async def _rapid_rounds(core: Core, club: Club) -> list[int]:
    return await _published(core, club, "rapid")


async def calendar_page(core: Core, club: Club, rest: str, query: Mapping[str, str], site: str) -> WebContent | None:
    """``/c/<club>/kalender``: what the feed is and its address to subscribe to (``kalender.ics``), always
    absolute (a calendar app takes no other): under ``site``, the configured base URL or the request's own."""
    if rest:
        return None
    lang = club.language
    address = f"{site}{club_path(club.id)}kalender.ics"
    lines = (t(lang, "web_calendar_intro"), address) + ((t(lang, "web_calendar_members"),) if club.website == "members" else ())
    return WebContent(t(lang, "web_calendar_title"), Reply(lines=lines),
                      links=((t(lang, "web_calendar_download"), "kalender.ics"),))  # fmt: skip


GROUPS = ("A", "B", "C", "D")
PAGES = (
    WebPage("stand", "/stand tabel", "web_link_stand", numbered=True, words=GROUPS, shown=_has_season,
            details=details("main", pairing=False)),
    WebPage("indeling", "/indeling tabel", "web_link_indeling", numbered=True, shown=_has_season, rounds=_main_rounds,
            details=details("main", pairing=True)),
    WebPage("prijzen", "/prijzen", "web_link_prijzen", shown=_has_season),
    WebPage("kruistabel", "/kruistabel", "web_link_kruistabel", shown=_has_season, legend="web_legend_kruistabel",
            details=details("main", pairing=False)),
    WebPage("rapid", "/stand tabel rapid", "web_link_rapid", numbered=True, shown=_has_rapid,
            details=details("rapid", pairing=False)),
    WebPage("rapid-indeling", "/indeling rapid tabel", "web_link_rapid_indeling", numbered=True, shown=_has_rapid,
            rounds=_rapid_rounds, details=details("rapid", pairing=True)),
    WebPage("kalender", "", "web_link_kalender", view=calendar_page, shown=_has_season),
)


def register(registry: Registry) -> None:
    from bot.keizer import archive  # finished seasons, readable on the website's archive

    registry.web_pages.extend(PAGES)
    registry.web_archive.append(WebArchive("keizer", archive.entries, archive.view, archive.any_finished,
                                           (_has_season, _has_rapid)))  # fmt: skip
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
        by_default = await WeekStore(core.store).absent_by_default(season.id)  # /mijn aanwezig afgemeld
        signed_on = await WeekStore(core.store).signons_of_season(season.id)
        place = await store.season_player(season.id, member.id) if member is not None else None
        word = " rapid" if kind == "rapid" else ""
        for row in rounds:
            of_round = [s for _, s in signoffs if s.round_id == row.id]
            own = next((s for s in of_round if member is not None and s.member_id == member.id), None)
            off_by_default = {m for m in by_default if (row.id, m) not in signed_on} - {s.member_id for s in of_round}
            if own is None and member is not None and member.id in off_by_default:
                own = Signoff(row.id, member.id, "notice")  # absent unless signed on: as signed off
            is_open = now < row.deadline_at
            day = date.fromisoformat(row.play_date)
            title = t(lang, "web_form_round", round=row.number, date=day_text(lang, day))
            when = t(lang, "web_form_when", deadline=moment_text(lang, row.deadline_at, club.timezone),
                     publish=moment_text(lang, row.publish_at, club.timezone))  # fmt: skip
            state, actions = _members_part(lang, row.number, word, is_open, place, own) if member is not None else ("", ())
            competition = t(lang, "web_form_rapid") if kind == "rapid" else ""
            found.append(FormRound(title, competition, is_open, state, len(of_round) + len(off_by_default), actions, when, day))
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
