"""A command with a photo (issue 35 §4): the director sends the club's logo as a Telegram photo (or as a
file) with ``/website stijl logo`` as its caption; the largest size Telegram offers is the one read."""

from __future__ import annotations

import io
import sqlite3

import pytest
from PIL import Image

from bot.config import Config
from tests.bot.adapters.fake_telegram import GROUP, FakeTelegram, Harness, fake, message, tg, user  # noqa: F401 - fixtures

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LEIDER = user(1, "Leider")
ANNA = user(11, "Anna")


def jpeg(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (26, 95, 180)).save(out, "JPEG")
    return out.getvalue()


def photo(sender: dict, caption: str, fake: FakeTelegram, message_id: int) -> dict:
    """A photo message as Telegram sends it: each size a file of its own, the largest last."""
    fake.files[f"documents/small-{message_id}"] = jpeg((90, 60))
    fake.files[f"documents/large-{message_id}"] = jpeg((1280, 853))
    update = message(sender, "", message_id=message_id)
    del update["message"]["text"]
    sizes = [(f"small-{message_id}", 90, 60), (f"large-{message_id}", 1280, 853)]
    update["message"].update(caption=caption, photo=[
        {"file_id": f, "file_unique_id": f, "width": w, "height": h, "file_size": len(fake.files[f"documents/{f}"])} for f, w, h in sizes
    ])  # fmt: skip
    return update


async def test_a_photo_with_website_stijl_logo_becomes_the_clubs_logo(tg: Harness, fake: FakeTelegram, config: Config) -> None:
    fake.admins[str(GROUP)] = [LEIDER["id"]]
    await tg.say(LEIDER, "/kanaal")
    calls = await tg.send(photo(ANNA, "/website stijl logo", fake, 40))  # a member: refused, nothing kept
    assert any("wedstrijdleider" in c.text for c in calls if c.method == "sendMessage"), [c.text for c in calls]
    calls = await tg.send(photo(LEIDER, "/website stijl logo", fake, 41))
    assert any("logo" in c.text for c in calls if c.method == "sendMessage"), [c.text for c in calls]
    with sqlite3.connect(config.db_path) as db:
        ((image,),) = db.execute("SELECT image FROM club_logos").fetchall()
    assert Image.open(io.BytesIO(image)).size == (256, 171)  # the large photo, made anew at 256 px
