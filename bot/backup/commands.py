"""``/backup``: the director downloads the club's database, a consistent snapshot taken while the bot runs.

The file is a SQLite database (SQLite's online backup API, see ``bot/backup/store.py``) holding only
the club's own rows; ``clubbot restore FILE`` puts such a file back in place (docs/reliability.md).
"""

from __future__ import annotations

import re
from datetime import timezone

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Command, Registry
from bot.core.commands.replies import Reply
from bot.backup.store import StoreBackup


def register(registry: Registry) -> None:
    registry.add(Command("backup", cmd_backup, director=True, params=()))  # no options: /backup alone


async def cmd_backup(core: Core, ctx: Context) -> Reply:
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("backup_usage"))
    if core.store.dialect != "sqlite":
        raise UserError("backup_postgres")
    left_out = [table.name for table in core.registry.tables.values() if not table.in_backup]
    content = await StoreBackup(core.store).club_snapshot(ctx.club.id, left_out)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", ctx.club.name).strip("_")[:40] or "club"
    stamp = ctx.now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    filename = f"clubbot-{name}-{stamp}.sqlite3"
    return Reply(
        lines=(ctx.t("backup_ready", size=f"{len(content) / 1024:.0f}"),),
        private=True,
        attachment=(filename, content),
    )
