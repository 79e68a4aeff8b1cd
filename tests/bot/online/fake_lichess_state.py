"""What the fake lichess keeps: its clock, its accounts, the open challenges and the games played from them, and
how a game looks when exported (JSON as ``schemas/GameJson.yaml``, PGN as lichess writes it).

A challenge's game has the challenge's id (lichess gives a game the id of the challenge that made it) and
what the challenge fixed: its players in its colours, its clock, rated setting and variant. A game the two
players start themselves (``play``) has an id of its own and whatever they chose. The moves are
made up but legal: the knights going out and back ("Nf3 Nf6 Ng1 Ng8 ..."), or a short mate when a game ends
in one, so that ``plies`` says who moved (0: nobody; 1: white only).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import string
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

ID_LETTERS = string.ascii_letters + string.digits
SHUFFLE = ("Nf3", "Nf6", "Ng1", "Ng8")
MATES = {"white": ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"), "black": ("f3", "e5", "g4", "Qh4#")}
FINISHED = ("aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat", "noStart", "unknownFinish",
            "insufficientMaterialClaim", "variantEnd")  # fmt: skip
DECISIVE = ("mate", "resign", "timeout", "outoftime", "cheat", "variantEnd")  # a winner is named
NO_WINNER = ("aborted", "stalemate", "draw", "insufficientMaterialClaim")  # never a winner (noStart, unknownFinish: either)
TERMINATION = {"outoftime": "Time forfeit", "timeout": "Abandoned", "cheat": "Rules infraction", "noStart": "Abandoned",
               "unknownFinish": "Unterminated", "aborted": "Unterminated"}  # fmt: skip


class FakeClock:
    """The fake's time, in seconds since 1970: the wall clock moved by ``advance``/``set``, or, ``frozen``, a
    time that moves only so (then it is also the client's clock: ``monotonic`` and ``sleep`` move it, so a
    client waiting a minute costs the test no minute)."""

    def __init__(self, start: float | None = None, frozen: bool = False) -> None:
        self.frozen = frozen
        self._base = time.time() if start is None else start
        self._offset = 0.0 if frozen else self._base - time.time()

    def time(self) -> float:
        return self._base + self._offset if self.frozen else time.time() + self._offset

    def ms(self) -> int:
        return int(self.time() * 1000)

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the fake's clock only moves forward")
        self._offset += seconds

    def set(self, epoch: float) -> None:
        self.advance(epoch - self.time())

    # the client's Timing (bot/core/online/lichess.py), for a frozen clock
    def monotonic(self) -> float:
        return self.time()

    async def sleep(self, seconds: float) -> None:
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)


@dataclass
class FakeUser:
    name: str
    closed: bool = False
    online: bool = False

    @property
    def id(self) -> str:
        return self.name.lower()


@dataclass
class FakeChallenge:
    id: str
    creator: str | None  # the user whose token made it (None: made without a token)
    white: str | None  # user ids, from ``users`` (the first gets white)
    black: str | None
    rated: bool
    limit: int | None
    increment: int | None
    variant: str
    name: str | None
    rules: tuple[str, ...]
    created_ms: int
    expires_ms: int
    status: str = "created"  # schemas/ChallengeStatus.yaml; an expired challenge is gone (``expired``)
    expired: bool = False


@dataclass
class FakeGame:
    id: str
    white: str
    black: str
    rated: bool
    limit: int | None
    increment: int | None
    variant: str
    created_ms: int
    last_move_ms: int
    status: str = "started"
    winner: str | None = None
    plies: int = 0
    source: str = "friend"

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    def moves(self) -> list[str]:
        if self.status == "mate" and self.winner in MATES:
            return list(MATES[self.winner])
        return [SHUFFLE[i % 4] for i in range(self.plies)]


def speed(limit: int | None, increment: int | None) -> str:
    """lichess's speed for a clock: by the estimated duration, the limit and 40 increments."""
    if limit is None:
        return "correspondence"
    estimate = limit + 40 * (increment or 0)
    for bound, name in ((29, "ultraBullet"), (179, "bullet"), (479, "blitz"), (1499, "rapid")):
        if estimate <= bound:
            return name
    return "classical"


