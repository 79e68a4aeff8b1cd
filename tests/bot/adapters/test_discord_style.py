"""``/website`` on Discord with the club's look (issue 35 §4): the options ``stand: stijl``, ``kleur`` and
``logo`` (an attachment) become ``/website stijl kleur=#1a5fb4`` with the image as the command's file."""

from __future__ import annotations

import io
import sqlite3

import discord
from PIL import Image

from bot.config import Config
from tests.bot.adapters.fake_discord import FakeDiscord, Harness, bot, content, fake  # noqa: F401 - fixtures


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (512, 512), (26, 95, 180, 255)).save(out, "PNG")
    return out.getvalue()


async def test_the_director_sets_colour_and_logo_with_the_slash_commands_options(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    website = next(c for c in bot.client.tree.get_commands() if c.name == "website")
    assert {"kleur", "logo", "geenlogo"} <= {p.name for p in website.parameters}  # type: ignore[union-attr]
    data = png()
    url = fake.add_file("logo.png", data)
    payload = bot.slash("website", "Leider", {"stand": "stijl", "kleur": "#1a5fb4"}, director=True)
    payload["data"]["options"].append({"name": "logo", "type": 11, "value": "991"})
    payload["data"]["resolved"] = {"attachments": {"991": {
        "id": "991", "filename": "logo.png", "size": len(data), "url": url, "proxy_url": url, "content_type": "image/png",
    }}}  # fmt: skip
    await bot.client.tree._call(discord.Interaction(data=payload, state=bot.client._connection))  # type: ignore[arg-type]
    (answer,) = fake.callbacks(payload["id"])
    assert "#1a5fb4" in content(answer) and "logo" in content(answer), content(answer)
    with sqlite3.connect(config.db_path) as db:
        assert db.execute("SELECT colour FROM clubs").fetchall() == [("#1a5fb4",)]
        ((image,),) = db.execute("SELECT image FROM club_logos").fetchall()
    assert Image.open(io.BytesIO(image)).size == (256, 256)
    answer = await bot.command("website", "Leider", {"stand": "stijl", "kleur": "uit", "geen_logo": True}, director=True)
    assert "standaardkleur" in content(answer) and "van de website gehaald" in content(answer), content(answer)
