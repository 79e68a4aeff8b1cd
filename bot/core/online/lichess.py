"""The client of lichess's HTTP API (``Lichess(url, token)``), for what an online club round needs, keeping
lichess's rules (the introduction of the API's description, version 2.0.165):

- **One request at a time.** Every request of a client waits for the one before it to be answered and read
  (an asyncio lock). A process has one client (``core.online.client()``, ``bot/core/online/settings.py``).
- **A minute after a 429.** An answer 429 raises ``RateLimited``, and no request of the client goes out
  before a minute has passed on the monotonic clock (``Timing``): the next one waits for it, so a caller
  that retries at once still keeps the rule (``paused_for()`` tells a caller that would rather skip).
- **Down is not refused.** A 5xx, a lost connection or no answer in ``timeout`` seconds is ``Unavailable``
  (try again later); a 4xx is ``Refused`` with lichess's own error text. Nothing is retried here: the caller
  (the round's due work) knows when trying again is worth it.

Several processes on PostgreSQL: each process has its own client, lock and pause, so the rule across
processes is that one process does the lichess work: the due work that calls lichess runs under the
store's claim ``LICHESS_CLAIM`` (``bot/core/storage/postgres.py`` ``claim``: a session advisory lock, taken
without waiting), held by ``LichessTurn`` (``settings.py``) for as long as the process runs, so the other
processes skip that work and the pause after a 429 is the holder's to keep. The claim passes to another
process only when the holder stops (its connection drops).

Answers and errors are typed (``lichess_answers.py``). Batches: the export by ids takes at most 300 ids a
request, the users' status 100; the methods cut longer lists into such requests, one after another.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote, urlencode

from bot.core.online.lichess_answers import (Account, Challenge, Game, RateLimited, Refused, TimeControl, Unavailable,
                                             UserStatus, ndjson_lines)  # fmt: skip
from bot.core.online.pkce import METHOD

if TYPE_CHECKING:  # aiohttp is loaded at the first request: a bot without a lichess token makes none, nor loads it
    import aiohttp

log = logging.getLogger(__name__)

RATE_PAUSE = 60.0  # seconds without a request after a 429 ("waiting one minute before retrying")
EXPORT_BATCH = 300  # ids in one export request (api-games-export-_ids: up to 300)
STATUS_BATCH = 100  # ids in one users' status request (api-users-status: up to 100)
GAMES_BETWEEN_MAX = 10  # games asked for between two players (a board's self-started games: a few at most)
NDJSON = "application/x-ndjson"
PGN = "application/x-chess-pgn"


class Timing(Protocol):
    """The clock the client keeps lichess's pause on: a monotonic clock and a way to wait on it."""

    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class RealTiming:
    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def batches(items: Sequence[str], size: int) -> list[list[str]]:
    unique = list(dict.fromkeys(items))
    return [unique[i : i + size] for i in range(0, len(unique), size)]


