"""The club's own look on its website (issue 35 §4), set by the director: ``/website stijl kleur=#1a5fb4``,
``/website stijl logo`` with an image attached, ``/website stijl standaard`` (or ``kleur=uit``,
``logo=uit``) for the standard look again; ``/website stijl`` says what is set.

The colour is kept as ``#rrggbb`` in ``clubs.colour``. The logo is read with Pillow within limits (at most
``MAX_LOGO_BYTES``, ``MAX_LOGO_PIXELS``, PNG, JPEG or WebP only, a decompression bomb refused before it is
decoded) and made anew as a PNG of at most ``LOGO_SIDE`` pixels a side: the bytes that were sent are never
kept or served. It is stored in ``club_logos``, its stamp in ``clubs.logo`` (migration 0070), so every
cached page of the club changes with it. How the pages use both: ``bot/web/style.py``.
"""

from __future__ import annotations

import asyncio
import io
import re
import warnings

from PIL import Image, ImageOps

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply

MAX_LOGO_BYTES = 2 * 1024 * 1024
MAX_LOGO_PIXELS = 4096 * 4096  # width x height of the image sent, checked before it is decoded
LOGO_SIDE = 256  # the logo kept: at most this many pixels wide and high
LOGO_FORMATS = ("PNG", "JPEG", "WEBP")
STYLE_WORDS = ("stijl", "style")
_COLOUR = re.compile(r"#?([0-9a-f]{6}|[0-9a-f]{3})")
_COLOUR_KEYS = frozenset({"kleur", "colour", "color"})
_OFF = frozenset({"uit", "off", "geen", "none", "standaard", "default"})
_DEFAULT = frozenset({"standaard", "default"})


def parse_colour(text: str) -> str | None:
    """``#1a5fb4``, ``1A5FB4`` or ``#15b`` as ``#1a5fb4``; None for anything else."""
    found = _COLOUR.fullmatch(text.strip().lower())
    if found is None:
        return None
    digits = found.group(1)
    return "#" + (digits if len(digits) == 6 else "".join(c * 2 for c in digits))


def logo_png(data: bytes) -> bytes:
    """The logo as the website shows it: ``data`` (PNG, JPEG or WebP) read within the limits and drawn
    anew as a PNG of at most ``LOGO_SIDE`` pixels a side (the first frame of a moving one). Raises
    ``UserError`` for anything else, before any write."""
    if len(data) > MAX_LOGO_BYTES:
        raise UserError("style_logo_too_big", mb=MAX_LOGO_BYTES // (1024 * 1024))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=LOGO_FORMATS) as image:
                width, height = image.size  # from the header: nothing is decoded yet
                if width < 1 or height < 1 or width * height > MAX_LOGO_PIXELS:
                    raise UserError("style_logo_too_many_pixels", width=width, height=height, side=4096)
                image.draft(None, (LOGO_SIDE, LOGO_SIDE))  # a JPEG is decoded at a fraction of its size
                picture = ImageOps.exif_transpose(image).convert("RGBA")
        picture.thumbnail((LOGO_SIDE, LOGO_SIDE), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        picture.save(out, "PNG", optimize=True)
    except UserError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UserError("style_logo_too_many_pixels", width="?", height="?", side=4096) from None
    except Exception:  # noqa: BLE001 - whatever a damaged or foreign file makes the decoder raise
        raise UserError("style_logo_unreadable") from None
    return out.getvalue()


async def cmd_style(core: Core, ctx: Context) -> Reply:
    """``/website stijl [kleur=#rrggbb|uit] [logo|logo=uit] [standaard]`` (director), the image attached.
    Everything is read and checked before anything is written."""
    if not ctx.is_director:
        raise UserError("error_director_only", command="website")
    colour: str | None = ctx.club.colour
    logo: bytes | None = None
    drop_logo = wants_logo = False
    changed_colour = False
    for word in ctx.args:
        key, is_keyed, value = word.partition("=")
        key = key.lower()
        if not is_keyed and key in _DEFAULT:
            colour, changed_colour, drop_logo = None, True, True
        elif is_keyed and key in _COLOUR_KEYS:
            parsed = None if value.lower() in _OFF else parse_colour(value)
            if parsed is None and value.lower() not in _OFF:
                raise UserError("style_bad_colour", value=value[:20])
            colour, changed_colour = parsed, True
        elif key == "logo" and (not is_keyed or value.lower() in _OFF):
            drop_logo, wants_logo = bool(is_keyed), not is_keyed
        else:
            raise UserError("error_usage", usage=ctx.t("usage_website_style"))
    if ctx.attachment is not None and not drop_logo:
        # an image sent without the word "logo" (a Discord option) is one too; decoded beside the event loop
        logo = await asyncio.to_thread(logo_png, ctx.attachment)
    elif wants_logo:
        raise UserError("style_logo_missing")
    if not changed_colour and logo is None and not drop_logo:
        return Reply(
            lines=(_now(ctx, ctx.club.colour, ctx.club.logo is not None), ctx.t("usage_website_style"))
        )
    lines = []
    if changed_colour:
        await core.store.set_club_colour(ctx.club.id, colour)
        lines.append(ctx.t("style_colour_set", colour=colour) if colour else ctx.t("style_colour_off"))
    if logo is not None:
        await core.store.set_club_logo(ctx.club.id, logo, ctx.now)
        lines.append(ctx.t("style_logo_set", side=LOGO_SIDE))
    elif drop_logo and ctx.club.logo is not None:
        await core.store.set_club_logo(ctx.club.id, None, ctx.now)
        lines.append(ctx.t("style_logo_off"))
    elif drop_logo:
        lines.append(ctx.t("style_logo_none"))
    if ctx.club.website == "off":
        lines.append(ctx.t("style_website_off"))
    return Reply(lines=tuple(lines))


def _now(ctx: Context, colour: str | None, logo: bool) -> str:
    return ctx.t(
        "style_now",
        colour=colour or ctx.t("style_standard"),
        logo=ctx.t("style_logo_yes" if logo else "style_logo_no"),
    )
