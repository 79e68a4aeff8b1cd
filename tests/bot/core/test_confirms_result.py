"""``Command.confirms_result``: the commands after which a competition game may have its result, which
grades' after-command hook acts on (a promotion announced in the command's transaction) by the flag, never
by the command's name."""

from __future__ import annotations

from bot.systems import build_registry


def test_the_commands_that_can_confirm_a_result_say_so() -> None:
    flagged = {c.name for c in build_registry().commands.values() if c.confirms_result}
    # Keizer: a result entered (the director's is confirmed at once) or confirmed, a no-show's forfeit;
    # the NK's /nk uitslag and /nk bevestig; a go game's end that gives its pairing a result (resigned, the
    # marking accepted). A go move or pass never ends a game (engine/go/game.py: two passes start marking).
    assert flagged == {"uitslag", "bevestig", "nietverschenen", "nk", "opgeven", "akkoord"}

