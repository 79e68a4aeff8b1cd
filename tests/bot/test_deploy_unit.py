"""The systemd unit in docs/deploy.md, as an operator copies it (issue 33 §1): its environment holds the
variables the configuration reads, and the bot started with exactly its command line and environment
(stdin /dev/null, as systemd gives it) connects to Discord and Telegram (the local fakes), serves the
website with /healthz and /metrics, logs key=value lines and stops cleanly on SIGTERM. The unit the docs had before (DISCORD_TOKEN=...) started the console,
which exited 0 at once: such a start now stops with one line and exit status 2."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import socket
import sys
import tomllib
from pathlib import Path

import aiohttp

from tests.bot.adapters.discord_process import FAKE_ENV
from tests.bot.adapters.fake_discord import FakeDiscord
from tests.bot.adapters.fake_telegram import TOKEN as TELEGRAM_TOKEN, FakeTelegram
from tests.bot.conftest import season_names_at
from tests.paths import REPO

DOCS = (REPO / "docs" / "deploy.md").read_text(encoding="utf-8")


def unit() -> dict[str, list[str]]:
    """The [Service] settings of the unit in docs/deploy.md (a key may appear more than once)."""
    block = next(b for b in re.findall(r"```ini\n(.*?)```", DOCS, re.S) if "[Service]" in b)
    service = block.split("[Service]", 1)[1].split("\n[", 1)[0]
    settings: dict[str, list[str]] = {}
    for line in service.strip().splitlines():
        key, _, value = line.partition("=")
        settings.setdefault(key.strip(), []).append(value.strip())
    return settings


SECRETS_FILE = "/etc/clubbot/clubbot.env"


def unit_environment() -> dict[str, str]:
    """The variables of the unit's EnvironmentFile, as the page shows that file (``NAME=value`` lines)."""
    block = next(b for b in re.findall(r"```sh\n(.*?)```", DOCS, re.S) if b.startswith(f"# {SECRETS_FILE}"))
    lines = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    return dict(line.split("=", 1) for line in lines)


def install_steps() -> list[list[str]]:
    """The commands of the step-by-step install, each as its words."""
    block = next(b for b in re.findall(r"```sh\n(.*?)```", DOCS, re.S) if "useradd" in b)
    return [shlex.split(line) for line in block.splitlines() if line.strip() and not line.startswith("#")]


def credentials() -> dict[str, str]:
    """The LoadCredential= lines the page offers instead of the EnvironmentFile: name -> file."""
    found = re.findall(r"^LoadCredential=([A-Za-z_][A-Za-z0-9_]*):(\S+)$", DOCS, re.M)
    return dict(found)


def documented_config() -> str:
    return next(b for b in re.findall(r"```toml\n(.*?)```", DOCS, re.S) if "url_env" in b)


def test_the_unit_sets_what_the_configuration_reads() -> None:
    example = tomllib.loads((REPO / "config.example.toml").read_text(encoding="utf-8"))
    documented = tomllib.loads(documented_config())
    read = {example["discord"]["token_env"], example["telegram"]["token_env"], documented["database"]["url_env"]}
    assert set(unit_environment()) == read
    assert set(credentials()) == read
    assert int(unit()["LimitNOFILE"][0]) >= 65536
    assert unit()["Restart"] == ["always"]
    assert shlex.split(unit()["ExecStart"][0])[:2] == ["/srv/clubbot/.venv/bin/clubbot", "run"]


def test_the_secrets_are_in_a_file_only_root_reads_never_in_the_unit() -> None:
    """``Environment=`` values are shown to every user by ``systemctl show`` (issue 46 §6): the unit names
    the secrets file, which the steps make root's with mode 600 before anything is written into it."""
    assert "Environment" not in unit() and unit()["EnvironmentFile"] == [SECRETS_FILE]
    made = next(step for step in install_steps() if step[-1] == SECRETS_FILE)
    assert made[:1] == ["install"] and "-m" in made and made[made.index("-m") + 1] == "600", made
    assert made[made.index("-o") + 1] == "root" and made[-2] == "/dev/null", made


def test_the_steps_make_the_user_and_the_folders_the_unit_uses() -> None:
    steps = install_steps()
    user = next(step for step in steps if step[0] == "useradd")
    assert unit()["User"] == [user[-1]] == unit()["Group"] and "--system" in user and "/usr/sbin/nologin" in user
    home = unit()["WorkingDirectory"][0]
    assert any(step[:2] == ["git", "clone"] and step[-1] == home for step in steps)
    assert shlex.split(unit()["ExecStart"][0])[0] == f"{home}/.venv/bin/clubbot"
    data = next(step for step in steps if step[-1] == f"{home}/data")  # the one folder the bot writes
    assert data[data.index("-o") + 1] == user[-1] and data[data.index("-m") + 1] == "700"
    config = shlex.split(unit()["ExecStart"][0])[shlex.split(unit()["ExecStart"][0]).index("--config") + 1]
    assert any(step[0] == "install" and step[-1] == config for step in steps)


