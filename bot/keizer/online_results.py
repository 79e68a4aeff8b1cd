"""The results of a Keizer round played on lichess (issue 43 §3): the competition's hook for the core's follower
(``bot/core/online/follow.py``, ``registry.online_results``), called in the transaction that settles a row.

- A result (mate, resign, out of time, stalemate, a draw) is entered as a confirmed result, exactly as a
  confirmed ``/uitslag``: ``set_result`` and ``after_result`` (the no-show rule counted again; the round's
  standings to the channel once its last result is in). A game that has a result already (a director's
  ``/uitslag``, or the two players' report and confirmation) keeps it: never written over (``kept``); the
  directors are told when lichess's differs. A player's report not yet confirmed gives way to lichess's
  result (the directors told when they differ).
- Held (timeout, cheat, aborted, unknownFinish), refused (not the game that was made) or nobody came (the
  challenge expired, noStart): each director is told privately, once per board, in the club's language, with
  the command that settles it; nothing is entered, so the standings say they are provisional meanwhile.
- A game no longer paired as the row says (a director changed the board): nothing entered, the director told.
"""

from __future__ import annotations

from datetime import datetime

from bot.core.commands.command_line import quote_word
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.online.follow import HELD_, KEPT, NOSHOW, REFUSED, Ending
from bot.core.online.games_store import OnlineGame
from bot.keizer.formatting import for_competition, rapid_word, shown_result
from bot.keizer.lookups import keizer_store
from bot.keizer.online_round import _round_and_club, _tell_directors
from bot.keizer.online_why import online_why
from bot.keizer.results import after_result

GONE = "gone"


class KeizerResults:
    """The Keizer competition's hook for the follower (``bot/core/online/follow.py`` ``OnlineResults``)."""

    async def settle(self, core: Core, game: OnlineGame, ending: Ending, now: datetime) -> str:
        found = await _round_and_club(core, game.club_id, game.round_ref)
        pairing = await keizer_store(core).game(game.game_ref) if game.game_ref is not None else None
        if found is None or pairing is None:
            return GONE
        club, season, row, names = found
        lang = club.language
        white, black = names.get(game.white_id, "?"), names.get(game.black_id, "?")
        values = dict(round=row.number, board=game.board, white=white, black=black, url=game.url or "",
                      player=quote_word(white), rapid=rapid_word(season.kind))  # fmt: skip

        async def tell(key: str, **more: object) -> None:
            body = for_competition(lang, season.kind, t(lang, key, **{**values, **more}))
            await _tell_directors(core, club, row, f"online-result:{game.id}", body, now)

        if (pairing.white_id, pairing.black_id) != (game.white_id, game.black_id):
            await tell("online_result_gone", result=ending.result or ending.reason)
            return GONE
        if ending.kind == REFUSED:
            await tell("online_result_refused", why=online_why(lang, ending.reason))
        elif ending.kind == HELD_ and ending.game is not None and ending.game.winner in ("white", "black"):
            claimed = "1-0" if ending.game.winner == "white" else "0-1"  # what lichess gave: offered, not entered
            await tell("online_result_held_claimed", why=online_why(lang, ending.reason), result=claimed,
                       winner=white if ending.game.winner == "white" else black)  # fmt: skip
        elif ending.kind == HELD_:
            await tell("online_result_held", why=online_why(lang, ending.reason))
        elif ending.kind == NOSHOW and ending.reason == "expired":
            await tell("online_noshow_expired", white_player=quote_word(white), black_player=quote_word(black))
        elif ending.kind == NOSHOW:
            absent = names.get(ending.absent[0], "?")
            await tell("online_noshow_nostart", name=absent, absent=quote_word(absent))
        elif pairing.result is not None:
            if pairing.result != ending.result:
                await tell("online_result_kept", result=shown_result(ending.result), entered=shown_result(pairing.result))
            return KEPT
        else:
            assert ending.result is not None
            if pairing.reported_result not in (None, ending.result):  # a player's report lichess contradicts
                await tell("online_result_report_differs", result=shown_result(ending.result), reported=shown_result(pairing.reported_result),
                           name=names.get(pairing.reported_by or 0, "?"))  # fmt: skip
            await keizer_store(core).set_result(pairing.id, ending.result, now)
            await after_result(core, core.context_at(club, now), season, row)
        return ending.outcome
