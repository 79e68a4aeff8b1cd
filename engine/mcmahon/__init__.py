"""The Dutch Go Championship (NK, seed 000): a McMahon-like double elimination in groups of 16.

``model`` holds the data (players, games, rounds, settings, standings, the pairing); ``tournament`` the
state after each round (groups, scores, SOS, contenders, standings, status); ``pairing`` the next round
(``score_groups`` its search for who floats where);
``files`` the tournament file and the EGF results export. The names most callers need are re-exported.
"""

from engine.mcmahon.model import (
    EARNED_GROUP1, EARNED_TOP, Game, Pairing, Player, PlayerId, Round, Settings, Standing, Status, Tournament,
    decided, earned_right, egf_grade, points_text,
)  # fmt: skip
from engine.mcmahon.pairing import pair_next, pairing_order
from engine.mcmahon.tournament import field_of, next_year_rights, standings, start_groups, status

__all__ = [
    "EARNED_GROUP1", "EARNED_TOP", "Game", "Pairing", "Player", "PlayerId", "Round", "Settings", "Standing",
    "Status", "Tournament", "decided", "earned_right", "egf_grade", "pair_next", "pairing_order", "field_of", "standings",
    "start_groups", "status", "next_year_rights", "points_text",
]  # fmt: skip
