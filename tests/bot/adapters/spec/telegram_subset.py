"""Make ``telegram_bot_api_subset.json``: the methods and types the fake Telegram uses, cut from a
machine-readable Bot API description (github.com/PaulSonOfLars/telegram-bot-api-spec, ``api.json``,
generated from core.telegram.org/bots/api). Refresh: ``python -m tests.bot.adapters.spec.telegram_subset
path/to/api.json COMMIT`` (see docs/telegram.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

SOURCE = "https://github.com/PaulSonOfLars/telegram-bot-api-spec (api.json)"
METHODS = (
    "getMe", "deleteWebhook", "setMyCommands", "getUpdates", "getChat", "getChatAdministrators", "sendMessage",
    "sendPhoto", "sendDocument", "answerCallbackQuery", "editMessageReplyMarkup", "getFile",
)  # fmt: skip
TYPES = (
    "Message", "Chat", "ChatFullInfo", "User", "ChatMemberOwner", "ChatMemberAdministrator", "File", "PhotoSize",
    "Document", "BotCommand", "InlineKeyboardMarkup", "InlineKeyboardButton", "ReplyParameters", "MessageEntity",
    "BotCommandScopeDefault", "BotCommandScopeAllChatAdministrators", "Update", "CallbackQuery",
)  # fmt: skip
OUT = Path(__file__).with_name("telegram_bot_api_subset.json")


def fields(entry: dict) -> list[dict]:
    return [{"name": f["name"], "types": f["types"], "required": f["required"], "description": f["description"]}
            for f in entry.get("fields", [])]  # fmt: skip


def subset(api: dict, commit: str) -> dict:
    return {
        "source": SOURCE, "commit": commit, "version": api["version"], "release_date": api["release_date"],
        "methods": {m: {"returns": api["methods"][m]["returns"], "fields": fields(api["methods"][m])} for m in METHODS},
        "types": {t: {"fields": fields(api["types"][t])} for t in TYPES},
    }  # fmt: skip


if __name__ == "__main__":
    api = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    OUT.write_text(json.dumps(subset(api, sys.argv[2]), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
