"""The rules the fake Discord keeps besides answering (``FakeDiscord`` inherits them): every API request
checked against Discord's description (``discord_spec.py``), interactions answered once and within 3 s,
follow-up tokens for 15 minutes, and Discord's per-channel rate limit with its headers."""

from __future__ import annotations

import time
from typing import Any

from tests.bot.adapters.discord_limits import Rule
from tests.bot.adapters.refusals import RefusalLog
from tests.bot.adapters.discord_spec import CHECKED, PREFIX, check_answer, check_request, remembered


class DiscordRules:
    """Set by ``FakeDiscord.__init__``: what the rules keep."""

    requests: list[Any]
    problems: list[str]
    refusals: RefusalLog
    checked: int
    interactions: dict[str, list[Any]]
    token_lifetime: float
    time_shift: float
    channel_limit: int
    channel_period: float
    _posted: dict[str, list[float]]

    def _answer(self, r: Any) -> tuple[int, Any]:
        raise NotImplementedError

    def now(self) -> float:
        return time.monotonic() + self.time_shift

    def delivered(self, payload: dict[str, Any]) -> None:
        """An interaction Discord sent the bot: from now on it may be answered, once, within 3 s."""
        self.interactions[str(payload["id"])] = [self.now(), payload["token"], False]

    def _checked(self, r: Any, multipart: bool) -> tuple[int, Any]:
        """Answer a request, and keep every refusal in ``refusals`` (it fails the test that made it unless
        the test expects it: ``refusals.py``), with the rules it broke."""
        status, answer, broken = self._checked_answer(r, multipart)
        reason = f"{answer.get('code')} {answer.get('message')}" if isinstance(answer, dict) else ""
        self.refusals.record(f"{r.method} {r.path}", status, reason + (": " + "; ".join(broken) if broken else ""), r.arranged)
        return status, answer

    def _checked_answer(self, r: Any, multipart: bool) -> tuple[int, Any, list[str]]:
        """Refuse a request the spec refuses as Discord does (400, 50035 Invalid Form Body with each field's
        errors under its path, or the code of the rule broken: ``discord_limits.Rule``), else answer it; an
        answer of the fake's own that the description refuses is kept in ``problems`` and fails the test
        (the ``fake`` fixture)."""
        if not r.path.startswith(PREFIX):
            return (*self._answer(r), [])
        self.checked += 1
        CHECKED[0] += 1
        broken = remembered(check_request, r.method, r.path, r.query, r.json, multipart)
        other = [b for b in broken if isinstance(b, Rule) and b.code != 50035]
        if other:
            return 400, {"code": other[0].code, "message": other[0].message}, broken
        if broken:
            return 400, {"code": 50035, "message": "Invalid Form Body", "errors": field_errors(broken)}, broken
        status, answer = self._answer(r)
        if status < 300:
            self.problems += [f"the fake's {p}" for p in remembered(check_answer, r.method, r.path, status, answer)]
        return status, answer, []

    def _token(self, token: str) -> tuple[int, Any] | None:
        """A follow-up's or an edit's interaction token: known once the interaction was answered, for 15 minutes."""
        known = next((k for k in self.interactions.values() if k[1] == token), None)
        if known is None or not known[2]:
            return 404, {"code": 10015, "message": "Unknown Webhook"}
        if self.now() - known[0] > self.token_lifetime:
            return 401, {"code": 50027, "message": "Invalid Webhook Token"}
        return None

    def _rate_limit(self, r: Any, channel_id: str) -> tuple[int, Any] | None:
        """Discord's per-channel limit with its headers; over it, 429 with ``retry_after``."""
        now = self.now()
        posted = self._posted[channel_id] = [t for t in self._posted.get(channel_id, []) if t > now - self.channel_period]
        over = len(posted) >= self.channel_limit
        if not over:
            posted.append(now)
        reset_after = posted[0] + self.channel_period - now
        r.headers = {
            "X-RateLimit-Limit": str(self.channel_limit), "X-RateLimit-Remaining": str(self.channel_limit - len(posted)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}", "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"channel-{channel_id}",
        }  # fmt: skip
        if not over:
            return None
        r.headers.update({"Retry-After": str(max(1, round(reset_after))), "X-RateLimit-Scope": "user"})
        return 429, {"code": 0, "message": "You are being rate limited.", "retry_after": round(reset_after, 3), "global": False}



def field_errors(broken: list[str]) -> dict[str, Any]:
    """Discord's ``errors`` of an Invalid Form Body: each field's under its path, ``_errors`` at the end; a
    rule without a path at the top."""
    errors: dict[str, Any] = {}
    for rule in broken:
        node = errors
        for key in rule.field if isinstance(rule, Rule) else ():
            node = node.setdefault(key, {})
        words, code = (rule.words, rule.error) if isinstance(rule, Rule) else (str(rule), "INVALID")
        node.setdefault("_errors", []).append({"code": code, "message": words})
    return errors
