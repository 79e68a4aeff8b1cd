"""What one system may ask of another's competitions, without importing it.

A competition system (the Keizer competition, the NK) registers a ``CompetitionSource``. Grades asks the
sources for the confirmed games of a club (to score them for promotions) and for a competition by name
(to set its time control); go asks for the unplayed game of a round between two members (to play it in
the chat) and hands the result back when the go game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.core.commands.context import Context
    from bot.core.commands.dispatch import Core


@dataclass(frozen=True)
class Competition:
    kind: str  # the source's kind: "season" (a Keizer season), "nk"
    id: int
    name: str


@dataclass(frozen=True)
class CompetitionGame:
    """A game of a competition round, as other systems see it."""

    kind: str
    competition_id: int
    competition_name: str
    game_id: int
    round_number: int
    board: int
    played_on: str  # the round's date (or moment), ISO text
    white_id: int
    black_id: int
    result: str | None  # "1-0", "0-1", "1/2-1/2" (forfeits are not played games), None: not in yet
    reported: str | None = None  # a player's report awaiting the opponent's confirmation

    @property
    def winner_id(self) -> int | None:
        return {"1-0": self.white_id, "0-1": self.black_id}.get(self.result or "")


class CompetitionSource(Protocol):
    kind: str
    key_prefix: str  # a one-letter prefix that makes a game's key unique across sources ("k00000012")
    chat_play: bool  # its games can be played as go games in the chat

    async def competitions(self, core: "Core", club_id: int) -> list[Competition]:
        """Every competition of the club, finished ones included."""
        ...

    async def find(self, core: "Core", ctx: "Context", name: str | None) -> Competition:
        """The competition of that name, or (None) the running one; a refusal (``UserError``) if none."""
        ...

    async def played_games(self, core: "Core", club_id: int) -> list[CompetitionGame]:
        """Every game of the club's competitions that was played to a result (no forfeits)."""
        ...

    async def open_game_between(self, core: "Core", club_id: int, a: int, b: int) -> CompetitionGame | None:
        """The unplayed game between members ``a`` and ``b`` in the current round, if any."""
        ...

    async def game(self, core: "Core", game_id: int) -> CompetitionGame | None: ...

    async def record_result(self, core: "Core", ctx: "Context", game_id: int, result: str) -> None:
        """Enter a game's result as a director would (and what follows: the round's standings)."""
        ...


async def playing_in_chat(core: "Core", kind: str, game_id: int) -> int | None:
    """The number of the chat game (go in the chat) in which the competition game ``game_id`` of a source
    of ``kind`` is being played now, or None: while it runs, that game decides the result."""
    for playing in core.registry.chat_playing:
        number = await playing(core, kind, game_id)
        if number is not None:
            return number
    return None
