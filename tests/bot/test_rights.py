"""Who may do what: every command against every role, on two clubs in one real SQLite file.

Roles in club 1: the member the command is about (Anna: paired in round 1 against Bert, Bert reported
that he lost, Anna is to move in her go game with Bert, registered for the club's NK), another member
(Eva: a member with the bye, no game, nothing pending), the director (a director by the platform, not a
member), and a stranger (in the club's chat, never joined). The fifth role is club 2's director: club 2
has its own season, players and NK.

The expectations are written by hand from the README's command tables ("who"): ``W`` the command is
accepted and changes the database, ``R`` accepted and changes nothing (a read), ``X`` refused, and then
nothing changed. For club 2's director the rule is the same for every command: club 1's rows are
unchanged and no reply names anything of club 1.

Every command the commands layer knows (Keizer, the feature modules, their English aliases) must have
a row here, so a new command cannot arrive without its rights being stated.
"""

from __future__ import annotations

import asyncio
import functools
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.core.running.clock import ShiftedClock
from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from bot.config import Config, load_config
from bot.core.storage.store import Store
from tests.bot.conftest import START, actor, dump, link

REPO = Path(__file__).resolve().parents[2]
PAIRED = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)  # 18:05 in Amsterdam on the first playing day

DIRECTOR = actor("Leider", director=True)
ANNA, BERT, CARLA, DAAN, EVA = (actor(n) for n in ("Anna", "Bert", "Carla", "Daan", "Eva"))
STRANGER = actor("Vreemde")
OTHER_DIRECTOR = actor("Baas", director=True, club="club-2")
CLUB2 = [actor(n, club="club-2") for n in ("Xander", "Yara", "Zoe")]
ROLES = {"member": ANNA, "other": EVA, "director": DIRECTOR, "stranger": STRANGER}
CLUB1_WORDS = ("Anna", "Bert", "Carla", "Daan", "Eva", "Seizoen-Een", "Clubkampioenschap-Een")

SEASON_FILE = (REPO / "examples" / "season.json").read_bytes()


@functools.cache
def _base_config() -> Config:
    """The example configuration, read once: every test's is the same but for its file."""
    return load_config(REPO / "config.example.toml", env={})


def _config(path: Path) -> Config:
    base = _base_config()
    return Config(**{**base.__dict__, "db_path": path, "web_address": "127.0.0.1:8080"})  # a bot with a website


async def _ok(commands: Core, who: Actor, text: str) -> None:
    reply = await commands.handle(who, text)
    assert reply.ok, f"world set-up: {text!r} by {who.display_name} was refused: {reply.text}"


async def _build(path: Path) -> None:
    store = await Store.open(path)
    clock = ShiftedClock(START)
    commands = make_core(store, _config(path), clock)
    try:
        # club 2 first, so that its ids are the low ones: an id mix-up would show as club 1 touching them
        await _ok(commands, OTHER_DIRECTOR, "/seizoen naam=Seizoen-Twee start=2026-12-03 rondes=5")
        for line in ("Xander 2000", "Yara 1900", "Zoe 1800"):
            await _ok(commands, OTHER_DIRECTOR, f"/speler {line}")
        for who in CLUB2:
            await link(commands, who)
            await _ok(commands, who, "/aanmelden")
        await _ok(commands, OTHER_DIRECTOR, "/nk nieuw Clubkampioenschap-Twee")
        await _ok(commands, OTHER_DIRECTOR, "/nk inschrijven Xander 2000")

        await _ok(commands, DIRECTOR, "/seizoen naam=Seizoen-Een start=2026-12-03 rondes=5")
        for line in ("Anna 2100 groep=A", "Bert 1950 groep=A", "Carla 1800 groep=B", "Daan 1700 groep=B", "Eva 1600 groep=B"):
            await _ok(commands, DIRECTOR, f"/speler {line}")
        for who in (ANNA, BERT, CARLA, DAAN, EVA):
            await link(commands, who)
            await _ok(commands, who, "/aanmelden")
        await _ok(commands, DIRECTOR, "/nk nieuw Clubkampioenschap-Een")
        await _ok(commands, DIRECTOR, "/nk inschrijven Bert 1950")
        await _ok(commands, ANNA, "/nk inschrijven 2100")
        await _ok(commands, DIRECTOR, "/nk inschrijven Carla 1800")
        await _ok(commands, ANNA, "/go uitdagen Bert 9 vrij")
        await _ok(commands, BERT, "/go accepteren")
        await _ok(commands, DAAN, "/go uitdagen Anna 13 vrij")  # waits for Anna's answer
        clock.set(PAIRED)
        await _ok(commands, DIRECTOR, "/publiceer")
        await _ok(commands, OTHER_DIRECTOR, "/publiceer")
        await _ok(commands, BERT, "/uitslag verloren")
    finally:
        await store.close()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rights") / "template.sqlite3"
    asyncio.run(_build(path))
    conn = sqlite3.connect(path)  # every change in the file itself, none left in a WAL beside it
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    assert not path.with_name(path.name + "-wal").exists(), "the template's WAL was not folded into its file"
    return path


