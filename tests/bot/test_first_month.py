"""examples/first-month.txt, a club's first weeks as a director and 21 members live them, run through the
console as the README shows (issue 30): every reply is read here. Nothing is an internal error; the only
refusals are the two the script provokes; the traps of issue 30 stay shut."""

from __future__ import annotations


from bot.config import Config
from tests.bot.console_script import console_lines
from tests.bot.console_script import reply_to as console_reply
from tests.bot.conftest import START
from tests.paths import REPO


def test_the_first_month_in_the_console(config: Config, tmp_path) -> None:
    lines = console_lines(config, (REPO / "examples" / "first-month.txt").read_text(encoding="utf-8"), START)
    text = "\n".join(lines)

    def reply_to(command: str, nth: int = 0) -> list[str]:
        return console_reply(lines, command, nth)

    assert "Er ging iets mis" not in text
    refused = [lines[i - 1] for i, line in enumerate(lines) if line.startswith("bot! ")]
    assert refused == ["> /afmelden", "> /invaller Carla"], refused  # the director is no player; round 2 has no bye
    assert reply_to("/leden importeer examples/club-21.csv") == ["bot> 21 leden ingelezen: 21 nieuw, 0 bijgewerkt, 0 chataccounts gekoppeld."]
    assert "21 spelers doen mee" in reply_to("/seizoen naam=2026-27 start=2026-12-03 rondes=28")[0]
    assert "0 spelers doen mee" in reply_to("/seizoen naam=Rapid start=2026-12-09 rondes=4 soort=rapid")[0]
    assert "[kanaal] Bord 7: Anne-Marie O'Neill - Noor" in lines  # names with apostrophes are names
    # two reports that disagree: the director is told privately, the result stays open
    assert any(line.startswith("[privé wedstrijdleider] Ronde 1, bord 1: Bert Jansen (wit) en Anna de Vries (zwart)") for line in lines)
    assert reply_to("/nietverschenen Roos") == ["bot> Roos is niet verschenen in ronde 1: reglementair verlies (0-0F)."]
    assert reply_to("/stand")[0] == "bot> Stand 2026-27 na ronde 1 (voorlopig: 10 uitslagen ontbreken)"
    assert reply_to("/stand", 1)[0] == "bot> Stand 2026-27 na ronde 1 (voorlopig: 4 uitslagen ontbreken)"
    # at round 2's deadline the director hears of round 1's open results before round 2 is paired
    deadline = lines.index("[privé wedstrijdleider] Afmelden voor ronde 2 van 2026-27 is gesloten. Van eerdere rondes ontbreken nog 4 uitslagen (alles op een rij: /uitslagen):")
    assert deadline < lines.index("[kanaal] Indeling ronde 2 (2026-12-10)")
    assert "[kanaal] Rapid: Indeling ronde 1 (2026-12-09)" in lines
    assert "[kanaal] Indeling ronde 3 (2026-12-17)" in lines and "[kanaal] Vrij (invaller, wel aanwezig zijn): Tess" in lines
