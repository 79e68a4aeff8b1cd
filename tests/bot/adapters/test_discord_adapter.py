"""The Discord adapter's parts, each end to end through the real discord.py against the local fake:
the registered commands and their localisations, announcement failures (403, 404, 429, no channel)
that leave the announcement pending until it is posted exactly once, the director told why, the
publish confirmation button, files both ways, slow commands, long replies, feature commands."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from datetime import datetime, timedelta, timezone

import discord

from bot.adapters.problems import NOTICE_AFTER
from bot.core.commands.context import Context
from bot.core.commands.dispatch import Core
from bot.core.commands.registry import Command as RegistryCommand
from bot.systems import make_core
from bot.config import Config
from bot.core.commands.replies import Reply
from tests.bot.adapters.discord_markdown import shown
from tests.bot.adapters.discord_world import UserOption
from tests.bot.adapters.fake_discord import (  # noqa: F401 - fixtures
    ANNOUNCE,
    EPHEMERAL,
    GENERAL,
    MANAGE_GUILD,
    FakeDiscord,
    Harness,
    bot,
    content,
    fake,
    flags,
    harness,
)

AFTER_PUBLISH = datetime(2026, 12, 3, 17, 5, tzinfo=timezone.utc)


async def season_with_players(bot: Harness, channel: int | None = ANNOUNCE) -> None:
    if channel is not None:
        await bot.command("kanaal", "Leider", director=True, channel=channel)
    answer = await bot.command("seizoen", "Leider", {"naam": "S", "start": "2026-12-03", "rondes": 4}, director=True)
    assert "S" in content(answer)
    for name, rating in [("Anna", 2000), ("Bert", 1900)]:
        await bot.command("speler", "Leider", {"naam": name, "rating": rating}, director=True)


def pending(config: Config) -> int:
    db = sqlite3.connect(config.db_path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL").fetchone()[0])
    finally:
        db.close()


# ---------------------------------------------------------------------------------------------- registration
async def test_commands_are_registered_in_dutch_with_english_localisations(bot: Harness, fake: FakeDiscord) -> None:
    (sync,) = fake.of("PUT", "/api/v10/applications/")
    commands = {c["name"]: c for c in sync.json}
    for dutch, english in [("aanmelden", "join"), ("afmelden", "signoff"), ("stand", "standings"),
                           ("indeling", "pairings"), ("uitslag", "result"), ("kanaal", "channel")]:  # fmt: skip
        assert commands[dutch]["name_localizations"] == {"en-US": english, "en-GB": english}
        assert commands[dutch]["description"] and commands[dutch]["description_localizations"]["en-US"]
    # every command of the commands layer is there, player commands also in a private message with the bot
    assert set(bot.commands.registry.commands) <= set(commands)
    assert commands["afmelden"]["contexts"] == [0, 1] and commands["afmelden"]["default_member_permissions"] is None
    # director commands: only in a server, and hidden by default for members who cannot manage it
    for name in bot.commands.registry.director_commands():
        assert commands[name]["contexts"] == [0], name
        assert int(commands[name]["default_member_permissions"]) == MANAGE_GUILD, name
    options = {o["name"]: o for o in commands["afmelden"]["options"]}
    assert options["ronde"]["name_localizations"]["en-US"] == "round" and options["ronde"]["autocomplete"]
    assert options["teamwedstrijd"]["type"] == 5 and options["ronde"]["description"]
    result = {o["name"]: o for o in commands["uitslag"]["options"]}["resultaat"]
    won = [c for c in result["choices"] if c["value"] == "gewonnen"][0]
    assert won["name"] == "gewonnen" and won["name_localizations"]["en-US"] == "won"
    importeer = {o["name"]: o for o in commands["importeer"]["options"]}
    assert importeer["bestand"]["type"] == 11  # an attachment
    for command in sync.json:
        assert len(command["description"]) <= 100 and len(command["name"]) <= 32


async def test_a_feature_modules_command_becomes_a_slash_command(config: Config, fake: FakeDiscord) -> None:
    """A command a system adds without declaring its parameters gets one free-text option; the adapter
    needs no change for it."""
    from bot.adapters.discord.adapter import DiscordAdapter

    h = await harness(config, fake)
    try:

        async def proef(commands: Core, ctx: Context) -> Reply:
            return Reply(lines=("args: " + "|".join(ctx.args),))

        h.commands.registry.add(RegistryCommand("proef", proef, english="trial"))
        adapter = DiscordAdapter(h.commands, h.adapter.config, h.alarm.after_command)
        await adapter.start(connect=False)
        h.adapter, old = adapter, h.adapter
        await old.stop()
        sync = fake.of("PUT", "/api/v10/applications/")[-1]
        (command,) = [c for c in sync.json if c["name"] == "proef"]
        assert command["name_localizations"]["en-US"] == "trial"
        assert [o["name"] for o in command["options"]] == ["argumenten"]
        answer = await h.command("proef", "Anna", {"argumenten": 'een "twee drie"'})
        assert shown(content(answer)) == "args: een|twee drie"  # as shown: the | is escaped
    finally:
        h.alarm.shutdown()
        await h.adapter.stop()
        await h.store.close()


async def test_manage_server_makes_a_director_and_the_club_language_sets_the_replies(bot: Harness) -> None:
    """Without the role, Manage Server makes a director; replies follow /taal, not the member's locale."""
    answer = await bot.command("seizoen", "Anna", {"naam": "S", "start": "2026-12-03"}, manage_guild=True, locale="en-US")
    assert not flags(answer) & EPHEMERAL and "Seizoen" in content(answer), content(answer)
    await bot.command("taal", "Anna", {"taal": "en"}, manage_guild=True)
    answer = await bot.command("help", "Bert")
    assert flags(answer) & EPHEMERAL and "/join" in content(answer)


