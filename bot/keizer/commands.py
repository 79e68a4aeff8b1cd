"""The Keizer competition's commands (seeds 003 and 004) and how they register with the core.

The handlers live by what they do: ``signoffs`` (/aanmelden, /afmelden), ``views`` (/stand, /prijzen,
/indeling), ``results`` (/uitslag, /bevestig, /nietverschenen, /invaller), ``seasons`` (/seizoen,
/speler, /exporteer, /importeer), ``publication`` (/publiceer and the scheduler's work), ``groups``
(/groepen). Each parameter below is what a platform with native options offers; the handlers parse the
same command line the console types.
"""

from __future__ import annotations

from typing import Any

from bot.core.club.member_admin import MERGE_WORDS, REMOVE_WORDS, RENAME_WORDS
from bot.core.commands.completers import member_names
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.registry import FLAG, KEYED, NAMED, Command, Param, Registry
from bot.core.storage.store import Club
from bot.keizer.attendance import (
    ATTENDANCE_ABSENT, ATTENDANCE_PRESENT, ATTENDANCE_WORDS, cmd_attendance, cmd_attendance_absent, cmd_attendance_present,
)  # fmt: skip
from bot.keizer.adjustments import BYE_WORDS, COLOUR_WORDS, PAIR_WORDS, SWAP_WORDS, cmd_bye, cmd_colour, cmd_pair, cmd_swap
from bot.keizer.calendar_store import member_of_feed
from bot.keizer.feeds import calendar_key, cmd_kalender, cmd_my_calendar, cmd_my_calendar_new
from bot.keizer.free_evenings import FREE_WORDS, cmd_free, cmd_ronde
from bot.keizer.forbidden import FORBID_WORDS, LIST_WORDS, cmd_forbid, cmd_forbidden
from bot.keizer.groups import cmd_groepen
from bot.keizer.lookups import keizer_store
from bot.keizer.open_results import cmd_uitslagen
from bot.keizer.postponed import UNDO_WORDS as POSTPONE_UNDO, PostponedReports, cmd_uitstel
from bot.keizer.publication import KeizerSchedule, cmd_publiceer
from bot.keizer.reports import (
    NOTICE_WORDS, NOTICES_OFF, NOTICES_ON, cmd_kaart, cmd_kruistabel, cmd_mijn, cmd_notices, cmd_notices_off, cmd_notices_on,
    cmd_verloop,
)  # fmt: skip
from bot.keizer.results import WORDS as RESULT_WORDS, cmd_bevestig, cmd_invaller, cmd_nietverschenen, cmd_uitslag
from bot.keizer.seasons import BACK_WORDS, WITHDRAW_WORDS, cmd_exporteer, cmd_importeer, cmd_seizoen, cmd_speler
from bot.keizer.signoffs import TEAM_WORDS, cmd_aanmelden, cmd_afmelden
from bot.keizer.source import KeizerSource
from bot.keizer.versions import prizes_key, season_key
from bot.keizer.venue import cmd_speelavond
from bot.keizer.views import cmd_indeling, cmd_prijzen, cmd_stand
from bot.keizer.why import cmd_waarom

MAX_SUGGESTIONS = 25


async def _rounds(core: Core, club: Club, typed: str, given: dict[str, Any], paired: bool) -> list[tuple[str, Any]]:
    """Round numbers: the rounds still open (to sign off for or on) or the paired ones, newest first; of
    the rapid competition when the command's ``rapid`` option is already set."""
    store = keizer_store(core)
    season = await store.active_season(club.id, "rapid" if given.get("rapid") else "main")
    if season is None:
        return []
    rows = [r for r in await store.rounds(season.id) if (r.status == "paired") == paired]
    if paired:
        rows.reverse()
    text = str(typed or "").strip()
    rows = [r for r in rows if str(r.number).startswith(text)]
    return [
        (t(club.language, "discord_round_choice", round=r.number, date=r.play_date), r.number)
        for r in rows[:MAX_SUGGESTIONS]
    ]


async def coming_rounds(core: Core, club: Club, typed: str, given: dict[str, Any]) -> list[tuple[str, Any]]:
    return await _rounds(core, club, typed, given, paired=False)


