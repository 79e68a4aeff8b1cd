"""Reading what a director types for grades: dates, grades, numbers, yes/no, ``key=value`` options and a
game's fields (also the CSV columns of ``/partijenimport``)."""



from __future__ import annotations

import re
from datetime import date
from zoneinfo import ZoneInfo

from engine import promotion as rules

from bot.core.output.calendar import parse_day
from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.name_key import name_key
from bot.core.club.names import longest_name
from bot.core.storage.store import Member


CLOSE = 45  # /graden shows the players at most this many points short of a promotion
MAX_CSV_BYTES = 1_000_000
MAX_CSV_ROWS = 5000

_YES = {"ja", "j", "yes", "y", "1", "true", "waar"}
_NO = {"nee", "n", "no", "0", "false", "onwaar"}
_RESULTS = {
    "gewonnen": rules.WIN, "winst": rules.WIN, "won": rules.WIN, "win": rules.WIN, "w": rules.WIN, "1": rules.WIN,
    "verloren": rules.LOSS, "verlies": rules.LOSS, "lost": rules.LOSS, "loss": rules.LOSS, "l": rules.LOSS,
    "v": rules.LOSS, "0": rules.LOSS,
    "remise": rules.DRAW, "draw": rules.DRAW, "=": rules.DRAW, "½": rules.DRAW, "1/2": rules.DRAW,
}  # fmt: skip
# key=value options of /partij and the CSV columns: Dutch and English names -> field
_FIELDS = {
    "speler": "player", "player": "player",
    "datum": "played_on", "date": "played_on",
    "tegen": "opponent", "tegenstander": "opponent", "opponent": "opponent",
    "graad": "grade", "grade": "grade",
    "uitslag": "result", "result": "result",
    "handicap": "handicap",
    "minuten": "minutes", "minutes": "minutes",
    "byoyomi": "byoyomi", "byo-yomi": "byoyomi",
    "officieel": "official", "official": "official",
    "toernooi": "event", "event": "event",
    "geschat": "estimated", "estimated": "estimated",
    "onbetrouwbaar": "unreliable", "unreliable": "unreliable",
}  # fmt: skip
_FLAG_WORDS = {"geschat": "estimated", "estimated": "estimated", "onbetrouwbaar": "unreliable", "unreliable": "unreliable"}
_RELIABLE_WORDS = {"betrouwbaar", "reliable"}
_SUBS = {"wijzig": "wijzig", "correct": "wijzig", "verwijder": "verwijder", "delete": "verwijder",
         "lijst": "lijst", "list": "lijst"}  # fmt: skip
REQUIRED = ("played_on", "opponent", "result", "minutes", "byoyomi")


def field_words(ctx: Context, fields: list[str]) -> str:
    """The fields as the director types them (``datum, tegen`` in Dutch, ``date, opponent`` in English):
    the first word of that language that names each."""
    english = ctx.lang == "en"
    words = []
    for field in fields:
        named = [k for k, f in _FIELDS.items() if f == field]
        words.append(named[1] if english and len(named) > 1 else named[0])
    return ", ".join(words)


# --------------------------------------------------------------------------- parsing


def today(ctx: Context) -> date:
    return ctx.now.astimezone(ZoneInfo(ctx.club.timezone)).date()


def parse_date(ctx: Context, text: str) -> date:
    day = parse_day(text)
    if day is None:
        raise UserError("grade_error_date", value=text[:20])
    if day > today(ctx):
        raise UserError("grade_error_future", value=day.isoformat())
    return day


def parse_grade(text: str) -> int:
    grade = rules.parse_grade(text)
    if grade is None:
        raise UserError("grade_error_grade", value=text[:20])
    return grade


def parse_number(text: str, low: int, high: int) -> int:
    if not re.fullmatch(r"[0-9]{1,6}", text.strip()) or not low <= int(text) <= high:
        raise UserError("error_bad_number", value=text[:20], low=low, high=high)
    return int(text)


def parse_yes_no(text: str) -> bool:
    low = text.strip().lower()
    if low in _YES:
        return True
    if low in _NO:
        return False
    raise UserError("grade_error_yes_no", value=text[:20])