def _copy(template: Path, target: Path) -> None:
    """A copy of the template, a file whose WAL has been folded into it (``template``): the same rows as
    SQLite's online backup gives, for a tenth of the CPU."""
    shutil.copyfile(template, target)


GRADES_CSV = REPO / "examples" / "grades.csv"

# (command line, attachment, expected for member / other member / director / stranger)
# W accepted and changed something, R accepted and changed nothing, X refused and changed nothing.
TABLE: list[tuple[str, bytes | None, str]] = [
    # Keizer: members for themselves; naming another player is the director's
    ("/aanmelden", None, "WWWW"),  # already in: the yes for the coming round (a sign-on); the director and a stranger join
    ("/afmelden", None, "WWXX"),
    ("/afmelden Anna 3 teamwedstrijd", None, "XXWX"),
    ("/stand", None, "RRRR"),
    ("/indeling", None, "RRRR"),
    ("/prijzen", None, "RRRR"),
    ("/help", None, "RRRR"),
    ("/uitslag gewonnen", None, "WXXX"),  # Anna confirms Bert's report; Eva has no game
    ("/uitslag Anna 1-0", None, "XXXX"),  # against Bert's report (0-1): the director is asked first
    ("/uitslag Anna 1-0 toch", None, "XXWX"),
    ("/uitslag Anna gewonnen", None, "XXWX"),  # the director says who won: as Bert reported, no question
    ("/bevestig", None, "WXXX"),
    ("/uitstel", None, "WXXX"),  # Anna asks to postpone her game: a notice to the director; Eva has no game
    ("/uitstel Anna", None, "WXWX"),  # naming herself Anna asks; the director postpones it
    ("/uitstel Anna ongedaan", None, "XXXX"),  # not postponed; a member may not take it back anyway
    ("/seizoen naam=Nieuw start=2027-09-02 toch", None, "XXWX"),
    ("/speler Anna 2200", None, "XXWX"),
    ("/speler Anna terugtrekken", None, "XXWX"),  # out of the pairing and the ranking from the next round
    ("/speler Anna terug", None, "XXXX"),  # Anna has not withdrawn
    ("/speler Eva hernoem Eefje", None, "XXWX"),
    ("/speler Eva verwijder", None, "XXXX"),  # Eva had the bye in round 1: she stays
    ("/speler Eva samenvoegen Daan", None, "XXXX"),  # both in round 1 (Eva's bye, Daan's game): two people
    ("/uitslagen", None, "XXRX"),  # the open and disputed results: the director's list
    ("/seizoen ontbrekend=wachten", None, "XXWX"),  # the running season's setting
    ("/seizoen herinnering=iedereen", None, "XXWX"),  # who is reminded privately (issue 34 §2)
    ("/seizoen", None, "XXRX"),  # the running season, shown to the director
    ("/seizoen vrij 2026-12-24", None, "XXWX"),  # a free evening moves the rounds (issue 44 §1)
    ("/seizoen vrij", None, "XXRX"),
    ("/ronde 3 datum=2026-12-16", None, "XXWX"),  # one round to another evening
    ("/ronde 3", None, "XXRX"),
    ("/seizoen online=uit", None, "XXWX"),  # played at the club from the coming round (issue 43)
    ("/seizoen online=lichess tempo=15+10", None, "XXXX"),  # online play is off here (no lichess token)
    ("/nietverschenen Daan", None, "XXWX"),
    ("/invaller Daan", None, "XXWX"),
    ("/publiceer", None, "XXXX"),  # round 1's results are not all in: the director is asked first
    ("/publiceer toch", None, "XXXX"),  # round 1 is played tonight: not even toch (the next day: tests/bot/test_trust.py)
    ("/publiceer ongedaan", None, "XXXX"),  # Bert has reported a result of round 1
    ("/indeling kleur Carla", None, "XXWX"),  # the director's hands on the pairing
    ("/indeling vrij Daan", None, "XXWX"),
    ("/indeling wissel Anna Carla", None, "XXXX"),  # Anna's game has a reported result
    ("/indeling verbied Carla Daan", None, "XXWX"),  # a pair kept apart in the pairing
    ("/indeling verboden", None, "RRRR"),
    ("/indeling verbied Anna Bert uit", None, "XXXX"),  # Anna and Bert were not kept apart
    ("/exporteer", None, "XXRX"),
    ("/exporteer trf", None, "XXRX"),
    ("/exporteer html", None, "XXRX"),
    ("/kruistabel", None, "RRRR"),
    ("/kalender", None, "RRRR"),
    ("/verloop", None, "RRRR"),
    ("/kaart", None, "RRXX"),
    ("/mijn", None, "RRXX"),  # a member's own season, privately
    ("/mijn meldingen herinneringen uit", None, "WWXX"),  # issue 34 §2: one kind of private message
    ("/mijn aanwezig afgemeld", None, "WWXX"),  # absent unless signed on: the member's own
    ("/mijn kalender", None, "XXXX"),  # the club has no website here: no feed address
    ("/kalender mijn", None, "RRXX"),  # a member's own calendar file
    ("/speelavond tijd=19:30-23:30", None, "XXWX"),  # the club's playing evening: the director's
    ("/mijn meldingen aan", None, "WWXX"),  # a member's own choice  # a member's own card; the director and a stranger play in no season
    ("/kaart Anna", None, "RRRR"),
    ("/waarom punten", None, "RRXX"),  # the asker's own score explained; the director and a stranger play in no season
    ("/waarom punten Anna", None, "RRRR"),
    ("/waarom indeling", None, "RRXX"),  # why the asker got this opponent, colour and board
    ("/waarom indeling Anna", None, "RRRR"),
    ("/importeer start=2026-12-10 naam=Import toch", (REPO / "examples" / "season.json").read_bytes(), "XXWX"),
    ("/taal en", None, "XXWX"),
    ("/kanaal elders", None, "XXWX"),
    ("/website", None, "RRRR"),  # the club's address (or that it has none)
    ("/website aan", None, "XXWX"),
    # which chat account is which member: only the director says (a display name never does)
    ("/koppel Eva", None, "XXWX"),  # a one-time code for Eva
    ("/koppel Eva <@user:vreemde>", None, "XXWX"),
    ("/koppel Eva <@user:anna>", None, "XXXX"),  # that account is Anna already
    ("/koppel lichess", None, "XXXX"),  # a member's own login link: online play is off here (no lichess token)
    ("/speler Anna lichess=AnnaDV", None, "XXWX"),  # a lichess account set by hand: the director's
    ("/leden importeer", b"Gijs;1500\nEva;1650\n", "XXWX"),  # a member list in one step
    ("/leden importeer\nGijs 1500", None, "XXWX"),  # pasted under the command
    ("/speler Anna knsb=8400001 fide=1000330", None, "XXWX"),  # federation identities: the director's
    ("/speler Anna", None, "XXRX"),  # shown to the director only
    ("/speler Anna egd=123", None, "XXXX"),  # an EGD PIN has 8 digits
    ("/ratings importeer datum=2026-11-01", b"Relatienummer;Naam;Rating\n8400001;Anna;2250\n", "XXWX"),  # a proposal for Anna
    ("/ratings importeer", b"\x00\x01", "XXXX"),  # no text
    ("/ratings bevestig", None, "XXXX"),  # nothing proposed
    ("/club federatie=NED arbiter=\"Jan Scheids\"", None, "XXWX"),  # the TRF file's header
    ("/club", None, "XXRX"),
    ("/aanmelden ABCD-EFGH", None, "XXXX"),  # a code nobody handed out
    # go: a member's own games; the settings are the director's
    ("/go uitdagen Carla 9", None, "WWXX"),
    ("/go accepteren", None, "WXXX"),
    ("/go weigeren", None, "WXXX"),
    ("/go lijst", None, "RRXX"),
    ("/go sgf #1", None, "RRRR"),  # any game of the club by number, like /stand: the chat sees the games
    ("/go bedenktijd 3d", None, "XXWX"),
    ("/go instellingen", None, "RRRR"),
    ("/zet E5 Bert", None, "WXXX"),
    ("/pas Bert", None, "WXXX"),
    ("/opgeven Bert", None, "WXXX"),
    ("/dood E5", None, "XXXX"),  # no game is being counted
    ("/akkoord", None, "XXXX"),
    ("/afwijzen", None, "XXXX"),
    ("/bord #1", None, "RRRR"),  # docs/go.md: "or of any game of the club by number"
    # NK: anyone in the chat may register (and so joins, like /aanmelden); the director admits and pairs
    ("/nk inschrijven 1600", None, "WWWW"),
    ("/nk inschrijven Eva 1600", None, "XXWX"),
    ("/nk goedkeuren Anna", None, "XXWX"),
    ("/nk ronde", None, "XXWX"),
    ("/nk terugtrekken Bert", None, "XXWX"),
    ("/nk uitslag Bert dubbel", None, "XXXX"),  # no round paired yet
    ("/nk stand", None, "RRRR"),
    ("/nk indeling", None, "XXXX"),  # no round yet
    ("/nk uitslag gewonnen", None, "XXXX"),
    ("/nk bevestig", None, "XXXX"),
    ("/nk egf", None, "XXXX"),
    ("/nk nieuw Ander", None, "XXXX"),  # one tournament at a time
    # grades: anyone may look; only the director enters
    ("/graad Anna", None, "RRRR"),
    ("/graden", None, "XXRX"),
    ("/graadzetten Anna 2k", None, "XXWX"),
    ("/partij Anna datum=2026-11-01 tegen=Bert uitslag=gewonnen minuten=90 byoyomi=30", None, "XXWX"),
    ("/partijenimport", GRADES_CSV.read_bytes() if GRADES_CSV.exists() else None, "XXWX"),
    ("/speeltempo seizoen=Seizoen-Een minuten=90 byoyomi=30", None, "XXWX"),
    # next season's groups: anyone may look; applying is the director's, to a new season not yet begun
    ("/groepen", None, "RRRR"),
    ("/groepen toepassen", None, "XXXX"),  # the season is being played (tests/bot/keizer/test_groups.py applies)
    # data safety
    ("/backup", None, "XXRX"),
]  # fmt: skip


