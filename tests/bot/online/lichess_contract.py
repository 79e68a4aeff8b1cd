"""What lichess accepts of the requests the bot makes: the contract the strict fake (``fake_lichess.py``) holds
every request to.

Written by the project from the facts of the official description of the Lichess API: OpenAPI 3.1, API
version 2.0.165, ``doc/specs/`` of lichess-org/api at commit f59dc805 (2026-08-22), kept for reference in
``/work/shared/reference/lichess-api/`` (``SOURCE``). Each endpoint names the file of the description it
comes from; the facts (paths, methods, parameters, their types, what is required, enums, limits, content
types) are the description's, the wording is ours. Where the description gives no limit (the challenge's
``name`` has no length in it), the contract holds none rather than guess one.

``check(method, path, query, headers, body)`` returns the rules a request breaks, each naming its rule
("POST /api/challenge/open: form clock.limit: 10801 outside 0..10800"); an empty list is a request lichess
takes. The rules that depend on time or on other requests (the minute after a 429, one request at a time)
are the fake's (``fake_lichess_rules.py``), since a single request cannot break them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from tests.bot.path_templates import fit

SOURCE = ("Lichess API description, OpenAPI 3.1, API version 2.0.165, lichess-org/api doc/specs at commit f59dc805 "
          "(2026-08-22)")  # fmt: skip
FORM = "application/x-www-form-urlencoded"
TEXT = "text/plain"
PGN = "application/x-chess-pgn"
JSON = "application/json"
NDJSON = "application/x-ndjson"
TOKEN = re.compile(r"[A-Za-z0-9_]+")  # the introduction's "Token format": access tokens and authorization codes
VARIANTS = ("standard", "chess960", "crazyhouse", "antichess", "atomic", "horde", "kingOfTheHill", "racingKings",
            "threeCheck", "fromPosition")  # fmt: skip  schemas/VariantKey.yaml
GAME_STATUSES = ("created", "started", "aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat",
                 "noStart", "unknownFinish", "insufficientMaterialClaim", "variantEnd")  # fmt: skip  schemas/GameStatusName.yaml
GAME_STATUS_IDS = {"created": 10, "started": 20, "aborted": 25, "mate": 30, "resign": 31, "stalemate": 32, "timeout": 33,
                   "draw": 34, "outoftime": 35, "cheat": 36, "noStart": 37, "unknownFinish": 38,
                   "insufficientMaterialClaim": 39, "variantEnd": 60}  # fmt: skip  schemas/GameStatusId.yaml (same order)
CHALLENGE_STATUSES = ("created", "offline", "canceled", "declined", "accepted")  # schemas/ChallengeStatus.yaml
OPEN_CHALLENGE_DAYS = ("1", "2", "3", "5", "7", "10", "14")
RULES = ("noRematch", "noGiveTime", "noClaimWin", "noEarlyDraw", "noAbort")
TWO_WEEKS_MS = 14 * 24 * 3600 * 1000  # expiresAt: "can't be more than 2 weeks after creation"
EXPORT_IDS_MAX = 300  # api-games-export-_ids.yaml: up to 300 ids
STREAM_USERS_MAX = 300  # api-stream-games-by-users.yaml: up to 300 users
STATUS_IDS_MAX = 100  # api-users-status.yaml: up to 100 ids
GAMES_SINCE_MIN = 1356998400070  # api-games-user-username.yaml: since and until, timestamps from 2013 on


@dataclass(frozen=True)
class Param:
    """One parameter: its kind ("string", "integer", "boolean", "list": values separated by commas), whether it
    is required, its allowed values or constant, its bounds (numbers), lengths (strings) or counts (lists)."""

    name: str
    kind: str = "string"
    required: bool = False
    enum: tuple[str, ...] = ()
    const: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    each: tuple[str, ...] = ()  # a list's allowed items (``rules``)


@dataclass(frozen=True)
class Endpoint:
    """One operation of the description: method, path template, where it is described, whether a token is
    needed ("required"), taken ("optional") or not sent at all ("none": the OAuth endpoints a member's browser
    or the token exchange use), its parameters, its body's content type and the answers it gives."""

    operation: str
    method: str
    path: str
    source: str
    auth: str = "optional"
    path_params: tuple[Param, ...] = ()
    query: tuple[Param, ...] = ()
    body_type: str | None = None
    form: tuple[Param, ...] = ()
    text_body: Param | None = None
    accept: tuple[str, ...] = ()  # the Accept values it serves, the first its default
    answers: str = JSON
    extra: tuple[str, ...] = field(default=())  # rules beyond single parameters, named for ``_extra_rules``
    scopes: tuple[str, ...] = ()  # its OAuth2 security: the token needs one of these scopes (none named: any token)


