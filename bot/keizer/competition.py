"""The Keizer competition as the bot runs it: turns stored rounds into engine data and back.

Everything that decides (scores, ranking, pairing, no-shows) is the engine's; this module only reads the
store, calls the engine, and writes what it decided in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Callable
from datetime import datetime
from fractions import Fraction

from engine import keizer
from engine.keizer import pairing
from engine.keizer import Absence, Game, KeizerSettings, Player, Result, Round

from bot.core.storage.store import Store
from bot.keizer.week_store import WeekStore
from bot.keizer.postponed_store import Postponed, PostponedStore
from bot.keizer.readable import check_readable, unreadable_players
from bot.keizer.store import KeizerStore, Notice, RoundRow, Season, SeasonPlayer, Signoff

_RESULTS = {r.value: r for r in Result}
_ABSENCE = {"notice": Absence.NOTICE, "team": Absence.TEAM, "unexcused": Absence.UNEXCUSED, "auto": Absence.AUTO}


def settings_from_json(text: str) -> KeizerSettings:
    """A season's stored settings (only what differs from the defaults is stored)."""
    raw = json.loads(text or "{}")
    known = {f.name: f for f in fields(KeizerSettings)}
    values: dict[str, object] = {}
    for name, value in raw.items():
        if name not in known:
            continue
        default = getattr(KeizerSettings(), name)
        values[name] = Fraction(value) if isinstance(default, Fraction) else type(default)(value)
    return KeizerSettings(**values)  # type: ignore[arg-type]  # fields by name, each value of its default's type


@dataclass(frozen=True)
class SeasonData:
    season: Season
    settings: KeizerSettings
    players: list[Player]
    season_players: list[SeasonPlayer]
    rounds: list[Round]  # the paired rounds, as the engine sees them
    round_rows: list[RoundRow]
    signed_off: dict[int, frozenset[int]] = field(default_factory=dict)  # round number -> members with a sign-off
    postponed: tuple[Postponed, ...] = ()  # the postponed games not played yet (bot/keizer/postponed.py)
    signoffs: tuple[tuple[int, Signoff], ...] = ()  # every sign-off of the season: (round number, sign-off)


def player_id(member_id: int) -> str:
    return str(member_id)


async def load(store: Store, season: Season) -> SeasonData:
    season_players = await KeizerStore(store).season_players(season.id)
    players = [
        Player(
            id=player_id(sp.member_id),
            name=sp.name,
            rating=sp.rating,
            group=sp.group_name,
            joined_round=sp.joined_round,
            start_points=Fraction(sp.start_points) if sp.start_points else None,
            withdrawn_from=sp.withdrawn_from,
            returned_from=sp.returned_from,
            estimate=sp.estimate,
        )
        for sp in season_players
    ]
    round_rows = await KeizerStore(store).rounds(season.id)
    game_rows, bye_rows, signoff_rows = await KeizerStore(store).records_of_season(season.id)
    games: dict[int, list[Game]] = {}
    for number, white, black, result in game_rows:
        games.setdefault(number, []).append(Game(player_id(white), player_id(black), _RESULTS[result] if result else None))
    byes: dict[int, list[str]] = {}
    for number, member_id in bye_rows:
        byes.setdefault(number, []).append(player_id(member_id))
    absent: dict[int, dict[str, Absence]] = {}
    signed_off: dict[int, set[int]] = {}
    for number, so in signoff_rows:
        absent.setdefault(number, {})[player_id(so.member_id)] = _ABSENCE[so.kind]
        signed_off.setdefault(number, set()).add(so.member_id)
    rounds = [
        Round(
            number=r.number,
            games=tuple(games.get(r.number, ())),
            byes=tuple(byes.get(r.number, ())),
            absent=absent.get(r.number, {}),
        )
        for r in round_rows
        if r.status == "paired"
    ]
    outsiders = {}
    for pid in unreadable_players(players, rounds):  # none, unless stored by an older bot or a bug
        member = await store.member(int(pid))
        outsiders[pid] = member.name if member is not None else pid
    check_readable(players, rounds, season.name, outsiders)
    return SeasonData(
        season, settings_from_json(season.settings_json), players, season_players, rounds, round_rows,
        {number: frozenset(members) for number, members in signed_off.items()},
        tuple(await PostponedStore(store).of_season(season.id)), tuple(signoff_rows),
    )


def standings(data: SeasonData, after_round: int | None = None) -> list[keizer.Standing]:
    return keizer.standings(data.players, data.rounds, data.settings, after_round=after_round)


def present_players(data: SeasonData, round_number: int, signed_off: set[int]) -> list[str]:
    """Who is paired: joined by this round, not withdrawn, not signed off for it, not signed off
    automatically."""
    return [
        player_id(sp.member_id)
        for sp in data.season_players
        if sp.joined_round <= round_number and not sp.auto_signed_off and sp.member_id not in signed_off
        and not withdrawn(sp, round_number)
    ]


