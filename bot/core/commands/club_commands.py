"""The commands every club has whatever systems it runs: ``/help`` (``bot/core/commands/help.py``), ``/taal``, ``/kanaal``, ``/koppel``
(``bot/core/club/linking.py``) and ``/club`` (``bot/core/club/club_details.py``)."""

from __future__ import annotations

from bot.core.club import club_details

from bot.core.club import club_style

from bot.core.club import linking

from bot.core.club import member_import

from bot.core.club import web_links
from bot.core.commands.completers import member_names
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.help import cmd_help
from bot.core.i18n import LANGUAGES, t
from bot.core.commands.registry import FLAG, KEYED, Command, Handler, Param, Registry
from bot.core.commands.replies import Button, Reply


def register(registry: Registry) -> None:
    registry.add(Command("help", cmd_help, english="hulp", params=(Param("opdracht"),), reads_only=True))
    registry.add(Command("taal", cmd_taal, director=True, english="language",
                         params=(Param("taal", "choice", required=True, choices=(("nl", "nl"), ("en", "en"))),)))  # fmt: skip
    registry.add(Command("website", cmd_website, english="website", params=(Param("stand", "choice", choices=WEBSITE_CHOICES), Param("speler", complete=member_names),
                                                                   Param("kleur", style=KEYED), Param("logo", "file"), Param("geenlogo", "bool", style=FLAG, word="logo=uit")),
                         reads_only=True))  # fmt: skip
    for mode in sorted(set(WEBSITE_MODES.values())):  # /website aan|uit|besloten: the director's switch, a write
        registry.route("website", [w for w, m in WEBSITE_MODES.items() if m == mode], _switch(mode), writes=True)
    registry.route("website", ("link", "mijn", "mine"), web_links.cmd_link, writes=True)  # a member's personal link
    registry.route("website", ("nieuw", "new", "renew"), web_links.cmd_renew, writes=True)
    registry.route("website", club_style.STYLE_WORDS, club_style.cmd_style, writes=True)  # the club's look (director)
    registry.add(Command("kanaal", cmd_kanaal, director=True, english="channel", params=(Param("kanaal", "channel"),)))
    linking.register(registry)
    member_import.register(registry)
    club_details.register(registry)


async def cmd_taal(core: Core, ctx: Context) -> Reply:
    """The club's language: ``/taal nl|en``."""
    if len(ctx.args) != 1 or ctx.args[0].lower() not in LANGUAGES:
        raise UserError("error_usage", usage=ctx.t("usage_taal"))
    language = ctx.args[0].lower()
    await core.store.set_club_language(ctx.club.id, language)
    return Reply(lines=(t(language, "language_set"),))


WEBSITE_MODES = {"aan": "on", "on": "on", "uit": "off", "off": "off", "besloten": "members", "members": "members"}
WEBSITE_CHOICES = (("discord_choice_website_on", "aan"), ("discord_choice_website_off", "uit"),
                   ("discord_choice_website_members", "besloten"), ("discord_choice_website_link", "link"),
                   ("discord_choice_website_new", "nieuw"), ("discord_choice_website_style", "stijl"))  # fmt: skip


async def cmd_website(core: Core, ctx: Context) -> Reply:
    """``/website``: the club's address, with a button for the member's personal link (``link``, ``nieuw``:
    ``bot/core/club/web_links.py``; ``aan``, ``uit``, ``besloten``: the director's switch, ``_switch``)."""
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("usage_website"))
    address = web_links.site_url(core, ctx.club.id)
    if ctx.club.website == "off" or address is None:
        return Reply(lines=(ctx.t("website_off"),))
    button = (Button(ctx.t("button_website_link"), "/website link"),) if ctx.member is not None else ()
    return Reply(lines=(ctx.t("website_address", url=address), ctx.t("website_link_offer")), buttons=button)


def _switch(mode: str) -> Handler:
    async def switch(core: Core, ctx: Context) -> Reply:
        """``/website aan|uit|besloten`` (director): public pages, none, or for members only."""
        if not ctx.is_director:
            raise UserError("error_director_only", command="website")
        if ctx.args:
            raise UserError("error_usage", usage=ctx.t("usage_website"))
        address = web_links.site_url(core, ctx.club.id)
        if mode != "off" and address is None:  # the bot serves no website
            raise UserError("website_no_server")
        await core.store.set_club_website(ctx.club.id, mode)
        if mode == "off" or address is None:
            return Reply(lines=(ctx.t(f"website_set_{mode}"),))
        return Reply(lines=(ctx.t(f"website_set_{mode}"), ctx.t("website_address", url=address)))  # where it now is

    return switch


async def cmd_kanaal(core: Core, ctx: Context) -> Reply:
    """Where announcements go: ``/kanaal [kanaal]`` (default: where the command was typed)."""
    channel = ctx.args[0] if ctx.args else ctx.actor.club_external_id
    if len(channel) > 100:
        raise UserError("error_channel_not_here")
    check = core.channel_checks.get(ctx.actor.platform)
    problem = await check(ctx.actor, channel) if check is not None else None
    if problem is not None:
        raise UserError(problem)
    await core.store.set_club_channel(ctx.club.id, channel)
    return Reply(lines=(ctx.t("channel_set"),))
