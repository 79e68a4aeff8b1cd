"""A strict fake of lichess on 127.0.0.1, for the tests and for a scripted month in the console: the endpoints an
online club round uses (``lichess_contract.ENDPOINTS``), each request checked against the contract and the
rules (``fake_lichess_rules.py``), with challenge and game state (``fake_lichess_state.py``) and a control API
for tests and scripts under ``/_fake/`` (``fake_lichess_control.py``), which the bot never uses.

In a test::

    async def test_x(lichess: FakeLichess) -> None:       # the fixture below; fails the test on a broken rule
        anna, bert = lichess.add_user("Anna"), lichess.add_user("Bert")
        client = Lichess(lichess.url, lichess.bot_token, timing=lichess.clock)
        ...
        lichess.start_game(challenge.id); lichess.end_game(challenge.id, "mate", "white")

As a program (``python -m tests.bot.online.fake_lichess --port 8089 --user Anna --user Bert``) it prints its
URL and the bot's token, and runs until stopped; ``python -m tests.bot.online.fake_lichess_control`` (or curl)
drives it.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest
from aiohttp import web

from bot.config import Config
from tests.bot.adapters.local_server import serve_locally
from tests.bot.online.fake_lichess_control import add_control
from tests.bot.online.fake_lichess_rules import RULES, Rules, error, keep_rules, ndjson, who_sent
from tests.bot.online.fake_lichess_state import FakeChallenge, FakeClock, FakeGame, FakeUser, World, game_json, game_pgn, new_id, s256, speed
from tests.bot.online.lichess_contract import GAME_STATUS_IDS, JSON, NDJSON, PGN, endpoint_of, expires_problem

BOT_NAME = "ClubBot"
BOT_TOKEN = "lip_clubbot_fake_token"
DAY_MS = 24 * 3600 * 1000


class FakeLichess:
    def __init__(self, clock: FakeClock | None = None, latency: float = 0.002, bot_token: str = BOT_TOKEN) -> None:
        self.clock = clock or FakeClock()
        self.rules = Rules(self.clock, latency)
        self.world = World()
        self.world.add_user(BOT_NAME)
        self.bot_token = self.world.add_token(BOT_NAME, bot_token, scopes=("challenge:write",))  # as config.example.toml asks
        self.watchers: list[tuple[set[str], asyncio.Queue[dict[str, Any] | None]]] = []
        self.url = ""
        self.held_answers = 0  # challenges to make whose answer is never sent (``hold``)
        self._runner: web.AppRunner | None = None

    # what a test or script sets up and does (also through /_fake/..., fake_lichess_control.py)
    @property
    def problems(self) -> list[str]:
        return self.rules.problems

    def add_user(self, name: str, closed: bool = False) -> FakeUser:
        return self.world.add_user(name, closed)

    def close_account(self, name: str) -> None:
        self.world.users[name.lower()].closed = True

    def log_in_as(self, name: str | None) -> None:
        """Who logs in at the next ``/oauth`` (None: the member cancels, ``access_denied``)."""
        self.world.login = None if name is None else name.lower()

    def fail_next(self, count: int, status: int = 503) -> None:
        self.rules.fail_next(count, status)

    def hold(self, count: int) -> None:
        """The next ``count`` open challenges are made, but their answers never go out (a crash test kills the
        bot while it waits: the challenge exists on lichess, the bot never heard of it)."""
        self.held_answers = count

    def expire(self, challenge_id: str | None = None) -> list[str]:
        return self.world.expire(self.clock.ms(), challenge_id)

    def start_game(self, challenge_id: str, **overrides: Any) -> FakeGame:
        game = self.world.start(challenge_id, self.clock.ms(), **overrides)
        self._tell(game)
        return game

    def play_game(self, white: str, black: str, clock: str | None = None, rated: bool | None = None,
                  variant: str = "standard") -> FakeGame:
        """A game the two players start themselves, with its own id (``World.play``)."""
        game = self.world.play(white, black, self.clock.ms(), clock, rated, variant)
        self._tell(game)
        return game

    def end_game(self, game_id: str, status: str, winner: str | None = None, plies: int | None = None) -> FakeGame:
        game = self.world.end(game_id, status, winner, plies, self.clock.ms())
        self._tell(game)
        return game

    def requests(self, operation_path: str | None = None) -> list[Any]:
        """The requests the fake answered (of one path, when named), oldest first."""
        return [s for s in self.rules.seen if operation_path is None or s.path == operation_path]

    # serving
    async def start(self, port: int = 0) -> FakeLichess:
        @web.middleware
        async def known_token(request: web.Request, handler: Any) -> web.StreamResponse:
            """A token lichess does not know (revoked, made up) is refused on every endpoint, 401."""
            who = who_sent(request)
            if not request.path.startswith("/_fake/") and who != "anonymous" and who not in self.world.tokens:
                return error(401, "No such token")
            found = endpoint_of(request.method, request.path)
            if found is not None and found[0].scopes and not self.world.scopes.get(who, frozenset()) & set(found[0].scopes):
                self.rules.problems.append(f"{request.method} {found[0].path}: the token has none of the scopes "
                                           f"{', '.join(found[0].scopes)} ({found[0].source})")  # fmt: skip
                return error(403, "Missing scope")
            return await handler(request)  # type: ignore[no-any-return]

        app = web.Application(middlewares=[keep_rules, known_token])
        app[RULES] = self.rules
        app.router.add_post("/api/challenge/open", self._open)
        app.router.add_post("/api/challenge/{challengeId}/cancel", self._cancel)
        app.router.add_get("/game/export/{gameId}", self._export_one)
        app.router.add_post("/api/games/export/_ids", self._export_ids)
        app.router.add_get("/api/games/user/{username}", self._games_of_user)
        app.router.add_post("/api/stream/games-by-users", self._stream)
        app.router.add_get("/api/users/status", self._status)
        app.router.add_get("/api/account", self._account)
        app.router.add_get("/oauth", self._oauth)
        app.router.add_post("/api/token", self._token)
        app.router.add_delete("/api/token", self._revoke)
        add_control(app, self)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner, port = await serve_locally(app, port)
        self.url = self.world.base = f"http://127.0.0.1:{port}"
        return self

    async def close(self) -> None:
        for _, queue in self.watchers:
            queue.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()

    def _user_of(self, request: web.Request) -> str | None:
        return self.world.tokens.get(who_sent(request))

    async def _unknown(self, request: web.Request) -> web.Response:
        return error(404, "Not found.")  # the contract has already named the rule

    async def _open(self, request: web.Request) -> web.Response:
        form = dict(parse_qsl((await request.read()).decode(), keep_blank_values=True))
        now = self.clock.ms()
        expires = int(form["expiresAt"]) if "expiresAt" in form else now + DAY_MS
        too_late = expires_problem(expires, now)
        if too_late:
            self.rules.problems.append(too_late)
            return error(400, too_late)
        players = [u.strip().lower() for u in form["users"].split(",")] if "users" in form else [None, None]
        for uid in players:
            if uid is not None and (uid not in self.world.users or self.world.users[uid].closed):
                return error(400, f"{uid}: no such user" if uid not in self.world.users else f"{uid}: account closed")
        limit = int(form["clock.limit"]) if "clock.limit" in form else None
        increment = int(form["clock.increment"]) if "clock.increment" in form else None
        challenge = FakeChallenge(new_id(self.world.challenges), self._user_of(request), players[0], players[1],
                                  form.get("rated") == "true", limit, increment, form.get("variant", "standard"),
                                  form.get("name"), tuple(filter(None, form.get("rules", "").split(","))), now, expires)  # fmt: skip
        self.world.challenges[challenge.id] = challenge
        if self.held_answers > 0:  # made, but the answer never comes (``hold``): the bot dies waiting for it
            self.held_answers -= 1
            while request.transport is not None and not request.transport.is_closing():
                await asyncio.sleep(0.05)  # until the connection is gone: then the request is over
        return web.json_response(self._challenge_json(challenge))

    def _challenge_json(self, c: FakeChallenge) -> dict[str, Any]:
        link = f"{self.url}/{c.id}"
        control: dict[str, Any] = {"type": "unlimited"}
        if c.limit is not None:
            control = {"type": "clock", "limit": c.limit, "increment": c.increment or 0, "show": f"{c.limit // 60}+{c.increment or 0}"}
        answer: dict[str, Any] = {
            "id": c.id, "url": link, "status": c.status, "challenger": None, "destUser": None,
            "variant": {"key": c.variant, "name": c.variant.capitalize(), "short": c.variant[:3].capitalize()},
            "rated": c.rated, "speed": speed(c.limit, c.increment), "timeControl": control, "color": "random",
            "perf": {"icon": "", "name": speed(c.limit, c.increment).capitalize()},
            "urlWhite": f"{link}?color=white", "urlBlack": f"{link}?color=black",
            "open": {"userIds": [c.white, c.black]} if c.white else {},
        }  # fmt: skip
        return answer

    async def _cancel(self, request: web.Request) -> web.Response:
        challenge = self.world.challenge(request.match_info["challengeId"], self.clock.ms())
        if challenge is None or challenge.creator != self._user_of(request):
            return error(404, "Not found.")
        game = self.world.games.get(challenge.id)
        if challenge.status == "created":
            challenge.status = "canceled"
        elif game is not None and not game.finished and (game.plies < 2 or "opponentToken" in request.query):
            self.end_game(game.id, "aborted")
        else:
            return error(400, "This game can no longer be aborted.")
        return web.json_response({"ok": True})

    async def _export_one(self, request: web.Request) -> web.Response:
        game = self.world.games.get(request.match_info["gameId"])
        if game is None:
            return error(404, "Not found.")
        if request.headers.get("Accept", PGN).split(";")[0] == JSON:
            return web.json_response(game_json(self.world, game))
        return web.Response(text=game_pgn(self.world, game), content_type=PGN)

    async def _export_ids(self, request: web.Request) -> web.Response:
        ids = [i.strip() for i in (await request.read()).decode().split(",")]
        games = sorted((self.world.games[i] for i in dict.fromkeys(ids) if i in self.world.games), key=lambda g: -g.created_ms)
        if request.headers.get("Accept", PGN).split(";")[0] == NDJSON:
            return ndjson([game_json(self.world, g) for g in games])
        return web.Response(text="\n\n".join(game_pgn(self.world, g) for g in games), content_type=PGN)

    async def _games_of_user(self, request: web.Request) -> web.Response:
        """A user's games, most recent first (``sort=dateAsc``: oldest), those created from ``since`` to ``until``,
        against ``vs``, finished unless ``finished=false``, the ones being played only with ``ongoing=true``."""
        uid, query = request.match_info["username"].lower(), request.query
        if uid not in self.world.users:
            return error(404, "Not found.")
        since, until = int(query.get("since", 0)), int(query.get("until", self.clock.ms()))
        vs = query.get("vs", "").lower()
        games = [g for g in self.world.games.values() if uid in (g.white, g.black) and (not vs or vs in (g.white, g.black))
                 and since <= g.created_ms <= until and (query.get("ongoing") == "true" if not g.finished else query.get("finished") != "false")]  # fmt: skip
        games.sort(key=lambda g: g.created_ms, reverse=query.get("sort", "dateDesc") == "dateDesc")
        games = games[: int(query["max"])] if "max" in query else games
        if request.headers.get("Accept", PGN).split(";")[0] == NDJSON:
            return ndjson([game_json(self.world, g) for g in games])
        return web.Response(text="\n\n".join(game_pgn(self.world, g) for g in games), content_type=PGN)

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        users = {u.strip().lower() for u in (await request.read()).decode().split(",")}
        response = web.StreamResponse(headers={"Content-Type": NDJSON})
        await response.prepare(request)
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        if request.query.get("withCurrentGames") == "true":
            for game in self.world.games.values():
                if not game.finished and {game.white, game.black} <= users:
                    queue.put_nowait(self._stream_event(game))
        watcher = (users, queue)
        self.watchers.append(watcher)
        try:
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), 0.05)
                except asyncio.TimeoutError:
                    if request.transport is None or request.transport.is_closing():
                        break  # the reader went away: the stream is no longer in flight
                    continue
                if event is None:
                    break
                await response.write((json.dumps(event) + "\n").encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.watchers.remove(watcher)
        return response

    def _stream_event(self, game: FakeGame) -> dict[str, Any]:
        event = {key: value for key, value in game_json(self.world, game).items() if key in ("id", "rated", "variant", "speed", "perf", "createdAt", "clock", "winner")}
        event["status"], event["statusName"] = GAME_STATUS_IDS[game.status], game.status
        event["players"] = {c: {"userId": u, "rating": 1500} for c, u in (("white", game.white), ("black", game.black))}
        return event

    def _tell(self, game: FakeGame) -> None:
        """A game started or ended: the streams that follow both its players hear of it."""
        for users, queue in self.watchers:
            if {game.white, game.black} <= users:
                queue.put_nowait(self._stream_event(game))

    async def _status(self, request: web.Request) -> web.Response:
        ids = [i.strip().lower() for i in request.query["ids"].split(",")]
        playing = {u for g in self.world.games.values() if not g.finished for u in (g.white, g.black)}
        answer = []
        for uid in dict.fromkeys(ids):
            user = self.world.users.get(uid)
            if user is None or user.closed:
                continue  # lichess leaves out who it does not know
            entry: dict[str, Any] = {"id": user.id, "name": user.name}
            if user.online or uid in playing:
                entry["online"] = True
            if uid in playing:
                entry["playing"] = True
            answer.append(entry)
        return web.json_response(answer)

    async def _account(self, request: web.Request) -> web.Response:
        uid = self._user_of(request)
        user = self.world.users.get(uid or "")
        if user is None or user.closed:
            return error(401, "No such token")
        return web.json_response({"id": user.id, "username": user.name, "url": f"{self.url}/@/{user.name}", "createdAt": 1_500_000_000_000})

    async def _oauth(self, request: web.Request) -> web.Response:
        query = request.query
        state = {"state": query["state"]} if "state" in query else {}
        target = query["redirect_uri"]
        if self.world.login is None:
            where = target + ("&" if "?" in target else "?") + urlencode({"error": "access_denied", "error_description": "user cancelled authorization", **state})
            raise web.HTTPFound(where)
        code = "liu_" + new_id(self.world.codes, 24)
        self.world.codes[code] = {"user": self.world.login, "challenge": query["code_challenge"], "redirect_uri": target,
                                  "client_id": query["client_id"]}  # fmt: skip
        raise web.HTTPFound(target + ("&" if "?" in target else "?") + urlencode({"code": code, **state}))

    async def _token(self, request: web.Request) -> web.Response:
        form = dict(parse_qsl((await request.read()).decode(), keep_blank_values=True))
        given = self.world.codes.pop(form["code"], None)  # a code is good once
        why = ("unknown or used authorization code" if given is None
               else "redirect_uri does not match" if given["redirect_uri"] != form["redirect_uri"]
               else "client_id does not match" if given["client_id"] != form["client_id"]
               else "hash of code_verifier does not match code_challenge" if s256(form["code_verifier"]) != given["challenge"]
               else "")  # fmt: skip
        if why or given is None:
            return web.json_response({"error": "invalid_grant", "error_description": why}, status=400)
        token = self.world.add_token(given["user"])
        return web.json_response({"token_type": "Bearer", "access_token": token, "expires_in": 31536000})


    async def _revoke(self, request: web.Request) -> web.Response:
        if self.world.tokens.pop(who_sent(request), None) is None:
            return error(401, "No such token")
        return web.Response(status=204)


def with_lichess(config: Config, fake: FakeLichess) -> Config:
    """``config`` pointed at the fake, with the bot's token in it: online play on. A Core made with it plays
    on the fake; set ``core.online.timing = fake.clock`` before its first request to share the fake's clock."""
    return dataclasses.replace(config, lichess_url=fake.url, lichess_token=fake.bot_token)


