"""An open-loop load: commands arrive at a fixed offered rate, whether or not earlier ones are answered.

A closed loop (N commands always in flight) measures queueing: by Little's law, 50 in flight at 1,000/s
is 50 ms each, however fast one command is. Here each command has a scheduled arrival moment (evenly
spaced, or a Poisson process at the same mean rate), is started at that moment, and its latency runs from
the scheduled moment to the reply, so a command started late (the event loop was busy) counts its
lateness too.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class OpenLoopResult:
    latencies: list[float]  # seconds, from the scheduled arrival to the reply, in arrival order
    late: list[float]  # seconds by which each command was started after its scheduled arrival
    wall: float  # seconds from the first scheduled arrival to the last reply

    @property
    def achieved_rate(self) -> float:
        return len(self.latencies) / self.wall


def arrival_offsets(count: int, rate: float, poisson: bool, seed: int = 1) -> list[float]:
    """Seconds after the start at which each of ``count`` commands arrives; rate 0: all at once."""
    if rate <= 0:
        return [0.0] * count
    if not poisson:
        return [i / rate for i in range(count)]
    rng = random.Random(seed)
    offsets, moment = [], 0.0
    for _ in range(count):
        offsets.append(moment)
        moment += rng.expovariate(rate)
    return offsets


async def open_loop(jobs: Sequence[Callable[[], Awaitable[None]]], offsets: Sequence[float]) -> OpenLoopResult:
    """Start ``jobs[i]`` at ``offsets[i]`` seconds from now (or as soon after as the loop can) and wait for all."""
    latencies = [0.0] * len(jobs)
    late = [0.0] * len(jobs)
    tasks: list[asyncio.Task[None]] = []
    start = time.perf_counter()

    async def run(i: int) -> None:
        late[i] = time.perf_counter() - (start + offsets[i])
        await jobs[i]()
        latencies[i] = time.perf_counter() - (start + offsets[i])

    i = 0
    while i < len(jobs):
        elapsed = time.perf_counter() - start
        while i < len(jobs) and offsets[i] <= elapsed:
            tasks.append(asyncio.create_task(run(i)))
            i += 1
        if i < len(jobs):
            await asyncio.sleep(offsets[i] - (time.perf_counter() - start))
    await asyncio.gather(*tasks)
    return OpenLoopResult(latencies, late, max(o + lat for o, lat in zip(offsets, latencies)))
