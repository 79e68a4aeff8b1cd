"""``Core.handle(..., done=)``: what an adapter records with a command's change (Telegram: that the update is
handled, with its reply, ``bot/adapters/telegram/inbox.py``) is committed with the change or not at all; and
a reply kept as JSON comes back as it was."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Button, Reply, Table, reply_from_json, reply_json
from bot.config import Config
from tests.bot.conftest import DIRECTOR, actor, rows

SEASON = "/seizoen naam=S start=2026-12-03 rondes=5"


async def test_done_runs_in_the_commands_transaction_with_its_reply(commands: Core, config: Config) -> None:
    seen: list[Reply] = []

    async def done(reply: Reply) -> None:
        seen.append(reply)
        # inside the transaction: the command's own write is visible, and this write goes with it
        assert await commands.store.fetch_one("SELECT 1 FROM seasons WHERE name = 'S'") is not None
        await commands.store.write("UPDATE clubs SET name = 'recorded' WHERE name = 'Test club'")

    reply = await commands.handle(DIRECTOR, SEASON, done=done)
    assert reply.ok and seen == [reply]
    assert rows(config, "SELECT name FROM clubs") == [("recorded",)]
    assert rows(config, "SELECT name FROM seasons") == [("S",)]


async def test_a_failing_done_takes_the_commands_change_with_it(commands: Core, config: Config) -> None:
    async def done(reply: Reply) -> None:
        await commands.store.write("UPDATE clubs SET name = 'recorded'")
        raise OSError("disk full")

    reply = await commands.handle(DIRECTOR, SEASON, done=done)
    assert not reply.ok
    assert rows(config, "SELECT COUNT(*) FROM seasons") == [(0,)]
    assert rows(config, "SELECT COUNT(*) FROM clubs") == [(0,)]  # the club the command made is gone too


async def test_done_is_not_called_for_a_refusal_nor_for_a_command_that_only_reads(commands: Core) -> None:
    called: list[str] = []

    async def done(reply: Reply) -> None:
        called.append(reply.text)

    assert not (await commands.handle(actor("Anna"), SEASON, done=done)).ok  # a director's command
    assert (await commands.handle(DIRECTOR, "/help", done=done)).ok  # reads only
    assert called == []


def test_a_reply_kept_as_json_comes_back_as_it_was() -> None:
    reply = Reply(
        lines=("Stand", "ronde 2 — Ærø"), table=Table(("#", "naam"), (("1", "Anna"), ("2", "Bert"))), private=True,
        ok=False, image=b"\x89PNG\x00\xff", attachment=("stand.csv", b"a;b\r\n\xef"),
        buttons=(Button("Bevestig", "/bevestig 3 ~12"),), extra={"own_rows": "{}"}, secret=True,
    )  # fmt: skip
    assert reply_from_json(reply_json(reply)) == reply
    assert reply_from_json(reply_json(Reply())) == Reply()
