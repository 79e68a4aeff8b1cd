"""The club's own look (issue 35 §4): the director's ``/website stijl`` (colour, logo, back to standard),
the logo read safely and made anew, served as a PNG with its caching headers, on every page, part of what
changes a cached page; and the colours derived from any club colour keep text AA (WCAG 2.2: 4.5:1)."""

from __future__ import annotations

import io
import re

import aiohttp
from hypothesis import given, settings
from multidict import CIMultiDict
from hypothesis import strategies as st
from PIL import Image

from bot.adapters.console import ConsoleAdapter
from bot.core.commands.dispatch import Core
from bot.web.style import (
    DARK_BACKGROUNDS,
    LIGHT_BACKGROUNDS,
    contrast,
    luminance,
    readable,
    text_on,
)
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

colours = st.integers(0, 0xFFFFFF).map(lambda n: f"#{n:06x}")


def image(kind: str, size: tuple[int, int] = (600, 300), mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (200, 30, 30) if mode == "RGB" else 0).save(out, kind)
    return out.getvalue()


# ---------------------------------------------------------------- contrast, by WCAG's own numbers
def test_contrast_is_wcags_ratio() -> None:
    assert round(contrast("#000000", "#ffffff"), 2) == 21.0
    assert round(contrast("#ffffff", "#ffffff"), 2) == 1.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the grey known to just fail AA on white
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54  # and the one that just passes
    assert round(luminance("#ff0000"), 4) == 0.2126 and round(luminance("#00ff00"), 4) == 0.7152


def test_hostile_colours_get_readable_text_and_links() -> None:
    assert text_on("#ffff00") == "#111111" and text_on("#000000") == "#ffffff"
    assert text_on("#777777") == "#000000"  # white 4.48, near-black 4.2: only black is AA on this grey
    assert readable("#0b4f9c", LIGHT_BACKGROUNDS) == "#0b4f9c"  # already AA: left as it is
    assert readable("#ffffff", DARK_BACKGROUNDS) == "#ffffff"
    yellow = readable("#ffff00", LIGHT_BACKGROUNDS)
    assert yellow != "#ffff00" and yellow[1:3] == yellow[3:5] and yellow[5:] == "00"  # a darker yellow, same hue
    assert readable("#000000", DARK_BACKGROUNDS) != "#000000"


@settings(max_examples=2000, deadline=None)
@given(colours)
def test_every_colour_keeps_text_aa_in_light_and_dark(colour: str) -> None:
    assert contrast(colour, text_on(colour)) >= 4.5
    light, dark = readable(colour, LIGHT_BACKGROUNDS), readable(colour, DARK_BACKGROUNDS)
    assert all(contrast(light, b) >= 4.5 for b in LIGHT_BACKGROUNDS), (colour, light)
    assert all(contrast(dark, b) >= 4.5 for b in DARK_BACKGROUNDS), (colour, dark)
    assert contrast(light, "#ffffff") >= 4.5 and contrast(dark, "#111111") >= 4.5  # the marked menu item


# ---------------------------------------------------------------- the command
async def test_only_the_director_sets_the_style_and_bad_input_changes_nothing(commands: Core, config) -> None:
    assert "kleur standaard, logo: geen" in await ok(commands, DIRECTOR, "/website stijl")  # what is set: nothing yet
    assert "wedstrijdleider" in await refused(commands, actor("Anna"), "/website stijl kleur=#1a5fb4", config)
    assert "wedstrijdleider" in await refused(commands, actor("Anna"), "/website stijl logo", config, image("PNG"))
    assert "geen kleur" in await refused(commands, DIRECTOR, "/website stijl kleur=blauw", config)
    assert "geen kleur" in await refused(commands, DIRECTOR, "/website stijl kleur=#12345g", config)
    assert "/website stijl" in await refused(commands, DIRECTOR, "/website stijl paars", config)
    assert "afbeelding" in await refused(commands, DIRECTOR, "/website stijl logo", config)  # nothing attached
    assert "PNG, JPEG of WebP" in await refused(commands, DIRECTOR, "/website stijl logo", config, image("GIF"))
    assert "PNG, JPEG of WebP" in await refused(commands, DIRECTOR, "/website stijl logo", config, b"\x89PNG\r\n\x1a\nrubbish")
    # a 5000 x 5000 PNG is a few kB but 25 million pixels: refused from its header, never decoded
    bomb = image("PNG", (5000, 5000), mode="1")
    assert len(bomb) < 100_000
    assert "5000 × 5000" in await refused(commands, DIRECTOR, "/website stijl logo", config, bomb)
    assert "2 MB" in await refused(commands, DIRECTOR, "/website stijl logo", config, b"\x89PNG" + bytes(2 * 1024 * 1024))
    # a colour that is fine with a logo that is not: all or nothing
    assert "PNG, JPEG of WebP" in await refused(commands, DIRECTOR, "/website stijl kleur=#1a5fb4 logo", config, b"GIF89a")
    assert rows(config, "SELECT colour, logo FROM clubs") == [(None, None)]