BOOLEAN = "boolean"
EXPORT_FLAGS = tuple(Param(name, BOOLEAN) for name in ("moves", "pgnInJson", "tags", "clocks", "evals", "accuracy",
                                                       "opening", "division", "literate"))  # fmt: skip

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "challengeOpen", "POST", "/api/challenge/open", "tags/challenges/api-challenge-open.yaml",
        body_type=FORM,
        form=(
            Param("rated", BOOLEAN),
            Param("clock.limit", "integer", minimum=0, maximum=10800),
            Param("clock.increment", "integer", minimum=0, maximum=60),
            Param("days", "integer", enum=OPEN_CHALLENGE_DAYS),
            Param("variant", enum=VARIANTS),
            Param("fen"),
            Param("name"),
            Param("rules", "list", each=RULES),
            Param("users", "list", min_items=2, max_items=2),
            Param("expiresAt", "integer"),
        ),
        extra=("fen_only_unrated", "no_abort_is_admins"),  # and expiresAt within two weeks: expires_problem, on the fake's clock
    ),  # fmt: skip
    Endpoint(
        "challengeCancel", "POST", "/api/challenge/{challengeId}/cancel", "tags/challenges/api-challenge-challengeId-cancel.yaml",
        auth="required", path_params=(Param("challengeId", required=True),), query=(Param("opponentToken"),),
        scopes=("challenge:write", "bot:play", "board:play"),
    ),  # fmt: skip
    Endpoint(
        "gamePgn", "GET", "/game/export/{gameId}", "tags/games/game-export-gameId.yaml",
        path_params=(Param("gameId", required=True, min_length=8, max_length=8),),
        query=(*EXPORT_FLAGS, Param("withBookmarked", BOOLEAN)), accept=(PGN, JSON), answers=PGN,
    ),  # fmt: skip
    Endpoint(
        "gamesExportIds", "POST", "/api/games/export/_ids", "tags/games/api-games-export-_ids.yaml",
        query=EXPORT_FLAGS, body_type=TEXT, text_body=Param("ids", "list", required=True, min_items=1, max_items=EXPORT_IDS_MAX),
        accept=(PGN, NDJSON), answers=PGN,
    ),  # fmt: skip
    Endpoint(
        "apiGamesUser", "GET", "/api/games/user/{username}", "tags/games/api-games-user-username.yaml",
        path_params=(Param("username", required=True),),
        query=(Param("since", "integer", minimum=GAMES_SINCE_MIN), Param("until", "integer", minimum=GAMES_SINCE_MIN),
               Param("max", "integer", minimum=1), Param("vs"), Param("rated", BOOLEAN), Param("perfType"),
               Param("color", enum=("white", "black")), Param("analysed", BOOLEAN), *EXPORT_FLAGS,
               Param("ongoing", BOOLEAN), Param("finished", BOOLEAN), Param("lastFen", BOOLEAN),
               Param("withBookmarked", BOOLEAN), Param("sort", enum=("dateAsc", "dateDesc"))),
        accept=(PGN, NDJSON), answers=PGN,
    ),  # fmt: skip
    Endpoint(
        "gamesByUsers", "POST", "/api/stream/games-by-users", "tags/games/api-stream-games-by-users.yaml",
        query=(Param("withCurrentGames", BOOLEAN),), body_type=TEXT,
        text_body=Param("users", "list", required=True, min_items=1, max_items=STREAM_USERS_MAX), answers=NDJSON,
    ),  # fmt: skip
    Endpoint(
        "apiUsersStatus", "GET", "/api/users/status", "tags/users/api-users-status.yaml",
        query=(Param("ids", "list", required=True, min_items=1, max_items=STATUS_IDS_MAX), Param("withSignal", BOOLEAN),
               Param("withGameIds", BOOLEAN), Param("withGameMetas", BOOLEAN)),
    ),  # fmt: skip
    Endpoint("accountMe", "GET", "/api/account", "tags/account/api-account.yaml", auth="required"),
    Endpoint(
        "oauth", "GET", "/oauth", "tags/oauth/oauth.yaml", auth="none", answers="text/html",
        query=(Param("response_type", required=True, const="code"), Param("client_id", required=True),
               Param("redirect_uri", required=True), Param("code_challenge_method", required=True, const="S256"),
               Param("code_challenge", required=True), Param("scope"), Param("username"), Param("state")),
    ),  # fmt: skip
    Endpoint(
        "apiToken", "POST", "/api/token", "tags/oauth/api-token.yaml", auth="none", body_type=FORM,
        form=(Param("grant_type", required=True, const="authorization_code"), Param("code", required=True),
              Param("code_verifier", required=True), Param("redirect_uri", required=True), Param("client_id", required=True)),
    ),  # fmt: skip
    Endpoint("apiTokenDelete", "DELETE", "/api/token", "tags/oauth/api-token.yaml", auth="required", answers=""),
)


