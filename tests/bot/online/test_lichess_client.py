"""The client of lichess (``bot/core/online/lichess.py``) against the strict fake: what it sends is what lichess
takes (the ``lichess`` fixture fails a test on any rule broken), what it reads is typed, and it keeps lichess's
rules: one request at a time, a minute's pause after a 429 (on the fake's frozen clock, which is the client's
too: the minute costs the test nothing), a 5xx or a lost connection as ``Unavailable``."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.online.lichess import Lichess
from bot.core.online.lichess_answers import RateLimited, Refused, TimeControl, Unavailable
from bot.core.online.pkce import challenge_of, new_state, new_verifier
from tests.bot.adapters.local_server import free_port
from tests.bot.online.fake_lichess import FakeLichess, lichess, strict_lichess  # noqa: F401  (the fixture)
from tests.bot.online.fake_lichess_state import FakeChallenge, World

CLOCK = TimeControl(900, 10)


def client(fake: FakeLichess) -> Lichess:
    return Lichess(fake.url, fake.bot_token, timing=fake.clock)


def in_hours(fake: FakeLichess, hours: float) -> datetime:
    return datetime.fromtimestamp(fake.clock.time(), timezone.utc) + timedelta(hours=hours)


async def test_an_open_challenge_is_made_for_the_two_players_with_the_colours_and_clock(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = client(lichess)
    made = await bot.create_challenge("Anna", "Bert", CLOCK, rated=False, name="Schaakclub ronde 3 bord 1", expires_at=in_hours(lichess, 4))
    await bot.close()
    kept = lichess.world.challenges[made.id]
    assert (kept.white, kept.black, kept.limit, kept.increment, kept.rated) == ("anna", "bert", 900, 10, False)
    assert kept.name == "Schaakclub ronde 3 bord 1" and kept.creator == "clubbot"
    assert kept.expires_ms == int(in_hours(lichess, 4).timestamp() * 1000)
    assert (made.white, made.black, made.clock, made.rated, made.status) == ("anna", "bert", CLOCK, False, "created")
    assert made.url == f"{lichess.url}/{made.id}" and made.url_white.endswith("?color=white")
    [sent] = lichess.requests("/api/challenge/open")
    assert "users=Anna%2CBert" in sent.body  # white first


async def test_an_unknown_or_closed_account_is_refused_with_lichess_s_words(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert", closed=True)
    bot = client(lichess)
    with pytest.raises(Refused, match="nobody: no such user") as refused:
        await bot.create_challenge("Anna", "Nobody", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1))
    assert refused.value.status == 400
    with pytest.raises(Refused, match="account closed"):
        await bot.create_challenge("Anna", "Bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1))
    await bot.close()
    assert not lichess.world.challenges


async def test_a_cancelled_challenge_is_gone_and_a_second_cancel_says_so(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = client(lichess)
    made = await bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1))
    assert await bot.cancel_challenge(made.id) is True
    assert lichess.world.challenges[made.id].status == "canceled"
    assert await bot.cancel_challenge(made.id) is False
    await bot.close()


async def test_the_export_asks_for_at_most_300_ids_a_request_and_reads_every_game(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = client(lichess)
    made = [await bot.create_challenge("anna", "bert", CLOCK, rated=True, name=f"b{i}", expires_at=in_hours(lichess, 2)) for i in range(7)]
    for i, challenge in enumerate(made):
        lichess.start_game(challenge.id)
        if i % 2 == 0:
            lichess.end_game(challenge.id, "mate", "white")
    unknown = [f"z{i:07d}" for i in range(643)]  # ids lichess has no game for: left out
    games = await bot.export_games([c.id for c in made] + unknown)
    await bot.close()
    sizes = [len(s.body.split(",")) for s in lichess.requests("/api/games/export/_ids")]
    assert sizes == [300, 300, 50]
    assert sorted(g.id for g in games) == sorted(c.id for c in made)
    finished = [g for g in games if g.finished]
    assert len(finished) == 4 and all((g.status, g.winner, g.white, g.black, g.clock, g.rated) == ("mate", "white", "anna", "bert", CLOCK, True) for g in finished)
    assert all(g.status == "started" and g.winner is None for g in games if not g.finished)


async def test_who_moved_first_is_read_from_the_moves(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = client(lichess)
    made = [await bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 2)) for _ in range(2)]
    for challenge, plies in zip(made, (0, 1)):
        lichess.start_game(challenge.id)
        lichess.end_game(challenge.id, "noStart", plies=plies)
    games = {g.id: g for g in await bot.export_games([c.id for c in made])}
    await bot.close()
    nobody, white_only = games[made[0].id], games[made[1].id]
    assert (nobody.moved("white"), nobody.moved("black")) == (False, False)
    assert (white_only.moved("white"), white_only.moved("black")) == (True, False)


async def test_one_game_as_pgn_and_none_for_an_unknown_game(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = client(lichess)
    made = await bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 2))
    lichess.start_game(made.id)
    lichess.end_game(made.id, "resign", "black", plies=12)
    pgn = await bot.game_pgn(made.id)
    assert pgn is not None and '[White "Anna"]' in pgn and '[Result "0-1"]' in pgn and '[TimeControl "900+10"]' in pgn
    assert await bot.game_pgn("abcdefgh") is None
    both = await bot.export_pgn([made.id])
    await bot.close()
    assert both.count("[Event ") == 1 and f'[GameId "{made.id}"]' in both


async def test_users_status_asks_100_at_a_time_and_leaves_out_the_unknown(lichess: FakeLichess) -> None:
    for i in range(150):
        lichess.add_user(f"Player{i}")
    bot = client(lichess)
    found = await bot.users_status([f"player{i}" for i in range(150)] + ["nobody"])
    await bot.close()
    assert len(found) == 150 and found[0].name == "Player0"
    assert [len(parse_qs(s.query)["ids"][0].split(",")) for s in lichess.requests("/api/users/status")] == [100, 51]


async def test_after_a_429_no_request_goes_out_for_a_minute(lichess: FakeLichess) -> None:
    lichess.add_user("Anna")
    bot = client(lichess)
    lichess.fail_next(1, 429)
    with pytest.raises(RateLimited) as limited:
        await bot.users_status(["anna"])
    started = lichess.clock.time()
    assert limited.value.retry_at == pytest.approx(started + 60)
    assert bot.paused_for() == pytest.approx(60)
    assert [s.name for s in await bot.users_status(["anna"])] == ["Anna"]  # it waited by itself
    await bot.close()
    first, second = lichess.requests("/api/users/status")
    assert first.status == 429 and second.status == 200
    assert second.at - first.at >= 60  # the fake's own timestamps


async def test_never_two_requests_in_flight(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    lichess.rules.latency = 0.01
    bot = client(lichess)
    calls = [bot.users_status(["anna"]) for _ in range(10)]
    calls += [bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1)) for _ in range(5)]
    await asyncio.gather(*calls)
    await bot.close()
    assert len(lichess.requests()) == 15 and lichess.rules.most_in_flight == 1


async def test_a_5xx_is_unavailable_and_the_next_request_is_answered(lichess: FakeLichess) -> None:
    lichess.add_user("Anna")
    bot = client(lichess)
    lichess.fail_next(1, 503)
    with pytest.raises(Unavailable, match="503"):
        await bot.users_status(["anna"])
    assert len(await bot.users_status(["anna"])) == 1
    await bot.close()


async def test_a_token_lichess_does_not_know_is_refused(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = Lichess(lichess.url, "lip_revoked", timing=lichess.clock)
    with pytest.raises(Refused, match="No such token") as refused:
        await bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1))
    await bot.close()
    assert refused.value.status == 401 and not lichess.world.challenges


async def test_a_dropped_connection_or_no_answer_in_time_is_unavailable(lichess: FakeLichess) -> None:
    lichess.add_user("Anna"), lichess.add_user("Bert")
    bot = client(lichess)
    lichess.fail_next(1, 0)  # the connection closed without an answer (a POST: aiohttp retries no POST by itself)
    with pytest.raises(Unavailable, match="could not be reached"):
        await bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1))
    assert not lichess.world.challenges
    await bot.create_challenge("anna", "bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 1))
    await bot.close()
    slow = Lichess(lichess.url, lichess.bot_token, timing=lichess.clock, timeout=0.2)
    lichess.rules.latency = 0.5
    with pytest.raises(Unavailable, match="TimeoutError"):
        await slow.users_status(["anna"])
    await slow.close()
    while lichess.rules.in_flight.get(lichess.bot_token):  # lichess still answering the request given up on
        await asyncio.sleep(0.05)


async def test_after_a_request_given_up_on_the_next_waits_so_that_two_are_never_in_flight(lichess: FakeLichess) -> None:
    """A request the client stopped waiting for (its timeout) may still be in lichess's hands: the next one
    waits as long again (here on the real clock: lichess takes 0.3 s, the client waits 0.2 s), instead of
    going out at once beside it, which the fake counts as two requests in flight."""
    lichess.add_user("Anna")
    slow = Lichess(lichess.url, lichess.bot_token, timeout=0.2)
    lichess.rules.latency = 0.3
    try:
        with pytest.raises(Unavailable, match="TimeoutError"):
            await slow.users_status(["anna"])
        lichess.rules.latency = 0.0
        assert slow.paused_for() > 0.1
        await slow.users_status(["anna"])
    finally:
        await slow.close()
    assert lichess.problems == [], lichess.problems


async def test_lichess_unreachable_is_unavailable() -> None:
    bot = Lichess(f"http://127.0.0.1:{free_port()}", "lip_x", timeout=5)
    with pytest.raises(Unavailable, match="could not be reached"):
        await bot.users_status(["anna"])
    await bot.close()


async def test_log_in_with_lichess_reads_the_account_the_member_logged_in_as(lichess: FakeLichess) -> None:
    """The OAuth flow (PKCE, S256): the member logs in as Anna; the website exchanges the code with the
    verifier and reads the account from the member's token, never from what was typed."""
    lichess.add_user("Anna")
    bot = client(lichess)
    verifier, state = new_verifier(), new_state()
    link = bot.authorize_url("clubbot.example", "https://club.example/lichess/back", challenge_of(verifier), state)
    assert "scope" not in link and "code_challenge_method=S256" in link and verifier not in link  # no scope asked
    lichess.log_in_as("Anna")
    async with aiohttp.ClientSession() as browser:
        async with browser.get(link, allow_redirects=False) as answer:
            assert answer.status == 302
            back = answer.headers["Location"]
    query = dict(p.split("=", 1) for p in back.split("?", 1)[1].split("&"))
    assert back.startswith("https://club.example/lichess/back?") and query["state"] == state
    with pytest.raises(Refused, match="invalid_grant: hash of code_verifier does not match"):
        await bot.exchange_code(query["code"], new_verifier(), "https://club.example/lichess/back", "clubbot.example")
    lichess.log_in_as("Anna")
    async with aiohttp.ClientSession() as browser:
        async with browser.get(link, allow_redirects=False) as answer:
            query = dict(p.split("=", 1) for p in answer.headers["Location"].split("?", 1)[1].split("&"))
    token = await bot.exchange_code(query["code"], verifier, "https://club.example/lichess/back", "clubbot.example")
    assert (await bot.account(token)).username == "Anna"
    await bot.revoke(token)  # the bot keeps no member's token
    with pytest.raises(Refused, match="No such token"):
        await bot.account(token)
    with pytest.raises(Refused, match="invalid_grant"):  # a code is good once
        await bot.exchange_code(query["code"], verifier, "https://club.example/lichess/back", "clubbot.example")
    assert (await bot.account()).username == "ClubBot"  # the bot's own token
    await bot.close()
    [exchange, *_] = lichess.requests("/api/token")
    assert exchange.who == "anonymous"


