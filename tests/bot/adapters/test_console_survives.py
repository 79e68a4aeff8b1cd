"""The console adapter goes on after any exception (issue 30): it logs it, says what a chat would
("something went wrong") and reads the next line; ``Core.handle`` itself never raises, also when a
refusal's message cannot be formatted."""

from __future__ import annotations

import io
from pathlib import Path

from bot.adapters.console import ConsoleAdapter
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.i18n import t
from bot.core.commands.registry import Command
from bot.core.commands.replies import Reply


async def test_a_broken_command_neither_stops_the_console_nor_escapes_core_handle(commands: Core, tmp_path: Path) -> None:
    async def broken(core: Core, ctx: Context) -> Reply:
        raise UserError("error_season_over")  # its message needs {season}: cannot be formatted

    async def worse(core: Core, ctx: Context) -> Reply:
        raise UserError("no_such_message_key")

    commands.registry.add(Command("kapot", broken))
    commands.registry.add(Command("erger", worse))
    out = io.StringIO()
    console = ConsoleAdapter(commands, commands.clock, "Leider", "Test club", out=out, files_dir=tmp_path)  # type: ignore[arg-type]
    await console.start()
    assert await console.handle_line("/kapot")
    assert await console.handle_line("/erger")
    assert await console.handle_line("/taal nl")  # the next line is answered as usual
    lines = out.getvalue().splitlines()
    internal = "bot! " + t("nl", "error_internal")
    assert lines[0] == internal and lines[1] == internal
    assert lines[2].startswith("bot> ")
