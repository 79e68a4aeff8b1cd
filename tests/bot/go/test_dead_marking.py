"""Issue 45 §2 in the chat: GNU Go's 13x13 game g13_200004 as the issue describes its final position
(``tests/engine/go/test_go_dead_marking.py``): ``/dood A3`` marked 62 white stones (the dead chain and the
living group of 57 beyond the open A4 and B4) and the count became W -66; it marks the chain of 5."""

from __future__ import annotations

from itertools import zip_longest

from bot.core.commands.dispatch import Core
from engine.go import point_name
from tests.bot.go.test_commands import ANNA, BERT, ok, start_game
from tests.engine.go.test_go_dead_marking import G13_200004


def stones(letters: str) -> list[str]:
    return [point_name(y * 13 + x, 13) for y, row in enumerate(G13_200004) for x, ch in enumerate(row) if ch in letters]


async def test_dood_a3_marks_the_dead_chain_and_the_count_follows(commands: Core) -> None:
    await start_game(commands, 13)
    black, white = stones("Xx"), stones("Oo")
    assert (len(black), len(white)) == (33, 63)
    # no move captures: every chain of the final position has a liberty, so each one on the way has one
    for b, w in zip_longest(black, white):
        await ok(commands, ANNA, f"/zet {b}" if b else "/pas")
        await ok(commands, BERT, f"/zet {w}")
    await ok(commands, ANNA, "/pas")
    await ok(commands, BERT, "/pas")
    reply = await ok(commands, ANNA, "/dood A3")
    assert "Anna heeft de markering aangepast: 5 stenen gemarkeerd als dood." in reply.text
    assert "A3: alleen de groep van deze steen is gemarkeerd (5 stenen)" in reply.text
    assert "Wit: -5 = 0 gebied - 0 geslagen - 5 dood" in reply.text  # H12 still stands in white's area
    await ok(commands, ANNA, "/dood G3")
    reply = await ok(commands, ANNA, "/dood H12")
    # GNU Go's dead stones: black E1-N4 (36) and the eyes A7-A13 (4) - 1 dead - komi 4.5; white 33 - 6
    assert "Zwart: 34.5 = 40 gebied - 0 geslagen - 1 dood - komi 4.5" in reply.text
    assert "Wit: 27 = 33 gebied - 0 geslagen - 6 dood" in reply.text