async def test_a_member_who_cancels_the_login_comes_back_with_access_denied(lichess: FakeLichess) -> None:
    bot = client(lichess)
    lichess.log_in_as(None)
    link = bot.authorize_url("clubbot.example", "https://club.example/back", challenge_of(new_verifier()), "s1")
    async with aiohttp.ClientSession() as browser:
        async with browser.get(link, allow_redirects=False) as answer:
            back = answer.headers["Location"]
    assert "error=access_denied" in back and "state=s1" in back and "code=" not in back
    await bot.close()


async def test_a_game_other_than_the_one_made_says_how_it_differs(lichess: FakeLichess) -> None:
    """A game is the one that was made only with the two players in the right colours, the clock, the rated
    setting and standard chess (issue 43 §3); otherwise the differences are named for the director. The
    challenge's own game is always the one made; the others are games the players started themselves."""
    lichess.add_user("Anna"), lichess.add_user("Bert"), lichess.add_user("Carla")
    bot = client(lichess)
    made = [await bot.create_challenge("Anna", "Bert", CLOCK, rated=True, name="x", expires_at=in_hours(lichess, 2)) for _ in range(2)]
    lichess.start_game(made[0].id)
    played = [lichess.play_game("bert", "anna").id, lichess.play_game("Anna", "Bert", clock="10+0", rated=False).id,
              lichess.play_game("anna", "carla", clock="15+10", rated=True, variant="chess960").id]  # fmt: skip
    games = {g.id: g for g in await bot.export_games([c.id for c in made] + played)}
    await bot.close()
    assert [games[i].differences("Anna", "Bert", CLOCK, True) for i in [made[0].id, *played]] == [
        [], ["colours"], ["clock", "rated"], ["players", "variant"]]
    assert made[1].id not in games  # never started: no game