async def paired_rounds(core: Core, club: Club, typed: str, given: dict[str, Any]) -> list[tuple[str, Any]]:
    return await _rounds(core, club, typed, given, paired=True)


RAPID = Param("rapid", "bool", style=FLAG)
GROUP = Param("groep", "choice", choices=(("A", "A"), ("B", "B"), ("C", "C"), ("D", "D")))
PLAYER = Param("speler", complete=member_names, member_name=True)
ROUND_COMING = Param("ronde", "int", low=1, high=200, complete=coming_rounds)
ROUND_PAIRED = Param("ronde", "int", low=1, high=200, complete=paired_rounds)
RESULTS = (
    ("discord_choice_won", "gewonnen"), ("discord_choice_lost", "verloren"), ("discord_choice_draw", "remise"),
    ("1-0", "1-0"), ("0-1", "0-1"), ("discord_choice_1-0F", "1-0F"), ("discord_choice_0-1F", "0-1F"),
    ("discord_choice_0-0F", "0-0F"),
)  # fmt: skip
KINDS = (("discord_choice_main", "main"), ("rapid", "rapid"))
ORDERS = (("discord_choice_rating", "rating"), ("discord_choice_ranking", "eindstand"))
RISER_FROM = (("discord_choice_riser_start", "start"), ("discord_choice_riser_round1", "ronde1"))
NO_SHOW_EARNS = (("discord_choice_noshow_third", "1/3"), ("discord_choice_noshow_none", "0"))
CHANGES = (("discord_choice_swap", "wissel"), ("discord_choice_colour", "kleur"), ("discord_choice_pair", "koppel"),
           ("discord_choice_bye", "vrij"))  # fmt: skip
FORMATS = (("discord_choice_season_file", "json"), ("csv", "csv"), ("discord_choice_html", "html"),
           ("discord_choice_trf", "trf"), ("discord_choice_pgn", "pgn"))  # fmt: skip
MISSING = (("discord_choice_missing_pair", "indelen"), ("discord_choice_missing_wait", "wachten"))
ON_OFF = (("discord_choice_on", "aan"), ("discord_choice_off", "uit"))
REMINDERS = (("discord_choice_off", "uit"), ("discord_choice_reminder_signon", "aanmelden"),
             ("discord_choice_reminder_everyone", "iedereen"))  # /seizoen herinnering= (bot/keizer/reminders.py)
JOINING = (("discord_choice_joining_open", "open"), ("discord_choice_joining_approval", "goedkeuring"))  # aanmelden=
ONLINE = (("lichess", "lichess"), ("discord_choice_off", "uit"))  # /seizoen online= (bot/keizer/online_settings.py)
YES_NO = (("discord_choice_rated", "ja"), ("discord_choice_casual", "nee"))
ATTENDANCE = (("discord_choice_attendance_default", "standaard"), ("discord_choice_attendance_absent", "afgemeld"))
CALENDAR_FEED = (("discord_choice_calendar_link", "link"), ("discord_choice_calendar_new", "nieuw"))
WHY = (("discord_choice_why_points", "punten"), ("discord_choice_why_pairing", "indeling"))
PLAYER_ACTIONS = (("discord_choice_withdraw", "terugtrekken"), ("discord_choice_back", "terug"))


def _keyed(name: str, kind: str = "text", required: bool = False, **more: Any) -> Param:
    return Param(name, kind, required=required, style=KEYED, **more)


def _calendar() -> tuple[Param, ...]:
    """The options of /seizoen and /importeer after name and start."""
    return (
        _keyed("rondes", "int", low=1, high=200), _keyed("deadline"), _keyed("publicatie"), _keyed("tijdzone"),
        _keyed("soort", "choice", choices=KINDS), _keyed("stijgprijs", "choice", choices=RISER_FROM),
        _keyed("noshow", "choice", choices=NO_SHOW_EARNS), _keyed("ontbrekend", "choice", choices=MISSING),
    )  # fmt: skip


