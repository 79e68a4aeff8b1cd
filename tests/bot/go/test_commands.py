"""Go in the chat through the commands layer on a real store: challenges, moves and every refusal
(which changes nothing), passes, marking and agreement, handicap, the SGF, competition pairings, and the
clock (reminders and losses on time, with the clock moved)."""

from __future__ import annotations

from tests.paths import REPO

import io
import json
import sqlite3
from datetime import datetime, timedelta, timezone

from PIL import Image

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.go.clock import GoSchedule
from bot.core.i18n import catalogue
from engine.go.sgf import read_sgf
from tests.bot.conftest import DIRECTOR, actor, link, refused

ANNA, BERT, CARLA = actor("Anna"), actor("Bert"), actor("Carla")


async def ok(commands: Core, who, text: str):
    reply = await commands.handle(who, text)
    assert reply.ok, f"{text!r} was refused: {reply.text}"
    return reply


async def members(commands: Core, *who) -> None:
    for a in who:
        await ok(commands, a, "/aanmelden")


async def start_game(commands: Core, size: int = 9, extra: str = "") -> None:
    await members(commands, ANNA, BERT)
    await ok(commands, ANNA, f"/go uitdagen @Bert {size} {extra}".strip())
    await ok(commands, BERT, "/go accepteren")