async def with_opponent_words(ctx: Context, args: list[str]) -> list[str]:
    """``tegen=Bert Jansen`` typed without quotes as one ``tegen=`` word: the words after it that make
    the longest member's name (``/partij tegen=Bert Jansen Anna ...``); an opponent who is no member
    takes the words after it when the player's name came before (``/partij Anna tegen=Jan Smit ...``)."""
    out: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        key, sep, value = arg.partition("=")
        if not sep or _FIELDS.get(key.strip().lower()) != "opponent":
            out.append(arg)
            continue
        tail: list[str] = []
        while len(tail) < len(rest) and "=" not in rest[len(tail)] and rest[len(tail)].lower() not in _FLAG_WORDS:
            tail.append(rest[len(tail)])
        known = {name_key(m.name) for m in await ctx.store.members(ctx.club.id)}
        taken = longest_name([value, *tail], known) - 1
        if taken < 0:  # no member: an outsider's name, when the player was named before it
            taken = len(tail) if any("=" not in a for a in out) else 0
        out.append(f"{key}={' '.join([value, *tail[:taken]])}")
        del rest[:taken]
    return _event_words(out)


def _event_words(args: list[str]) -> list[str]:
    """``toernooi=Open Utrecht`` typed without quotes: when the player was named before it, the words
    after it up to the next ``key=`` are the event's name (they were read as the player's name)."""
    out: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        key, sep, value = arg.partition("=")
        out.append(arg)
        if not sep or _FIELDS.get(key.strip().lower()) != "event" or not any("=" not in a for a in out[:-1]):
            continue
        tail: list[str] = []
        while rest and "=" not in rest[0] and rest[0].lower() not in _FLAG_WORDS:
            tail.append(rest.pop(0))
        out[-1] = f"{key}={' '.join([value, *tail])}"
    return out


def split_options(args: list[str], usage: str, ctx: Context) -> tuple[list[str], dict[str, str]]:
    """Words and ``key=value`` options (Dutch or English keys); a bare flag word is ``flag=ja``."""
    words: list[str] = []
    values: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep:
            field = _FIELDS.get(key.strip().lower())
            if field is None or field == "player":
                raise UserError("error_usage", usage=ctx.t(usage))
            if not value.strip():  # graad= with nothing after it: said, not taken as "no change" or "none"
                raise UserError("grade_error_empty", setting=key.strip().lower()[:20])
            values[field] = value.strip()
        elif arg.lower() in _FLAG_WORDS:
            values[_FLAG_WORDS[arg.lower()]] = "ja"
        else:
            words.append(arg)
    return words, values


async def game_values(core: Core, ctx: Context, fields: dict[str, str], complete: bool) -> dict[str, object]:
    """The columns of an entered game from its fields (``/partij`` options or a CSV row). ``complete``: a
    new game, which needs date, opponent, result, minutes and byo-yomi, and a grade for the opponent."""
    if complete:
        missing = [f for f in REQUIRED if not fields.get(f)]
        if missing:
            raise UserError("grade_error_missing", fields=field_words(ctx, missing))
    values: dict[str, object] = {}
    if fields.get("played_on"):
        values["played_on"] = parse_date(ctx, fields["played_on"]).isoformat()
    if fields.get("opponent"):
        name = " ".join(fields["opponent"].split())
        if len(name) > MAX_NAME_LENGTH:
            raise UserError("error_bad_name", limit=MAX_NAME_LENGTH)
        opponent = await core.store.member_by_name(ctx.club.id, name)
        values["opponent_name"] = opponent.name if opponent else name
        values["opponent_id"] = opponent.id if opponent else None
    if fields.get("grade"):
        values["opponent_grade"] = parse_grade(fields["grade"])
    elif complete:
        opponent_id = values.get("opponent_id")
        if opponent_id is None:
            raise UserError("grade_error_opponent_grade", name=str(values["opponent_name"]))
        values["opponent_grade"] = None  # the member's grade on the day
    if fields.get("result"):
        result = _RESULTS.get(fields["result"].strip().lower())
        if result is None:
            raise UserError("grade_error_result", value=fields["result"][:20])
        values["result"] = result
    for field, high in (("handicap", 9), ("minutes", 1000), ("byoyomi", 3600)):
        if fields.get(field):
            values[field] = parse_number(fields[field], 0, high)
    for field in ("official", "estimated", "unreliable"):
        if fields.get(field):
            values[field] = int(parse_yes_no(fields[field]))
    if "event" in fields:
        values["event"] = " ".join(fields["event"].split())[:100]
    return values


async def member_named(core: Core, ctx: Context, name: str) -> Member:
    return await ctx.find_member(" ".join(name.split()))


