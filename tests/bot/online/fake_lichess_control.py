"""The fake lichess's control API, for tests and scripts (never the bot): ``/_fake/...`` on the fake's address.

=======================================  =====================================================================
``GET  /_fake/state``                    accounts, challenges, games, the requests answered, the rules broken
``POST /_fake/users``                    ``{"name": "Anna", "closed": false}``: an account exists
``POST /_fake/users/{name}/close``       the account is closed
``POST /_fake/login``                    ``{"user": "anna"}``: who logs in at the next ``/oauth`` (null: cancels)
``POST /_fake/challenges/{id}/start``    the two players joined: the challenge's game starts, in its colours
``POST /_fake/games``                    ``{"white": "bert", "black": "anna", "clock": "15+10", "rated": false}``:
                                         a game the two start themselves, its own id (clock, rated: by default
                                         their challenge's)
``POST /_fake/games/{id}/end``           ``{"status": "mate", "winner": "white", "plies": 31}``
                                         (for an id, ``@anna``: Anna's newest open challenge, or game)
``POST /_fake/expire``                   ``{"id": "..."}`` or ``{}``: that challenge or those past their time
``POST /_fake/fail``                     ``{"count": 2, "status": 503}``: the next requests fail (a 5xx, 429, or 0:
                                         the connection dropped without an answer)
``POST /_fake/hold``                     ``{"count": 1}``: the next open challenges are made, their answers never sent
``POST /_fake/clock``                    ``{"advance": 3600}`` or ``{"set": 1796000000}`` (seconds)
=======================================  =====================================================================

A refused control request answers 400 with ``{"error": ...}``. As a program::

    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 state
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 start CHALLENGE
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 play white=bert black=anna [clock=15+10 rated=false]
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 end GAME mate white [plies=31]
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 start @anna ; ... end @anna draw
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 user Anna | close Anna | login anna
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 expire [CHALLENGE] | fail 2 503 | fail 1 drop | hold 1
    python -m tests.bot.online.fake_lichess_control http://127.0.0.1:8089 clock 3600 | clock 2026-12-03T18:00
"""

from __future__ import annotations

import json
import re
import sys
import urllib.error
import urllib.request
from dataclasses import asdict
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the command line below imports nothing of the server, so that it starts at once
    from aiohttp import web

    from tests.bot.online.fake_lichess import FakeLichess


def add_control(app: web.Application, fake: FakeLichess) -> None:
    from aiohttp import web

    from tests.bot.online.fake_lichess_rules import error

    async def body(request: web.Request) -> dict[str, Any]:
        text = await request.text()
        data = json.loads(text) if text.strip() else {}
        if not isinstance(data, dict):
            raise ValueError("the body is a JSON object")
        return data

    def handled(action: Any) -> Any:
        async def route(request: web.Request) -> web.Response:
            try:
                return web.json_response(action(request, await body(request)))
            except (ValueError, KeyError, TypeError) as exc:
                return error(400, f"{exc.__class__.__name__}: {exc}")

        return route

    def state(_: web.Request, __: dict[str, Any]) -> dict[str, Any]:
        world = fake.world
        return {"now": fake.clock.time(), "users": [asdict(u) for u in world.users.values()],
                "challenges": [asdict(c) for c in world.challenges.values()], "games": [asdict(g) for g in world.games.values()],
                "requests": [asdict(s) for s in fake.rules.seen], "problems": fake.problems}  # fmt: skip

    def board(request: web.Request, game: bool) -> str:
        """The id in the path, or ``@name``: that player's newest open challenge (or game)."""
        named = request.match_info["id"]
        return fake.world.latest_of(named, fake.clock.ms(), game) if named.startswith("@") else named

    def start(request: web.Request, data: dict[str, Any]) -> dict[str, Any]:
        return asdict(fake.start_game(board(request, game=False), **data))

    def play(_: web.Request, data: dict[str, Any]) -> dict[str, Any]:
        clock, rated = data.get("clock"), data.get("rated")
        return asdict(fake.play_game(str(data["white"]), str(data["black"]), None if clock is None else str(clock),
                                     None if rated is None else bool(rated), str(data.get("variant", "standard"))))  # fmt: skip

    def end(request: web.Request, data: dict[str, Any]) -> dict[str, Any]:
        return asdict(fake.end_game(board(request, game=True), data["status"], data.get("winner"), data.get("plies")))

    def clock(_: web.Request, data: dict[str, Any]) -> dict[str, float]:
        fake.clock.set(float(data["set"])) if "set" in data else fake.clock.advance(float(data["advance"]))
        return {"now": fake.clock.time()}

    app.router.add_get("/_fake/state", handled(state))
    app.router.add_post("/_fake/users", handled(lambda _, d: asdict(fake.add_user(d["name"], bool(d.get("closed", False))))))
    app.router.add_post("/_fake/users/{name}/close", handled(lambda r, _: fake.close_account(r.match_info["name"]) or {"ok": True}))
    app.router.add_post("/_fake/login", handled(lambda _, d: fake.log_in_as(d.get("user")) or {"ok": True}))
    app.router.add_post("/_fake/challenges/{id}/start", handled(start))
    app.router.add_post("/_fake/games", handled(play))
    app.router.add_post("/_fake/games/{id}/end", handled(end))
    app.router.add_post("/_fake/expire", handled(lambda _, d: {"expired": fake.expire(d.get("id"))}))
    app.router.add_post("/_fake/fail", handled(lambda _, d: fake.fail_next(int(d.get("count", 1)), int(d.get("status", 503))) or {"ok": True}))
    app.router.add_post("/_fake/clock", handled(clock))
    app.router.add_post("/_fake/hold", handled(lambda _, d: fake.hold(int(d.get("count", 1))) or {"ok": True}))