async def pair_anna_and_bert(commands: Core, clock: ShiftedClock) -> None:
    """A Keizer season whose round 1, published, pairs Anna and Bert."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=3")
    await ok(commands, DIRECTOR, "/speler Anna 2000")
    await ok(commands, DIRECTOR, "/speler Bert 1900")
    await link(commands, ANNA, BERT)
    await members(commands, ANNA, BERT)
    clock.set(datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")


def row(config, game_id: int = 1) -> sqlite3.Row:
    db = sqlite3.connect(config.db_path)
    db.row_factory = sqlite3.Row
    return db.execute("SELECT * FROM go_games WHERE id = ?", (game_id,)).fetchone()


def test_every_engine_refusal_and_phase_has_a_message() -> None:
    keys = catalogue("nl").keys()
    for reason in ("occupied", "suicide", "ko", "off_board", "bad_coordinate", "not_your_turn", "game_over",
                   "not_a_stone", "place_handicap", "bad_size", "bad_record"):  # fmt: skip
        assert f"go_error_{reason}" in keys
    for phase in ("handicap", "play", "marking", "review", "over"):
        assert f"go_error_phase_{phase}" in keys


async def test_challenge_accept_and_a_move_with_its_picture(commands: Core, config) -> None:
    await members(commands, ANNA, BERT)
    reply = await ok(commands, ANNA, "/go uitdagen @Bert 9")
    assert "Anna daagt Bert uit" in reply.text and "9x9" in reply.text and "komi 3.5" in reply.text
    assert [b.command.rsplit(" ~", 1)[0] for b in reply.buttons] == ["/go accepteren #1", "/go weigeren #1"]
    assert all(b.command.rsplit(" ~", 1)[1].isdigit() for b in reply.buttons)  # the challenged player's buttons
    await refused(commands, ANNA, "/go accepteren", config)  # only the one challenged accepts
    await refused(commands, ANNA, "/zet E5", config)  # not started yet
    reply = await ok(commands, BERT, "/go accepteren")
    assert "Anna (zwart) is aan zet" in reply.text
    reply = await ok(commands, ANNA, "/zet e5")
    assert reply.lines[0] == "Anna (zwart) speelt E5."
    image = Image.open(io.BytesIO(reply.image))
    assert image.format == "PNG" and image.width > 300
    assert "(X)" in reply.extra["board_text"]
    assert row(config)["record"] == "B E5\n"


async def test_refusals_are_clear_and_change_nothing(commands: Core, config) -> None:
    await start_game(commands)
    await ok(commands, ANNA, "/zet E5")
    assert "Bert is aan zet" in await refused(commands, ANNA, "/zet D4", config)  # wrong turn
    assert "E5" in await refused(commands, BERT, "/zet E5", config)  # occupied
    assert "buiten het bord" in await refused(commands, BERT, "/zet K10", config)  # off the 9x9 board
    assert "geen I" in await refused(commands, BERT, "/zet I3", config)
    assert "/aanmelden" in await refused(commands, CARLA, "/zet D4", config)  # not a member at all
    await refused(commands, BERT, "/zet", config)
    await refused(commands, BERT, "/dood D4", config)  # no marking before two passes
    await refused(commands, BERT, "/akkoord", config)
    await refused(commands, BERT, "/go uitdagen @Bert", config)  # oneself
    await refused(commands, BERT, "/go uitdagen @Niemand", config)
    # a board size no one plays on is said so, not read as part of the name (found in a console month)
    assert "19x19, 13x13 of 9x9" in await refused(commands, BERT, "/go uitdagen @Anna 7 vrij", config)
    await refused(commands, BERT, "/go uitdagen @Anna voorgift 12", config)
    await refused(commands, ANNA, "/go bedenktijd 3d", config)  # a director's setting


async def test_suicide_and_ko_are_refused(commands: Core, config) -> None:
    await start_game(commands)
    # black builds an eye at A1 (B1, A2 black); white may not play A1
    for who, move in ((ANNA, "B1"), (BERT, "J9"), (ANNA, "A2"), (BERT, "J8")):
        await ok(commands, who, f"/zet {move}")
    await ok(commands, ANNA, "/pas")
    assert "zelfmoord" in await refused(commands, BERT, "/zet A1", config)
    # a ko around E5/F5 (as in the engine tests), then black takes and white may not take back at once
    for who, move in ((BERT, "E5"), (ANNA, "D5"), (BERT, "F6"), (ANNA, "E6"), (BERT, "F4"), (ANNA, "E4"),
                      (BERT, "G5"), (ANNA, "F5")):  # fmt: skip
        await ok(commands, who, f"/zet {move}")
    assert "(ko)" in await refused(commands, BERT, "/zet E5", config)
    reply = await ok(commands, BERT, "/zet A9")
    await ok(commands, ANNA, "/zet B9")
    reply = await ok(commands, BERT, "/zet E5")  # later it is allowed
    assert reply.lines[0] == "Bert (wit) speelt E5 en slaat 1 steen."


async def test_passes_marking_rejection_and_agreement_end_the_game(commands: Core, config) -> None:
    await start_game(commands)
    await ok(commands, ANNA, "/zet E5")
    await ok(commands, BERT, "/zet D4")
    await ok(commands, ANNA, "/pas")
    reply = await ok(commands, BERT, "/pas")
    assert "Anna markeert nu de dode stenen" in reply.text
    assert [b.command.rsplit(" ~", 1)[0] for b in reply.buttons] == ["/dood klaar #1"]
    await refused(commands, BERT, "/dood D4", config)  # the player to move (Anna) marks
    await refused(commands, ANNA, "/zet C3", config)
    reply = await ok(commands, ANNA, "/dood D4")
    # white's D4 dead: black's area is the whole board but E5 = 80 points, minus komi 3.5 = 76.5;
    # white: no territory, 1 dead stone = -1
    assert "Zwart: 76.5 = 80 gebied - 0 geslagen - 0 dood - komi 3.5" in reply.text
    assert "Wit: -1 = 0 gebied - 0 geslagen - 1 dood" in reply.text
    reply = await ok(commands, ANNA, "/dood klaar")
    assert [b.command.rsplit(" ~", 1)[0] for b in reply.buttons] == ["/akkoord #1", "/afwijzen #1"]
    await refused(commands, ANNA, "/akkoord", config)  # the opponent decides
    reply = await ok(commands, BERT, "/afwijzen")
    assert "Anna (zwart) is aan zet" in reply.text
    await ok(commands, ANNA, "/zet C3")
    await ok(commands, BERT, "/pas")
    await ok(commands, ANNA, "/pas")
    await ok(commands, BERT, "/dood klaar")  # now Bert marks (he was to move after the passes): nothing dead
    reply = await ok(commands, ANNA, "/akkoord")
    # nothing dead, every empty point touches both colours: 0 - 3.5 against 0: white wins by 3.5
    assert "Bert (wit) wint, op punten (W+3.5)" in reply.text
    name, content = reply.attachment
    assert name.endswith(".sgf")
    sgf = read_sgf(content.decode())
    assert sgf.result == "W+3.5" and sgf.black == "Anna" and sgf.white == "Bert"
    moves = [a.text(9) for a in sgf.actions if a.kind in ("play", "pass")]
    assert moves == ["B E5", "W D4", "B pass", "W pass", "B C3", "W pass", "B pass"]
    r = row(config)
    assert (r["status"], r["result"], r["handicap"]) == ("finished", "W+3.5", 0)
    assert r["winner_id"] == r["white_id"] and r["finished_at"] is not None
    await refused(commands, ANNA, "/zet D5", config)  # the game is over


async def test_resign_and_the_sgf_afterwards(commands: Core, config) -> None:
    await start_game(commands, 13)
    await ok(commands, ANNA, "/zet D4")
    reply = await ok(commands, ANNA, "/opgeven")  # also when it is not your turn
    assert "Bert (wit) wint, door opgave (W+R)" in reply.text
    reply = await ok(commands, BERT, "/go sgf #1")
    assert b"RE[W+R]" in reply.attachment[1] and b"SZ[13]" in reply.attachment[1]


async def test_handicap_game(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1500")
    await ok(commands, DIRECTOR, "/speler Bert 1900")
    await link(commands, ANNA, BERT)
    await members(commands, ANNA, BERT)
    await ok(commands, BERT, "/go uitdagen Anna voorgift 4")  # the weaker player gets black
    reply = await ok(commands, ANNA, "/go accepteren")
    assert "Anna plaatst eerst 4 voorgiftstenen" in reply.text
    assert reply.buttons[0].command.startswith("/zet standaard #1 ~")  # black's button: black places the stones
    r = row(config)
    assert (r["handicap"], r["komi"], r["size"]) == (4, "1/2", 19)
    await refused(commands, ANNA, "/zet D4", config)  # a single stone is not the handicap
    await refused(commands, ANNA, "/zet D4 D4 Q16 Q4", config)
    await ok(commands, ANNA, "/zet standaard")
    assert row(config)["record"] == "B handicap Q16 D4 Q4 D16\n"
    await ok(commands, BERT, "/zet C3")


async def test_free_handicap_placement(commands: Core, config) -> None:
    await start_game(commands, 9, "voorgift 2 wit")  # Anna takes white: Bert places the stones
    await ok(commands, BERT, "/zet C3 G7")
    await ok(commands, ANNA, "/zet E5")


async def test_several_games_are_told_apart(commands: Core, config) -> None:
    await members(commands, ANNA, BERT, CARLA)
    await ok(commands, ANNA, "/go uitdagen Bert 9")
    await ok(commands, ANNA, "/go uitdagen Carla 9")
    await refused(commands, ANNA, "/go uitdagen Carla 13", config)  # one open challenge per pair
    await ok(commands, BERT, "/go accepteren")
    await ok(commands, CARLA, "/go accepteren Anna")
    await ok(commands, ANNA, "/zet E5 Bert")
    await ok(commands, ANNA, "/zet E5")  # the only game where it is Anna's turn
    await ok(commands, BERT, "/zet D4")
    await ok(commands, CARLA, "/zet D4")
    text = await refused(commands, ANNA, "/zet C3", config)  # Anna's turn in both games now
    assert "#1 Bert" in text and "#2 Carla" in text
    await ok(commands, ANNA, "/zet C3 #2")
    listing = (await ok(commands, ANNA, "/go lijst")).text
    assert "#1 tegen Bert" in listing and "jij bent aan de beurt" in listing


async def test_a_competition_pairing_played_as_go_enters_the_round(commands: Core, clock: ShiftedClock, config) -> None:
    await pair_anna_and_bert(commands, clock)
    db = sqlite3.connect(config.db_path)
    white_id, black_id = db.execute("SELECT white_id, black_id FROM games").fetchone()
    await refused(commands, ANNA, "/go uitdagen Bert zwart", config)  # colours follow the pairing
    reply = await ok(commands, ANNA, "/go uitdagen Bert 9")
    assert "ronde 1" in reply.text
    await ok(commands, BERT, "/go accepteren")
    r = row(config)
    assert (r["black_id"], r["white_id"]) == (black_id, white_id)
    black = ANNA if black_id == db.execute("SELECT id FROM members WHERE name = 'Anna'").fetchone()[0] else BERT
    white = BERT if black is ANNA else ANNA
    await ok(commands, black, "/zet E5")
    reply = await ok(commands, white, "/opgeven")
    assert "1-0" not in reply.text and "0-1" in reply.text  # black won: white's score first
    assert db.execute("SELECT result FROM games").fetchone()[0] == "0-1"
    kinds = [k for (k,) in db.execute("SELECT kind FROM announcements")]
    assert "standings" in kinds  # the round is complete: the standings are announced


async def test_director_settings(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/go bedenktijd 3d")
    await ok(commands, DIRECTOR, "/go herinnering 12u")
    reply = await ok(commands, DIRECTOR, "/go voorgiftkomi 0")
    assert "herinnering na 12 uur" in reply.text and "bedenktijd per zet 3 dagen" in reply.text
    assert "komi bij voorgift 0" in reply.text
    await refused(commands, DIRECTOR, "/go bedenktijd soms", config)
    # a duration beyond a year is said to be too long, not "no duration" (found in a console month)
    assert "te lang (of te kort)" in await refused(commands, DIRECTOR, "/go herinnering 9999999u", config)
    await refused(commands, DIRECTOR, "/go voorgiftkomi 0.3", config)
    await ok(commands, DIRECTOR, "/go bedenktijd uit")
    assert "bedenktijd per zet uit" in (await ok(commands, DIRECTOR, "/go instellingen")).text


async def test_reminder_once_per_turn_then_loss_on_time(commands: Core, clock: ShiftedClock, config) -> None:
    await ok(commands, DIRECTOR, "/go herinnering 24u")
    await ok(commands, DIRECTOR, "/go bedenktijd 3d")
    await start_game(commands)
    started = datetime.fromisoformat(row(config)["turn_started_at"])
    assert await GoSchedule().next_due_moment(commands) == started + timedelta(hours=24)
    await GoSchedule().run_due(commands, started + timedelta(hours=23))
    db = sqlite3.connect(config.db_path)  # the director's notices of the newcomers (issue 44) left out below
    assert db.execute("SELECT COUNT(*) FROM announcements WHERE kind NOT LIKE 'new_member:%'").fetchone()[0] == 0
    await GoSchedule().run_due(commands, started + timedelta(hours=25))
    await GoSchedule().run_due(commands, started + timedelta(hours=26))  # once per turn
    bodies = [b for (b,) in db.execute("SELECT body FROM announcements WHERE kind NOT LIKE 'new_member:%'")]
    assert len(bodies) == 1 and bodies[0].startswith("Anna, je bent aan zet in je go-partij #1 tegen Bert")
    clock.set(started + timedelta(hours=30))
    await ok(commands, ANNA, "/zet E5")  # Bert's turn starts now
    await GoSchedule().run_due(commands, started + timedelta(hours=30 + 71))
    assert row(config)["status"] == "playing"
    await GoSchedule().run_due(commands, started + timedelta(hours=30 + 72))
    r = row(config)
    assert (r["status"], r["result"]) == ("finished", "B+T")
    bodies = [b for (b,) in db.execute("SELECT body FROM announcements WHERE kind NOT LIKE 'new_member:%'")]
    assert any("Bert heeft de maximale bedenktijd overschreden" in b for b in bodies)
    assert await GoSchedule().next_due_moment(commands) is None


async def test_the_go_table_is_documented(config) -> None:
    doc = (REPO / "docs" / "go.md").read_text(encoding="utf-8")
    for column in ("handicap", "result", "winner_id", "black_id", "white_id", "finished_at", "keizer_game_id"):
        assert f"`{column}`" in doc
    json.loads((REPO / "bot" / "go" / "i18n" / "en" / "go.json").read_text())


async def test_a_second_challenge_for_a_pairing_in_play_says_so(commands: Core, clock: ShiftedClock, config) -> None:
    """Issue 31 §3: while the pairing's go game runs, challenging the same opponent again is refused with
    the game named, instead of quietly starting a friendly game; vrij still starts one."""
    await pair_anna_and_bert(commands, clock)
    await ok(commands, ANNA, "/go uitdagen Bert 9")
    await ok(commands, BERT, "/go accepteren")
    text = await refused(commands, ANNA, "/go uitdagen Bert 13", config)
    assert "#1" in text and "ronde 1" in text and "vrij" in text
    await ok(commands, ANNA, "/go uitdagen Bert 13 vrij")


async def test_the_sgf_of_a_competition_game(commands: Core, clock: ShiftedClock, config) -> None:
    """Issue 31 §3: the record names the rules, the competition and its round, and the days in the
    club's time zone (a move at 00:30 in Amsterdam is that day, not the UTC day before)."""
    await pair_anna_and_bert(commands, clock)
    clock.set(datetime(2026, 12, 3, 23, 30, tzinfo=timezone.utc))  # 00:30 on 4 December in Amsterdam
    await ok(commands, ANNA, "/go uitdagen Bert 9")
    await ok(commands, BERT, "/go accepteren")
    await ok(commands, ANNA, "/zet E5")  # DT lists the days played (issue 45 §2): this move's day
    clock.set(datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc))
    await ok(commands, ANNA, "/opgeven")
    sgf = (await ok(commands, BERT, "/go sgf #1")).attachment[1].decode()
    for part in ("RU[Japanese]", "EV[S]", "RO[1]", "DT[2026-12-04,05]"):
        assert part in sgf, part