async def test_the_games_between_two_players_are_those_they_started_in_the_window(lichess: FakeLichess) -> None:
    """``games_between``: one request for the export of a user's games against one opponent (``vs``), created
    in the window, finished or still being played, most recent first; the contract holds its parameters."""
    for name in ("Anna", "Bert", "Carla"):
        lichess.add_user(name)
    bot = client(lichess)
    since = datetime.fromtimestamp(lichess.clock.time(), timezone.utc)
    lichess.clock.advance(60)
    first = lichess.play_game("bert", "anna", clock="15+10")
    lichess.end_game(first.id, "resign", "white")
    lichess.clock.advance(60)
    second = lichess.play_game("anna", "bert", clock="5+3", rated=True)  # still being played
    lichess.play_game("anna", "carla", clock="15+10")  # not against Bert
    until = datetime.fromtimestamp(lichess.clock.time(), timezone.utc)
    lichess.clock.advance(60)
    lichess.play_game("anna", "bert", clock="15+10")  # after the window
    found = await bot.games_between("Anna", "Bert", since, until)
    none_before = await bot.games_between("Anna", "Bert", since - timedelta(hours=2), since)
    await bot.close()
    assert [(g.id, g.white, g.black, g.status) for g in found] == [(second.id, "anna", "bert", "started"), (first.id, "bert", "anna", "resign")]
    assert none_before == []
    (asked, _) = lichess.requests("/api/games/user/Anna")
    assert "vs=Bert" in asked.query and "ongoing=true" in asked.query and asked.who == lichess.bot_token


