"""The Keizer competition (seeds 003 and 004): pure rules, no I/O, no clock.

``model`` holds the data (settings, players, games, rounds, standings); ``values`` what a place and a late
joiner are worth; ``scores`` the recalculation; ``pairing`` who plays whom; ``season`` cycles, no-shows and attendance; ``prizes``;
``groups`` (A-D for next season); ``season_file`` the JSON season file. The names most callers need are
re-exported here.
"""

from engine.keizer.model import Absence, Game, KeizerSettings, Player, PlayerId, Result, Round, Standing
from engine.keizer.scores import standings, value_ranking
from engine.keizer.values import late_joiner_start_points, ranking_values

__all__ = [
    "Absence", "Game", "KeizerSettings", "Player", "PlayerId", "Result", "Round", "Standing",
    "late_joiner_start_points", "ranking_values", "standings", "value_ranking",
]  # fmt: skip
