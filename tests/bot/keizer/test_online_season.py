"""A season played on lichess (issue 43 §1): ``/seizoen ... online=lichess tempo=15+10`` (the rapid
competition's too), switched for the coming rounds with ``/seizoen online=lichess|uit tempo=...`` while the
rounds already published keep what they had; ``beoordeeld=ja|nee``, ``uiterlijk=`` (the latest start, by
default the end of the playing evening); a tempo lichess's clock does not take or an unknown option gets the
usage and changes nothing; without the bot's lichess token online play is off and says so; ``/seizoen``
shows it all; the director's alone."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, time, timezone

import pytest

from bot.core.commands.dispatch import Core
from bot.core.running.clock import ShiftedClock
from bot.keizer.calendar_store import Venue
from bot.keizer.online_season import OnlineSetting, OnlineStore
from bot.keizer.store import KeizerStore
from bot.systems import make_core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused, rows

PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the first playing day
SEASON = "/seizoen naam=2026-27 start=2026-12-03 rondes=28"


@pytest.fixture
def online(store, config, clock: ShiftedClock) -> Core:
    """The bot with its lichess token: online play is on."""
    return make_core(store, dataclasses.replace(config, lichess_token="lip_bot-token"), clock)


def stored(config) -> list[tuple]:
    return rows(config, "SELECT s.kind, o.from_round, o.platform, o.clock_limit, o.clock_increment, o.rated, o.latest_start"
                        " FROM season_online o JOIN seasons s ON s.id = o.season_id ORDER BY s.kind, o.from_round")  # fmt: skip


async def test_a_new_season_plays_on_lichess_with_its_clock(online: Core, config) -> None:
    said = await ok(online, DIRECTOR, f"{SEASON} online=lichess tempo=15+10")
    assert said.splitlines()[1] == ("Online op lichess vanaf ronde 1: tempo 15+10, onbeoordeeld (telt niet voor de "
                                    "lichess-rating), uiterlijk beginnen om 23:30 (het einde van de speelavond).")  # fmt: skip
    assert stored(config) == [("main", 1, "lichess", 900, 10, 0, None)]
    await ok(online, DIRECTOR, "/season name=Rapid start=2026-12-10 kind=rapid online=lichess time=10+5 rated=yes latest=21:30")
    assert stored(config)[1] == ("rapid", 1, "lichess", 600, 5, 1, "21:30")
    assert await ok(online, DIRECTOR, "/seizoen soort=rapid") == (
        "Rapid: Seizoen Rapid: 28 rondes (van 2026-12-10 tot 2027-06-17), afmelden tot 17:00, indeling om 18:00 (Europe/Amsterdam).\n"
        "Online op lichess vanaf ronde 1: tempo 10+5, beoordeeld (telt voor de lichess-rating), uiterlijk beginnen om 21:30."
    )


async def test_a_switch_holds_from_the_coming_round_and_published_rounds_keep_theirs(
    online: Core, config, clock: ShiftedClock
) -> None:
    await ok(online, DIRECTOR, SEASON)
    for name in ("Anna", "Bert"):
        await ok(online, DIRECTOR, f"/speler {name} 1800")
        await link(online, actor(name))
    clock.set(PAIRED)
    await ok(online, DIRECTOR, "/publiceer")  # round 1 played at the club
    said = await ok(online, DIRECTOR, "/seizoen online=lichess tempo=25+5 beoordeeld=ja")
    assert said == ("Seizoen 2026-27: Online op lichess vanaf ronde 2: tempo 25+5, beoordeeld (telt voor de lichess-rating), "
                    "uiterlijk beginnen om 23:30 (het einde van de speelavond). Rondes die al zijn ingedeeld blijven zoals ze waren.")  # fmt: skip
    await ok(online, DIRECTOR, "/seizoen tempo=15+10")  # the rest kept
    assert stored(config) == [("main", 2, "lichess", 900, 10, 1, None)]
    season_id = rows(config, "SELECT id FROM seasons")[0][0]
    settings = OnlineStore(online.store)
    assert await settings.setting(season_id, 1) is None  # round 1 stays at the club
    assert (await settings.setting(season_id, 2)) == OnlineSetting("lichess", 900, 10, True, None, 2)
    assert (await settings.setting(season_id, 9)) == OnlineSetting("lichess", 900, 10, True, None, 2)
    await ok(online, DIRECTOR, "/seizoen online=uit")
    assert stored(config) == [("main", 2, None, 900, 10, 1, None)]  # the clock is kept for a switch back
    assert (await ok(online, DIRECTOR, "/seizoen")).splitlines()[1] == "Online: nee, vanaf ronde 2 worden de partijen aan de club gespeeld."
    await ok(online, DIRECTOR, "/seizoen online=lichess")
    assert stored(config) == [("main", 2, "lichess", 900, 10, 1, None)]
    said = await ok(online, DIRECTOR, "/seizoen tempo=0.5+0")  # bullet: half a minute, as lichess offers it
    assert "tempo 0.5+0" in said and stored(config) == [("main", 2, "lichess", 30, 0, 1, None)]


BAD = [
    "/seizoen online=lichess tempo=181+0",  # lichess: clock.limit at most 10800 seconds
    "/seizoen online=lichess tempo=15+61",  # clock.increment at most 60
    "/seizoen online=lichess tempo=0+0",
    "/seizoen online=lichess tempo=15",
    "/seizoen online=lichess tempo=15+10+5",
    "/seizoen online=lichess tempo=-1+10",
    "/seizoen online=lichess tempo=snel",
    "/seizoen online=chess.com tempo=15+10",
    "/seizoen online=lichess tempo=15+10 beoordeeld=misschien",
    "/seizoen online=lichess tempo=15+10 uiterlijk=17:00",  # before the publication at 18:00
    "/seizoen online=lichess tempo=15+10 uiterlijk=07:00",  # 13 hours after it
    "/seizoen online=lichess tempo=15+10 uiterlijk=25:00",
    "/seizoen online=lichess tempo=15+10 kleur=rood",
    "/seizoen online=lichess tempo=",
    "/seizoen online=lichess",  # no tempo yet
    "/seizoen tempo=15+10",  # the season is played at the club
    "/seizoen online=lichess tempo=15+10 soort=blitz",
    f"{SEASON.replace('2026-27', 'Nieuw')} online=lichess tempo=15+99 toch",
    f"{SEASON.replace('2026-27', 'Nieuw')} online=lichess toch",
]


@pytest.mark.parametrize("text", BAD)
async def test_a_wrong_tempo_or_option_gets_the_usage_and_changes_nothing(online: Core, config, text: str) -> None:
    await ok(online, DIRECTOR, SEASON)
    said = await refused(online, DIRECTOR, text, config)
    assert "Gebruik: /seizoen" in said or "Er is niets veranderd" in said, said


async def test_the_tempo_refusal_says_what_lichess_takes(online: Core, config) -> None:
    await ok(online, DIRECTOR, SEASON)
    said = await refused(online, DIRECTOR, "/seizoen online=lichess tempo=200+5", config)
    assert said.startswith("Tempo 200+5 kan niet op lichess: minuten plus seconden per zet, 0 tot 180 minuten en 0 tot 60 seconden")
    await ok(online, DIRECTOR, "/taal en")
    said = await refused(online, DIRECTOR, "/season online=lichess time=15+90", config)
    assert said.startswith("Time control 15+90 is not possible on lichess") and "Usage: /season online=lichess|off" in said


async def test_without_the_bots_token_online_play_is_off_and_nothing_changes(commands: Core, config) -> None:
    said = await refused(commands, DIRECTOR, f"{SEASON} online=lichess tempo=15+10", config)
    assert said == "Online spelen staat uit op deze bot: de beheerder heeft hem geen lichess-token gegeven. Er is niets veranderd."
    await ok(commands, DIRECTOR, SEASON)
    assert "staat uit op deze bot" in await refused(commands, DIRECTOR, "/seizoen online=lichess tempo=15+10", config)
    await ok(commands, DIRECTOR, "/seizoen online=uit")  # off is always possible
    assert stored(config) == [("main", 1, None, None, None, 0, None)]


async def test_the_season_shows_online_play_off_on_a_bot_without_its_token(online: Core, commands: Core, config) -> None:
    await ok(online, DIRECTOR, f"{SEASON} online=lichess tempo=15+10")
    shown = await ok(commands, DIRECTOR, "/seizoen")  # the same club, the token taken away
    assert shown.splitlines()[2].startswith("Let op: online spelen staat uit op deze bot (geen lichess-token)")


async def test_only_the_director_sets_online_play(online: Core, config) -> None:
    await ok(online, DIRECTOR, SEASON)
    await ok(online, DIRECTOR, "/speler Anna 1800")
    await link(online, actor("Anna"))
    assert "wedstrijdleider" in await refused(online, actor("Anna"), "/seizoen online=lichess tempo=15+10", config)
    assert "wedstrijdleider" in await refused(online, actor("Anna"), "/seizoen", config)


def test_the_latest_start_is_the_evenings_end_or_the_time_set() -> None:
    day = date(2026, 12, 3)
    published = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam (UTC+1)
    setting = OnlineSetting("lichess", 900, 10)
    assert setting.latest_start_at(day, published, "Europe/Amsterdam", Venue()) == datetime(2026, 12, 3, 22, 30, tzinfo=timezone.utc)
    late = Venue("", time(19, 30), time(0, 30))  # an evening that ends after midnight
    assert setting.latest_start_at(day, published, "Europe/Amsterdam", late) == datetime(2026, 12, 3, 23, 30, tzinfo=timezone.utc)
    at = dataclasses.replace(setting, latest_start=time(21, 0))
    assert at.latest_start_at(day, published, "Europe/Amsterdam", Venue()) == datetime(2026, 12, 3, 20, 0, tzinfo=timezone.utc)
    after_midnight = dataclasses.replace(setting, latest_start=time(1, 0))
    assert after_midnight.latest_start_at(day, published, "Europe/Amsterdam", Venue()) == datetime(2026, 12, 4, 0, 0, tzinfo=timezone.utc)


async def test_the_setting_of_a_round_is_the_latest_switch_before_it_on_both_databases(any_store) -> None:
    now = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", now)
    async with any_store.transaction():
        season = await KeizerStore(any_store).create_season(
            club.id, "S", "main", [(1, "2026-12-03", now, now)], "17:00", "18:00", "Europe/Amsterdam", "{}", now
        )
    settings = OnlineStore(any_store)
    async with any_store.transaction():
        await settings.set_setting(season.id, OnlineSetting("lichess", 900, 10, False, None, 1))
        await settings.set_setting(season.id, OnlineSetting(None, 900, 10, False, None, 5))
        await settings.set_setting(season.id, OnlineSetting("lichess", 1500, 5, True, time(22, 0), 9))
    assert [await settings.setting(season.id, n) for n in (1, 4)] == [OnlineSetting("lichess", 900, 10, False, None, 1)] * 2
    assert (await settings.setting(season.id, 5)).platform is None
    assert await settings.setting(season.id, 12) == OnlineSetting("lichess", 1500, 5, True, time(22, 0), 9)
    async with any_store.transaction():  # a switch from round 3 (a round unpublished again): the later ones go
        await settings.set_setting(season.id, OnlineSetting("lichess", 600, 0, False, None, 3))
    assert [s.from_round for s in await settings.settings(season.id)] == [1, 3]
    assert (await settings.setting(season.id, 12)).clock_limit == 600
