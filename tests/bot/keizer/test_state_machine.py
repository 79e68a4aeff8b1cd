"""Random weeks of a club (issue 30): a hypothesis state machine sends random sequences of every Keizer
command, by members, the director (with a member record of their own, as on the console), a member who
is not in the season and a stranger, while the clock moves and the scheduler does what falls due. After
every command, accepted or refused, the standings, the prizes, the next pairing and every member's /mijn
must still compute: no internal error and no season the engine cannot read (a step that changed nothing
the check reads is not checked twice: ``everything_still_computes``). A real SQLite file, the real
``Core.handle`` and the real alarm's due work; the clock moves when the weeks move it; bounded so it runs
in CI in seconds."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from bot.config import Config, load_config
from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import Actor, UserError
from bot.core.i18n import t
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from bot.keizer import competition
from bot.keizer.store import KeizerStore
from bot.systems import make_core
from engine.keizer import pairing
from tests.bot.conftest import START, StillClock, actor, made_once, migrated_sqlite

ROOT = Path(__file__).resolve().parents[3]
DIRECTOR = actor("Leider", director=True)
PLAYERS = [actor(n) for n in ("Anna", "Bert", "Carla")]
ZED = actor("Zed")  # a member of the club, not in the season
STRANGER = actor("Vreemde")  # never joined
EVERYONE = [DIRECTOR, *PLAYERS, ZED, STRANGER]
NAMES = ["Anna", "Bert", "Carla", "Zed", "Leider", "Niemand"]
ROUNDS = ["1", "2", "3", "0"]

name = st.sampled_from(NAMES)
rnd = st.sampled_from(ROUNDS)
rapid = st.sampled_from(["", "", "", " rapid"])
result = st.sampled_from(["1-0", "0-1", "remise", "gewonnen", "verloren", "1-0F", "0-1F", "0-0F"])
SIGNING = st.builds(
    "{}{}".format,
    st.one_of(
        st.sampled_from(["/afmelden", "/aanmelden"]),
        st.builds("/afmelden {}".format, rnd),
        st.builds("/aanmelden {}".format, rnd),
        st.builds("/afmelden {}".format, name),
        st.builds("/afmelden {} {}".format, name, rnd),
    ),
    rapid,
)
# who signs on and off: most often the director's own record and a member outside the season
SIGNERS = st.sampled_from([ZED, DIRECTOR, ZED, DIRECTOR, *PLAYERS, STRANGER])
COMMAND = st.one_of(
    st.builds("/afmelden{}".format, rapid),
    st.builds("/afmelden{} {}".format, rapid, rnd),
    st.builds("/afmelden{} {} teamwedstrijd".format, rapid, rnd),
    st.builds("/afmelden {}{}".format, name, rapid),
    st.builds("/afmelden {} {}".format, name, rnd),
    st.builds("/aanmelden{}".format, rapid),
    st.builds("/aanmelden{} {}".format, rapid, rnd),
    st.builds("/uitslag {}{}".format, result, rapid),
    st.builds("/uitslag {} {}".format, name, result),
    st.builds("/uitslag {} {} {}".format, name, result, rnd),
    st.builds("/bevestig{}".format, rapid),
    st.builds("/nietverschenen {}".format, name),
    st.builds("/invaller {}".format, name),
    st.sampled_from(["/publiceer", "/publiceer toch", "/publiceer ongedaan", "/publiceer rapid toch",
                     "/stand", "/prijzen", "/mijn", "/indeling", "/kruistabel", "/verloop", "/kaart", "/groepen",
                     "/exporteer", "/exporteer trf", "/groepen toepassen"]),  # fmt: skip
    st.builds("/speler {} {}{}".format, name, st.sampled_from(["1500", "2200", "0"]), rapid),
    st.builds("/speler {} {}".format, name, st.sampled_from(["terugtrekken", "terug", "verwijder"])),
    st.builds("/speler {} samenvoegen {}".format, name, name),
    st.builds("/indeling {} {} {}".format, st.sampled_from(["wissel", "koppel"]), name, name),
    st.builds("/indeling {} {}".format, st.sampled_from(["vrij", "kleur"]), name),
    st.builds("/kaart {}".format, name),
)


async def _send(club: Club, announcement: Announcement) -> None:
    """The channel: every announcement is taken as posted."""


def _config(path: Path) -> Config:
    base = load_config(ROOT / "config.example.toml", env={})
    return Config(**{**base.__dict__, "db_path": path})


async def _club_at_start(path: Path) -> None:
    """The club every example starts from: a season of four rounds nine days ahead (time to sign off
    first), Anna, Bert and Carla in it and linked, Zed a member outside it, the director a member too.
    Built once per test process and copied for each example (``made_once``)."""
    store = await Store.open(migrated_sqlite(path))
    try:
        core = make_core(store, _config(path), ShiftedClock(START))

        async def accepted(who: Actor, text: str) -> None:
            reply = await core.handle(who, text)
            assert reply.ok, (text, reply.text)

        await accepted(DIRECTOR, "/seizoen naam=S1 start=2026-12-10 rondes=4")
        for line in ("Anna 2100", "Bert 1950", "Carla 1800"):
            await accepted(DIRECTOR, f"/speler {line}")
        club = await store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
        assert club is not None
        zed = await store.add_member(club.id, "Zed", 1500, START)
        await store.link_identity(club.id, ZED.user_id, zed.id)
        leider = await store.add_member(club.id, "Leider", 0, START, is_director=True)
        await store.link_identity(club.id, DIRECTOR.user_id, leider.id)
        for who in PLAYERS:
            await accepted(DIRECTOR, f'/koppel "{who.display_name}" <@{who.user_id}>')
    finally:
        await store.close()


class ClubWeeks(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.tmp = Path(tempfile.mkdtemp(prefix="clubbot-state-"))
        self.config = _config(self.tmp / "club.sqlite3")
        self.clock = StillClock(START)  # moved by ``time_passes`` alone: see ``everything_still_computes``
        self.store = self.run(Store.open(made_once("club-weeks", _club_at_start, self.config.db_path)))
        self.core = make_core(self.store, self.config, self.clock)
        self.alarm = Alarm(self.core, _send)
        self.seasons = 1
        club = self.run(self.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id))
        assert club is not None
        self.club = club
        self.checked: tuple[object, ...] | None = None  # what the last check that ran saw (``_seen``)

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    async def _answer(self, who: Actor, text: str) -> None:
        """Any command: accepted or refused, never an internal error, and Core.handle never raises."""
        said = (await self.core.handle(who, text)).text  # the reply's text, its table laid out once
        assert said != t(self.club.language, "error_internal"), f"{who.display_name}: {text!r} -> internal error"
        assert "kloppen niet" not in said, f"{who.display_name}: {text!r} -> {said}"

    @rule(who=st.sampled_from(EVERYONE), text=COMMAND)
    def command(self, who: Actor, text: str) -> None:
        self.run(self._answer(who, text))
        self.run(self.alarm.after_command(who))  # as the adapters do after a command

    @rule(who=SIGNERS, text=SIGNING)
    def signing_on_or_off(self, who: Actor, text: str) -> None:
        """Sign-offs and sign-ons, the commands every member types, more often than the rest."""
        self.command(who, text)

    @rule(who=SIGNERS, text=SIGNING)
    def signing_again(self, who: Actor, text: str) -> None:
        self.command(who, text)

    @rule(who=st.sampled_from([ZED, DIRECTOR, PLAYERS[0]]), rounds=st.lists(st.sampled_from(["", " 1", " 2", " 3"]), min_size=2, max_size=3), by_director=st.booleans())
    def holiday(self, who: Actor, rounds: list[str], by_director: bool) -> None:
        """Several sign-offs in a row (a holiday), by the member or by the director for them."""
        for number in rounds:
            if by_director:
                self.command(DIRECTOR, f'/afmelden "{who.display_name}"{number}')
            else:
                self.command(who, f"/afmelden{number}")
            self.everything_still_computes()

    @rule(hours=st.sampled_from([1, 3, 20, 50, 168]))
    def time_passes(self, hours: int) -> None:
        self.clock.set(self.clock.now() + timedelta(hours=hours))
        self.run(self.alarm.run_due())

    @rule(kind=st.sampled_from(["main", "rapid"]))
    def new_season(self, kind: str) -> None:
        """A director starts a season (the main one anew, or the rapid one) a few days from now."""
        self.seasons += 1
        start = (self.clock.now() + timedelta(days=3)).date().isoformat()
        self.run(self._answer(DIRECTOR, f"/seizoen naam=S{self.seasons} start={start} rondes=3 soort={kind}"))

    @invariant()
    def everything_still_computes(self) -> None:
        """The check, unless nothing it reads has changed since it last ran: then it would repeat that
        check exactly, and is skipped. What it reads: the database's rows (every write goes through the
        store's one writer connection, whose ``total_changes`` counts every row a statement wrote, kept
        or rolled back, and ``commits`` every COMMIT; while a transaction is open nothing is skipped, so
        the read path's connection sees what the writer has); the clock (``StillClock``: it moves only in
        ``time_passes``; ``/mijn`` reads the day from it); and of the core's memory only what those rows
        determine: the store's caches of clubs and members, and the reply cache (a reply per season
        version, the same rows' reply). The console has no rate limit. The commands, the loads and the
        pairing are deterministic: the same rows at the same moment give the same replies and the same
        pairing, so the skipped check would pass exactly as the last one did."""
        seen = self._seen()
        if seen is not None and seen == self.checked:
            return
        self.run(self._everything_computes())
        self.checked = seen if self._seen() == seen else None  # a check that wrote: never take it as seen

    def _seen(self) -> tuple[object, ...] | None:
        """What the check reads that can change between two steps; None while a transaction is open."""
        db = self.store._conn  # the writer connection, the only one that writes
        if db.in_transaction:
            return None
        return (db.total_changes, self.store.commits, self.clock.now())

    async def _everything_computes(self) -> None:
        for text in ("/stand", "/prijzen", "/stand rapid"):
            await self._answer(DIRECTOR, text)
        for who in (*PLAYERS, ZED, DIRECTOR):
            await self._answer(who, "/mijn")
        for kind in ("main", "rapid"):  # the next pairing, as the scheduler would make it now
            season = await KeizerStore(self.store).active_season(self.club.id, kind)
            if season is None:
                continue
            try:
                data = await competition.load(self.store, season)
            except UserError as err:
                raise AssertionError(f"season {season.name} cannot be read: {err.key} {err.values}")
            coming = competition.coming_round(data)
            if coming is None:
                continue
            signed_off = {so.member_id for so in await KeizerStore(self.store).signoffs(coming.id)}
            present = competition.present_players(data, coming.number, signed_off)
            pairing.pair_round(data.players, data.rounds, present, data.settings, coming.number)

    def teardown(self) -> None:
        self.alarm.shutdown()
        self.run(self.store.close())
        self.loop.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


# 50 examples of 40 steps in all, as five machines of 10 examples each: the suite's workers share them out
# instead of one worker carrying all 50 (43 s of CPU). Each machine is a class of its own, so Hypothesis
# draws each its own examples (its seed comes from the class), in CI's derandomized profile too.
class ClubWeeks1(ClubWeeks):
    """Examples 1-10."""


class ClubWeeks2(ClubWeeks):
    """Examples 11-20."""


class ClubWeeks3(ClubWeeks):
    """Examples 21-30."""


class ClubWeeks4(ClubWeeks):
    """Examples 31-40."""


class ClubWeeks5(ClubWeeks):
    """Examples 41-50."""


for _machine in (ClubWeeks1, ClubWeeks2, ClubWeeks3, ClubWeeks4, ClubWeeks5):
    _machine.TestCase.settings = settings(
        max_examples=10, stateful_step_count=40, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )  # fmt: skip
TestClubWeeks1 = ClubWeeks1.TestCase
TestClubWeeks2 = ClubWeeks2.TestCase
TestClubWeeks3 = ClubWeeks3.TestCase
TestClubWeeks4 = ClubWeeks4.TestCase
TestClubWeeks5 = ClubWeeks5.TestCase