@asynccontextmanager
async def strict_lichess(start: datetime | None = None, latency: float = 0.002) -> AsyncIterator[FakeLichess]:
    """The fake lichess on a frozen clock starting at ``start`` (default: now; give the bot's clock's start, so
    that its challenges' expiry times agree with the fake's), which is also the client's ``timing``; at the
    end, an AssertionError naming every rule of lichess's a request broke."""
    fake = await FakeLichess(FakeClock(start.timestamp() if start else None, frozen=True), latency).start()
    try:
        yield fake
    finally:
        await fake.close()
    broken = list(dict.fromkeys(fake.problems))
    assert not broken, f"{len(broken)} rule(s) of lichess's API broken:\n" + "\n".join(broken[:40])


@pytest.fixture
async def lichess() -> AsyncIterator[FakeLichess]:
    """The fake lichess on its own frozen clock, starting now (``strict_lichess``); the test fails at its end
    if a request broke a rule of lichess's."""
    async with strict_lichess() as fake:
        yield fake


async def _serve(port: int, users: list[str], token: str, start: datetime | None) -> None:
    fake = await FakeLichess(FakeClock(start.timestamp() if start else None), bot_token=token).start(port)
    for name in users:
        fake.add_user(name)
    print(f"fake lichess at {fake.url} (the bot's token: {fake.bot_token}; control: {fake.url}/_fake/state)", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fake.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.online.fake_lichess", description="A strict fake of lichess on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=0, help="the port (0: a free one)")
    parser.add_argument("--user", action="append", default=[], help="an account that exists (again for each)")
    parser.add_argument("--token", default=BOT_TOKEN, help="the bot's token (CLUBBOT_LICHESS_TOKEN)")
    parser.add_argument("--clock", type=datetime.fromisoformat, default=None,
                        help="the fake's time starts here (as the bot's clubbot run --clock; with an offset or UTC)")  # fmt: skip
    options = parser.parse_args(argv)
    start = options.clock
    if start is not None and start.tzinfo is None:
        start = start.replace(tzinfo=timezone.utc)
    try:
        asyncio.run(_serve(options.port, options.user, options.token, start))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