def s256(verifier: str) -> str:
    """The fake's own PKCE S256 (RFC 7636 4.2): BASE64URL(SHA256(verifier)) without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).decode().rstrip("=")


def new_id(taken: dict[str, Any], length: int = 8) -> str:
    while True:
        made = "".join(secrets.choice(ID_LETTERS) for _ in range(length))
        if made not in taken:
            return made


@dataclass
class World:
    """The fake's state: accounts by id, tokens (to the user id they act as), challenges and games by id, the
    OAuth codes given out, and who logs in at the next ``/oauth``."""

    base: str = ""
    users: dict[str, FakeUser] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, frozenset[str]] = field(default_factory=dict)  # a token's OAuth2 scopes
    challenges: dict[str, FakeChallenge] = field(default_factory=dict)
    games: dict[str, FakeGame] = field(default_factory=dict)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    login: str | None = None  # the user who "logs in" at /oauth; None: the member cancels (access_denied)

    def add_user(self, name: str, closed: bool = False) -> FakeUser:
        user = self.users[name.lower()] = FakeUser(name, closed)
        return user

    def add_token(self, user: str, token: str | None = None, scopes: tuple[str, ...] = ()) -> str:
        token = token or "lio_" + "".join(secrets.choice(ID_LETTERS) for _ in range(24))
        self.tokens[token] = user.lower()
        self.scopes[token] = frozenset(scopes)
        return token

    def expire(self, now_ms: int, challenge_id: str | None = None) -> list[str]:
        """Expire the challenges past their time (or the one named, now): those still open are gone."""
        named = [self.challenges[challenge_id]] if challenge_id is not None else list(self.challenges.values())
        return [c.id for c in named if self.gone(c, now_ms if challenge_id is None else c.expires_ms)]

    def gone(self, challenge: FakeChallenge, now_ms: int) -> bool:
        """Whether an open challenge has expired by ``now_ms`` (it is marked so, and stays gone)."""
        if challenge.status == "created" and not challenge.expired and challenge.expires_ms <= now_ms:
            challenge.expired = True
            return True
        return False

    def challenge(self, challenge_id: str, now_ms: int) -> FakeChallenge | None:
        """A challenge as lichess knows it now: None when unknown, expired or cancelled."""
        found = self.challenges.get(challenge_id)
        if found is None:
            return None
        self.gone(found, now_ms)
        return None if found.expired or found.status == "canceled" else found

    def latest_of(self, name: str, now_ms: int, game: bool) -> str:
        """A script's way to a board without its id: the newest open challenge (``game``: the newest game still
        being played, else the newest game) that ``name`` is in."""
        uid = name.lower().lstrip("@")
        if game:
            theirs = [g for g in self.games.values() if uid in (g.white, g.black)]
            playing = [g for g in theirs if not g.finished]
            if playing or theirs:
                return max(playing or theirs, key=lambda g: g.created_ms).id
            raise ValueError(f"{uid} has no game")
        open_ = [c for c in self.challenges.values() if uid in (c.white, c.black) and self.challenge(c.id, now_ms) and c.status == "created"]
        if not open_:
            raise ValueError(f"{uid} has no open challenge")
        return max(open_, key=lambda c: c.created_ms).id

    def start(self, challenge_id: str, now_ms: int, **same: Any) -> FakeGame:
        """The two players joined the challenge: its game starts, the challenge's own game under its id, with its
        players in its colours, its clock, rated setting and variant (``same``: those, as a check; anything else
        is refused: lichess's open challenge with ``users`` gives "the first username the white pieces"; a game
        the players start themselves is ``play``)."""
        challenge = self.challenges[challenge_id]
        self.gone(challenge, now_ms)
        if challenge.status != "created" or challenge.expired:
            raise ValueError(f"challenge {challenge_id} is {'expired' if challenge.expired else challenge.status}, no game starts")
        if challenge.white is None or challenge.black is None:
            raise ValueError(f"challenge {challenge_id} names no players; a game the players start themselves is play")
        game = FakeGame(challenge.id, challenge.white, challenge.black, challenge.rated, challenge.limit,
                        challenge.increment, challenge.variant, now_ms, now_ms)  # fmt: skip
        for key, value in same.items():
            if key not in CHALLENGE_FIXES:
                raise ValueError(f"a challenge's game has no {key!r} to set")
            if (value.lower() if key in ("white", "black") else value) != getattr(game, key):
                raise ValueError(f"a challenge's game is the challenge's: {CHALLENGE_FIXES[key]} (api-challenge-open.yaml); "
                                 f"a game the players start themselves, with its own id, is play")  # fmt: skip
        challenge.status = "accepted"
        self.games[game.id] = game
        return game

    def play(self, white: str, black: str, now_ms: int, clock: str | None = None, rated: bool | None = None,
             variant: str = "standard") -> FakeGame:
        """A game the two players start themselves (not by joining the bot's challenge: a seek, a challenge of
        their own): a new id, any colours, ``clock`` as minutes+seconds (``15+10``; by default the clock of
        their newest challenge), rated or not (by default as that challenge)."""
        ids = (white.lower().lstrip("@"), black.lower().lstrip("@"))
        for uid in ids:
            if uid not in self.users or self.users[uid].closed:
                raise ValueError(f"{uid}: no such account" if uid not in self.users else f"{uid}: account closed")
        theirs = [c for c in self.challenges.values() if {c.white, c.black} == set(ids)]
        newest = max(theirs, key=lambda c: c.created_ms) if theirs else None
        if clock is None and newest is None:
            raise ValueError("say clock=15+10: the two have no challenge to take it from")
        limit, increment = (newest.limit, newest.increment) if clock is None and newest is not None else _clock(str(clock))
        rated = (newest.rated if newest is not None else False) if rated is None else bool(rated)
        game = FakeGame(new_id({**self.games, **self.challenges}), ids[0], ids[1], rated, limit, increment, variant, now_ms, now_ms)
        self.games[game.id] = game
        return game

    def end(self, game_id: str, status: str, winner: str | None, plies: int | None, now_ms: int) -> FakeGame:
        """End a game as lichess would report it: ``status`` (GameStatusName), the winner's colour, the plies
        played (None: a few moves for a played game, 0 for noStart and aborted)."""
        game = self.games[game_id]
        if status not in FINISHED:
            raise ValueError(f"{status!r} is not an ending (one of {', '.join(FINISHED)})")
        if game.finished:
            raise ValueError(f"game {game_id} has already ended ({game.status})")
        if winner not in (None, "white", "black"):
            raise ValueError("winner is white or black")
        if status in DECISIVE and winner is None:
            raise ValueError(f"{status} names a winner: white or black")
        if status in NO_WINNER and winner is not None:
            raise ValueError(f"{status} has no winner")
        game.status, game.winner = status, winner
        game.plies = plies if plies is not None else (0 if status in ("noStart", "aborted") else 20)
        if status == "mate" and winner is not None:
            game.plies = len(MATES[winner])  # the mate the export shows
        game.last_move_ms = now_ms
        return game


CHALLENGE_FIXES = {"white": "the first username gets the white pieces", "black": "the second username gets black",
                   "limit": "its clock", "increment": "its clock", "rated": "its rated setting", "variant": "its variant"}


def _clock(text: str) -> tuple[int, int]:
    """``15+10`` (minutes, seconds) as lichess's limit and increment in seconds."""
    minutes, plus, seconds = text.partition("+")
    if not plus:
        raise ValueError(f"a clock is minutes+seconds, like 15+10, not {text!r}")
    return int(float(minutes) * 60), int(seconds)


