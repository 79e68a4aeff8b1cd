"""examples/online-month.txt, a club's first two Thursdays on lichess, run as a director runs it: the real
console bot against the fake lichess started as a program of its own (tests/bot/online/online_month.py,
issue 43 §5). Every reply is read here: the challenges' links at 18:00, results that come in with nobody
typing, the held and the expired board told to the director, the standings announced once, a game the
players started themselves with reversed colours refused; nothing is an internal error and the only refusal is none."""

from __future__ import annotations

import re

from tests.bot.console_script import reply_to as console_reply
from tests.bot.online.online_month import run
from tests.paths import REPO


def test_an_online_clubs_first_two_thursdays_in_the_console() -> None:
    text = run((REPO / "examples" / "online-month.txt").read_text(encoding="utf-8"))
    lines = text.splitlines()

    def reply_to(command: str, nth: int = 0) -> list[str]:
        return console_reply(lines, command, nth, typed=("> ", "! "))

    assert "Er ging iets mis" not in text and "Traceback" not in text
    assert [lines[i - 1] for i, line in enumerate(lines) if line.startswith("bot! ")] == ["> /koppel lichess"]  # no website here
    assert "tempo 15+10, onbeoordeeld" in "\n".join(reply_to("/seizoen"))
    # the deadline: the director hears who has no lichess account; 18:00: five boards with a link, one without
    assert any("2 spelers hebben geen lichess-account: Kees Vos, Lotte Peters" in line for line in reply_to("/klok 2026-12-03 17:01"))
    published = reply_to("/klok 2026-12-03 18:01")
    linked = [line for line in published if re.match(r"\[kanaal\] Bord \d: .* lichess: http://127\.0\.0\.1:\d+/\w{8}$", line)]
    assert len(linked) == 5 and "[kanaal] Bord 6: Lotte Peters - Kees Vos" in published
    assert any(line.startswith("bot> Je partij op lichess: http://") and line.endswith("?color=black") for line in reply_to("/mijn"))
    # 20:17: mate, draw and out of time are in with nobody typing; the timeout is held for the director
    held = reply_to("/klok 2026-12-03 20:17")
    assert len(held) == 2 and "niet vanzelf ingevoerd" in held[1] and "(timeout)" in held[1]
    standing = reply_to("/stand")
    assert standing[0] == "bot> Stand 2026-27 na ronde 1 (voorlopig: 2 uitslagen ontbreken)"
    assert "bot>  1  Anna de Vries      49      50      1" in standing and "bot>  5  Carla Smit       23.5      46      1" in standing
    # 23:45: board 5's challenge expired unplayed: a no-show proposed; once all is in, the standings go out once
    assert any("de uitdaging op lichess is verlopen zonder partij" in line for line in reply_to("/klok 2026-12-03 23:45"))
    assert [line for line in lines if line.startswith("[kanaal] Stand 2026-27 na ronde 1")] == ["[kanaal] Stand 2026-27 na ronde 1"]
    assert reply_to("/exporteer pgn 1")[0] == "bot> Ronde 1: 4 partijen van lichess als PGN."
    # round 2: the board that started a game of its own with the colours reversed: nothing while the challenge is
    # open; once it expired, that game is found, not entered, and the director told why (no no-show proposed)
    assert not any("bord 1" in line for line in reply_to("/klok 2026-12-10 21:05"))
    expired = reply_to("/klok 2026-12-10 23:45")
    assert any("bord 1:" in line and "(de kleuren zijn omgedraaid) en is niet ingevoerd" in line for line in expired)
    assert not any("bord 1:" in line and "verlopen zonder partij" in line for line in expired)
    assert "Op lichess: de kleuren zijn omgedraaid." in reply_to("/uitslagen", 2)[1]