def _owned_rows(path: Path) -> dict[int, dict[str, set[tuple]]]:
    """For each club, the rows that belong to it: found by following every foreign key up to ``clubs``."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
        fks = {t: [(r[3], r[2], r[4]) for r in conn.execute(f"PRAGMA foreign_key_list({t})")] for t in tables}
        rows = {t: conn.execute(f"SELECT * FROM {t}").fetchall() for t in tables}
    finally:
        conn.close()
    links = {t: [(columns[t].index(column), parent, columns[parent].index(to)) for column, parent, to in fks[t]] for t in tables}
    result: dict[int, dict[str, set[tuple]]] = {}
    for (club_id,) in {(r[0],) for r in rows["clubs"]}:
        owned: dict[str, set[tuple]] = {"clubs": {r for r in rows["clubs"] if r[0] == club_id}}
        keys: dict[tuple[str, int], set] = {}  # (table, column): the values in that column of its owned rows

        def owned_values(table: str, index: int) -> set:
            if (table, index) not in keys:
                keys[(table, index)] = {r[index] for r in owned[table]}
            return keys[(table, index)]

        for _ in range(len(tables)):  # passes, each following the keys one step further (a row once owned stays)
            grew = False
            for table in tables:
                for row in rows[table]:
                    if row in owned.get(table, ()):
                        continue
                    for column, parent, index in links[table]:
                        value = row[column]
                        if value is None or parent not in owned:
                            continue
                        if value in owned_values(parent, index):
                            owned.setdefault(table, set()).add(row)
                            for (t, i), values in keys.items():  # the new row's keys, for the rows after it
                                if t == table:
                                    values.add(row[i])
                            grew = True
                            break
            if not grew:  # nothing new: another pass would find nothing either
                break
        result[club_id] = owned
    return result


_template_rows: dict[Path, tuple[object, dict[int, dict[str, set[tuple]]]]] = {}


def _rows_of_template(template: Path, copy: Path) -> tuple[object, dict[int, dict[str, set[tuple]]]]:
    """The dump and the clubs' rows of a fresh copy of the template: the same for every test, read once."""
    if template not in _template_rows:
        _template_rows[template] = (dump(copy), _owned_rows(copy))
    return _template_rows[template]