def game_json(world: World, game: FakeGame) -> dict[str, Any]:
    """A game as the ndjson export gives it (schemas/GameJson.yaml: its required fields and the ones the bot reads)."""
    players = {colour: {"user": {"id": uid, "name": world.users[uid].name if uid in world.users else uid}, "rating": 1500}
               for colour, uid in (("white", game.white), ("black", game.black))}  # fmt: skip
    answer: dict[str, Any] = {
        "id": game.id, "rated": game.rated, "variant": game.variant, "speed": speed(game.limit, game.increment),
        "perf": speed(game.limit, game.increment), "createdAt": game.created_ms, "lastMoveAt": game.last_move_ms,
        "status": game.status, "source": game.source, "players": players, "moves": " ".join(game.moves()),
    }  # fmt: skip
    if game.winner:
        answer["winner"] = game.winner
    if game.limit is not None:
        answer["clock"] = {"initial": game.limit, "increment": game.increment or 0, "totalTime": game.limit + 40 * (game.increment or 0)}
    return answer


def game_pgn(world: World, game: FakeGame) -> str:
    """A game in PGN, with the tags lichess writes."""
    result = {"white": "1-0", "black": "0-1"}.get(game.winner or "", "1/2-1/2" if game.finished and game.status != "aborted" else "*")
    moment = datetime.fromtimestamp(game.created_ms / 1000, timezone.utc)
    names = {c: world.users[u].name if u in world.users else u for c, u in (("White", game.white), ("Black", game.black))}
    tags = [("Event", f"{'Rated' if game.rated else 'Casual'} {speed(game.limit, game.increment)} game"),
            ("Site", f"{world.base}/{game.id}"), ("Date", moment.strftime("%Y.%m.%d")), ("Round", "-"),
            ("White", names["White"]), ("Black", names["Black"]), ("Result", result), ("GameId", game.id),
            ("UTCDate", moment.strftime("%Y.%m.%d")), ("UTCTime", moment.strftime("%H:%M:%S")),
            ("WhiteElo", "1500"), ("BlackElo", "1500"), ("Variant", game.variant.capitalize()),
            ("TimeControl", f"{game.limit}+{game.increment or 0}" if game.limit is not None else "-"),
            ("Termination", TERMINATION.get(game.status, "Normal"))]  # fmt: skip
    moves = game.moves()
    numbered = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + move for i, move in enumerate(moves))
    return "\n".join(f'[{k} "{v}"]' for k, v in tags) + "\n\n" + (numbered + " " if numbered else "") + result + "\n"