# ---------------------------------------------------------------------------------------------- announcements
async def test_a_refused_or_rate_limited_announcement_stays_pending_and_is_posted_exactly_once(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await season_with_players(bot)
    fake.fail_channel(ANNOUNCE, 403)
    fake.fail_channel(ANNOUNCE, 404)
    fake.fail_channel(ANNOUNCE, 429, retry_after=600)  # longer than the adapter waits: it stays pending
    bot.clock.set(AFTER_PUBLISH)
    for attempt in range(3):
        await bot.alarm.run_due()
        assert fake.channel_posts(ANNOUNCE) == [] and pending(config) == 1, attempt
    assert [p.status for p in fake.channel_posts(ANNOUNCE, created_only=False)] == [403, 404, 429]
    # the alarm set itself a retry; the next wake posts it, once
    assert bot.alarm.scheduler.get_job("wake") is not None
    await bot.alarm.run_due()
    (post,) = fake.channel_posts(ANNOUNCE)
    assert post.json["content"].startswith("Indeling ronde 1")
    assert pending(config) == 0
    await bot.alarm.run_due()
    assert len(fake.channel_posts(ANNOUNCE)) == 1


async def test_a_short_rate_limit_is_waited_out(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    await season_with_players(bot)
    fake.fail_channel(ANNOUNCE, 429, retry_after=0.05)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    assert [p.status for p in fake.channel_posts(ANNOUNCE, created_only=False)] == [429, 200]
    assert len(fake.channel_posts(ANNOUNCE)) == 1 and pending(config) == 0


async def test_a_repeated_post_after_a_lost_answer_is_not_shown_twice(bot: Harness, fake: FakeDiscord) -> None:
    """The nonce: if Discord made the message but the answer was lost, the retry returns the same one."""
    await season_with_players(bot)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    club = await bot.commands.store.club_by_external("discord", str(bot.client.guilds[0].id))
    assert club is not None
    ((announcement, _),) = await bot.commands.store.announcements(club.id)
    # as if the first answer never arrived and the bot did not know it had tried (no look at the history)
    await bot.adapter.send_announcement(club, dataclasses.replace(announcement, attempted=False))
    assert len(fake.channel_posts(ANNOUNCE, created_only=False)) == 2
    assert len(fake.channel_posts(ANNOUNCE)) == 1


async def test_the_director_is_told_once_why_announcements_wait(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    await season_with_players(bot, channel=None)  # no /kanaal yet
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    assert pending(config) == 1
    bot.clock.set(AFTER_PUBLISH + NOTICE_AFTER + timedelta(seconds=10))  # failing for a few minutes: now a director hears it
    # a player is not bothered; the director is, once, privately
    await bot.command("indeling", "Anna")
    assert fake.of("POST", "/api/v10/webhooks/") == []
    await bot.command("indeling", "Leider", director=True)
    (note,) = fake.of("POST", "/api/v10/webhooks/")
    assert "/kanaal" in note.json["content"] and note.json["flags"] & EPHEMERAL
    await bot.command("indeling", "Leider", director=True)
    assert len(fake.of("POST", "/api/v10/webhooks/")) == 1
    # /kanaal in a channel the bot may not post in: the next director command hears that
    fake.fail_channel(GENERAL, 403, times=5)
    await bot.command("kanaal", "Leider", director=True, channel=GENERAL)
    assert pending(config) == 1
    await bot.command("indeling", "Leider", director=True)
    notes = fake.of("POST", "/api/v10/webhooks/")
    assert len(notes) == 2 and f"<#{GENERAL}>" in notes[1].json["content"]
    # the right channel: what waited is posted there, once
    await bot.command("kanaal", "Leider", director=True, channel=ANNOUNCE)
    assert pending(config) == 0 and len(fake.channel_posts(ANNOUNCE)) == 1
    assert fake.channel_posts(GENERAL) == []


# ---------------------------------------------------------------------------------------------- buttons, files
async def test_publishing_is_confirmed_with_a_button(bot: Harness, fake: FakeDiscord) -> None:
    await season_with_players(bot)
    # a player's /publiceer is refused by the commands layer
    refused = await bot.command("publiceer", "Anna")
    assert flags(refused) & EPHEMERAL and fake.channel_posts(ANNOUNCE) == []
    question = await bot.command("publiceer", "Leider", director=True)
    assert flags(question) & EPHEMERAL and fake.channel_posts(ANNOUNCE) == []
    cancelled = await bot.press(question, "Annuleren", "Leider", director=True)
    assert cancelled.json["type"] == 7 and cancelled.json["data"]["components"] == []
    assert fake.channel_posts(ANNOUNCE) == []
    question = await bot.command("publiceer", "Leider", director=True)
    done = await bot.press(question, "Publiceren", "Leider", director=True)
    assert done.json["type"] == 7 and "1" in content(done)
    (post,) = fake.channel_posts(ANNOUNCE)
    assert post.json["content"].startswith("Indeling ronde 1")


async def test_export_hands_over_a_file_and_import_takes_one(bot: Harness, fake: FakeDiscord) -> None:
    await season_with_players(bot)
    exported = await bot.command("exporteer", "Leider", director=True)
    ((name, data, _),) = exported.files.values()
    assert name == "S.json" and json.loads(data)["players"]
    url = fake.add_file("S.json", data)
    payload = bot.slash("importeer", "Leider", {"start": "2027-01-07", "naam": "S2", "toch": True}, director=True)  # S runs
    payload["data"]["options"].append({"name": "bestand", "type": 11, "value": "990"})
    payload["data"]["resolved"] = {"attachments": {"990": {
        "id": "990", "filename": "S.json", "size": len(data), "url": url, "proxy_url": url,
        "content_type": "application/json",
    }}}  # fmt: skip
    interaction = discord.Interaction(data=payload, state=bot.client._connection)
    await bot.client.tree._call(interaction)
    (answer,) = fake.callbacks(payload["id"])
    assert not flags(answer) & EPHEMERAL and "S2" in content(answer), content(answer)


async def test_a_slow_command_is_deferred_and_answered_later(bot: Harness, fake: FakeDiscord) -> None:
    async def traag(commands: Core, ctx: Context) -> Reply:
        await asyncio.sleep(0.3)
        return Reply(lines=("eindelijk",))

    bot.commands.registry.commands["traag"] = RegistryCommand("traag", traag)  # a command the tree does not know: run it directly
    bot.adapter.defer_after = 0.05
    payload = bot.slash("stand", "Anna")
    interaction = discord.Interaction(data=payload, state=bot.client._connection)
    await bot.adapter.run(interaction, "traag", [])
    (deferred,) = fake.callbacks(payload["id"])
    assert deferred.json["type"] == 5 and deferred.json["data"]["flags"] & EPHEMERAL
    (edit,) = fake.of("PATCH", "/api/v10/webhooks/")
    (public,) = fake.of("POST", "/api/v10/webhooks/")
    assert edit.json["content"] == "Klaar." and public.json["content"] == "eindelijk"
    assert not (public.json.get("flags") or 0) & EPHEMERAL


async def test_a_long_reply_goes_on_in_follow_up_messages(bot: Harness, fake: FakeDiscord) -> None:
    async def lang(commands: Core, ctx: Context) -> Reply:
        return Reply(lines=tuple(f"regel {i} " + "x" * 60 for i in range(100)))

    async def langer(commands: Core, ctx: Context) -> Reply:
        return Reply(lines=tuple(f"regel {i} " + "x" * 60 for i in range(400)))

    bot.commands.registry.commands["lang"] = RegistryCommand("lang", lang)
    payload = bot.slash("stand", "Anna")
    await bot.adapter.run(discord.Interaction(data=payload, state=bot.client._connection), "lang", [])
    (answer,) = fake.callbacks(payload["id"])
    follow_ups = fake.of("POST", f"/api/v10/webhooks/{payload['application_id']}/{payload['token']}")
    texts = [content(answer)] + [f.json["content"] for f in follow_ups]
    assert len(texts) == 4 and all(len(text) <= 2000 for text in texts) and not answer.files
    assert "\n".join(texts).split("\n") == [f"regel {i} " + "x" * 60 for i in range(100)]
    # longer than ten messages: cut, with the whole text attached
    bot.commands.registry.commands["langer"] = RegistryCommand("langer", langer)
    payload = bot.slash("stand", "Anna")
    await bot.adapter.run(discord.Interaction(data=payload, state=bot.client._connection), "langer", [])
    (answer,) = fake.callbacks(payload["id"])
    assert len(content(answer)) <= 2000 and "bijlage" in content(answer)
    ((name, data, _),) = answer.files.values()
    assert name == "clubbot.txt" and data.decode().count("regel") == 400


async def test_nothing_is_left_running_after_stop(config: Config, fake: FakeDiscord) -> None:
    h = await harness(config, fake, retry_after=timedelta(seconds=1))
    await h.adapter.stop()
    assert h.client.is_closed()
    h.alarm.shutdown()
    await h.store.close()


async def test_run_platforms_starts_discord_with_the_scheduler_and_stops_cleanly(config: Config, fake: FakeDiscord) -> None:
    """app.run_platforms with a Discord token: the adapter logs in and registers its commands, the
    gateway connection is made in the background (at the fake's gateway), and a stop ends it."""
    import yarl
    from discord.gateway import DiscordWebSocket

    from bot.app import run_platforms

    config = Config(**{**config.__dict__, "discord_token": "test-token"})
    old = DiscordWebSocket.DEFAULT_GATEWAY
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{fake.port}/gateway")
    try:
        stop = asyncio.Event()
        task = asyncio.create_task(run_platforms(config, stop))
        await fake.wait_for(lambda: fake.of("PUT", "/api/v10/applications/"), timeout=10)
        await fake.wait_for(lambda: fake.of("GET", "/gateway"), timeout=10)
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    finally:
        DiscordWebSocket.DEFAULT_GATEWAY = old


async def test_run_platforms_with_a_clock_start_lives_at_that_moment(config: Config, fake: FakeDiscord) -> None:
    """`clubbot run --clock` on a platform: the bot's time starts at the given moment, so a publication
    that is due then (and far in the real future) is paired and announced at start-up."""
    import yarl
    from discord.gateway import DiscordWebSocket

    from bot.app import run_platforms
    from bot.core.running.clock import ShiftedClock
    from bot.core.commands.context import Actor
    from bot.core.storage.store import Store
    from tests.bot.adapters.fake_discord import GUILD

    store = await Store.open(config.db_path)
    commands = make_core(store, config, ShiftedClock(datetime(2099, 1, 1, 9, 0, tzinfo=timezone.utc)))
    director = Actor("discord", str(GUILD), "Schaakclub De Toren", "1", "Leider", is_director=True)
    for line in [f"/kanaal {ANNOUNCE}", "/seizoen naam=S start=2099-01-01 rondes=2", "/speler Anna 2000", "/speler Bert 1900"]:
        assert (await commands.handle(director, line)).ok, line
    await store.close()

    config = Config(**{**config.__dict__, "discord_token": "test-token"})
    old = DiscordWebSocket.DEFAULT_GATEWAY
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(config, stop, clock_start=datetime(2099, 1, 1, 17, 5, tzinfo=timezone.utc)))
    try:
        await fake.wait_for(lambda: fake.channel_posts(ANNOUNCE), timeout=20)
        (post,) = fake.channel_posts(ANNOUNCE)
        assert post.json["content"].startswith("Indeling ronde 1 (2099-01-01)"), post.json["content"]
    finally:
        stop.set()
        DiscordWebSocket.DEFAULT_GATEWAY = old
    assert await asyncio.wait_for(task, 10) == 0


# ---------------------------------------------------------------------------------------------- exactly once
def refs(config: Config) -> list[tuple[str | None, str | None, str | None]]:
    db = sqlite3.connect(config.db_path)
    try:
        return db.execute("SELECT attempted_at, after_ref, message_ref FROM announcements ORDER BY id").fetchall()
    finally:
        db.close()


async def posted_then_died(bot: Harness) -> None:
    """The state a crash between posting and recording the post leaves: the announcement is marked as
    attempted, the message is in the channel, the announcement is still pending."""
    club = await bot.commands.store.club_by_external("discord", str(bot.client.guilds[0].id))
    assert club is not None
    (announcement,) = await bot.commands.store.pending_announcements()
    attempted = await bot.commands.store.mark_announcement_attempted(announcement, bot.clock.now())
    assert attempted.attempted
    await bot.adapter.send_announcement(club, attempted)


async def test_a_post_made_before_a_crash_is_found_in_the_history_and_not_made_again(
    bot: Harness, fake: FakeDiscord, config: Config
) -> None:
    await season_with_players(bot)
    bot.clock.set(AFTER_PUBLISH - timedelta(minutes=10))  # before the publication: nothing queued yet
    await bot.alarm.run_due()
    bot.clock.set(AFTER_PUBLISH)
    await bot.commands.store.queue_announcement(1, None, "notice", "Bericht van de leiding", bot.clock.now())
    # a first announcement goes out normally and is recorded with its message id
    await bot.alarm.run_due()
    first = fake.channel_posts(ANNOUNCE)
    assert len(first) == 2 and pending(config) == 0
    assert [r[2] for r in refs(config)] == [fake.history[str(ANNOUNCE)][0]["id"], fake.history[str(ANNOUNCE)][1]["id"]]
    # the next one is posted, then the bot dies before it records that; the nonce is long forgotten
    await bot.commands.store.queue_announcement(1, None, "notice", "Tweede bericht", bot.clock.now())
    await posted_then_died(bot)
    fake.nonce_window = 0.0
    fake.say(ANNOUNCE, "Anna", "Tweede bericht")  # a member's message with the same text is not it
    await bot.alarm.run_due()
    created = fake.channel_posts(ANNOUNCE)
    assert [content_of(p) for p in created].count("Tweede bericht") == 1
    assert pending(config) == 0
    assert refs(config)[-1][1] == refs(config)[-2][2]  # looked only after the club's previous post
    assert refs(config)[-1][2] == fake.history[str(ANNOUNCE)][2]["id"]  # the post found, not Anna's


async def test_an_attempt_that_did_not_post_is_posted_on_the_retry(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    await season_with_players(bot)
    fake.nonce_window = 0.0
    fake.fail_channel(ANNOUNCE, 403)
    bot.clock.set(AFTER_PUBLISH)
    await bot.alarm.run_due()
    assert pending(config) == 1 and refs(config)[0][0] is not None  # attempted, not posted
    fake.say(ANNOUNCE, "Anna", "wanneer komt de indeling?")
    await bot.alarm.run_due()
    (post,) = fake.channel_posts(ANNOUNCE)
    assert post.json["content"].startswith("Indeling ronde 1")
    assert pending(config) == 0


async def test_a_picture_post_is_recognised_by_its_file_name(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    await season_with_players(bot)
    bot.clock.set(AFTER_PUBLISH)
    await bot.commands.store.queue_announcement(1, None, "notice", "Kijk", bot.clock.now(), b"\x89PNG fake")
    await posted_then_died(bot)
    fake.nonce_window = 0.0
    await bot.alarm.run_due()  # the pairing of round 1 is queued and posted too
    posts = fake.channel_posts(ANNOUNCE)
    names = [name for p in posts for name, _, _ in p.files.values()]
    assert names.count("notice-1.png") == 1, names
    assert pending(config) == 0


def content_of(post: object) -> str:
    return str(getattr(post, "json", {}).get("content") or "")


async def test_the_fakes_gateway_as_discord_py_uses_it_identify_resume_interaction(bot: Harness, fake: FakeDiscord) -> None:
    """The fake's gateway (for the process crash test): discord.py identifies and gets READY and the guild;
    when the connection drops it resumes the session (no second IDENTIFY); an interaction delivered over
    the gateway runs the command and is answered."""
    import yarl
    from discord.gateway import DiscordWebSocket

    from tests.bot.adapters.fake_discord import slash_payload

    old = DiscordWebSocket.DEFAULT_GATEWAY
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    task = asyncio.create_task(bot.client.connect(reconnect=True))
    try:
        await fake.wait_for(lambda: fake.ready.is_set(), timeout=20)
        assert fake.of("GET", "/gateway")[0].query["compress"].endswith("-stream")  # asked; plain text is accepted
        socket = fake._socket
        assert socket is not None
        await socket.close(code=4000)  # Discord drops the connection
        await fake.wait_for(lambda: fake.resumed == 1 and fake.ready.is_set(), timeout=20)
        assert fake.identified == 1
        payload = slash_payload("kanaal", "Leider", director=True, channel=ANNOUNCE)
        await fake.interaction(payload)
        await fake.wait_for(lambda: fake.callbacks(payload["id"]), timeout=20)
        assert "kanaal" in content(fake.callbacks(payload["id"])[0]).lower()
    finally:
        DiscordWebSocket.DEFAULT_GATEWAY = old
        await bot.client.close()
        await asyncio.wait_for(task, 10)


# ---------------------------------------------------------------------------------------------- the rapid option
async def test_the_rapid_option_addresses_the_rapid_competition(bot: Harness, fake: FakeDiscord, config: Config) -> None:
    await season_with_players(bot)
    rapid = {"naam": "R", "start": "2026-12-05", "rondes": 2, "soort": "rapid"}
    await bot.command("seizoen", "Leider", rapid, director=True)
    await bot.command("koppel", "Leider", {"speler": "Anna", "account": UserOption("Anna")}, director=True)
    await bot.command("aanmelden", "Anna")
    await bot.command("aanmelden", "Anna", {"rapid": True})  # the rapid competition has its own roster
    # the round choices follow the option: the rapid rounds are on Saturdays
    main_rounds = await bot.autocomplete("afmelden", "Anna", "ronde", "")
    rapid_rounds = await bot.autocomplete("afmelden", "Anna", "ronde", "", others={"rapid": True})
    assert "2026-12-03" in main_rounds[0]["name"] and "2026-12-05" in rapid_rounds[0]["name"]
    answer = await bot.command("afmelden", "Anna", {"rapid": True, "ronde": 2})
    assert "2026-12-12" in content(answer)
    db = sqlite3.connect(config.db_path)
    try:
        signed_off = db.execute(
            "SELECT s.kind, r.number FROM signoffs so JOIN rounds r ON r.id = so.round_id"
            " JOIN seasons s ON s.id = r.season_id"
        ).fetchall()
    finally:
        db.close()
    assert signed_off == [("rapid", 2)]
    # /publiceer asks first; its button publishes the rapid round
    question = await bot.command("publiceer", "Leider", {"rapid": True}, director=True)
    published = await bot.press(question, "Publiceren", "Leider", director=True)
    assert "ronde 1" in content(published).lower()
    db = sqlite3.connect(config.db_path)
    try:
        paired = db.execute(
            "SELECT s.kind, r.number FROM rounds r JOIN seasons s ON s.id = r.season_id WHERE r.status = 'paired'"
        ).fetchall()
    finally:
        db.close()
    assert paired == [("rapid", 1)]
