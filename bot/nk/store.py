"""The SQL of NK championship tournaments (migrations/0003_mcmahon.sql), on top of a ``Store``.

Writes join the caller's ``store.transaction()`` (or get their own). ``load`` turns the rows into the
engine's ``Tournament`` (player ids are the member ids as text).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from engine import mcmahon

from bot.core.storage.store import Store, iso


NK_KOMI = "6.5"  # not an integer: no jigo (issue 31); docs/mcmahon.md


@dataclass(frozen=True)
class NkTournament:
    id: int
    club_id: int
    name: str
    rounds: int
    group_size: int
    status: str
    komi: str = "6.5"  # written in the EGF file; tournaments from before migration 0052 keep 7
    time_control: str = ""  # as the director wrote it (60+30), for the website (migration 0086)


@dataclass(frozen=True)
class NkPlayer:
    member_id: int
    name: str
    rating: int
    strength: int | None
    earned: str | None
    confirmed: bool
    withdrawn_from: int | None = None
    club: str | None = None  # for the EGF file (migration 0054)
    country: str | None = None
    egf_pin: str | None = None


@dataclass(frozen=True)
class NkGame:
    id: int
    round_id: int
    number: int
    board: int
    black_id: int
    white_id: int
    winner_id: int | None
    forfeit: bool
    reported_winner: int | None
    reported_by: int | None
    jigo: bool = False
    reported_jigo: bool = False

    @property
    def has_result(self) -> bool:
        """A winner, a jigo or a double forfeit is in."""
        return self.winner_id is not None or self.jigo or self.forfeit

    @property
    def reported(self) -> bool:
        return self.reported_winner is not None or self.reported_jigo


def _tournament(row: sqlite3.Row) -> NkTournament:
    return NkTournament(row["id"], row["club_id"], row["name"], row["rounds"], row["group_size"], row["status"], row["komi"],
                        row["time_control"])  # fmt: skip


def _game(row: sqlite3.Row) -> NkGame:
    return NkGame(
        row["id"], row["round_id"], row["number"], row["board"], row["black_id"], row["white_id"], row["winner_id"],
        bool(row["forfeit"]), row["reported_winner"], row["reported_by"], bool(row["jigo"]), bool(row["reported_jigo"]),
    )  # fmt: skip


_GAMES = "SELECT g.*, r.number FROM nk_games g JOIN nk_rounds r ON r.id = g.round_id WHERE r.tournament_id = ?"


class NkStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def tournaments(self, club_id: int) -> list[NkTournament]:
        rows = await self.store.fetch_all("SELECT * FROM nk_tournaments WHERE club_id = ? ORDER BY id", (club_id,))
        return [_tournament(r) for r in rows]

    async def has_two(self, club_id: int) -> bool:
        """Has the club made more than one tournament? One row at most."""
        row = await self.store.fetch_one("SELECT 1 FROM nk_tournaments WHERE club_id = ? ORDER BY id LIMIT 1 OFFSET 1", (club_id,))
        return row is not None

    async def years(self, club_id: int) -> dict[int, int]:
        """Each tournament's year (the year it was made): the website's archive groups them by it."""
        rows = await self.store.fetch_all("SELECT id, created_at FROM nk_tournaments WHERE club_id = ?", (club_id,))
        return {r["id"]: int(str(r["created_at"])[:4]) for r in rows}

    async def by_name_any_case(self, club_id: int, name: str) -> NkTournament | None:
        row = await self.store.fetch_one(
            "SELECT * FROM nk_tournaments WHERE club_id = ? AND name = ? COLLATE NOCASE", (club_id, name)
        )
        return _tournament(row) if row else None

    async def played_games(self, club_id: int) -> list[sqlite3.Row]:
        """The club's games played to a result over the board (a win or a jigo, no forfeits), with their
        tournament and round."""
        return await self.store.fetch_all(
            "SELECT g.*, r.number, r.paired_at, n.name AS tournament_name, n.id AS tournament_id FROM nk_games g"
            " JOIN nk_rounds r ON r.id = g.round_id JOIN nk_tournaments n ON n.id = r.tournament_id"
            " WHERE n.club_id = ? AND (g.winner_id IS NOT NULL OR g.jigo = 1) AND g.forfeit = 0 ORDER BY g.id",
            (club_id,),
        )

    async def active(self, club_id: int) -> NkTournament | None:
        row = await self.store.fetch_one(
            "SELECT * FROM nk_tournaments WHERE club_id = ? AND status != 'finished' ORDER BY id DESC LIMIT 1",
            (club_id,),
        )
        return _tournament(row) if row else None

    async def latest(self, club_id: int) -> NkTournament | None:
        row = await self.store.fetch_one("SELECT * FROM nk_tournaments WHERE club_id = ? ORDER BY id DESC LIMIT 1", (club_id,))
        return _tournament(row) if row else None

    async def by_name(self, club_id: int, name: str) -> NkTournament | None:
        row = await self.store.fetch_one("SELECT * FROM nk_tournaments WHERE club_id = ? AND name = ?", (club_id, name))
        return _tournament(row) if row else None

    async def create(self, club_id: int, name: str, rounds: int, group_size: int, now: datetime, komi: str = NK_KOMI,
                     time_control: str = "") -> int:  # fmt: skip
        return await self.store.write(
            "INSERT INTO nk_tournaments (club_id, name, rounds, group_size, created_at, komi, time_control)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (club_id, name, rounds, group_size, iso(now), komi, time_control),
        )

    async def set_status(self, tournament_id: int, status: str) -> None:
        await self.store.write("UPDATE nk_tournaments SET status = ? WHERE id = ?", (status, tournament_id))

    async def players(self, tournament_id: int) -> list[NkPlayer]:
        rows = await self.store.fetch_all(
            # the member's EGD PIN (/speler Naam egd=..., migration 0061) where the NK has none of its own
            "SELECT p.*, m.name, COALESCE(p.egf_pin, m.egd_pin) AS pin FROM nk_players p JOIN members m ON m.id = p.member_id"
            " WHERE p.tournament_id = ?"
            " ORDER BY m.name COLLATE NOCASE",
            (tournament_id,),
        )
        return [
            NkPlayer(r["member_id"], r["name"], r["rating"], r["strength"], r["earned"], bool(r["confirmed"]), r["withdrawn_from"],
                     r["club"], r["country"], r["pin"])  # fmt: skip
            for r in rows
        ]

    async def player(self, tournament_id: int, member_id: int) -> NkPlayer | None:
        for p in await self.players(tournament_id):
            if p.member_id == member_id:
                return p
        return None

    async def upsert_player(
        self, tournament_id: int, member_id: int, rating: int, strength: int | None, earned: str | None,
        confirmed: bool, now: datetime,
    ) -> None:  # fmt: skip
        await self.store.write(
            "INSERT INTO nk_players (tournament_id, member_id, rating, strength, earned, confirmed, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, member_id) DO UPDATE SET"
            " rating = excluded.rating, strength = excluded.strength, earned = excluded.earned,"
            " confirmed = excluded.confirmed",
            (tournament_id, member_id, rating, strength, earned, int(confirmed), iso(now)),
        )

    async def set_egf(self, tournament_id: int, member_id: int, club: str | None, country: str | None, pin: str | None) -> None:
        """A player's club, country and EGF PIN for the EGF file (None: none, or the place's country)."""
        await self.store.write(
            "UPDATE nk_players SET club = ?, country = ?, egf_pin = ? WHERE tournament_id = ? AND member_id = ?",
            (club, country, pin, tournament_id, member_id),
        )

    async def confirm_player(self, tournament_id: int, member_id: int) -> None:
        await self.store.write(
            "UPDATE nk_players SET confirmed = 1 WHERE tournament_id = ? AND member_id = ?", (tournament_id, member_id)
        )

    async def games(self, tournament_id: int) -> list[NkGame]:
        rows = await self.store.fetch_all(_GAMES + " ORDER BY r.number, g.board", (tournament_id,))
        return [_game(r) for r in rows]

    async def round_decided(self, tournament_id: int, number: int) -> bool:
        """Has every game of round ``number`` a result (a winner, a jigo or a double forfeit)?"""
        row = await self.store.fetch_one(
            "SELECT 1 FROM nk_games g JOIN nk_rounds r ON r.id = g.round_id WHERE r.tournament_id = ? AND r.number = ?"
            " AND g.winner_id IS NULL AND g.forfeit = 0 AND g.jigo = 0 LIMIT 1",
            (tournament_id, number),
        )
        return row is None

    async def rounds(self, tournament_id: int) -> list[tuple[int, int, int | None]]:
        """(round id, number, bye member id) of every paired round."""
        rows = await self.store.fetch_all(
            "SELECT id, number, bye_id FROM nk_rounds WHERE tournament_id = ? ORDER BY number", (tournament_id,)
        )
        return [(r["id"], r["number"], r["bye_id"]) for r in rows]

    async def paired_moments(self, tournament_id: int) -> list[datetime]:
        """When each round was paired (UTC): the days the tournament was played, for the EGF file's DT."""
        rows = await self.store.fetch_all(
            "SELECT paired_at FROM nk_rounds WHERE tournament_id = ? ORDER BY number", (tournament_id,)
        )
        return [datetime.fromisoformat(r["paired_at"]) for r in rows]

    async def last_change(self, tournament_id: int, first: int, last: int) -> datetime | None:
        """The latest pairing or result of rounds ``first`` to ``last`` (UTC): when what a page shows changed."""
        row = await self.store.fetch_one(
            "SELECT MAX(r.paired_at) AS paired, MAX(g.confirmed_at) AS result FROM nk_rounds r"
            " LEFT JOIN nk_games g ON g.round_id = r.id WHERE r.tournament_id = ? AND r.number BETWEEN ? AND ?",
            (tournament_id, first, last),
        )
        moments = [datetime.fromisoformat(str(v)) for v in ((row["paired"], row["result"]) if row else ()) if v]
        return max(moments) if moments else None

    async def save_round(self, tournament_id: int, pairing: mcmahon.Pairing, now: datetime) -> int:
        round_id = await self.store.write(
            "INSERT INTO nk_rounds (tournament_id, number, bye_id, paired_at) VALUES (?, ?, ?, ?)",
            (tournament_id, pairing.round, None if pairing.bye is None else int(pairing.bye), iso(now)),
        )
        if pairing.games:  # one round trip for the round's games, in board order
            await self.store.execute_many(
                "INSERT INTO nk_games (round_id, board, black_id, white_id) VALUES (?, ?, ?, ?)",
                [(round_id, g.board, int(g.black), int(g.white)) for g in pairing.games],
            )
        return round_id

    async def change_round(
        self, club_id: int, tournament_id: int, round_id: int, number: int, games: list[tuple[int, int, int]],
        bye: int | None, body: str, picture: str | None, now: datetime,
    ) -> bool:
        """The director's change to a paired round: (game id, black, white) of each game and the bye. The
        round's announcement is rewritten while it is unsent; once it may have been posted, the new
        pairing is queued as a correction after it. True when a correction was queued."""
        await self.store.execute_many(
            "UPDATE nk_games SET black_id = ?, white_id = ? WHERE id = ?", [(black, white, gid) for gid, black, white in games]
        )
        await self.store.write("UPDATE nk_rounds SET bye_id = ? WHERE id = ?", (bye, round_id))
        kind = f"nk:{tournament_id}:round:{number}"
        return await self.store.rewrite_or_correct(club_id, None, kind, f"{kind}:change:", body, picture, now)

    async def report(self, game_id: int, winner_id: int | None, by: int, jigo: bool = False) -> None:
        await self.store.write(
            "UPDATE nk_games SET reported_winner = ?, reported_jigo = ?, reported_by = ? WHERE id = ?",
            (winner_id, int(jigo), by, game_id),
        )

    async def withdraw(self, tournament_id: int, member_id: int, from_round: int | None) -> None:
        """Withdraw a player from ``from_round`` on; None: undo a withdrawal."""
        await self.store.write(
            "UPDATE nk_players SET withdrawn_from = ? WHERE tournament_id = ? AND member_id = ?",
            (from_round, tournament_id, member_id),
        )

    async def set_result(self, game_id: int, winner_id: int | None, forfeit: bool, now: datetime, jigo: bool = False) -> None:
        await self.store.write(
            "UPDATE nk_games SET winner_id = ?, forfeit = ?, jigo = ?, confirmed_at = ? WHERE id = ?",
            (winner_id, int(forfeit), int(jigo), iso(now), game_id),
        )

    async def announced(self, club_id: int, kind: str) -> bool:
        row = await self.store.fetch_one("SELECT 1 FROM announcements WHERE club_id = ? AND kind = ?", (club_id, kind))
        return row is not None

    async def champion_announcements(self, club_id: int, tournament_id: int) -> list[str]:
        """The kinds of the champion announcements (and corrections) made for the tournament, oldest first."""
        rows = await self.store.fetch_all(
            "SELECT kind FROM announcements WHERE club_id = ? AND kind LIKE ? ORDER BY id",
            (club_id, f"nk:{tournament_id}:champion%"),
        )
        return [str(r[0]) for r in rows]

    async def announce_once(self, club_id: int, kind: str, body: str, now: datetime, picture: str | None = None) -> None:
        """Queue an announcement unless one of this kind exists (round_id is NULL, so the table's UNIQUE
        (round_id, kind) does not guard it); ``picture`` is what its picture shows (``picture_spec``),
        drawn when it is sent, never inside the command's transaction."""
        if not await self.announced(club_id, kind):
            await self.store.queue_announcement(club_id, None, kind, body, now, picture=picture)

    async def forbidden(self, t: NkTournament) -> list[tuple[str, str]]:
        """The club's forbidden pairs (``/indeling verbied``, kept in the shared tables:
        ``bot/core/club/forbidden_pairs.py``) as pairs of the engine's player ids: the NK pairing keeps them
        apart too."""
        return [(str(a), str(b)) for a, b in await self.store.forbidden_pairs(t.club_id)]

    async def load(self, t: NkTournament) -> mcmahon.Tournament:
        """The engine's view: confirmed registrations are the eligible players."""
        players = tuple(
            mcmahon.Player(
                id=str(p.member_id), name=p.name, rating=p.rating, strength_override=p.strength, earned=p.earned,
                eligible=p.confirmed, withdrawn_from=p.withdrawn_from, country=p.country or "", club=p.club or "",
                egf_pin=p.egf_pin,
            )  # fmt: skip
            for p in await self.players(t.id)
        )
        games = await self.games(t.id)
        rounds = []
        for _, number, bye in await self.rounds(t.id):
            rounds.append(
                mcmahon.Round(
                    number,
                    tuple(
                        mcmahon.Game(
                            str(g.black_id), str(g.white_id), None if g.winner_id is None else str(g.winner_id),
                            g.forfeit, g.board, g.jigo,
                        )  # fmt: skip
                        for g in games
                        if g.number == number
                    ),
                    None if bye is None else str(bye),
                )
            )
        return mcmahon.Tournament(players, tuple(rounds), mcmahon.Settings(rounds=t.rounds, group_size=t.group_size), t.name)
