"""A Keizer round played on lichess (issue 43 §2): what the competition asks of the core's online worker
(``bot/core/online/challenges.py``) and the hooks it gives it (``KeizerOnline``, ``registry.online_rounds``).

- At publication (``pair_and_queue``: the scheduler's and ``/publiceer``) of a round whose season plays online
  (``season_online``) while the bot plays online (its lichess token): ``online_plan`` says the clock, rated, the
  start of play (the playing evening's start, ``/speelavond``) and the latest start (the challenge's expiry);
  every board whose two players have a lichess account (the core's ``lichess_accounts``) gets one row to make,
  in the Keizer colours, in the pairing's transaction (``queue_round``). Such a round's pairing announcement and
  private notices are not queued with the pairing: the worker calls ``announce`` once its challenges are made
  (or after ``ANNOUNCE_HOLD``: lichess down holds no announcement longer; a missing link then says it follows,
  and ``late_links`` sends it). A round with no such board is announced at once, as any round.
- ``/publiceer ongedaan`` and the director's pairing changes (``/indeling wissel|koppel|vrij|kleur``) call
  ``sync_round``: rows whose board no longer has that game are cancelled (at lichess, when made), and a
  board with a new game gets a new row, announced with its link when made.
- ``not_made``: at the start of play a board's challenge could not be made: each director is told once.
- At the sign-off deadline of an online round, ``queue_missing_accounts`` tells each director which members
  of the coming round have no lichess account (their boards are played as at the club).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from bot.core.club.lichess_tables import LichessAccount, user_id
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.online.games_store import OnlineGame, WantedGame
from bot.core.online.lichess_answers import TimeControl
from bot.core.storage.store import Club
from bot.keizer import competition
from bot.keizer.calendar_store import VenueStore
from bot.keizer.formatting import for_competition
from bot.keizer.lookups import keizer_store
from bot.keizer.online_season import OnlineStore
from bot.keizer.rows import GameRow, RoundRow, Season

SYSTEM = "keizer"
NAME_MAX = 40  # the challenge's name: short enough for lichess's challenge page (the description names no limit)


@dataclass(frozen=True)
class OnlinePlan:
    """How a round is played on lichess: the clock, rated, the start of play and the latest start, and the
    club's members' lichess accounts."""

    clock: TimeControl
    rated: bool
    starts_at: datetime
    expires_at: datetime
    accounts: dict[int, LichessAccount]

    def online(self, white: int, black: int) -> bool:
        return white in self.accounts and black in self.accounts


async def online_plan(core: Core, club: Club, season: Season, row: RoundRow) -> OnlinePlan | None:
    """The round's plan, or None: played at the club (the season does not play online, or the bot does not)."""
    if not core.online.on:
        return None
    setting = await OnlineStore(core.store).setting(season.id, row.number)
    clock = setting.clock() if setting is not None and setting.online else None
    if setting is None or clock is None:
        return None
    venue = await VenueStore(core.store).venue(club.id)
    day = date.fromisoformat(row.play_date)
    starts_at = venue.evening(day, season.timezone)[0]
    expires_at = setting.latest_start_at(day, row.publish_at, season.timezone, venue)
    return OnlinePlan(clock, setting.rated, min(starts_at, expires_at),
                      expires_at, await core.store.lichess_accounts(club.id))  # fmt: skip


def challenge_name(club: Club, row: RoundRow, board: int) -> str:
    """``Schaakclub Utrecht R3 B2``: the club, round and board, the club's name cut to fit ``NAME_MAX``."""
    tail = " " + t(club.language, "online_challenge_name", round=row.number, board=board)
    return club.name[: NAME_MAX - len(tail)].rstrip() + tail


def wanted_games(club: Club, row: RoundRow, plan: OnlinePlan, games: Sequence[GameRow]) -> list[WantedGame]:
    return [
        WantedGame(club.id, SYSTEM, row.id, g.id, g.board, g.white_id, g.black_id,
                   user_id(plan.accounts[g.white_id].username), user_id(plan.accounts[g.black_id].username), plan.clock,
                   plan.rated, challenge_name(club, row, g.board), plan.starts_at, plan.expires_at)  # fmt: skip
        for g in games
        if g.result is None and plan.online(g.white_id, g.black_id)
    ]