async def test_one_handicap_stone_is_refused(commands: Core, config) -> None:
    await members(commands, ANNA, BERT)
    text = await refused(commands, ANNA, "/go uitdagen Bert 9 voorgift 1", config)
    assert "2 tot en met 9" in text


async def test_a_mark_in_an_open_area_marks_only_the_group_and_says_why(commands: Core, config) -> None:
    # tests/engine/go/test_go_scoring.py OPEN_AREA: white's A3 and A1-B1-B2 are dead in black's corner, but
    # A4 is open and runs into white's living wall and territory
    await start_game(commands)
    black = ["B4", "C4", "D4", "E4", "F4", "G4", "H4", "J4", "B3", "C3", "C2", "C1"]
    white = ["A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "J5", "A3", "B2", "A1", "B1"]
    for b, w in zip(black + ["pas"], white):
        await ok(commands, ANNA, "/pas" if b == "pas" else f"/zet {b}")
        await ok(commands, BERT, f"/zet {w}")
    await ok(commands, ANNA, "/pas")
    await ok(commands, BERT, "/pas")
    reply = await ok(commands, ANNA, "/dood A3")
    assert "Anna heeft de markering aangepast: 4 stenen gemarkeerd als dood." in reply.text
    assert ("A3: alleen de groep van deze steen is gemarkeerd (4 stenen): het gebied eromheen loopt via open "
            "punten door naar stenen van die kleur met eigen gebied.") in reply.text
    reply = await ok(commands, ANNA, "/dood B1")  # marking a dead stone again brings back its chain only
    assert "1 steen gemarkeerd als dood" in reply.text and "alleen de groep" not in reply.text