def test_a_credential_of_systemd_gives_the_variable_the_environment_does_not(tmp_path: Path, pg_url: str) -> None:
    """``LoadCredential=CLUBBOT_DATABASE_URL:...``: systemd puts the file in ``$CREDENTIALS_DIRECTORY``
    under that name; the bot, with no such variable in its environment, runs on that database."""
    import subprocess

    folder = tmp_path / "credentials"
    folder.mkdir()
    (folder / "CLUBBOT_DATABASE_URL").write_text(pg_url + "\n", encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text(documented_config(), encoding="utf-8")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")}, "CREDENTIALS_DIRECTORY": str(folder)}
    done = subprocess.run([str(Path(sys.executable).parent / "clubbot"), "run", "--config", str(config)], cwd=tmp_path,
                          input="/seizoen naam=Via-Credential start=2026-12-03 rondes=2\n/stop\n", env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and "Via-Credential" in done.stdout, done.stderr[-3000:]

    assert season_names_at(pg_url) == ["Via-Credential"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start(args: list[str], env: dict[str, str], log: Path) -> asyncio.subprocess.Process:
    with open(log, "wb") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.bot.adapters.discord_process", *args, cwd=REPO, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out,
        )  # fmt: skip


async def test_the_bot_runs_with_exactly_the_units_command_line_and_environment(tmp_path: Path, pg_url: str) -> None:
    discord = await FakeDiscord().start()
    telegram = await FakeTelegram().start()
    try:
        config = tmp_path / "config.toml"  # the documented /etc/clubbot/config.toml, with Telegram at its fake
        config.write_text(documented_config() + f'\n[telegram]\nbase_url = "{telegram.base_url}"\n'
                          f'base_file_url = "{telegram.base_file_url}"\n', encoding="utf-8")  # fmt: skip
        port = free_port()
        args = [word.replace("/etc/clubbot/config.toml", str(config)).replace("127.0.0.1:8080", f"127.0.0.1:{port}")
                for word in shlex.split(unit()["ExecStart"][0])[1:]]  # fmt: skip
        secrets = {"CLUBBOT_DISCORD_TOKEN": "fake", "CLUBBOT_TELEGRAM_TOKEN": TELEGRAM_TOKEN, "CLUBBOT_DATABASE_URL": pg_url}
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")},
               **{name: secrets[name] for name in unit_environment()}, FAKE_ENV: discord.url}  # fmt: skip
        log = tmp_path / "bot.log"
        proc = await start(args, env, log)
        try:
            try:
                await discord.wait_for(lambda: (discord.identified >= 1 and discord.ready.is_set())
                                       or proc.returncode is not None, timeout=60)  # fmt: skip
                assert proc.returncode is None
            except (TimeoutError, AssertionError):
                raise AssertionError(f"the bot did not connect to Discord:\n{log.read_text()[-3000:]}") from None
            deadline = asyncio.get_running_loop().time() + 60
            while not telegram.of("deleteWebhook"):  # the last call before it polls (getUpdates is not recorded)
                assert asyncio.get_running_loop().time() < deadline, (
                    f"Telegram saw {[c.method for c in telegram.calls]}:\n{log.read_text()[-3000:]}")
                await asyncio.sleep(0.1)
            status = 0
            while status != 200:  # the website comes up once the platforms have started
                assert asyncio.get_running_loop().time() < deadline, log.read_text()[-3000:]
                try:
                    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/c/") as answer:
                        status = 200 if answer.status < 500 else answer.status
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.2)
            health = ""
            while '"status": "ok"' not in health:  # docs/deploy.md's check: both platforms connected, the database answers
                assert asyncio.get_running_loop().time() < deadline, f"{health}\n{log.read_text()[-3000:]}"
                async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/healthz") as answer:
                    health = await answer.text()
                    assert answer.status == (200 if '"status": "ok"' in health else 503), health
                await asyncio.sleep(0.2)
            assert '"discord": "connected"' in health and '"telegram": "connected"' in health, health
            async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as answer:
                assert answer.status == 200 and "clubbot_commands_total" in await answer.text()
            assert proc.returncode is None, log.read_text()[-3000:]
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 60) == 0, log.read_text()[-3000:]
            logged = [line for line in log.read_text().splitlines() if line.startswith("time=")]
            assert logged and all(" level=" in line and " club=" in line for line in logged), log.read_text()[-3000:]
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    finally:
        await telegram.close()
        await discord.close()


async def test_the_old_units_environment_stops_with_a_message_not_a_quiet_exit(tmp_path: Path) -> None:
    """DISCORD_TOKEN/TELEGRAM_TOKEN are not the names the config reads: no token, so the console would
    start on an empty stdin and exit 0 (systemd sees a clean stop); now: exit 2 and the names to use."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("CLUBBOT_")},
           "DISCORD_TOKEN": "x", "TELEGRAM_TOKEN": "y", FAKE_ENV: "http://127.0.0.1:9"}  # fmt: skip
    for args in (["run", "--db", str(tmp_path / "c.sqlite3")],
                 ["run", "--db", str(tmp_path / "c.sqlite3"), "--shards", "0-3", "--shard-count", "8"]):  # fmt: skip
        log = tmp_path / "bot.log"
        proc = await start(args, env, log)
        assert await asyncio.wait_for(proc.wait(), 60) == 2
        said = log.read_text()
        assert said.startswith("clubbot: ") and said.count("\n") == 1 and "CLUBBOT_DISCORD_TOKEN" in said, said
