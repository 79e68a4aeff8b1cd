"""``Batched`` (bot/core/running/batched.py): calls that come while a batch runs go together in the next one, each
caller gets its own answer, and an error reaches the callers of its batch only."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.running.batched import Batched


async def test_calls_made_together_go_in_one_batch_and_each_gets_its_answer() -> None:
    batches: list[list[int]] = []

    async def double(items: list[int]) -> list[int]:
        batches.append(items)
        await asyncio.sleep(0.01)
        return [2 * i for i in items]

    batched = Batched(double)
    assert await asyncio.gather(*(batched(i) for i in range(5))) == [0, 2, 4, 6, 8]
    assert batches == [[0, 1, 2, 3, 4]]  # asked in the same turn: one batch, in their order
    first = asyncio.ensure_future(batched(10))
    await asyncio.sleep(0)  # the first batch is running now
    later = [asyncio.ensure_future(batched(i)) for i in (11, 12)]
    assert [await first, *[await f for f in later]] == [20, 22, 24]
    assert batches[1:] == [[10], [11, 12]]  # those asked while one ran: together, after it


async def test_a_batch_is_never_larger_than_its_largest() -> None:
    batches: list[list[int]] = []

    async def same(items: list[int]) -> list[int]:
        batches.append(items)
        return items

    batched = Batched(same, largest=3)
    assert await asyncio.gather(*(batched(i) for i in range(7))) == list(range(7))
    assert batches == [[0, 1, 2], [3, 4, 5], [6]]


async def test_an_error_reaches_the_callers_of_its_batch_and_the_next_batch_runs() -> None:
    async def refuse_seven(items: list[int]) -> list[int]:
        await asyncio.sleep(0.01)
        if 7 in items:
            raise ValueError("no sevens")
        return items

    batched = Batched(refuse_seven)
    first = [asyncio.ensure_future(batched(i)) for i in (6, 7)]
    await asyncio.sleep(0)
    second = asyncio.ensure_future(batched(8))
    results = await asyncio.gather(*first, second, return_exceptions=True)
    assert [type(r) for r in results[:2]] == [ValueError, ValueError] and results[2] == 8


async def test_a_wrong_number_of_answers_is_an_error_not_a_wrong_answer() -> None:
    async def short(items: list[int]) -> list[int]:
        return items[:-1]

    batched = Batched(short)
    with pytest.raises(RuntimeError, match="answers for"):
        await asyncio.gather(batched(1), batched(2))


async def test_a_caller_that_gives_up_leaves_its_batch_to_finish() -> None:
    done: list[int] = []

    async def slow(items: list[int]) -> list[int]:
        await asyncio.sleep(0.02)
        done.extend(items)
        return items

    batched = Batched(slow)
    impatient = asyncio.ensure_future(batched(1))
    patient = asyncio.ensure_future(batched(2))
    await asyncio.sleep(0.005)
    impatient.cancel()
    assert await patient == 2 and done == [1, 2]  # the record was made all the same


async def test_a_caller_gone_before_its_batch_failed_leaves_no_unread_error() -> None:
    """The batch of a cancelled caller fails: the others hear it, and no error is left unread for the event
    loop to complain about ("Future exception was never retrieved")."""
    import gc

    complaints: list[dict] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: complaints.append(context))

    async def refuse(items: list[int]) -> list[int]:
        await asyncio.sleep(0.01)
        raise ValueError("refused")

    batched = Batched(refuse)
    gone = asyncio.ensure_future(batched(1))
    staying = asyncio.ensure_future(batched(2))
    await asyncio.sleep(0)
    gone.cancel()
    with pytest.raises(ValueError):
        await staying
    await asyncio.sleep(0.01)
    del gone
    gc.collect()
    await asyncio.sleep(0)
    loop.set_exception_handler(None)
    assert complaints == []