async def _run(template: Path, tmp_path: Path, who: Actor, text: str, attachment: bytes | None):
    path = tmp_path / "club.sqlite3"
    _copy(template, path)
    before, owned_before = _rows_of_template(template, path)
    store = await Store.open(path)
    try:
        reply = await make_core(store, _config(path), ShiftedClock(PAIRED)).handle(who, text, attachment)
    finally:
        await store.close()
    after = dump(path)
    # a database whose every row is as it was owns the same rows: followed again only after a change
    return reply, before, after, owned_before, owned_before if after == before else _owned_rows(path)


@functools.cache
def _club_ids(path: Path) -> dict[str, int]:
    """The clubs' ids in the template (which no test changes), read once."""
    conn = sqlite3.connect(path)
    try:
        return {ext: cid for cid, ext in conn.execute("SELECT id, external_id FROM clubs")}
    finally:
        conn.close()


def test_every_command_has_a_row() -> None:
    probe = make_core(None, None, None)  # type: ignore[arg-type]  # building Core touches no store
    covered = {line.split()[0][1:] for line, _, _ in TABLE}
    assert set(probe.registry.commands) - covered == set()
    assert set(probe.registry.aliases.values()) <= set(probe.registry.commands)


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize(("text", "attachment", "expected"), TABLE, ids=[row[0][:40] for row in TABLE])
async def test_rights(template: Path, tmp_path: Path, role: str, text: str, attachment: bytes | None, expected: str) -> None:
    want = expected[list(ROLES).index(role)]
    reply, before, after, owned_before, owned_after = await _run(template, tmp_path, ROLES[role], text, attachment)
    got = ("W" if after != before else "R") if reply.ok else "X"
    assert got == want, f"{text!r} by {role}: expected {want}, got {got}: {reply.text[:200]}"
    if not reply.ok:
        assert after == before
    clubs = _club_ids(template)
    club2 = clubs["club-2"]
    assert owned_after[club2] == owned_before[club2], f"{text!r} by {role} in club 1 changed club 2"