async def queue_round(core: Core, club: Club, row: RoundRow, plan: OnlinePlan, now: datetime) -> int:
    """The round just paired (in its transaction): one row to make per board played online; how many."""
    wanted = wanted_games(club, row, plan, await keizer_store(core).games_of_round(row.id))
    await core.store.queue_online_games(wanted, now)
    return len(wanted)


async def sync_round(core: Core, club: Club, season: Season, row: RoundRow, now: datetime, withdrawn: bool = False) -> None:
    """After a pairing change (or its withdrawal): the round's live rows that no longer match its games are
    cancelled, and the games played online without a live row get one (announced with its link once made).
    A round whose announcement was held for its challenges and has none left to make is announced now (not
    when ``withdrawn``: it is not paired any more)."""
    rows = await core.store.online_games_of_round(club.id, SYSTEM, row.id)
    if not rows:
        return  # never played online: nothing to keep in step
    held = not any(g.announced for g in rows)
    live = [g for g in rows if g.status in ("pending", "created")]
    plan = await online_plan(core, club, season, row)
    games = await keizer_store(core).games_of_round(row.id)
    wanted = wanted_games(club, row, plan, games) if plan is not None else []
    keep: set[int] = set()
    fresh: list[WantedGame] = []
    for want in wanted:
        match = next((g for g in live if g.board == want.board and g.id not in keep and want.same_game(g)), None)
        if match is None:
            fresh.append(want)
        else:
            keep.add(match.id)
    await core.store.cancel_online_games([g.id for g in live if g.id not in keep], now)
    await core.store.queue_online_games(fresh, now, announced=not held)
    if held and not keep and not fresh and not withdrawn:  # nothing left online: announced as at the club
        await KeizerOnline().announce(core, club.id, row.id, [], now)


async def announcement_held(core: Core, club: Club, row: RoundRow) -> bool:
    """Whether the round's pairing announcement waits for its challenges (not queued yet)."""
    games = await core.store.online_games_of_round(club.id, SYSTEM, row.id)
    return bool(games) and not any(g.announced for g in games)


def link_line(lang: str, game: OnlineGame | None) -> str:
    """What a board's line adds: its link, or that the link follows."""
    if game is None:
        return ""
    if game.url is None:
        return " " + t(lang, "online_link_follows")
    return " " + t(lang, "online_link", url=game.url)


def own_link(lang: str, game: OnlineGame | None, colour: str) -> str:
    """What a player's private notice adds: the link of their colour (``colour_white``/``colour_black``)."""
    if game is None:
        return ""
    if game.url is None:
        return "\n" + t(lang, "online_link_follows_notice")
    return "\n" + t(lang, "online_link_notice", url=game.url_white if colour == "colour_white" else game.url_black)


def player_buttons(lang: str, game: OnlineGame) -> dict[int, tuple[str, str]]:
    """Each player's button under their private notice: their own colour's link (none before it is made)."""
    if game.url_white is None or game.url_black is None:
        return {}
    label = t(lang, "online_button")
    return {game.white_id: (label, game.url_white), game.black_id: (label, game.url_black)}


async def _round_and_club(core: Core, club_id: int, round_ref: int) -> tuple[Club, Season, RoundRow, dict[int, str]] | None:
    """The club, season and round of a hook's call, and the club's members' names."""
    row = await keizer_store(core).round(round_ref)
    season = await keizer_store(core).season(row.season_id) if row is not None else None
    club = await core.store.club(club_id)
    if row is None or season is None or club is None:
        return None
    return club, season, row, {m.id: m.name for m in await core.store.members(club.id)}