async def absent_unless_signed_on(store: Store, season_id: int, round_id: int) -> set[int]:
    """The members in the mode "absent unless I sign on" (``/mijn aanwezig afgemeld``) who did not sign
    on for this round: absent from it as if signed off in time (issue 34 §2)."""
    return await WeekStore(store).absent_unless_signed_on(season_id, round_id)


async def signed_off_for(store: Store, season_id: int, round_id: int) -> set[int]:
    """Who is not paired in this round by their own word: a sign-off, or absent by default without a sign-on
    (``absent_unless_signed_on``), in one query."""
    return await WeekStore(store).signed_off_for(season_id, round_id)


def withdrawn(sp: SeasonPlayer, round_number: int) -> bool:
    """Out of the season in this round: withdrawn by then and not back yet."""
    gone = sp.withdrawn_from is not None and sp.withdrawn_from <= round_number
    return gone and (sp.returned_from is None or round_number < sp.returned_from)


def catch_up_players(data: SeasonData, play_date: str) -> set[int]:
    """The players of the postponed games to be played by ``play_date`` (``/uitstel Naam tot=``, issue 44
    §1): that club evening they play their catch-up game, so they are not paired in its round as well; they
    count as signed off in time for it."""
    return {m for p in data.postponed if p.until_date == play_date for m in (p.white_id, p.black_id)}


def coming_round(data: SeasonData) -> RoundRow | None:
    """The first round that is not paired yet."""
    return next((r for r in data.round_rows if r.status != "paired"), None)


def current_round(data: SeasonData) -> RoundRow | None:
    """The last paired round."""
    paired = [r for r in data.round_rows if r.status == "paired"]
    return paired[-1] if paired else None


async def pair(
    store: Store,
    season: Season,
    round_row: RoundRow,
    now: datetime,
    render: Callable[[SeasonData, pairing.Pairing], tuple[str, str | None]],
    notify: Callable[[SeasonData, pairing.Pairing, dict[int, str]], list[Notice]] | None = None,
    held: Callable[[pairing.Pairing], bool] | None = None,
) -> pairing.Pairing | None:
    """Pair ``round_row`` with the Keizer engine and store it; None when it was already paired.

    The announcement ``render`` makes (text and picture) is queued in the same transaction, so a paired round always has
    exactly one pairing announcement, and after it the members' private notices ``notify`` makes (given the
    chat accounts of who allows them). Players signed off automatically (seed 004 rule j) get a sign-off
    for this round, so the round's record says why they were not paired; so do the absent-by-default who did
    not sign on (an ordinary sign-off: ``/mijn aanwezig afgemeld``), and the players who play a postponed
    game that evening (``catch_up_players``). When ``held`` says so of the pairing (a
    round played online: its announcement waits for its challenges, ``bot/keizer/online_round.py``), neither
    the announcement nor the notices are queued here.
    """
    keizer_store = KeizerStore(store)
    async with store.transaction():
        data = await load(store, season)
        signed_off = set(data.signed_off.get(round_row.number, ()))
        forbidden, by_default, accounts = await keizer_store.pairing_constraints(season.club_id, season.id, round_row.id)
        if not await keizer_store.mark_paired(round_row.id, now):  # paired already (the round is ours now)
            return None
        catching_up = catch_up_players(data, round_row.play_date)  # their postponed game that evening
        for sp in data.season_players:
            if sp.joined_round > round_row.number or sp.member_id in signed_off or withdrawn(sp, round_row.number):
                continue
            if sp.auto_signed_off:
                await keizer_store.set_signoff(round_row.id, sp.member_id, "auto", None, now)
            elif sp.member_id in by_default | catching_up:  # an ordinary sign-off in time (seed 004 Keizer rule e)
                await keizer_store.set_signoff(round_row.id, sp.member_id, "notice", None, now)
        signed_off |= by_default | catching_up
        present = present_players(data, round_row.number, signed_off)
        apart = [(player_id(a), player_id(b)) for a, b in forbidden]
        result = pairing.pair_round(data.players, data.rounds, present, data.settings, round_row.number, forbidden=apart)
        games = [(board, int(g.white), int(g.black)) for board, g in enumerate(result.games, start=1)]
        bye = int(result.bye) if result.bye is not None else None
        body, picture = render(data, result)
        notices = notify(data, result, accounts) if notify is not None else []
        waits = held is not None and held(result)
        await keizer_store.save_pairing(
            round_row.id, games, bye, now, announcement=None if waits else (season.club_id, "pairing", body, picture),
            notices=() if waits else notices,
        )
    return result