def register(registry: Registry) -> None:
    # the words its commands read beside a member's name: no member may be called one (issue 44)
    registry.reserve({"rapid", "a", "b", "c", "d", *TEAM_WORDS, *RESULT_WORDS, *WITHDRAW_WORDS, *BACK_WORDS,
                      *RENAME_WORDS, *MERGE_WORDS, *REMOVE_WORDS, *POSTPONE_UNDO})  # fmt: skip
    add = registry.add
    add(Command("aanmelden", cmd_aanmelden, english="join", params=(ROUND_COMING, PLAYER, RAPID)))
    registry.alias("signon", "aanmelden")
    add(Command("afmelden", cmd_afmelden, english="signoff",
                params=(ROUND_COMING, Param("teamwedstrijd", "bool", style=FLAG), PLAYER, RAPID)))  # fmt: skip
    # its English name was /withdraw, the word /player X withdraw uses for leaving the season (issue 44 §3):
    # /signoff now; /withdraw still signs off for a round, for whoever learnt it
    registry.alias("withdraw", "afmelden")
    add(Command("stand", cmd_stand, english="standings",
                params=(GROUP, RAPID, ROUND_PAIRED, _keyed("pagina", "int", low=1, high=100), Param("alles", "bool", style=FLAG),
                        _keyed("seizoen")),  # a past season's, by its name
                reads_only=True,
                cache_key=season_key))  # fmt: skip
    add(Command("indeling", cmd_indeling, english="pairings",
                params=(Param("wijziging", "choice", choices=CHANGES), Param("wie", complete=member_names),
                        Param("met", complete=member_names), ROUND_PAIRED, RAPID, _keyed("seizoen")),
                reads_only=True,
                cache_key=season_key))  # fmt: skip
    add(Command("uitslag", cmd_uitslag, english="result", confirms_result=True,
                params=(Param("resultaat", "choice", required=True, choices=RESULTS), PLAYER, ROUND_PAIRED, RAPID,
                        Param("toch", "bool", style=FLAG))))  # fmt: skip
    add(Command("uitstel", cmd_uitstel, english="postpone",
                params=(PLAYER, ROUND_PAIRED, _keyed("tot"), Param("ongedaan", "bool", style=FLAG), RAPID)))  # fmt: skip
    add(Command("bevestig", cmd_bevestig, english="confirm", params=(ROUND_PAIRED, RAPID), confirms_result=True))
    add(Command("prijzen", cmd_prijzen, english="prizes", params=(), reads_only=True, cache_key=prizes_key))
    add(Command("groepen", cmd_groepen, english="groups", pasted=True,  # a list of groups under it, or a file
                params=(Param("indeling_groepen"), Param("bestand", "file"))))  # fmt: skip
    # naam and start make a new season; without them the command shows the running one or changes its settings
    # vrij first: Discord's line then starts with it, the word /seizoen's route reads (/seizoen vrij 2026-12-24)
    add(Command("seizoen", cmd_seizoen, director=True, english="season",
                params=(Param("vrije_avonden", style=NAMED, word="vrij"), _keyed("naam"), _keyed("start"), *_calendar(),
                        _keyed("startvolgorde", "choice", choices=ORDERS), Param("toch", "bool", style=FLAG),
                        _keyed("online", "choice", choices=ONLINE), _keyed("tempo"),
                        _keyed("beoordeeld", "choice", choices=YES_NO), _keyed("uiterlijk"),
                        _keyed("herinnering", "choice", choices=REMINDERS), _keyed("aanmelden", "choice", choices=JOINING),
                        Param("ongedaan", "bool", style=FLAG))))  # fmt: skip
    registry.route("seizoen", FREE_WORDS, cmd_free, writes=True)  # the free evenings (bot/keizer/free_evenings.py)
    add(Command("ronde", cmd_ronde, director=True, english="round",
                params=(Param("ronde", "int", required=True, low=1, high=200, complete=coming_rounds), _keyed("datum"), RAPID)))  # fmt: skip
    add(Command("speler", cmd_speler, director=True, english="player",
                params=(Param("naam", required=True, complete=member_names),
                        Param("rating", "int", low=0, high=4000),
                        Param("actie", "choice", choices=PLAYER_ACTIONS),
                        Param("groep", "choice", style=KEYED, choices=GROUP.choices), RAPID,
                        _keyed("knsb"), _keyed("fide"), _keyed("egd"), _keyed("lichess"),
                        _keyed("schatting", "int", low=1, high=4000))))  # fmt: skip
    add(Command("nietverschenen", cmd_nietverschenen, director=True, english="noshow", confirms_result=True,
                params=(Param("speler", required=True, complete=member_names), ROUND_PAIRED, RAPID)))  # fmt: skip
    add(Command("invaller", cmd_invaller, director=True, english="standby",
                params=(Param("speler", required=True, complete=member_names), RAPID)))  # fmt: skip
    add(Command("uitslagen", cmd_uitslagen, director=True, english="results", params=(RAPID,), reads_only=True))
    add(Command("publiceer", cmd_publiceer, director=True, english="publish",
                params=(RAPID, Param("toch", "bool", style=FLAG), Param("ongedaan", "bool", style=FLAG)),
                confirm=("discord_publish_question", "discord_button_publish")))  # fmt: skip
    add(Command("exporteer", cmd_exporteer, director=True, english="export",
                params=(Param("formaat", "choice", choices=FORMATS), ROUND_PAIRED, RAPID), reads_only=True))  # fmt: skip
    add(Command("kruistabel", cmd_kruistabel, english="crosstable", params=(RAPID, _keyed("seizoen")), reads_only=True,
                cache_key=season_key))  # fmt: skip
    add(Command("verloop", cmd_verloop, english="history", params=(RAPID, _keyed("seizoen")), reads_only=True, cache_key=season_key))
    add(Command("kalender", cmd_kalender, english="calendar", params=(RAPID, Param("mijn", "bool", style=FLAG)), reads_only=True,
                cache_key=calendar_key))  # fmt: skip
    add(Command("speelavond", cmd_speelavond, director=True, english="clubnight",
                params=(_keyed("locatie"), _keyed("tijd"), _keyed("speeltempo"))))  # fmt: skip
    add(Command("mijn", cmd_mijn, english="me",
                params=(_keyed("meldingen", "choice", choices=ON_OFF), _keyed("aanwezig", "choice", choices=ATTENDANCE),
                        _keyed("kalender", "choice", choices=CALENDAR_FEED), RAPID),
                reads_only=True))  # fmt: skip
    registry.route("mijn", ATTENDANCE_WORDS, cmd_attendance, writes=True)  # /mijn aanwezig standaard|afgemeld
    registry.route("mijn", ATTENDANCE_PRESENT, cmd_attendance_present, writes=True)
    registry.route("mijn", ATTENDANCE_ABSENT, cmd_attendance_absent, writes=True)
    registry.route("mijn", ("kalender", "calendar", "kalender=link", "calendar=link"), cmd_my_calendar, writes=True)
    registry.route("mijn", ("kalender=nieuw", "calendar=new"), cmd_my_calendar_new, writes=True)  # a new address
    registry.route("mijn", NOTICE_WORDS, cmd_notices, writes=True)  # /mijn meldingen aan|uit
    registry.route("mijn", NOTICES_ON, cmd_notices_on, writes=True)  # meldingen=aan: Discord's option
    registry.route("mijn", NOTICES_OFF, cmd_notices_off, writes=True)
    add(Command("kaart", cmd_kaart, english="card", params=(Param("speler", complete=member_names), RAPID, _keyed("seizoen")),
                reads_only=True))  # fmt: skip
    add(Command("waarom", cmd_waarom, english="why",
                params=(Param("vraag", "choice", required=True, choices=WHY), Param("speler", complete=member_names), RAPID),
                reads_only=True))  # fmt: skip
    add(Command("importeer", cmd_importeer, director=True, english="import",
                params=(Param("bestand", "file", required=True), _keyed("start", required=True), _keyed("naam"),
                        *_calendar(), Param("toch", "bool", style=FLAG))))  # fmt: skip
    for words, handler in ((SWAP_WORDS, cmd_swap), (COLOUR_WORDS, cmd_colour), (PAIR_WORDS, cmd_pair), (BYE_WORDS, cmd_bye)):
        registry.route("indeling", words, handler, writes=True)  # the director's hands on the pairing
    registry.route("indeling", FORBID_WORDS, cmd_forbid, writes=True)  # pairs kept apart
    registry.route("indeling", LIST_WORDS, cmd_forbidden)
    registry.feed_members.append(member_of_feed)  # /mijn kalender's address, which the website serves
    registry.timed.append(KeizerSchedule())
    registry.timed.append(PostponedReports())  # postponed games not played in time (issue 44 §1)
    registry.competitions.append(KeizerSource())
