"""``decide_sign_on``: what ``/aanmelden`` writes for the round signed on for, worked by hand from the rules
(a newcomer after the deadline plays from the round after; a player in the season from a later round starts
earlier; a player already playing hears the round at hand; a sign-on only before the deadline). The
command's own tests go through the chat; these add the late cases of a player already in the season."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from bot.keizer.signoffs import RoundWord, SignOn, decide_sign_on
from bot.keizer.store import RoundRow, Season, SeasonPlayer

SEASON = Season(1, 1, "S", "main", 28, "17:00", "18:00", "Europe/Amsterdam", "{}", "active")
ROUND_3 = RoundRow(
    13, 1, 3, "2026-12-17", datetime(2026, 12, 17, 16, tzinfo=timezone.utc), datetime(2026, 12, 17, 17, tzinfo=timezone.utc), "open"
)
NOTHING = RoundWord()


def from_round(joined: int, auto_signed_off: bool = False) -> SeasonPlayer:
    return SeasonPlayer(7, "Zed", 1500, None, joined, None, auto_signed_off)


def sign_on(
    first: int, enrol: bool = False, earlier: bool = False, lift: bool = False, take_back: bool = False, signs_on: bool = False
) -> SignOn:
    return SignOn(SEASON, ROUND_3, first, enrol, earlier, lift, take_back, signs_on)


@pytest.mark.parametrize(
    ("place", "word", "late", "expected"),
    [
        (None, NOTHING, False, sign_on(3, enrol=True, signs_on=True)),  # a newcomer plays from round 3
        (None, NOTHING, True, sign_on(4, enrol=True)),  # after round 3's deadline: from round 4, no sign-on
        (from_round(5), NOTHING, False, sign_on(3, earlier=True, signs_on=True)),  # /aanmelden 3 after /aanmelden 5
        (from_round(5), NOTHING, True, sign_on(4, earlier=True)),  # late for round 3: from round 4 after all
        (from_round(4), NOTHING, True, sign_on(4)),  # late for round 3, in from round 4 already: nothing moves
        (from_round(1), NOTHING, True, sign_on(3)),  # playing already, late: the reply names round 3, nothing written
        (from_round(1), NOTHING, False, sign_on(3, signs_on=True)),  # the "yes" for round 3
        (from_round(1), RoundWord(signed_on=True), False, sign_on(3)),  # said "yes" already
        (from_round(1), RoundWord(signed_off=True), False, sign_on(3, take_back=True, signs_on=True)),
        (from_round(1, auto_signed_off=True), NOTHING, False, sign_on(3, lift=True, signs_on=True)),  # seed 004 rule j
    ],
)
def test_what_a_sign_on_writes(place: SeasonPlayer | None, word: RoundWord, late: bool, expected: SignOn) -> None:
    assert decide_sign_on(SEASON, ROUND_3, place, word, late) == expected