def endpoint_of(method: str, path: str) -> tuple[Endpoint, dict[str, str]] | None:
    """The endpoint a request's method and path fit, with the path's parameters."""
    found = fit([e.path for e in ENDPOINTS if e.method == method], path)
    if found is None:
        return None
    return next(e for e in ENDPOINTS if e.method == method and e.path == found[0]), found[1]


def check(method: str, path: str, query: str, headers: dict[str, str], body: bytes) -> list[str]:
    """The rules of the contract a request breaks (none: lichess takes it)."""
    found = endpoint_of(method, path)
    if found is None:
        known = any(endpoint_of(other, path) for other in ("GET", "POST", "PUT", "DELETE"))
        return [f"{method} {path}: {'method not allowed here' if known else 'no such endpoint in the description'}"]
    endpoint, path_values = found
    where = f"{method} {endpoint.path}"
    broken = [f"{where}: path {p.name}" + e for p in endpoint.path_params for e in _value_problems(p, path_values.get(p.name))]
    lowered = {k.lower(): v for k, v in headers.items()}
    broken += _auth_problems(endpoint, lowered.get("authorization"))
    query_values = dict(parse_qsl(query, keep_blank_values=True))
    broken += _params(where, "query", endpoint.query, query_values)
    accept = lowered.get("accept", "*/*").split(";")[0].strip()
    if endpoint.accept and accept not in (*endpoint.accept, "*/*"):
        broken.append(f"{where}: Accept {accept!r} is not one of {', '.join(endpoint.accept)}")
    content_type = lowered.get("content-type", "").split(";")[0].strip()
    if endpoint.body_type is None:
        if body:
            broken.append(f"{where}: takes no body, got {len(body)} bytes")
        return broken
    if content_type != endpoint.body_type:
        broken.append(f"{where}: body must be {endpoint.body_type}, not {content_type or 'without a Content-Type'}")
        return broken
    text = body.decode("utf-8", errors="replace")
    if endpoint.text_body is not None:
        broken += [f"{where}: body {endpoint.text_body.name}" + e for e in _value_problems(endpoint.text_body, text.strip() or None)]
    else:
        form = dict(parse_qsl(text, keep_blank_values=True))
        broken += _params(where, "form", endpoint.form, form)
        broken += _extra_rules(where, endpoint, form)
    return broken


def _auth_problems(endpoint: Endpoint, authorization: str | None) -> list[str]:
    where = f"{endpoint.method} {endpoint.path}"
    if authorization is None:
        return [f"{where}: needs a token (Authorization: Bearer ...)"] if endpoint.auth == "required" else []
    if endpoint.auth == "none":
        return [f"{where}: sent a token where none belongs"]
    scheme, _, token = authorization.partition(" ")
    if scheme != "Bearer" or not TOKEN.fullmatch(token):
        return [f"{where}: Authorization must be 'Bearer ' and a token of letters, digits and _"]
    return []


def _params(where: str, place: str, params: tuple[Param, ...], values: dict[str, str]) -> list[str]:
    known = {p.name for p in params}
    broken = [f"{where}: {place} {name}: not a parameter of this endpoint" for name in values if name not in known]
    for param in params:
        broken += [f"{where}: {place} {param.name}" + e for e in _value_problems(param, values.get(param.name))]
    return broken


