"""A whole 9x9 go game played through the console adapter, on a real SQLite file: challenge, moves
with a capture, a refused move, passes, dead stones, the count accepted, the SGF saved."""

from __future__ import annotations

import sqlite3

from bot.config import Config
from engine.go.sgf import read_sgf
from tests.bot.test_console_week import run_script

# Black (Anna) walls off columns A-D with column E, white (Bert) columns F-J with column F... a small,
# quick game: black E1-E9, white F1-F9, then white invades at B5 (dead), and black at H5 (dead).
MOVES = [
    ("Anna", "E9"), ("Bert", "F9"), ("Anna", "E8"), ("Bert", "F8"), ("Anna", "E7"), ("Bert", "F7"),
    ("Anna", "E6"), ("Bert", "F6"), ("Anna", "E5"), ("Bert", "F5"), ("Anna", "E4"), ("Bert", "F4"),
    ("Anna", "E3"), ("Bert", "F3"), ("Anna", "E2"), ("Bert", "F2"), ("Anna", "E1"), ("Bert", "F1"),
    ("Anna", "H5"), ("Bert", "B5"),
]  # fmt: skip


def script() -> str:
    lines = ["/als Anna", "/aanmelden", "/als Bert", "/aanmelden", "/als Anna", "/go uitdagen @Bert 9",
             "/als Bert", "/go accepteren"]  # fmt: skip
    for name, move in MOVES:
        lines += [f"/als {name}", f"/zet {move}"]
    lines += ["/als Anna", "/zet E5",  # occupied: refused
              "/zet B6 #9",  # no such game
              "/pas", "/als Bert", "/pas",
              "/als Anna", "/dood B5 H5", "/dood klaar",
              "/als Bert", "/akkoord", "/bord #1"]  # fmt: skip
    return "\n".join(lines) + "\n"


def test_a_go_game_in_the_console(config: Config) -> None:
    output = run_script(config, script())
    lines = output.splitlines()
    assert "bot> Anna daagt Bert uit voor een partij go (#1) op 9x9, voorgift 0, komi 3.5. Zwart: Anna, wit: Bert. Bert: /go accepteren of /go weigeren." in lines
    assert "bot> Anna (zwart) speelt E9." in lines
    at = lines.index("> /zet E5", lines.index("bot> Bert (wit) speelt B5."))
    assert lines[at + 1] == "bot! Op E5 staat al een steen."
    assert lines[at + 3].startswith("bot! Ik vind geen lopende go-partij")
    # black: columns A-D (36, B5 under white's dead stone included) - 0 captured - 1 dead (H5) - 3.5 = 31.5
    # white: columns G, H, J (27, H5 included) - 0 - 1 dead (B5) = 26: black wins by 5.5
    assert "bot> Zwart: 31.5 = 36 gebied - 0 geslagen - 1 dood - komi 3.5" in lines
    assert "bot> Wit: 26 = 27 gebied - 0 geslagen - 1 dood" in lines
    assert "bot> De partij is afgelopen: Anna (zwart) wint, op punten (B+5.5)." in lines
    saved = [line for line in lines if line.startswith("bot> Bestand opgeslagen:")]
    assert len(saved) == 1
    path = saved[0].split(": ", 1)[1]
    sgf = read_sgf(open(path, encoding="utf-8").read())
    assert sgf.result == "B+5.5" and len([a for a in sgf.actions if a.kind == "play"]) == len(MOVES)
    db = sqlite3.connect(config.db_path)
    assert db.execute("SELECT status, result, handicap FROM go_games").fetchone() == ("finished", "B+5.5", 0)


def test_a_mention_of_a_linked_account_names_its_member(config: Config) -> None:
    """``@Bert`` after ``/koppel Bert Jansen @Bert`` is Bert Jansen, as a chat's mention is (the console
    read "Bert" as a name: found in a console month); an @word that is no account stays a name."""
    lines = ["/speler Bert Jansen 1800", "/koppel Bert Jansen @Bert", "/als Anna", "/aanmelden",
             "/go uitdagen @Bert 9 vrij", "/go uitdagen @Niemand 9 vrij"]  # fmt: skip
    output = run_script(config, "\n".join(lines) + "\n").splitlines()
    assert any(line.startswith("bot> Anna daagt Bert Jansen uit voor een partij go") for line in output), output
    assert 'bot! Speler "Niemand" ken ik niet.' in output
