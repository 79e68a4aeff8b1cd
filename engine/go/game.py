"""A go game as a sequence of actions: the rules of play, passing, dead-stone marking and agreement
(seed 001). ``GoGame.apply`` checks an action and either applies it or raises ``GoError`` and changes
nothing; ``replay`` rebuilds a game from its stored actions."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from engine.go.board import BLACK, EMPTY, WHITE, Board, GoError, other, parse_point, point_name
from engine.go.scoring import Score, score, toggle_dead

# What a player can do; ``points`` are the stones of a move, a handicap placement or a marked stone.
KINDS = ("handicap", "play", "pass", "resign", "timeout", "mark", "done", "accept", "reject")
PHASES = ("handicap", "play", "marking", "review", "over")
COLOUR_LETTER = {BLACK: "B", WHITE: "W"}


@dataclass(frozen=True)
class GoSettings:
    size: int
    komi: Fraction
    handicap: int = 0  # black places this many stones on the first turn (0: none)

    def __post_init__(self) -> None:
        if self.size not in (9, 13, 19):
            raise GoError("bad_size", size=self.size)
        if not 0 <= self.handicap <= 9:
            raise GoError("bad_handicap", stones=self.handicap)


@dataclass(frozen=True)
class Action:
    kind: str
    colour: int
    points: tuple[int, ...] = ()

    def text(self, size: int) -> str:
        """``B D4``, ``W pass``, ``B handicap D4 Q16``, ``W mark C3``: the stored form."""
        head = COLOUR_LETTER[self.colour]
        body = [point_name(p, size) for p in self.points]
        if self.kind == "play":
            return " ".join([head, *body])
        return " ".join([head, self.kind, *body])

    @staticmethod
    def parse(text: str, size: int) -> "Action":
        words = text.split()
        if not words or words[0] not in ("B", "W"):
            raise GoError("bad_record", text=text[:40])
        colour = BLACK if words[0] == "B" else WHITE
        if len(words) >= 2 and words[1] in KINDS:
            return Action(words[1], colour, tuple(parse_point(w, size) for w in words[2:]))
        if len(words) != 2:
            raise GoError("bad_record", text=text[:40])
        return Action("play", colour, (parse_point(words[1], size),))


@dataclass(frozen=True)
class Outcome:
    winner: int | None  # BLACK, WHITE, or None for a tie (only possible with a whole-number komi)
    how: str  # "score", "resign", "timeout"
    score: Score | None = None

    def sgf(self) -> str:
        """The SGF RE value: ``B+3.5``, ``W+R``, ``B+T``, ``0`` for a tie."""
        if self.winner is None:
            return "0"
        head = COLOUR_LETTER[self.winner] + "+"
        if self.how == "resign":
            return head + "R"
        if self.how == "timeout":
            return head + "T"
        assert self.score is not None
        return head + _fraction_text(self.score.margin)


def _fraction_text(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


@dataclass(frozen=True)
class GameState:
    settings: GoSettings
    phase: str
    to_act: int | None  # who must act now: the mover, the marker, the reviewer; None when over
    cells: bytes
    captured: tuple[int, int]  # (black stones captured, white stones captured)
    dead: frozenset[int]
    marker: int | None
    last: Action | None  # the last move or pass (the picture marks it)
    last_captures: int
    moves: int  # turns played (a pass and the handicap placement count as a turn)
    outcome: Outcome | None
    actions: tuple[Action, ...]

    def score(self) -> Score:
        return score(self.cells, self.settings.size, self.dead, self.captured[0], self.captured[1], self.settings.komi)


class GoGame:
    """The game in progress. Mutable for speed; ``state()`` gives a frozen snapshot."""

    def __init__(self, settings: GoSettings) -> None:
        self.settings = settings
        self.board = Board(settings.size)
        self.phase = "handicap" if settings.handicap else "play"
        self.to_move = BLACK
        self.captured = {BLACK: 0, WHITE: 0}
        self.passes = 0
        self.dead: frozenset[int] = frozenset()
        self.marker: int | None = None
        self.last: Action | None = None
        self.last_captures = 0
        self.moves = 0
        self.outcome: Outcome | None = None
        self.actions: list[Action] = []
        # the positions after the last two turns: the ko rule compares with the one before the last
        self._after: list[tuple[int, bytes]] = [(0, bytes(self.board.cells))]

    @property
    def to_act(self) -> int | None:
        if self.phase in ("handicap", "play"):
            return self.to_move
        if self.phase == "marking":
            return self.marker
        if self.phase == "review":
            assert self.marker is not None
            return other(self.marker)
        return None

    def _turn_done(self) -> None:
        self._after = [self._after[-1], (self.board.hash, bytes(self.board.cells))]
        self.to_move = other(self.to_move)
        self.moves += 1

    def apply(self, action: Action) -> None:
        """Check ``action`` against the rules and apply it; a refused action raises ``GoError`` and
        leaves the game as it was."""
        kind, colour = action.kind, action.colour
        if kind not in KINDS or colour not in (BLACK, WHITE):
            raise GoError("bad_record", text=kind)
        if self.phase == "over":
            raise GoError("game_over")
        if kind == "resign":
            self._finish(Outcome(other(colour), "resign"))
        elif kind == "timeout":
            if colour != self.to_act:
                raise GoError("not_your_turn")
            self._finish(Outcome(other(colour), "timeout"))
        elif colour != self.to_act:
            raise GoError("not_your_turn")
        elif self.phase == "handicap":
            self._handicap(action)
        elif self.phase == "play":
            self._play(action)
        elif self.phase == "marking":
            self._marking(action)
        else:
            self._review(action)
        self.actions.append(action)

    def _handicap(self, action: Action) -> None:
        """Seed 001 "Handicaps": black places the extra stones on the first turn, then play goes on."""
        if action.kind != "handicap":
            raise GoError("place_handicap", stones=self.settings.handicap)
        points = action.points
        if len(points) != self.settings.handicap or len(set(points)) != len(points):
            raise GoError("place_handicap", stones=self.settings.handicap)
        if any(not 0 <= p < len(self.board.cells) for p in points):
            raise GoError("off_board", text="", size=self.settings.size, last="")
        for p in points:
            self.board.put(BLACK, p)
        self.last = action
        self.last_captures = 0
        self.phase = "play"
        self._turn_done()

    def _play(self, action: Action) -> None:
        if action.kind == "pass":
            self.last = action
            self.last_captures = 0
            self.passes += 1
            self._turn_done()
            if self.passes >= 2:  # seed 001: two passes in a row end play; the player to move marks
                self.phase = "marking"
                self.marker = self.to_move
                self.dead = frozenset()
            return
        if action.kind != "play" or len(action.points) != 1:
            raise GoError("wrong_phase", phase=self.phase)
        point = action.points[0]
        if not 0 <= point < len(self.board.cells):
            raise GoError("off_board", text="", size=self.settings.size, last="")
        ko_hash, ko_cells = self._after[0]
        taken = self.board.play(action.colour, point, ko_hash, ko_cells)
        self.captured[other(action.colour)] += taken
        self.last = action
        self.last_captures = taken
        self.passes = 0
        self._turn_done()

    def _marking(self, action: Action) -> None:
        if action.kind == "mark":
            if len(action.points) != 1 or not 0 <= action.points[0] < len(self.board.cells):
                raise GoError("off_board", text="", size=self.settings.size, last="")
            point = action.points[0]
            if self.board.cells[point] == EMPTY:
                raise GoError("not_a_stone", point=point_name(point, self.settings.size))
            self.dead = toggle_dead(self.board.cells, self.settings.size, self.dead, point)
        elif action.kind == "done":
            self.phase = "review"
        else:
            raise GoError("wrong_phase", phase=self.phase)

    def _review(self, action: Action) -> None:
        """Seed 001: the opponent accepts the marking (the game is over, the higher score wins) or
        rejects it: play resumes with the marker to move, and a new marking follows two more passes."""
        if action.kind == "accept":
            final = self.score()
            self._finish(Outcome(final.winner, "score", final))
        elif action.kind == "reject":
            assert self.marker is not None
            self.phase = "play"
            self.to_move = self.marker
            self.passes = 0
            self.dead = frozenset()
            self.marker = None
        else:
            raise GoError("wrong_phase", phase=self.phase)

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.phase = "over"

    def score(self) -> Score:
        return score(
            self.board.cells, self.settings.size, self.dead, self.captured[BLACK], self.captured[WHITE],
            self.settings.komi,
        )  # fmt: skip

    def state(self) -> GameState:
        return GameState(
            self.settings, self.phase, self.to_act, bytes(self.board.cells), (self.captured[BLACK], self.captured[WHITE]),
            self.dead, self.marker, self.last, self.last_captures, self.moves, self.outcome, tuple(self.actions),
        )  # fmt: skip


def replay(settings: GoSettings, actions: Iterable[Action]) -> GoGame:
    """The game after ``actions``; an illegal one raises ``GoError`` with ``number`` (1-based) added."""
    game = GoGame(settings)
    for number, action in enumerate(actions, start=1):
        try:
            game.apply(action)
        except GoError as err:
            err.details["number"] = number
            raise
    return game
