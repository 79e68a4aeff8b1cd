"""What lichess answers, as the bot reads it: typed results of ``Lichess`` (``lichess.py``) and its typed errors.

The fields are the ones the description of the Lichess API gives (API 2.0.165: ``ChallengeOpenJson``,
``GameJson``, the users' status, ``UserExtended``); user ids are lichess's (the username in lower case).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# lichess's game statuses (GameStatusName) that end a game; "created" and "started" do not
FINISHED = frozenset(("aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat", "noStart",
                      "unknownFinish", "insufficientMaterialClaim", "variantEnd"))  # fmt: skip


class LichessError(Exception):
    """Something lichess did not do; the three kinds below say what the bot does about it."""


class Unavailable(LichessError):
    """lichess could not be reached, the connection was lost, or it answered with a 5xx: try again later."""


class RateLimited(LichessError):
    """lichess answered 429: no request before ``retry_at`` (the client's monotonic clock; the client waits
    for it by itself before its next request)."""

    def __init__(self, message: str, retry_at: float) -> None:
        super().__init__(message)
        self.retry_at = retry_at


class Refused(LichessError):
    """lichess refused the request (4xx): ``status`` and lichess's own error text (``error``), e.g. an
    unknown or closed account, an unknown challenge, an authorization code that is not good."""

    def __init__(self, status: int, error: str) -> None:
        super().__init__(f"lichess refused ({status}): {error}")
        self.status = status
        self.error = error


@dataclass(frozen=True)
class TimeControl:
    """A real-time clock: the initial time and the increment per move, in seconds (``15+10`` is 900, 10)."""

    limit: int
    increment: int

    def __post_init__(self) -> None:
        if not (0 <= self.limit <= 10800 and 0 <= self.increment <= 60):  # lichess's bounds for an open challenge
            raise ValueError(f"a lichess clock is 0..10800 s and 0..60 s increment, not {self.limit}+{self.increment}")

    def __str__(self) -> str:
        minutes = self.limit / 60
        return f"{minutes:g}+{self.increment}"

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A tempo as a club writes it, minutes and the increment in seconds: ``15+10``, ``90+30``, ``0.5+0``
        (a ``ValueError`` for anything else, or a clock lichess does not offer: over 180 minutes, over 60 s)."""
        found = re.fullmatch(r"\s*([0-9]{1,3}(?:[.,][0-9]{1,2})?)\s*\+\s*([0-9]{1,2})\s*", text)
        if found is None:
            raise ValueError(f"a tempo is minutes+seconds, like 15+10, not {text[:20]!r}")
        seconds = float(found.group(1).replace(",", ".")) * 60
        if seconds != int(seconds):
            raise ValueError(f"a tempo's minutes come to whole seconds, not {text[:20]!r}")
        return cls(int(seconds), int(found.group(2)))


@dataclass(frozen=True)
class Challenge:
    """An open challenge lichess made: its id (the id its game will have), the link for both players and one
    per colour, the two players it is restricted to (white first) and what it plays."""

    id: str
    url: str
    url_white: str
    url_black: str
    white: str | None
    black: str | None
    rated: bool
    clock: TimeControl | None
    status: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Challenge:
        users = data.get("open", {}).get("userIds") or [None, None]
        control = data.get("timeControl", {})
        clock = TimeControl(int(control["limit"]), int(control["increment"])) if control.get("type") == "clock" else None
        return cls(str(data["id"]), str(data["url"]), str(data["urlWhite"]), str(data["urlBlack"]), users[0], users[1],
                   bool(data["rated"]), clock, str(data["status"]))  # fmt: skip


@dataclass(frozen=True)
class Game:
    """A game as lichess exports it: who played which colour, what was played (variant, clock, rated), how
    it stands (``status``: lichess's GameStatusName) and ended (``winner``: "white", "black" or None), and
    ``plies``, the half-moves made, which say who moved at all (0: white never moved; 1: black never did)."""

    id: str
    status: str
    winner: str | None
    white: str | None
    black: str | None
    rated: bool
    variant: str
    clock: TimeControl | None
    plies: int
    created_at: int  # milliseconds since 1970, lichess's
    last_move_at: int

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    def moved(self, colour: str) -> bool:
        """Whether the player of ``colour`` made a move in this game (white moves first)."""
        return self.plies >= (1 if colour == "white" else 2)

    def differences(self, white: str, black: str, clock: TimeControl, rated: bool) -> list[str]:
        """What makes this game not the one that was made (empty: it is): ``players`` (others than the two),
        ``colours`` (the two, reversed), ``clock``, ``rated``, ``variant`` (not standard chess). Usernames
        compare as lichess ids do, case aside."""
        asked, played = (white.lower(), black.lower()), ((self.white or "").lower(), (self.black or "").lower())
        found = []
        if played != asked:
            found.append("colours" if played == asked[::-1] else "players")
        if self.clock != clock:
            found.append("clock")
        if self.rated != rated:
            found.append("rated")
        if self.variant != "standard":
            found.append("variant")
        return found

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        players = data.get("players", {})

        def user(colour: str) -> str | None:
            found = players.get(colour, {}).get("user") or {}
            return str(found["id"]) if "id" in found else None

        clock = data.get("clock")
        moves = str(data.get("moves") or "")
        return cls(str(data["id"]), str(data["status"]), data.get("winner"), user("white"), user("black"),
                   bool(data["rated"]), str(data["variant"]),
                   TimeControl(int(clock["initial"]), int(clock["increment"])) if clock else None,
                   len(moves.split()), int(data["createdAt"]), int(data.get("lastMoveAt", data["createdAt"])))  # fmt: skip


@dataclass(frozen=True)
class UserStatus:
    """One account's real-time status (lichess leaves out the accounts it does not know)."""

    id: str
    name: str
    online: bool
    playing: bool


@dataclass(frozen=True)
class Account:
    """The account a token belongs to (``/api/account``): lichess's id and the username as written."""

    id: str
    username: str


def ndjson_lines(text: str) -> list[dict[str, Any]]:
    """The objects of an ndjson answer, one a line (empty lines skipped)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]