async def test_the_director_sets_and_resets_colour_and_logo(commands: Core, config) -> None:
    set_ = await ok(commands, DIRECTOR, "/website stijl kleur=#1A5FB4")
    assert "#1a5fb4" in set_ and "staat nog uit" in set_  # set ahead; shown once the website is on
    assert "#11aa55" in await ok(commands, DIRECTOR, "/website stijl kleur=1a5")  # short hex, no #
    for kind in ("PNG", "JPEG", "WEBP"):
        assert "logo" in await ok(commands, DIRECTOR, "/website stijl logo", image(kind, (600, 300)))
        (stored,) = rows(config, "SELECT image FROM club_logos")
        logo = Image.open(io.BytesIO(stored[0]))
        assert logo.format == "PNG" and logo.size == (256, 128)  # made anew, scaled down, shape kept
    assert rows(config, "SELECT colour FROM clubs") == [("#11aa55",)]
    assert "standaardkleur" in await ok(commands, DIRECTOR, "/website stijl kleur=uit")
    assert rows(config, "SELECT colour FROM clubs") == [(None,)]
    assert "van de website gehaald" in await ok(commands, DIRECTOR, "/website stijl logo=uit")
    assert rows(config, "SELECT logo FROM clubs") == [(None,)] and rows(config, "SELECT * FROM club_logos") == []
    await ok(commands, DIRECTOR, "/website stijl kleur=#ffff00 logo", image("PNG", (40, 40)))
    assert "kleur #ffff00, logo: ja" in await ok(commands, DIRECTOR, "/website stijl")
    await ok(commands, DIRECTOR, "/website stijl standaard")
    assert rows(config, "SELECT colour, logo FROM clubs") == [(None, None)]
    await ok(commands, DIRECTOR, "/taal en")
    assert "#000000" in await ok(commands, DIRECTOR, "/website style colour=#000000")


# ---------------------------------------------------------------- the pages
async def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, CIMultiDict[str]]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.read(), response.headers.copy()


async def test_every_page_shows_the_look_and_the_cached_page_follows_it(commands: Core, site: str) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=5")
    for line in ("Anna 2100", "Bert 2000"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    stand = f"{site}/c/{club.id}/stand"
    _, plain, _ = await get(stand)
    assert b":root{--brand" not in plain and b"<img" not in plain
    await ok(commands, DIRECTOR, "/website stijl kleur=#ffff00 logo", image("JPEG", (800, 800)))
    for path in ("", "stand", "kalender"):
        status, body, _ = await get(f"{site}/c/{club.id}/{path}")
        assert status == 200, path
        html = body.decode()
        assert '<div class="brand coloured"><img src="/c/' in html, path
        # yellow's band gets near-black text; its links a darker yellow on the light page, kept in dark
        assert re.search(r"--brand:#ffff00;--brand-text:#111111;--link:#([0-9a-f]{6});--link-dark:#ffff00", html), html[:3000]
    logo_url = re.search(r'<img src="([^"]+)"', html).group(1)
    status, logo, headers = await get(f"{site}{logo_url}")
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert "max-age=31536000" in headers["Cache-Control"] and headers["ETag"]
    assert Image.open(io.BytesIO(logo)).size == (256, 256)
    status, _, _ = await get(f"{site}{logo_url}", {"If-None-Match": headers["ETag"]})
    assert status == 304
    # the standings were rendered and cached with yellow: a new colour must show on the next request
    await ok(commands, DIRECTOR, "/website stijl kleur=#1a5fb4")
    _, body, _ = await get(stand)
    assert b"--brand:#1a5fb4" in body and b"#ffff00" not in body
    await ok(commands, DIRECTOR, "/website stijl standaard")
    _, body, _ = await get(stand)
    assert body == plain  # the standard look exactly as before
    status, _, _ = await get(f"{site}{logo_url}")
    assert status == 404


async def test_the_console_attaches_the_logo_by_its_path(commands: Core, config, tmp_path) -> None:
    logo = tmp_path / "logo.webp"
    logo.write_bytes(image("WEBP", (300, 600)))
    out = io.StringIO()
    console = ConsoleAdapter(commands, commands.clock, "Leider", "Test club", out=out, files_dir=tmp_path)  # type: ignore[arg-type]
    await console.start()
    assert await console.handle_line(f"/website stijl logo {logo} kleur=#1a5fb4")
    assert rows(config, "SELECT colour FROM clubs") == [("#1a5fb4",)], out.getvalue()
    (stored,) = rows(config, "SELECT image FROM club_logos")
    assert Image.open(io.BytesIO(stored[0])).size == (128, 256)