def _words(pairs: list[str]) -> dict[str, Any]:
    """``white=bert plies=3`` as a JSON body (digits as numbers, true/false as booleans)."""
    data: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        data[key] = int(value) if value.isdigit() else {"true": True, "false": False}.get(value, value)
    return data


def request_for(words: list[str]) -> tuple[str, str, dict[str, Any]]:
    """A command line's control request: method, path, body."""
    command, rest = words[0], words[1:]
    if command == "state":
        return "GET", "/_fake/state", {}
    if command == "start":
        return "POST", f"/_fake/challenges/{rest[0]}/start", _words(rest[1:])
    if command == "play":
        return "POST", "/_fake/games", _words(rest)
    if command == "end":
        data = {"status": rest[1], **({"winner": rest[2]} if len(rest) > 2 and "=" not in rest[2] else {})}
        return "POST", f"/_fake/games/{rest[0]}/end", {**data, **_words([w for w in rest[2:] if "=" in w])}
    if command == "user":
        return "POST", "/_fake/users", {"name": rest[0]}
    if command == "close":
        return "POST", f"/_fake/users/{rest[0]}/close", {}
    if command == "login":
        return "POST", "/_fake/login", {"user": rest[0] if rest and rest[0] != "none" else None}
    if command == "expire":
        return "POST", "/_fake/expire", {"id": rest[0]} if rest else {}
    if command == "fail":
        status = 0 if rest[1:2] == ["drop"] else int(rest[1]) if len(rest) > 1 else 503
        return "POST", "/_fake/fail", {"count": int(rest[0]) if rest else 1, "status": status}
    if command == "hold":
        return "POST", "/_fake/hold", {"count": int(rest[0]) if rest else 1}
    if command == "clock":  # seconds forward, or a moment (ISO; without an offset: UTC)
        if re.fullmatch(r"[0-9]+(\.[0-9]+)?", rest[0]):
            return "POST", "/_fake/clock", {"advance": float(rest[0])}
        moment = datetime.fromisoformat(rest[0])
        return "POST", "/_fake/clock", {"set": (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp()}
    raise SystemExit(f"unknown command {command!r}: state, start, play, end, user, close, login, expire, fail, hold, clock")


def main(argv: list[str] | None = None) -> None:
    words = sys.argv[1:] if argv is None else argv
    if len(words) < 2:
        raise SystemExit(__doc__)
    method, path, data = request_for(words[1:])
    sent = urllib.request.Request(words[0].rstrip("/") + path, method=method, data=json.dumps(data).encode() if method == "POST" else None,
                                  headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(sent, timeout=10) as answer:
            print(answer.read().decode())
    except urllib.error.HTTPError as refused:
        raise SystemExit(refused.read().decode()) from None
    except urllib.error.URLError as unreachable:
        raise SystemExit(f"no fake lichess at {words[0]}: {unreachable.reason}") from None


if __name__ == "__main__":
    main()
