"""Several processes share the Discord shards: `clubbot run --shards 0-3 --shard-count 8` runs discord.py's
AutoShardedClient with those shards; `--platforms` keeps Telegram to one process."""

from __future__ import annotations

import argparse

import discord
import pytest

from bot.adapters.discord.adapter import DiscordAdapter
from bot.app import build_platform_adapters
from bot.run_command import _with_process_options, parse_shards, run_from_cli
from bot.config import Config


def _args(**values: object) -> argparse.Namespace:
    base = {"config": None, "web": None, "db": None, "clock": None, "console": False, "shards": None,
            "shard_count": None, "platforms": None}  # fmt: skip
    return argparse.Namespace(**{**base, **values})


def test_shard_ranges_are_read_and_bad_ones_refused() -> None:
    assert parse_shards("0-3") == (0, 1, 2, 3)
    assert parse_shards("4,0-1") == (0, 1, 4)
    for bad in ("", "a-b", "1-", "0,0", "-3"):
        with pytest.raises(ValueError):
            parse_shards(bad)


def test_process_options_are_checked(config: Config) -> None:
    options = _with_process_options(config, _args(shards="4-7", shard_count=8, platforms="discord"))
    assert (options.shards, options.shard_count, options.platforms) == ((4, 5, 6, 7), 8, ("discord",))
    for bad in ({"shards": "0-3"}, {"shards": "6-8", "shard_count": 8}, {"shard_count": 0}, {"platforms": "irc"}):
        with pytest.raises(ValueError):
            _with_process_options(config, _args(**bad))


def test_a_bad_shard_option_stops_the_start_with_a_message(capsys) -> None:
    assert run_from_cli(_args(shards="0-3")) == 2
    assert "--shards needs --shard-count" in capsys.readouterr().err


def test_the_discord_client_runs_the_processs_shards(commands, config: Config) -> None:
    sharded = Config(**{**config.__dict__, "discord_token": "x", "shards": (2, 3), "shard_count": 8})
    adapter = DiscordAdapter(commands, sharded, after_command=_nothing, sync_commands=True)
    assert isinstance(adapter.client, discord.AutoShardedClient)
    assert adapter.client.shard_ids == [2, 3] and adapter.client.shard_count == 8
    assert not adapter.client.sync_commands  # registered once, by the process with shard 0
    whole = Config(**{**config.__dict__, "discord_token": "x", "shard_count": 2})
    assert DiscordAdapter(commands, whole, after_command=_nothing).client.shard_ids == [0, 1]
    single = DiscordAdapter(commands, Config(**{**config.__dict__, "discord_token": "x"}), after_command=_nothing)
    assert not isinstance(single.client, discord.AutoShardedClient) and single.client.sync_commands


def test_platforms_choose_the_adapters(commands, config: Config) -> None:
    both = Config(**{**config.__dict__, "discord_token": "x", "telegram_token": "1:y"})
    assert [a.platform for a in build_platform_adapters(both, commands, _nothing)] == ["discord", "telegram"]
    only = Config(**{**both.__dict__, "platforms": ("discord",)})
    assert [a.platform for a in build_platform_adapters(only, commands, _nothing)] == ["discord"]


async def _nothing(actor: object) -> None:
    return None