class Lichess:
    def __init__(self, url: str, token: str | None, *, timing: Timing | None = None, timeout: float = 30.0,
                 user_agent: str = "clubbot") -> None:  # fmt: skip
        self.url = url.rstrip("/")
        self.token = token
        self.timing: Timing = timing or RealTiming()
        self.timeout = timeout
        self.user_agent = user_agent
        self.not_before = 0.0  # the monotonic moment before which no request goes out (after a 429)
        self.requests = 0  # requests sent, for the figures (benchmarks/online_bench.py)
        self._lock = asyncio.Lock()
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def paused_for(self) -> float:
        """Seconds until a request may go out again after a 429 (0: now)."""
        return max(0.0, self.not_before - self.timing.monotonic())

    # challenges
    async def create_challenge(self, white: str, black: str, clock: TimeControl, *, rated: bool, name: str,
                               expires_at: datetime, rules: Iterable[str] = ()) -> Challenge:  # fmt: skip
        """An open challenge only ``white`` and ``black`` (lichess usernames) may join, white getting white,
        with ``clock``, rated or casual, named ``name``, expiring at ``expires_at`` (at most two weeks on).
        An account lichess does not know or has closed: ``Refused`` with lichess's words."""
        if expires_at.tzinfo is None:
            raise ValueError("expires_at is a moment with its zone (the bot's clock gives UTC)")
        form = {"rated": "true" if rated else "false", "clock.limit": str(clock.limit), "clock.increment": str(clock.increment),
                "name": name, "users": f"{white},{black}", "expiresAt": str(int(expires_at.timestamp() * 1000))}  # fmt: skip
        if rules:
            form["rules"] = ",".join(rules)
        data = await self._json("POST", "/api/challenge/open", form=form)
        return Challenge.from_json(data)

    async def cancel_challenge(self, challenge_id: str) -> bool:
        """Cancel a challenge the bot made (or abort its game before it is played); False when lichess knows
        no such challenge of the bot's (gone: expired, or never made)."""
        try:
            await self._json("POST", f"/api/challenge/{challenge_id}/cancel")
        except Refused as refused:
            if refused.status == 404:
                return False
            raise
        return True

    # games
    async def export_batches(self, game_ids: Sequence[str]) -> AsyncIterator[list[Game]]:
        """The games of ``game_ids`` lichess has (an id it has no game for is left out), a request of at most
        300 ids at a time, each batch as it comes (so an error later keeps what came before)."""
        for batch in batches(game_ids, EXPORT_BATCH):
            text = await self._text("POST", "/api/games/export/_ids", body=",".join(batch), accept=NDJSON)
            yield [Game.from_json(item) for item in ndjson_lines(text)]

    async def export_games(self, game_ids: Sequence[str]) -> list[Game]:
        return [game async for batch in self.export_batches(game_ids) for game in batch]

    async def games_between(self, user: str, opponent: str, since: datetime, until: datetime, limit: int = GAMES_BETWEEN_MAX) -> list[Game]:
        """The games ``user`` played against ``opponent`` (lichess usernames) created from ``since`` to ``until``,
        finished or still being played, most recent first, at most ``limit`` (one request: the export of a user's
        games, ``GET /api/games/user/{username}`` with ``vs``, ndjson)."""
        if since.tzinfo is None or until.tzinfo is None:
            raise ValueError("since and until are moments with their zone (the bot's clock gives UTC)")
        query = {"vs": opponent, "since": str(int(since.timestamp() * 1000)), "until": str(int(until.timestamp() * 1000)),
                 "max": str(limit), "ongoing": "true", "moves": "true"}  # fmt: skip
        text = await self._text("GET", f"/api/games/user/{quote(user)}?" + urlencode(query), accept=NDJSON)
        return [Game.from_json(item) for item in ndjson_lines(text)]

    async def export_pgn(self, game_ids: Sequence[str]) -> str:
        """The games of ``game_ids`` as one PGN text (most recent first within each request of 300)."""
        texts = [await self._text("POST", "/api/games/export/_ids", body=",".join(b), accept=PGN) for b in batches(game_ids, EXPORT_BATCH)]
        games = [text.strip() for text in texts if text.strip()]
        return "\n\n".join(games) + "\n" if games else ""

    async def game_pgn(self, game_id: str) -> str | None:
        """One game as PGN; None when lichess has no such game."""
        try:
            return await self._text("GET", f"/game/export/{game_id}", accept=PGN)
        except Refused as refused:
            if refused.status == 404:
                return None
            raise

    # users
    async def users_status(self, user_ids: Sequence[str]) -> list[UserStatus]:
        """The real-time status of the accounts lichess knows among ``user_ids`` (100 a request)."""
        found: list[UserStatus] = []
        for batch in batches(user_ids, STATUS_BATCH):
            data = await self._json("GET", "/api/users/status?" + urlencode({"ids": ",".join(batch)}))
            found += [UserStatus(str(u["id"]), str(u["name"]), bool(u.get("online")), bool(u.get("playing"))) for u in data]
        return found

    # OAuth ("log in with lichess"): the member's browser goes to ``authorize_url``, the website exchanges the code
    def authorize_url(self, client_id: str, redirect_uri: str, code_challenge: str, state: str, username: str | None = None) -> str:
        """Where a member logs in: lichess's authorization page, asking for no scope, S256 only."""
        query = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
                 "code_challenge_method": METHOD, "code_challenge": code_challenge, "state": state}  # fmt: skip
        if username:
            query["username"] = username
        return f"{self.url}/oauth?{urlencode(query)}"

    async def exchange_code(self, code: str, verifier: str, redirect_uri: str, client_id: str) -> str:
        """The access token for an authorization code (``Refused`` when lichess does not take the code)."""
        form = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                "redirect_uri": redirect_uri, "client_id": client_id}  # fmt: skip
        data = await self._json("POST", "/api/token", form=form, anonymous=True)
        return str(data["access_token"])

    async def revoke(self, token: str) -> None:
        """Give a member's token back to lichess once the account is read: the bot keeps no member's token."""
        await self._text("DELETE", "/api/token", bearer=token, accept="application/json")

    async def account(self, token: str | None = None) -> Account:
        """The account of ``token`` (a member's, just exchanged), else of the bot's own token."""
        data = await self._json("GET", "/api/account", bearer=token)
        return Account(str(data["id"]), str(data["username"]))

    # the requests themselves
    async def _json(self, method: str, path: str, *, form: dict[str, str] | None = None, bearer: str | None = None,
                    anonymous: bool = False) -> Any:  # fmt: skip
        text = await self._text(method, path, form=form, bearer=bearer, anonymous=anonymous, accept="application/json")
        try:
            return json.loads(text)
        except ValueError:
            raise Unavailable(f"lichess answered {method} {path} with something that is not JSON") from None

    async def _text(self, method: str, path: str, *, form: dict[str, str] | None = None, body: str | None = None,
                    accept: str, bearer: str | None = None, anonymous: bool = False) -> str:  # fmt: skip
        """One request, in its turn and not before the pause after a 429 has passed; the answer's text. It
        carries ``bearer``, else the bot's token, unless ``anonymous`` (the OAuth token exchange)."""
        bearer = None if anonymous else bearer or self.token
        headers = {"Accept": accept, "User-Agent": self.user_agent}
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        data: Any = None
        if form is not None:
            data = form  # aiohttp sends a dict as application/x-www-form-urlencoded
        elif body is not None:
            data, headers["Content-Type"] = body.encode(), "text/plain"
        import aiohttp  # loaded at the first request (see above)

        async with self._lock:
            while (wait := self.paused_for()) > 0:
                await self.timing.sleep(wait)
            self.requests += 1
            try:
                async with self._session_().request(method, self.url + path, data=data, headers=headers,
                                                    allow_redirects=False) as answer:  # fmt: skip
                    text = await answer.text()
                    status = answer.status
            except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
                if isinstance(exc, asyncio.TimeoutError):  # given up on, the request may still be in lichess's
                    # hands: the next waits as long again, so that two are never in flight at lichess
                    self.not_before = max(self.not_before, self.timing.monotonic() + self.timeout)
                raise Unavailable(f"lichess at {self.url} could not be reached ({exc.__class__.__name__})") from exc
            if status == 429:
                self.not_before = self.timing.monotonic() + RATE_PAUSE
                log.warning("lichess answered 429 (too many requests) to %s %s: no request for %.0f s", method, path.split("?")[0], RATE_PAUSE)
                raise RateLimited(f"lichess answered 429 to {method} {path.split('?')[0]}", self.not_before)
        if status >= 500:
            raise Unavailable(f"lichess answered {status} to {method} {path.split('?')[0]}")
        if status >= 400:
            raise Refused(status, _error_text(text))
        return text

    def _session_(self) -> aiohttp.ClientSession:
        import aiohttp

        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        return self._session


def _error_text(text: str) -> str:
    """lichess's error text from a refusal's body (``{"error": ...}``, with ``error_description`` for OAuth)."""
    try:
        data = json.loads(text)
    except ValueError:
        return " ".join(text.split())[:200]
    if isinstance(data, dict) and "error" in data:
        detail = data.get("error_description")
        return f"{data['error']}: {detail}" if detail else str(data["error"])
    return " ".join(text.split())[:200]
