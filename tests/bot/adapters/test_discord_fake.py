"""The fake Discord refuses what Discord refuses, with the rule it broke (``discord_spec.py``: the official
OpenAPI description and the documented limits), and imitates Discord's stateful errors: 40060 (already
acknowledged), 10062 (no answer within 3 s), follow-up tokens that expire after 15 minutes, per-channel
rate limits (429 with its headers and ``retry_after``). Requests are sent as raw HTTP, so that nothing on
the way corrects them."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.bot.adapters.discord_world import ANNOUNCE, APP_ID, slash_payload
from tests.bot.adapters.fake_discord import FakeDiscord, fake  # noqa: F401
from tests.bot.adapters.refusals import expect_refusal

MESSAGES = f"/channels/{ANNOUNCE}/messages"


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None, **query: str) -> tuple[int, Any, dict[str, str]]:
    async with aiohttp.ClientSession() as session:
        async with session.request(method, fake.base + path, json=body, params=query) as answer:
            data = await answer.json() if answer.status != 204 else None
            return answer.status, data, dict(answer.headers)


async def refused(fake: FakeDiscord, method: str, path: str, body: Any = None, **query: str) -> list[str]:
    """The rules the request broke, as the fake keeps its refusal; Discord's answer was 400 Invalid Form Body.
    (Taken from the fake's refusals: this test wanted them.)"""
    status, data, _ = await call(fake, method, path, body, **query)
    (refusal,) = fake.refusals.take()
    assert (status, data["code"], data["message"], refusal.status) == (400, 50035, "Invalid Form Body", 400), (status, data)
    assert refusal.request == f"{method} /api/v10{path}" and refusal.reason.startswith("50035 Invalid Form Body: ")
    return [refusal.reason]


def button(custom_id: str = "clubbot:/x", label: str = "Ja") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def command(**changes: Any) -> dict[str, Any]:
    return {"name": "afmelden", "type": 1, "description": "Afmelden voor een ronde", **changes}


def option(name: str = "ronde", required: bool = False, **more: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "De ronde", "required": required, **more}


async def test_messages_are_held_to_discords_limits(fake: FakeDiscord) -> None:
    assert (await call(fake, "POST", MESSAGES, {"content": "x" * 2000}))[0] == 200
    assert any("2001 characters > 2000" in r for r in await refused(fake, "POST", MESSAGES, {"content": "x" * 2001}))
    row = {"type": 1, "components": [button()]}
    assert any("custom_id: 101 characters > 100" in r for r in await refused(
        fake, "POST", MESSAGES, {"content": "a", "components": [{"type": 1, "components": [button("c" * 101)]}]}))  # fmt: skip
    assert any("label: 81 characters > 80" in r for r in await refused(
        fake, "POST", MESSAGES, {"content": "a", "components": [{"type": 1, "components": [button(label="l" * 81)]}]}))  # fmt: skip
    assert any("6 items > 5" in r for r in await refused(
        fake, "POST", MESSAGES, {"content": "a", "components": [{"type": 1, "components": [button()] * 6}]}))  # fmt: skip
    assert any("6 action rows > 5" in r for r in await refused(fake, "POST", MESSAGES, {"content": "a", "components": [row] * 6}))
    assert any("nonce" in r for r in await refused(fake, "POST", MESSAGES, {"content": "a", "nonce": "n" * 26}))
    assert any("tts: str" in r for r in await refused(fake, "POST", MESSAGES, {"content": "a", "tts": "ja"}))
    assert any("query limit: 101 outside 1..100" in r for r in await refused(fake, "GET", MESSAGES, limit="101"))
    assert any("an empty message" in r for r in await refused(fake, "POST", MESSAGES, {"content": ""}))
    assert any("no such endpoint" in r for r in await refused(fake, "POST", f"/channels/{ANNOUNCE}/pins"))


async def test_application_commands_are_held_to_discords_rules(fake: FakeDiscord) -> None:
    path = f"/applications/{APP_ID}/commands"
    assert (await call(fake, "PUT", path, [command(options=[option(required=True), option("speler")])]))[0] == 200
    cases = [
        (command(name="Afmelden"), "is not lowercase"),
        (command(name="af melden"), "is not lowercase letters"),
        (command(description=""), "description must be 1-100"),
        (command(description="d" * 101), "101 characters > 100"),
        (command(options=[option(f"o{i}") for i in range(26)]), "26 items > 25"),
        (command(options=[option(choices=[{"name": f"c{i}", "value": str(i)} for i in range(26)])]), "26 items > 25"),
        (command(name_localizations={"nl-NL": "afmelden"}), "'nl-NL' is not a Discord locale"),
        (command(options=[option("speler"), option(required=True)]), "a required option after an optional one"),
        (command(options=[option(f"o{i}", description="d" * 100, choices=[
            {"name": "c" * 100, "value": "v" * 100} for _ in range(5)]) for i in range(5)]), "> 4000"),  # fmt: skip
    ]
    for body, rule in cases:
        broken = await refused(fake, "PUT", path, [body])
        assert any(rule in r for r in broken), (rule, broken)


def link(url: str | None = "https://example.org", **more: Any) -> dict[str, Any]:
    return {"type": 2, "style": 5, "label": "Site", **({"url": url} if url else {}), **more}


def embed(characters: int) -> dict[str, Any]:
    fields = [{"name": "n" * 25, "value": "v" * 25, "inline": False}]
    return {"type": "rich", "title": "t" * 100, "description": "d" * (characters - 150), "fields": fields}


async def test_components_and_embeds_are_held_to_the_rules_discord_documents(fake: FakeDiscord) -> None:
    """Each refused as Discord refuses it (400, 50035 Invalid Form Body, Discord's words for the field); what
    keeps just inside the rule passes."""
    row = lambda *buttons: {"type": 1, "components": list(buttons)}  # noqa: E731
    fine = {"content": "a", "components": [row(button("clubbot:/a"), button("clubbot:/b"), link())], "embeds": [embed(3000), embed(3000)]}
    assert (await call(fake, "POST", MESSAGES, fine))[0] == 200
    def under(*path: str, words: str, code: str = "INVALID") -> dict[str, Any]:
        errors: dict[str, Any] = {"_errors": [{"code": code, "message": words}]}
        for key in reversed(path):
            errors = {key: errors}
        return errors

    cases = [
        ({"components": [row(button("clubbot:/a")), row(button("clubbot:/a", label="Nee"))]},
         under("components", "1", "components", "0", "custom_id", words="Component custom id cannot be duplicated", code="COMPONENT_CUSTOM_ID_DUPLICATED")),
        ({"components": [row(link(None, custom_id="clubbot:/site"))]},
         under("components", "0", "components", "0", words="Link buttons must have a url, and cannot have a custom_id")),
        ({"components": [row(link(custom_id="clubbot:/site"))]},
         under("components", "0", "components", "0", words="Link buttons must have a url, and cannot have a custom_id")),
        ({"components": [row(button(), {"type": 2, "style": 1, "label": "Ja"})]},
         under("components", "0", "components", "1", "custom_id", words="A custom id is required")),
        ({"embeds": [embed(3000), embed(3001)]}, under("embeds", words="Embed size exceeds maximum size of 6000")),
    ]  # fmt: skip
    for body, errors in cases:
        status, data, _ = await call(fake, "POST", MESSAGES, {"content": "a", **body})
        (refusal,) = fake.refusals.take()
        assert (status, data) == (400, {"code": 50035, "message": "Invalid Form Body", "errors": errors}), data
        assert refusal.reason.startswith("50035 Invalid Form Body: POST /channels/{channel_id}/messages: body.")
    interaction = slash_payload("stand", "Anna")  # in an interaction's answer the message is its "data"
    fake.delivered(interaction)
    answer = {"type": 4, "data": {"content": "a", "components": [row(button(), button())]}}
    status, data, _ = await call(fake, "POST", f"/interactions/{interaction['id']}/{interaction['token']}/callback", answer)
    assert "data" in data["errors"] and "Component custom id cannot be duplicated ('clubbot:/x')" in fake.refusals.take()[0].reason


async def test_a_bulk_overwrite_is_held_to_100_commands_with_unique_names(fake: FakeDiscord) -> None:
    path = f"/applications/{APP_ID}/commands"
    hundred = [command(name=f"c{i}") for i in range(100)]
    assert (await call(fake, "PUT", path, hundred))[0] == 200
    assert (await call(fake, "PUT", path, [command(), {**command(), "type": 2, "description": ""}]))[0] == 200  # a user command may share it
    status, data, _ = await call(fake, "PUT", path, [*hundred, command(name="c100")])
    assert (status, data) == (400, {"code": 30032, "message": "Maximum number of application commands reached (100)"})
    assert fake.refusals.take()[0].reason.startswith("30032 Maximum number of application commands reached (100): PUT")
    status, data, _ = await call(fake, "PUT", path, [command(), command(description="Nog een keer")])
    unique = {"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": "Application command names must be unique"}
    assert (status, data) == (400, {"code": 50035, "message": "Invalid Form Body", "errors": {"_errors": [unique]}})
    assert "Application command names must be unique (/afmelden, type 1, 2 times)" in fake.refusals.take()[0].reason


async def test_interactions_are_answered_once_within_3_seconds_and_followed_up_for_15_minutes(fake: FakeDiscord) -> None:
    """(Each refusal expected as the test makes it: ``expect_refusal``.)"""
    for refusal in ("callback 400 40060 ", "callback 404 10062 ", "404 10015 Unknown Webhook", "401 50027 Invalid Webhook Token"):
        expect_refusal(refusal)
    first, late, never = (slash_payload("stand", "Anna") for _ in range(3))
    for payload in (first, late):
        fake.delivered(payload)
    answer = {"type": 4, "data": {"content": "Stand"}}
    assert (await call(fake, "POST", f"/interactions/{first['id']}/{first['token']}/callback", answer))[0] == 200
    status, data, _ = await call(fake, "POST", f"/interactions/{first['id']}/{first['token']}/callback", answer)
    assert (status, data["code"]) == (400, 40060)
    status, data, _ = await call(fake, "POST", f"/interactions/{never['id']}/{never['token']}/callback", answer)
    assert (status, data["code"]) == (404, 10062)
    fake.time_shift += 3.1
    status, data, _ = await call(fake, "POST", f"/interactions/{late['id']}/{late['token']}/callback", answer)
    assert (status, data["code"]) == (404, 10062)
    follow_up = f"/webhooks/{APP_ID}/{first['token']}"
    assert (await call(fake, "POST", follow_up, {"content": "meer"}))[0] == 200
    status, data, _ = await call(fake, "POST", f"/webhooks/{APP_ID}/{late['token']}", {"content": "meer"})
    assert (status, data["code"]) == (404, 10015)  # never acknowledged
    fake.time_shift += 15 * 60
    status, data, _ = await call(fake, "POST", follow_up, {"content": "te laat"})
    assert (status, data["code"]) == (401, 50027)
    status, data, _ = await call(fake, "PATCH", follow_up + "/messages/@original", {"content": "te laat"})
    assert (status, data["code"]) == (401, 50027)


async def test_a_channel_allows_5_posts_in_5_seconds_then_429_with_its_headers(fake: FakeDiscord) -> None:
    for i in range(5):
        status, _, headers = await call(fake, "POST", MESSAGES, {"content": str(i)})
        assert status == 200 and headers["X-RateLimit-Remaining"] == str(4 - i) and headers["X-RateLimit-Limit"] == "5"
        assert float(headers["X-RateLimit-Reset-After"]) <= 5.0 and headers["X-RateLimit-Bucket"]
    status, data, headers = await call(fake, "POST", MESSAGES, {"content": "6"})
    assert status == 429 and data["global"] is False and 0 < data["retry_after"] <= 5.0
    assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Scope"] == "user" and "Retry-After" in headers
    fake.time_shift += 5.0
    assert (await call(fake, "POST", MESSAGES, {"content": "7"}))[0] == 200
    assert len(fake.channel_posts(ANNOUNCE)) == 6


async def test_autocomplete_offers_at_most_25_choices(fake: FakeDiscord) -> None:
    payload = slash_payload("afmelden", "Anna")
    fake.delivered(payload)
    path = f"/interactions/{payload['id']}/{payload['token']}/callback"
    choices = [{"name": f"Ronde {i}", "value": str(i)} for i in range(26)]
    assert any("26 items > 25" in r for r in await refused(fake, "POST", path, {"type": 8, "data": {"choices": choices}}))
