"""The fake lichess refuses what lichess refuses (issue 43 §4), each rule once, named; and it answers lichess's
refusals of state (an unknown or closed account, an unknown challenge, a code that is not good) as lichess
does, without counting them as the bot's mistakes. Raw requests here, not the client: the fake must catch a
request the client would never send."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from typing import Any

import aiohttp
import pytest

from tests.bot.online.fake_lichess import FakeLichess, lichess  # noqa: F401  (the fixture)

FORM = "application/x-www-form-urlencoded"
GOOD_OPEN = {"rated": "true", "clock.limit": "900", "clock.increment": "10", "users": "anna,bert", "name": "Club 1.1"}


async def send(fake: FakeLichess, method: str, path: str, *, token: str | None = "bot", form: dict[str, str] | None = None,
               text: str | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:  # fmt: skip
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {fake.bot_token if token == 'bot' else token}"
    data: Any = form
    if text is not None:
        data = text.encode()
        sent.setdefault("Content-Type", "text/plain")
    async with aiohttp.ClientSession() as session:
        async with session.request(method, fake.url + path, data=data, headers=sent, allow_redirects=False) as answer:
            body = await answer.text()
            return answer.status, body


async def broken(fake: FakeLichess, request: Awaitable[tuple[int, Any]], rule: str, status: int = 400) -> None:
    """The request is answered ``status`` and breaks exactly the rule named (then forgotten, so the test passes)."""
    answered, body = await request
    found, fake.problems[:] = list(fake.problems), []
    assert answered == status, (answered, body)
    assert len(found) == 1 and rule in found[0], found


CONTRACT = [  # (method, path, what is sent, the rule named)
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "clock.limit": "10801"}}, "form clock.limit: 10801 outside 0..10800"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "clock.increment": "61"}}, "form clock.increment: 61 outside 0..60"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "clock.limit": "15+10"}}, "form clock.limit: '15+10' is not a whole number"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "users": "anna,bert,carla"}}, "form users: 3 items > 2"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "users": "anna"}}, "form users: 1 items < 2"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "rated": "yes"}}, "form rated: 'yes' is not true or false"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "variant": "chess"}}, "form variant: 'chess' is not one of"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "color": "white"}}, "form color: not a parameter of this endpoint"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "days": "4"}}, "form days: '4' is not one of"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "rules": "noRematch,noTakebacks"}}, "form rules: 'noTakebacks' is not one of"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "rules": "noAbort"}}, "noAbort is for lichess's administrators only"),
    ("POST", "/api/challenge/open", {"form": {**GOOD_OPEN, "fen": "8/8/8/8/8/8/8/K6k w - - 0 1"}}, "a game from a position cannot be rated"),
    ("POST", "/api/challenge/open", {"text": "rated=true"}, "body must be application/x-www-form-urlencoded, not text/plain"),
    ("POST", "/api/challenge/abcdefgh/cancel", {"token": None}, "needs a token"),
    ("POST", "/api/challenge/open", {"form": GOOD_OPEN, "token": "lip_a-b"}, "Authorization must be 'Bearer '"),
    ("POST", "/api/games/export/_ids", {"text": ",".join(f"g{i:07d}" for i in range(301))}, "body ids: 301 items > 300"),
    ("POST", "/api/games/export/_ids", {"text": "abcdefgh", "headers": {"Accept": "application/json"}}, "Accept 'application/json' is not one of"),
    ("POST", "/api/games/export/_ids", {"text": ""}, "body ids: required, missing"),
    ("POST", "/api/games/export/_ids?moves=1", {"text": "abcdefgh"}, "query moves: '1' is not true or false"),
    ("POST", "/api/stream/games-by-users", {"text": ",".join(f"user{i}" for i in range(301))}, "body users: 301 items > 300"),
    ("GET", "/api/games/user/anna?vs=bert&max=0", {"headers": {"Accept": "application/x-ndjson"}}, "query max: 0 outside 1.."),
    ("GET", "/api/games/user/anna?since=1000", {"headers": {"Accept": "application/x-ndjson"}}, "query since: 1000 outside 1356998400070.."),
    ("GET", "/api/games/user/anna?sort=newest", {"headers": {"Accept": "application/x-ndjson"}}, "query sort: 'newest' is not one of"),
    ("GET", "/api/games/user/anna?ongoing=yes", {"headers": {"Accept": "application/x-ndjson"}}, "query ongoing: 'yes' is not true or false"),
    ("GET", "/api/games/user/anna", {"headers": {"Accept": "application/json"}}, "Accept 'application/json' is not one of"),
    ("GET", "/api/games/user/anna?opponent=bert", {}, "query opponent: not a parameter of this endpoint"),
    ("GET", "/api/users/status?ids=" + ",".join(f"user{i}" for i in range(101)), {}, "query ids: 101 items > 100"),
    ("GET", "/api/users/status", {}, "query ids: required, missing"),
    ("GET", "/game/export/abcdefg", {}, "path gameId: 7 characters, must be 8..8"),
    ("GET", "/game/export/abcdefgh", {"headers": {"Accept": "application/x-ndjson"}}, "Accept 'application/x-ndjson' is not one of"),
    ("GET", "/api/account", {"token": None}, "GET /api/account: needs a token"),
    ("POST", "/api/token", {"form": {"grant_type": "authorization_code", "code": "x", "code_verifier": "y", "redirect_uri": "http://c/", "client_id": "c"}},
     "sent a token where none belongs"),
    ("POST", "/api/token", {"token": None, "form": {"grant_type": "password", "code": "x", "code_verifier": "y", "redirect_uri": "http://c/", "client_id": "c"}},
     "form grant_type: 'password' must be 'authorization_code'"),
    ("POST", "/api/token", {"token": None, "form": {"grant_type": "authorization_code", "code": "x", "redirect_uri": "http://c/", "client_id": "c"}},
     "form code_verifier: required, missing"),
    ("GET", "/oauth?response_type=code&client_id=c&redirect_uri=http://c/&code_challenge_method=plain&code_challenge=abc", {"token": None},
     "query code_challenge_method: 'plain' must be 'S256'"),
    ("GET", "/oauth?response_type=code&client_id=c&redirect_uri=http://c/&code_challenge_method=S256", {"token": None},
     "query code_challenge: required, missing"),
    ("GET", "/api/challenge/open", {}, "method not allowed here"),
    ("GET", "/api/tournament", {}, "no such endpoint in the description"),
]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "sent", "rule"), CONTRACT, ids=[c[3][:50] for c in CONTRACT])
async def test_the_fake_refuses_what_lichess_refuses(lichess: FakeLichess, method: str, path: str, sent: dict[str, Any], rule: str) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    status = 404 if "no such endpoint" in rule or "not allowed" in rule else 400
    await broken(lichess, send(lichess, method, path, **{"token": "bot", **sent}), rule, status)


async def test_a_good_open_challenge_is_taken(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    status, _ = await send(lichess, "POST", "/api/challenge/open", form=GOOD_OPEN)
    assert status == 200 and not lichess.problems
    [made] = lichess.world.challenges.values()
    assert (made.white, made.black, made.limit, made.increment, made.rated, made.name) == ("anna", "bert", 900, 10, True, "Club 1.1")


async def test_an_expiry_past_two_weeks_is_refused(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    late = lichess.clock.ms() + 14 * 24 * 3600 * 1000 + 1000
    await broken(lichess, send(lichess, "POST", "/api/challenge/open", form={**GOOD_OPEN, "expiresAt": str(late)}), "more than 2 weeks after creation")


async def test_two_requests_in_flight_from_one_token_break_the_rule(lichess: FakeLichess) -> None:
    lichess.rules.latency = 0.2  # both are surely in flight together
    answers = await asyncio.gather(*(send(lichess, "GET", "/api/users/status?ids=anna") for _ in range(2)))
    assert [a[0] for a in answers] == [200, 200]
    found, lichess.problems[:] = list(lichess.problems), []
    assert found == ["GET /api/users/status: a second request while one was in flight (lichess: only make one request at a time)"]
    assert lichess.rules.most_in_flight == 2


async def test_a_cancel_needs_a_token_with_the_challenge_scope(lichess: FakeLichess) -> None:
    """The description's security for a challenge's cancel: OAuth2 with challenge:write, bot:play or board:play.
    A token without one (a member's, from "log in with lichess", which asks no scope) is refused 403 and counted
    against the bot; the bot's own token (challenge:write, as config.example.toml asks) is not."""
    lichess.add_user("Anna"), lichess.add_user("Bert")
    made = await send(lichess, "POST", "/api/challenge/open", form={"users": "anna,bert", "clock.limit": "900",
                                                                     "clock.increment": "10"})  # fmt: skip
    assert made[0] == 200, made
    challenge = json.loads(made[1])["id"]
    bare = lichess.world.add_token("anna")
    refused = await send(lichess, "POST", f"/api/challenge/{challenge}/cancel", token=bare)
    assert refused[0] == 403
    found, lichess.problems[:] = list(lichess.problems), []
    assert found == ["POST /api/challenge/{challengeId}/cancel: the token has none of the scopes challenge:write, bot:play, "
                     "board:play (tags/challenges/api-challenge-challengeId-cancel.yaml)"]  # fmt: skip
    assert (await send(lichess, "POST", f"/api/challenge/{challenge}/cancel"))[0] == 200


async def test_a_request_within_the_minute_after_a_429_breaks_the_rule(lichess: FakeLichess) -> None:
    lichess.fail_next(1, 429)
    assert (await send(lichess, "GET", "/api/users/status?ids=anna"))[0] == 429
    assert not lichess.problems  # the 429 itself is lichess's doing, not the bot's
    lichess.clock.advance(59)
    await broken(lichess, send(lichess, "GET", "/api/users/status?ids=anna"), "sent 59.0 s after a 429 (lichess: wait a minute", 429)
    lichess.clock.advance(1)
    assert (await send(lichess, "GET", "/api/users/status?ids=anna"))[0] == 200 and not lichess.problems


async def test_lichess_down_on_demand_is_a_5xx(lichess: FakeLichess) -> None:
    lichess.fail_next(2, 502)
    assert [(await send(lichess, "GET", "/api/users/status?ids=anna"))[0] for _ in range(3)] == [502, 502, 200]
    assert not lichess.problems


async def test_refusals_of_state_are_lichess_s_not_the_bot_s(lichess: FakeLichess) -> None:
    """An unknown or a closed account, a challenge lichess does not know: answered as lichess does, no rule broken."""
    lichess.add_user("Anna"), lichess.add_user("Bert", closed=True)
    status, body = await send(lichess, "POST", "/api/challenge/open", form={**GOOD_OPEN, "users": "anna,nobody"})
    assert status == 400 and "nobody: no such user" in body
    status, body = await send(lichess, "POST", "/api/challenge/open", form=GOOD_OPEN)
    assert status == 400 and "bert: account closed" in body
    assert (await send(lichess, "POST", "/api/challenge/abcdefgh/cancel"))[0] == 404
    assert (await send(lichess, "GET", "/game/export/abcdefgh"))[0] == 404
    status, body = await send(lichess, "GET", "/api/users/status?ids=anna,bert,nobody")
    assert status == 200 and '"anna"' in body and "bert" not in body and "nobody" not in body
    assert not lichess.problems and not lichess.world.challenges


async def test_an_expired_challenge_is_gone_and_plays_no_game(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    expires = lichess.clock.ms() + 3600 * 1000
    assert (await send(lichess, "POST", "/api/challenge/open", form={**GOOD_OPEN, "expiresAt": str(expires)}))[0] == 200
    [made] = lichess.world.challenges.values()
    lichess.clock.advance(3600)
    with pytest.raises(ValueError, match="expired"):
        lichess.start_game(made.id)
    assert (await send(lichess, "POST", f"/api/challenge/{made.id}/cancel"))[0] == 404
    assert (await send(lichess, "GET", f"/game/export/{made.id}"))[0] == 404


async def test_games_end_as_a_test_asks_and_say_who_moved(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    ids = []
    for _ in range(3):
        await send(lichess, "POST", "/api/challenge/open", form=GOOD_OPEN)
    ids = list(lichess.world.challenges)
    for game_id in ids:
        lichess.start_game(game_id)
    lichess.end_game(ids[0], "outoftime", "black", plies=40)
    lichess.end_game(ids[1], "noStart", plies=1)
    with pytest.raises(ValueError, match="names a winner"):
        lichess.end_game(ids[2], "resign")
    with pytest.raises(ValueError, match="has no winner"):
        lichess.end_game(ids[2], "draw", "white")
    status, body = await send(lichess, "POST", "/api/games/export/_ids", text=",".join(ids), headers={"Accept": "application/x-ndjson"})
    assert status == 200 and '"status": "outoftime"' in body and '"winner": "black"' in body
    assert '"status": "noStart"' in body and '"moves": "Nf3"' in body and '"status": "started"' in body


def test_the_fake_s_answers_are_held_to_the_description_too() -> None:
    """The check of the fake's own answers (run on every answer it gives) can fail: an answer lacking what the
    description requires is named."""
    from tests.bot.online.lichess_contract import answer_problems

    found = answer_problems("POST", "/api/challenge/open", [{"id": "abcdefgh", "status": "made"}])
    assert "the fake's answer to POST /api/challenge/open: required 'urlWhite' missing" in found
    assert "the fake's answer to POST /api/challenge/open: status 'made' is not a ChallengeStatus" in found
    assert len(found) == 13  # the 12 fields besides id and status, and the status
    game = {"id": "abcdefgh", "rated": True, "variant": "standard", "speed": "rapid", "perf": "rapid", "createdAt": 1,
            "lastMoveAt": 2, "status": "won", "players": {"white": {"user": {"id": "a", "name": "A"}, "rating": 1500}, "black": {}}}  # fmt: skip
    assert answer_problems("POST", "/api/games/export/_ids", [game]) == [
        "the fake's answer to POST /api/games/export/_ids: status 'won' is not a GameStatusName",
        "the fake's answer to POST /api/games/export/_ids: players.black lacks user or rating",
    ]


async def test_the_stream_of_games_by_users_tells_of_games_started_and_ended_between_them(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert"), lichess.add_user("Carla")
    for users in ("anna,bert", "anna,carla"):
        await send(lichess, "POST", "/api/challenge/open", form={**GOOD_OPEN, "users": users})
    ours, theirs = list(lichess.world.challenges)
    lichess.start_game(ours)
    async with aiohttp.ClientSession() as session:
        async with session.post(lichess.url + "/api/stream/games-by-users?withCurrentGames=true", data=b"anna,bert",
                                headers={"Content-Type": "text/plain", "Authorization": f"Bearer {lichess.bot_token}"}) as stream:  # fmt: skip
            assert stream.status == 200 and stream.content_type == "application/x-ndjson"
            first = json.loads(await stream.content.readline())
            lichess.start_game(theirs)  # Carla is not followed: not told
            lichess.end_game(ours, "resign", "black")
            second = json.loads(await stream.content.readline())
    assert (first["id"], first["statusName"], first["status"]) == (ours, "started", 20)
    assert (second["id"], second["statusName"], second["status"], second["winner"]) == (ours, "resign", 31, "black")
    assert second["players"] == {"white": {"userId": "anna", "rating": 1500}, "black": {"userId": "bert", "rating": 1500}}


async def test_a_request_while_a_stream_is_open_is_a_second_request_in_flight(lichess: FakeLichess) -> None:
    """The description's "one request at a time" makes no exception for a stream (docs/online.md: why the
    results are read by the export of games by ids)."""
    async with aiohttp.ClientSession() as session:
        async with session.post(lichess.url + "/api/stream/games-by-users", data=b"anna,bert",
                                headers={"Content-Type": "text/plain", "Authorization": f"Bearer {lichess.bot_token}"}) as stream:  # fmt: skip
            assert stream.status == 200
            await broken(lichess, send(lichess, "GET", "/api/users/status?ids=anna"), "a second request while one was in flight", 200)
    for _ in range(100):  # the stream closed by its reader is no longer in flight
        if not lichess.rules.in_flight.get(lichess.bot_token):
            break
        await asyncio.sleep(0.02)
    assert (await send(lichess, "GET", "/api/users/status?ids=anna"))[0] == 200 and not lichess.problems
