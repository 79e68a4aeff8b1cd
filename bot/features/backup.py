"""``/backup``: the director downloads the club's database, a consistent snapshot taken while the bot runs.

The file is a SQLite database (SQLite's online backup API, see ``bot/store_backup.py``) holding only
the club's own rows; ``clubbot restore FILE`` puts such a file back in place (docs/reliability.md).
"""

from __future__ import annotations

import re
from datetime import timezone

from bot.commands import Commands, Context, UserError
from bot.replies import Reply
from bot.store_backup import StoreBackup


def register(commands: Commands) -> None:
    commands.add("backup", cmd_backup, director_only=True, english=None)


async def cmd_backup(commands: Commands, ctx: Context) -> Reply:
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("backup_usage"))
    content = await StoreBackup(commands.store).club_snapshot(ctx.club.id)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", ctx.club.name).strip("_")[:40] or "club"
    stamp = ctx.now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    filename = f"clubbot-{name}-{stamp}.sqlite3"
    return Reply(
        lines=(ctx.t("backup_ready", size=f"{len(content) / 1024:.0f}"),),
        private=True,
        attachment=(filename, content),
    )
