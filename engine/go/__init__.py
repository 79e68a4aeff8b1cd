"""Turn-based go (seed 001): the board and its rules, dead stones and scoring, SGF, and the clock of
games that run for days. Pure: no I/O, no clock (time is passed in)."""

from engine.go.board import BLACK, EMPTY, WHITE, Board, GoError, other, parse_point, point_name, standard_handicap
from engine.go.game import Action, GameState, GoGame, GoSettings, Outcome, replay
from engine.go.scoring import Score, default_komi, score, territory, toggle_dead

__all__ = [
    "BLACK", "EMPTY", "WHITE", "Board", "GoError", "other", "parse_point", "point_name", "standard_handicap",
    "Action", "GameState", "GoGame", "GoSettings", "Outcome", "replay",
    "Score", "default_komi", "score", "territory", "toggle_dead",
]  # fmt: skip