def _value_problems(param: Param, value: str | None) -> list[str]:
    """What of ``param`` one value breaks (as ": ..." to follow the parameter's name)."""
    if value is None:
        return [": required, missing"] if param.required else []
    if param.kind == BOOLEAN and value not in ("true", "false"):
        return [f": {value[:40]!r} is not true or false"]
    if param.kind == "integer":
        if not re.fullmatch(r"-?[0-9]+", value):
            return [f": {value[:40]!r} is not a whole number"]
        number = int(value)
        low, high = param.minimum, param.maximum
        if low is not None and number < low or high is not None and number > high:
            return [f": {number} outside {low if low is not None else ''}..{high if high is not None else ''}"]
    if param.const is not None and value != param.const:
        return [f": {value[:40]!r} must be {param.const!r}"]
    if param.enum and value not in param.enum:
        return [f": {value[:40]!r} is not one of {', '.join(param.enum)}"]
    if param.max_length is not None and len(value) > param.max_length or param.min_length is not None and len(value) < param.min_length:
        return [f": {len(value)} characters, must be {param.min_length}..{param.max_length}"]
    if param.kind == "list":
        items = value.split(",")
        if any(not item.strip() for item in items):
            return [f": {value[:60]!r} has an empty item"]
        if param.max_items is not None and len(items) > param.max_items:
            return [f": {len(items)} items > {param.max_items}"]
        if param.min_items is not None and len(items) < param.min_items:
            return [f": {len(items)} items < {param.min_items}"]
        wrong = [item for item in items if param.each and item not in param.each]
        if wrong:
            return [f": {wrong[0][:40]!r} is not one of {', '.join(param.each)}"]
    return []


def _extra_rules(where: str, endpoint: Endpoint, form: dict[str, str]) -> list[str]:
    """The open challenge's rules between parameters (``Endpoint.extra``), as the description states them."""
    broken = []
    if "fen_only_unrated" in endpoint.extra and form.get("fen") and form.get("rated") == "true":
        broken.append(f"{where}: form fen: a game from a position cannot be rated")
    if "no_abort_is_admins" in endpoint.extra and "noAbort" in form.get("rules", "").split(","):
        broken.append(f"{where}: form rules: noAbort is for lichess's administrators only")
    return broken


def expires_problem(expires_at_ms: int, created_ms: int) -> str:
    """``expiresAt`` more than two weeks after the challenge is made ("" when it is not): a rule of the time the
    request arrives, so the fake checks it with its clock."""
    if expires_at_ms - created_ms > TWO_WEEKS_MS:
        return "POST /api/challenge/open: form expiresAt: more than 2 weeks after creation"
    return ""


# What an answer of lichess holds (the schemas' required fields and enums), to hold the fake's answers to it too.
GAME_REQUIRED = ("id", "rated", "variant", "speed", "perf", "createdAt", "lastMoveAt", "status", "players")  # GameJson
GAME_ANSWERS = ("gamePgn", "gamesExportIds", "apiGamesUser")  # the operations that answer with GameJson
ANSWER_REQUIRED: dict[str, tuple[str, ...]] = {
    "challengeOpen": ("id", "url", "status", "challenger", "destUser", "variant", "rated", "speed", "timeControl", "color",
                      "perf", "urlWhite", "urlBlack", "open"),  # fmt: skip  schemas/ChallengeOpenJson.yaml
    "challengeCancel": ("ok",),  # schemas/Ok.yaml
    "gamePgn": GAME_REQUIRED,
    "gamesExportIds": GAME_REQUIRED,
    "apiGamesUser": GAME_REQUIRED,
    "gamesByUsers": ("id",),  # schemas/GameStreamGame.yaml
    "apiUsersStatus": ("id", "name"),
    "accountMe": ("id", "username", "url"),  # schemas/UserExtended.yaml (User's and its own)
    "apiToken": ("token_type", "access_token", "expires_in"),
}


def answer_problems(method: str, path: str, items: list[Any]) -> list[str]:
    """What a 200 answer's JSON objects (one, or one per ndjson line or list item) lack of the description."""
    found = endpoint_of(method, path)
    if found is None:
        return []
    endpoint = found[0]
    where = f"the fake's answer to {method} {endpoint.path}"
    broken = []
    for item in items:
        broken += [f"{where}: required {name!r} missing" for name in ANSWER_REQUIRED.get(endpoint.operation, ()) if name not in item]
        if endpoint.operation in GAME_ANSWERS and item.get("status") not in GAME_STATUSES:
            broken.append(f"{where}: status {item.get('status')!r} is not a GameStatusName")
        if endpoint.operation in GAME_ANSWERS:
            players = item.get("players", {})
            broken += [f"{where}: players.{c} lacks user or rating" for c in ("white", "black") if not {"user", "rating"} <= set(players.get(c, {}))]
        if endpoint.operation == "challengeOpen" and item.get("status") not in CHALLENGE_STATUSES:
            broken.append(f"{where}: status {item.get('status')!r} is not a ChallengeStatus")
    return broken
