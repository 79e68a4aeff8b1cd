"""``/nk speler Naam [club=...] [land=NL] [pin=12345678]`` (``/championship player``), director: what the
EGF results file needs of a registered player beyond the name (issue 31 §2). ``-`` clears a value."""

from __future__ import annotations

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.name_key import name_key
from bot.core.commands.replies import Reply
from bot.nk.lookups import current
from bot.nk.store import NkStore

_KEYS = {"club": "club", "land": "country", "country": "country", "pin": "pin", "egf": "pin"}
_CLEAR = "-"
MAX_CLUB = 40


def split_egf(ctx: Context, args: list[str]) -> tuple[list[str], dict[str, str | None]]:
    """The words other than ``club=``, ``land=`` and ``pin=``, and those values checked (None: ``-``,
    cleared); a bad value is refused."""
    words: list[str] = []
    given: dict[str, str | None] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not (sep and key.lower() in _KEYS and value.strip()):
            words.append(arg)
            continue
        field, value = _KEYS[key.lower()], value.strip()
        if value == _CLEAR:
            given[field] = None
        elif field == "club":
            if len(value) > MAX_CLUB or any(c in value for c in "[];|") or not value.isprintable():
                raise UserError("nk_error_bad_club", value=value[:MAX_CLUB])
            given[field] = value
        elif field == "country":
            if not (len(value) == 2 and value.isascii() and value.isalpha()):
                raise UserError("nk_error_bad_country", value=value[:10])
            given[field] = value.upper()
        else:
            if not (len(value) == 8 and value.isascii() and value.isdigit()):
                raise UserError("nk_error_bad_pin", value=value[:20])
            given[field] = value
    return words, given


async def store_egf(nk: NkStore, tournament_id: int, member_id: int, given: dict[str, str | None]) -> tuple[str, str, str]:
    """Write the values ``split_egf`` read over the player's (the others stay); the club, country and PIN
    as they now are (``-`` for none)."""
    player = await nk.player(tournament_id, member_id)
    assert player is not None
    club = given["club"] if "club" in given else player.club
    country = given["country"] if "country" in given else player.country
    pin = given["pin"] if "pin" in given else player.egf_pin
    await nk.set_egf(tournament_id, member_id, club, country, pin)
    return club or "-", country or "-", pin or "-"


async def egf_details(core: Core, nk: NkStore, ctx: Context, args: list[str]) -> Reply:
    """Set a registered player's club, country (two letters) and EGF PIN (8 digits); the values not
    named stay as they were."""
    words, given = split_egf(ctx, args)
    if not words or not given:
        raise UserError("error_usage", usage=ctx.t("nk_usage_speler"))
    tour = await current(nk, ctx)
    name = " ".join(words)
    player = next((p for p in await nk.players(tour.id) if name_key(p.name) == name_key(name)), None)
    if player is None:
        raise UserError("nk_error_not_registered", name=name[:60])
    async with core.store.transaction():
        club, country, pin = await store_egf(nk, tour.id, player.member_id, given)
    return Reply(lines=(ctx.t("nk_player_egf_set", name=player.name, club=club, country=country, pin=pin),))
