"""What a command answers: platform-neutral data that each adapter renders in its own way."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

from bot.core.output import text_width


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    # Columns a narrow screen (a phone, the website's) shows under the column before them rather than beside
    # it (a pairing's points and value under each name), so the table fits and its result stays in view;
    # the chat's text and pictures show every column as it is.
    under: tuple[int, ...] = ()

    def as_text(self) -> str:
        """Fixed-width text: the console's rendering and every platform's text fallback."""
        cells = [self.headers, *self.rows]
        widths = [max(text_width.width(row[i]) for row in cells) for i in range(len(self.headers))]

        def line(row: tuple[str, ...]) -> str:  # columns by display width: a CJK name is two columns a character
            return "  ".join(text_width.pad(cell, w, numeric(cell)) for cell, w in zip(row, widths)).rstrip()

        rule = "  ".join("-" * w for w in widths)
        return "\n".join([line(self.headers), rule, *(line(r) for r in self.rows)])


def numeric(cell: str) -> bool:
    """A number as a table shows it, right-aligned: 12, -3, 24.5, 3,5, and a go score with a half: ½, 3½,
    -1½ (``engine/mcmahon/model.py``'s ``points_text``)."""
    unsigned = cell[1:] if cell[:1] in ("-", "+") else cell
    if unsigned == "½":
        return True
    digits = unsigned.removesuffix("½").replace(".", "", 1).replace(",", "", 1)
    return digits.isascii() and digits.isdigit()


@dataclass(frozen=True)
class Button:
    """A button under a reply; pressing it runs ``command`` as whoever pressed it (the commands layer
    checks that they may). Platforms: a Discord button, a Telegram inline keyboard button.

    A button that belongs to one member (confirming *their* game) is made with ``Button.for_member``:
    its command carries ``~<member id>``, and the commands layer answers anyone else "this button is
    for Bert" and changes nothing."""

    label: str
    command: str

    @classmethod
    def for_member(cls, label: str, command: str, member_id: int) -> "Button":
        return cls(label, f"{command} {OWNER_MARK}{member_id}")


OWNER_MARK = "~"  # ``/bevestig 3 ~12``: the button is member 12's
# Reply.extra: the reply turned on what the bot will send the member privately (``/mijn meldingen aan``): a
# platform where the member must open that private chat first (Telegram) offers them the way there.
PRIVATE_NOTICES = "private_notices"


@dataclass(frozen=True)
class Reply:
    """Text lines, an optional table, and whether only the asker should see it.

    ``ok`` is False when the command was refused; a refused command has changed nothing. ``image`` is a
    PNG of what ``text`` says (a platform shows the picture, with the text as fallback); ``buttons`` offer
    the next step (the opponent's confirmation of a result).
    """

    lines: tuple[str, ...] = ()
    table: Table | None = None
    private: bool = False
    ok: bool = True
    image: bytes | None = None
    attachment: tuple[str, bytes] | None = None  # a file to hand over: (file name, content)
    buttons: tuple[Button, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)
    # Only the asker may ever see it (a one-time code): a platform that cannot show a reply in a group to
    # one person only (Telegram) sends it to their private chat with the bot, or tells them how.
    secret: bool = False

    @property
    def text(self) -> str:
        parts = list(self.lines)
        if self.table is not None:
            parts.append(self.table.as_text())
        return "\n".join(parts)


def reply_json(reply: Reply) -> str:
    """A reply as JSON, to keep it in the database with the change it reports (a Telegram command's reply
    is sent from there after a crash: ``bot/adapters/telegram/inbox.py``); ``reply_from_json`` reads it."""
    table = None if reply.table is None else {"headers": list(reply.table.headers), "rows": [list(r) for r in reply.table.rows]}
    attachment = None if reply.attachment is None else [reply.attachment[0], _b64(reply.attachment[1])]
    return json.dumps({
        "lines": list(reply.lines), "table": table, "private": reply.private, "ok": reply.ok,
        "image": None if reply.image is None else _b64(reply.image), "attachment": attachment,
        "buttons": [[b.label, b.command] for b in reply.buttons], "extra": reply.extra, "secret": reply.secret,
    })  # fmt: skip


def reply_from_json(text: str) -> Reply:
    data = json.loads(text)
    table = data["table"]
    attachment = data["attachment"]
    return Reply(
        lines=tuple(data["lines"]),
        table=None if table is None else Table(tuple(table["headers"]), tuple(tuple(r) for r in table["rows"])),
        private=data["private"], ok=data["ok"],
        image=None if data["image"] is None else base64.b64decode(data["image"]),
        attachment=None if attachment is None else (attachment[0], base64.b64decode(attachment[1])),
        buttons=tuple(Button(label, command) for label, command in data["buttons"]),
        extra=dict(data["extra"]), secret=data["secret"],
    )  # fmt: skip


def _b64(content: bytes) -> str:
    return base64.b64encode(content).decode("ascii")