@pytest.mark.parametrize(("text", "attachment"), [(row[0], row[1]) for row in TABLE], ids=[row[0][:40] for row in TABLE])
async def test_another_clubs_director_never_sees_or_changes_this_club(
    template: Path, tmp_path: Path, text: str, attachment: bytes | None
) -> None:
    reply, before, after, owned_before, owned_after = await _run(template, tmp_path, OTHER_DIRECTOR, text, attachment)
    club1 = _club_ids(template)["club-1"]
    assert owned_after[club1] == owned_before[club1], f"{text!r} by club 2's director changed club 1"
    given = text + (attachment or b"").decode("utf-8", "replace")  # what club 2 itself typed or sent
    seen = [w for w in CLUB1_WORDS if w in reply.text and w not in given]
    assert not seen, f"{text!r} by club 2's director shows club 1's {seen}: {reply.text[:300]}"
    if reply.attachment is not None:
        content = reply.attachment[1]
        leaked = [w for w in CLUB1_WORDS if w.encode() in content and w not in given]
        assert not leaked, f"{text!r}: the file handed to club 2 holds club 1's {leaked}"
    for club_id, owned in owned_after.items():  # no row belongs to two clubs at once
        for other_id, other in owned_after.items():
            if club_id < other_id:
                for table in set(owned) & set(other):
                    assert not (owned[table] & other[table]), f"{text!r}: a row of {table} belongs to both clubs"


async def test_a_refusal_names_the_command_as_it_was_typed(tmp_path: Path) -> None:
    """A member of an English club typing ``/grades`` was told "/graden is for the tournament director
    only" (found in a console month): the refusal names the command as typed, in either language."""
    base = load_config(Path(__file__).resolve().parents[2] / "config.example.toml", env={})
    config = Config(**{**base.__dict__, "db_path": tmp_path / "club.sqlite3"})
    store = await Store.open(config.db_path)
    try:
        core = make_core(store, config, ShiftedClock(START))
        director, anna = actor("Leider", director=True), actor("Anna")
        assert (await core.handle(director, "/taal en")).ok
        for typed in ("grades", "graden", "publish", "publiceer", "player", "speler"):
            reply = await core.handle(anna, f"/{typed} alle")
            assert not reply.ok and reply.text == f"/{typed} is for the tournament director only.", reply.text
    finally:
        await store.close()