class KeizerOnline:
    """The Keizer competition's hooks for the core's online worker (``bot/core/online/rounds.py``)."""

    async def announce(self, core: Core, club_id: int, round_ref: int, games: Sequence[OnlineGame], now: datetime) -> None:
        from bot.keizer.publication import pairing_announcement, private_notices

        found = await _round_and_club(core, club_id, round_ref)
        if found is None:
            return
        club, season, row, names = found
        rows = await keizer_store(core).games_of_round(row.id)
        bye = await keizer_store(core).bye_of_round(row.id)
        links = {g.board: g for g in games}
        pairs = [(g.white_id, g.black_id) for g in rows]
        body, picture = pairing_announcement(club.language, row, [(names[w], names[b]) for w, b in pairs],
                                             names[bye] if bye is not None else None, season.kind, links=links)  # fmt: skip
        await core.store.queue_announcement(club.id, row.id, "pairing", body, now, picture=picture)
        accounts = (await keizer_store(core).pairing_constraints(club.id, season.id, row.id)).notice_accounts
        buttons = {member: button for g in games for member, button in player_buttons(club.language, g).items()}
        for kind, text, recipient in private_notices(club, season.kind, row, names, pairs, bye, accounts, links):
            member = int(kind.removeprefix("notice:"))
            await core.store.queue_announcement(club.id, row.id, kind, text, now, recipient=recipient, link=buttons.get(member))

    async def late_links(self, core: Core, club_id: int, round_ref: int, games: Sequence[OnlineGame], now: datetime) -> None:
        found = await _round_and_club(core, club_id, round_ref)
        if found is None:
            return
        club, season, row, names = found
        lang = club.language
        accounts = (await keizer_store(core).pairing_constraints(club.id, season.id, row.id)).notice_accounts
        for game in games:
            body = for_competition(lang, season.kind, t(lang, "online_link_late", round=row.number, board=game.board,
                                   white=names.get(game.white_id, "?"), black=names.get(game.black_id, "?"), url=game.url or ""))  # fmt: skip
            await core.store.queue_announcement(club.id, row.id, f"online-link:{game.id}", body, now)
            buttons = player_buttons(lang, game)
            for member in (game.white_id, game.black_id):
                if member in accounts:
                    await core.store.queue_announcement(club.id, row.id, f"online-link:{game.id}:{member}", body, now,
                                                        recipient=accounts[member], link=buttons.get(member))  # fmt: skip

    async def not_made(self, core: Core, club_id: int, round_ref: int, games: Sequence[OnlineGame], now: datetime) -> None:
        found = await _round_and_club(core, club_id, round_ref)
        if found is None:
            return
        club, season, row, names = found
        lang = club.language
        refused = [g for g in games if g.status == "failed" and g.starts_at > now]  # lichess said no, before the evening
        for key, group in (("online_refused", refused), ("online_not_made", [g for g in games if g not in refused])):
            if not group:
                continue
            boards = "; ".join(t(lang, "pairing_line", board=g.board, white=names.get(g.white_id, "?"), black=names.get(g.black_id, "?"))
                               + (f" ({refusal(lang, g.error)})" if key == "online_refused" and g.error else "") for g in group)  # fmt: skip
            body = for_competition(lang, season.kind, t(lang, key, round=row.number, count=len(group), boards=boards))
            await _tell_directors(core, club, row, f"{key.replace('_', '-')}:{min(g.id for g in group)}", body, now)


async def _tell_directors(core: Core, club: Club, row: RoundRow, kind: str, body: str, now: datetime) -> None:
    """Each director privately (the club's channel when the bot knows no director's chat account)."""
    accounts = await core.store.director_accounts(club.id)
    for account in accounts:
        await core.store.queue_announcement(club.id, row.id, f"{kind}:{account}", body, now, recipient=account)
    if not accounts:
        await core.store.queue_announcement(club.id, row.id, kind, body, now)


async def queue_missing_accounts(core: Core, rows: Sequence[RoundRow], now: datetime) -> None:
    """At the deadline of each of ``rows`` (closed just now) played online: the directors are told which of
    the members who will be paired have no lichess account (once per round)."""
    for row in rows:
        season = await keizer_store(core).season(row.season_id)
        club = await core.store.club(season.club_id) if season is not None else None
        if season is None or club is None or await online_plan(core, club, season, row) is None:
            continue
        data = await competition.load(core.store, season)
        signed_off = set(data.signed_off.get(row.number, ()))
        present = {int(p) for p in competition.present_players(data, row.number, signed_off)}
        accounts = await core.store.lichess_accounts(club.id)
        names = sorted(p.name for p in data.players if int(p.id) in present and int(p.id) not in accounts)
        if names:
            lang = club.language
            body = for_competition(lang, season.kind, t(lang, "online_no_accounts", round=row.number, count=len(names),
                                                        names=", ".join(names)))  # fmt: skip
            await _tell_directors(core, club, row, "online-no-accounts", body, now)


def refusal(lang: str, error: str) -> str:
    """lichess's refusal of a challenge in the club's language: a closed or unknown account by its name;
    anything else as lichess's own words, quoted and marked as lichess's."""
    account, _, words = error.partition(": ")
    if words and "closed" in words.lower():
        return t(lang, "online_refused_closed", account=account)
    if words and ("no such" in words.lower() or "not found" in words.lower()):
        return t(lang, "online_refused_unknown", account=account)
    return t(lang, "online_refused_other", words=error[:200])