def test_a_challenges_own_game_is_in_its_colours_only() -> None:
    """lichess gives an open challenge's game "the first username the white pieces": the fake refuses to make
    the challenge's game otherwise, naming the rule; a game in other colours is one the players start themselves."""
    world = World()
    world.add_user("Anna"), world.add_user("Bert")
    world.challenges["abcdefgh"] = FakeChallenge("abcdefgh", "clubbot", "anna", "bert", True, 900, 10, "standard", None, (), 0, 10**12)
    with pytest.raises(ValueError, match="the first username gets the white pieces"):
        world.start("abcdefgh", 1, white="bert", black="anna")
    with pytest.raises(ValueError, match="its clock"):
        world.start("abcdefgh", 1, limit=600)
    game = world.start("abcdefgh", 1, white="Anna", black="bert")
    assert (game.id, game.white, game.black) == ("abcdefgh", "anna", "bert")
    own = world.play("bert", "anna", 2)  # the clock and rated setting of their challenge
    assert own.id != "abcdefgh" and (own.white, own.black, own.limit, own.increment, own.rated) == ("bert", "anna", 900, 10, True)


@pytest.mark.parametrize(("text", "limit", "increment"), [("15+10", 900, 10), (" 90 + 30 ", 5400, 30), ("0,5+0", 30, 0), ("180+60", 10800, 60)])
def test_a_tempo_is_minutes_and_seconds(text: str, limit: int, increment: int) -> None:
    assert TimeControl.parse(text) == TimeControl(limit, increment)


@pytest.mark.parametrize("text", ["15", "15+", "15 10", "181+0", "15+61", "0.01+0", "-5+3", "15+10+5", "kwartier"])
def test_a_wrong_tempo_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        TimeControl.parse(text)


CHALLENGES = st.lists(st.tuples(st.text(min_size=1, max_size=60), st.integers(0, 10800), st.integers(0, 60), st.booleans(),
                                st.integers(1, 14 * 24 * 3600)), min_size=1, max_size=8)  # fmt: skip


@settings(max_examples=25)
@given(asked=CHALLENGES)
async def test_every_challenge_within_lichess_s_bounds_is_taken_as_asked(asked: list[tuple[str, int, int, bool, int]]) -> None:
    """Any name (accents, commas, ampersands, emoji), any clock lichess offers, rated or not, any expiry up to two
    weeks: lichess takes the request, and the challenge is the one asked for."""
    async with strict_lichess() as fake:
        fake.add_user("Anna"), fake.add_user("Bert")
        bot = client(fake)
        for name, limit, increment, rated, seconds in asked:
            expires = datetime.fromtimestamp(fake.clock.time() + seconds, timezone.utc)
            made = await bot.create_challenge("Anna", "Bert", TimeControl(limit, increment), rated=rated, name=name, expires_at=expires)
            kept = fake.world.challenges[made.id]
            assert (kept.name, kept.limit, kept.increment, kept.rated) == (name, limit, increment, rated)
            assert made.clock == TimeControl(limit, increment)
        await bot.close()
