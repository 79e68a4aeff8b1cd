"""The website's connection limits follow the process's real open-file limit (issue 46 §3): the real
``clubbot run`` process, started with RLIMIT_NOFILE lowered to 1,024 as a unit's ``LimitNOFILE=`` does,
its website on 127.0.0.1 and Telegram at its local fake. 1,100 connections that send nothing, from one
address, and the chat's /stand is still answered."""

from __future__ import annotations

import asyncio
import resource
import socket
import time
from pathlib import Path

from bot.core.running.open_files import kept_for_the_bot, web_connections
from tests.bot.adapters.fake_telegram import TOKEN, FakeTelegram, message, user
from tests.bot.adapters.local_server import free_port
from tests.bot.bot_process import CLUBBOT, bot_process, environment, until
from tests.bot.web.test_exposed import SERVER, web_server

OPEN_FILES = 1024
SILENT = 1100


def _lowered() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def _silent_connections(port: int, count: int, source: str) -> list[socket.socket]:
    """``count`` connections from ``source`` that say nothing (the ones the kernel cannot complete, past
    the server's backlog, are given up on)."""
    held = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET6 if ":" in source else socket.AF_INET)
        s.setblocking(False)
        s.bind((source, 0))
        try:
            s.connect((source if ":" in source else "127.0.0.1", port))
        except BlockingIOError:
            pass
        held.append(s)
    return held


async def answered(telegram: FakeTelegram, asked: str, message_id: int, timeout: float = 30.0) -> bool:
    """Whether Anna's ``asked`` in the club's group gets an answer within ``timeout`` seconds."""
    since = len(telegram.sent())
    telegram.push(message(user(8, "Anna"), asked, message_id=message_id))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(telegram.sent()) > since:
            return True
        await asyncio.sleep(0.1)
    return False


async def test_silent_connections_at_a_lowered_open_file_limit_leave_the_chat_answering(tmp_path: Path) -> None:
    telegram = await FakeTelegram().start()
    web = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'[telegram]\nbase_url = "{telegram.base_url}"\nbase_file_url = "{telegram.base_file_url}"\n'
                      f'[web]\naddress = "127.0.0.1:{web}"\n')  # fmt: skip
    log = tmp_path / "bot.log"
    held: list[socket.socket] = []
    try:
        async with bot_process(log, CLUBBOT, "run", "--config", str(config), "--db", str(tmp_path / "club.sqlite3"),
                               cwd=tmp_path, env=environment(CLUBBOT_TELEGRAM_TOKEN=TOKEN), preexec_fn=_lowered) as proc:  # fmt: skip
            await until(lambda: bool(telegram.of("deleteWebhook")), proc, log)
            assert await answered(telegram, "/stand", 1), log.read_text()[-3000:]
            held = _silent_connections(web, SILENT, "127.0.0.2")
            await asyncio.sleep(2.0)  # the server has accepted what it will
            assert await answered(telegram, "/stand", 2), f"/stand got no answer:\n{log.read_text()[-3000:]}"
            other = await asyncio.to_thread(socket.create_connection, ("127.0.0.1", web), 5, ("127.0.0.3", 0))
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert (await asyncio.to_thread(other.recv, 100)).startswith(b"HTTP/1.1 200"), log.read_text()[-3000:]
            other.close()
            assert proc.returncode is None, log.read_text()[-3000:]
    finally:
        for s in held:
            s.close()
        await telegram.close()


def test_one_address_holds_a_share_of_what_the_limit_leaves(tmp_path: Path) -> None:
    """At 256 open files the website keeps what the bot needs and one address holds a share of the rest
    (7 connections, where a fixed 32 was an eighth of the whole limit)."""
    limit = 256
    total, per_address = web_connections(limit, kept_for_the_bot(False, ()))
    assert per_address < 32 and total == limit - kept_for_the_bot(False, ())
    server = web_server(SERVER.replace("(256, 256)", f"({limit}, {limit})"), tmp_path / "club.sqlite3")
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None
        held = _silent_connections(int(server.stdout.readline()), 20, "127.0.0.2")
        time.sleep(1.0)
        still_open = 0
        for s in held:
            try:
                still_open += s.recv(1) != b""  # b"": closed by the server
            except BlockingIOError:  # nothing to read: open
                still_open += 1
        assert still_open == per_address
    finally:
        for s in held:
            s.close()
        server.kill()
        server.communicate(timeout=10)


def test_a_limit_too_low_for_the_website_is_said_at_start(tmp_path: Path) -> None:
    server = web_server(SERVER.replace("(256, 256)", "(100, 100)"), tmp_path / "club.sqlite3")
    try:
        assert server.stdout is not None
        assert int(server.stdout.readline()) > 0  # it serves all the same
    finally:
        server.kill()
        _, err = server.communicate(timeout=10)
    assert "the open-file limit (100) leaves the website 32 connections" in err, err[-2000:]
