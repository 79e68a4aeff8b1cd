"""/exporteer trf van=N tot=M (/export trf from=N to=M): a slice of rounds as TRF-16, for a rating office
that rates an event over more than 30 days in periods."""

from __future__ import annotations

from bot.core.clock import ShiftedClock
from bot.core.dispatch import Core
from tests.bot.conftest import DIRECTOR
from tests.bot.keizer.test_commands import refused
from tests.bot.keizer.test_why import two_rounds


async def test_trf_of_a_slice_of_rounds(commands: Core, clock: ShiftedClock) -> None:
    # /exporteer trf van=2 tot=2: only round 2, dated as round 2 (a rating office rates periods in slices)
    await two_rounds(commands, clock)
    whole = (await commands.handle(DIRECTOR, "/exporteer trf")).attachment
    part = (await commands.handle(DIRECTOR, "/exporteer trf van=2 tot=2")).attachment
    assert whole is not None and part is not None and part[0] == whole[0].replace(".trf", "_2-2.trf")
    lines = part[1].decode().splitlines()
    assert "042 2026/12/10" in lines and "052 2026/12/10" in lines
    assert next(x for x in lines if x.startswith("132"))[91:] == "26/12/10"
    anna = next(x for x in lines if x.startswith("001") and "Anna" in x)
    assert len(anna) == 99 and anna[98] == "="  # one round: the draw against Daan
    assert len(next(x for x in whole[1].decode().splitlines() if "Anna" in x)) == 109
    for text in ("/exporteer trf van=3 tot=3", "/exporteer trf van=2 tot=1", "/exporteer trf van=2", "/exporteer trf van=x tot=2"):
        await refused(commands, DIRECTOR, text)
