"""The website served directly on the internet (issue 33 §3), against the real server on 127.0.0.1: silent
connections from one address do not use up the process's open files, a connection that sends no whole
request is closed, aiohttp's own 400 carries the security headers and is logged once, the flood limiter
forgets idle addresses, and X-Forwarded-For counts only from a trusted proxy. Traffic only to loopback."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import aiohttp
from aiohttp import web

from bot.core.commands.dispatch import Core
from bot.core.running.open_files import PER_ADDRESS_MAX
from bot.web.connections import address_key
from bot.web import server as server_module
from bot.web.server import BURST, Flood, start_web
from tests.bot.conftest import DIRECTOR, ok

REPO = Path(__file__).resolve().parents[3]

SERVER = """
import asyncio, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
from bot.config import load_config
from bot.core.running.clock import Clock
from bot.core.storage.store import Store
from bot.systems import make_core
from bot.web.server import start_web

async def main():
    config = load_config("config.example.toml", env={})
    store = await Store.open(sys.argv[1])
    core = make_core(store, config, Clock())
    runner = await start_web(core, "127.0.0.1:0")
    print(runner.addresses[0][1], flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        try:
            with open(sys.argv[1] + ".export", "w") as fh:  # the bot's own file access
                fh.write("x")
            print("file ok", flush=True)
        except OSError as exc:
            print("file failed", exc, flush=True)
    await runner.cleanup()

asyncio.run(main())
"""


def web_server(script: str, db: Path) -> subprocess.Popen[str]:
    """``script`` (``SERVER``: the website at a lowered open-file limit) as a process on the SQLite ``db``;
    it prints its port, then answers each line on its standard input."""
    return subprocess.Popen(
        [sys.executable, "-c", script, str(db)], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip


def test_silent_connections_from_one_address_leave_the_site_and_the_files_to_others(tmp_path: Path) -> None:
    server = web_server(SERVER, tmp_path / "club.sqlite3")
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None and server.stdin is not None
        port = int(server.stdout.readline())
        for _ in range(300):  # more than the server's 256 open files, all from 127.0.0.2, saying nothing
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.settimeout(2)
            s.connect(("127.0.0.1", port))
            held.append(s)
        time.sleep(0.5)
        other = socket.create_connection(("127.0.0.1", port), timeout=5)  # another visitor is served
        other.sendall(b"GET /c/1/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert other.recv(100).startswith(b"HTTP/1.1 404")
        other.close()
        server.stdin.write("open a file\n")
        server.stdin.flush()
        assert server.stdout.readline().strip() == "file ok"
    finally:
        for s in held:
            s.close()
        server.kill()
        _, err = server.communicate(timeout=10)
    assert len(err.splitlines()) < 20, err[-2000:]  # no flood of log lines


async def test_a_connection_that_sends_no_whole_request_is_closed(commands: Core) -> None:
    runner = await start_web(commands, "127.0.0.1:0", header_timeout=0.5)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", runner.addresses[0][1])
        writer.write(b"GET /c/1/ HTTP/1.1\r\nHost: x\r\n")  # and then nothing more (slow loris)
        await writer.drain()
        assert await asyncio.wait_for(reader.read(100), timeout=5) == b""  # closed by the server
        writer.close()
    finally:
        await runner.cleanup()


async def test_aiohttps_own_400_carries_the_security_headers_and_is_logged_once(commands: Core, caplog) -> None:
    runner = await start_web(commands, "127.0.0.1:0")
    caplog.set_level(logging.DEBUG)
    try:
        answers = []
        for _ in range(50):
            reader, writer = await asyncio.open_connection("127.0.0.1", runner.addresses[0][1])
            writer.write(b"GET /c/1/ HTTP/1.1\r\nHost: x\r\nBad Header\x00: y\r\n\r\n")
            await writer.drain()
            answers.append(await asyncio.wait_for(reader.read(), timeout=5))
            writer.close()
    finally:
        await runner.cleanup()
    for answer in answers:
        head = answer.split(b"\r\n\r\n")[0].decode()
        assert head.split()[1] == "400"
        assert "Content-Security-Policy: default-src 'none'" in head and "X-Content-Type-Options: nosniff" in head
    logged = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert 1 <= len(logged) <= 2, [r.getMessage() for r in logged]


def test_the_flood_limiter_forgets_idle_addresses() -> None:
    now = [0.0]
    flood = Flood(clock=lambda: now[0])
    for n in range(200_000):
        assert flood.allow(f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}")
    assert len(flood) == 200_000
    for _ in range(BURST):
        flood.allow("192.0.2.1")
    assert not flood.allow("192.0.2.1")  # still refused while it floods
    now[0] += Flood.REFILL + 0.1
    assert flood.allow("192.0.2.2")
    assert len(flood) <= 2  # the crowd that came once is forgotten


async def burst(url: str, forwarded_for: str | list[str], count: int) -> list[int]:
    """``count`` requests at once (a busy machine would otherwise refill the bucket between them)."""
    hops = [forwarded_for] * count if isinstance(forwarded_for, str) else forwarded_for

    async def one(session: aiohttp.ClientSession, hop: str) -> int:
        async with session.get(url, headers={"X-Forwarded-For": hop}) as response:
            await response.read()
            return response.status

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=PER_ADDRESS_MAX)) as session:
        return list(await asyncio.gather(*(one(session, hop) for hop in hops)))


async def club_home_behind_a_proxy(commands: Core, monkeypatch: pytest.MonkeyPatch) -> tuple[web.AppRunner, str]:
    """The club's website switched on, served behind a trusted proxy on 127.0.0.1: its runner and home.
    The flood limiter's bucket refills at one request a minute here (BURST is as it is): a busy machine
    serves a burst slower than the real rate refills it, and then no burst would ever empty it."""
    monkeypatch.setattr(server_module, "REQUESTS_PER_SECOND", 1 / 60)
    commands.config = dataclasses.replace(commands.config, web_address="127.0.0.1:0")
    await ok(commands, DIRECTOR, "/website aan")
    club = await commands.store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
    assert club is not None
    commands.config = dataclasses.replace(commands.config, web_trusted_proxies=("127.0.0.1",))
    runner = await start_web(commands, "127.0.0.1:0")
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}/c/{club.id}/"


async def test_x_forwarded_for_counts_only_from_a_trusted_proxy(commands: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    # behind a proxy on 127.0.0.1: one visitor's burst is that visitor's alone
    runner, url = await club_home_behind_a_proxy(commands, monkeypatch)
    club_path = url.split("/c/", 1)[1]
    try:
        assert 429 in await burst(url, "198.51.100.7", BURST + 20)
        assert await burst(url, "198.51.100.8, 203.0.113.9", 1) == [200]  # the proxy saw 203.0.113.9
        assert await burst(url, "203.0.113.9", 1) == [200]
    finally:
        await runner.cleanup()
    # no trusted proxy: the header is the visitor's to invent, and ignored
    commands.config = dataclasses.replace(commands.config, web_trusted_proxies=())
    runner = await start_web(commands, "127.0.0.1:0")
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/c/{club_path}"
    try:
        assert 429 in await burst(url, [f"198.51.100.{n % 250}" for n in range(BURST + 20)], BURST + 20)
    finally:
        await runner.cleanup()


FILLING_SERVER = SERVER.replace(
    '''        try:
            with open(sys.argv[1] + ".export", "w") as fh:''',
    '''        if line.strip() == b"fill":  # every open file of the process in use: accept() fails (EMFILE)
            held = []
            try:
                while True:
                    held.append(open("/dev/null"))
            except OSError:
                print("full", flush=True)
            continue
        try:
            with open(sys.argv[1] + ".export", "w") as fh:''',
)


def test_a_failing_accept_is_logged_once_a_minute(tmp_path: Path) -> None:
    """With no file descriptor left the loop's accept() fails and asyncio retries it every second,
    reporting each failure: the website logs one line a minute for them, not one (with a traceback) a
    second."""
    assert FILLING_SERVER != SERVER
    server = web_server(FILLING_SERVER, tmp_path / "club.sqlite3")
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None and server.stdin is not None
        port = int(server.stdout.readline())
        server.stdin.write("fill\n")
        server.stdin.flush()
        assert server.stdout.readline().strip() == "full"
        deadline = time.monotonic() + 4.5  # accept() is tried again each second: four or five failures
        while time.monotonic() < deadline:
            s = socket.socket()
            s.settimeout(2)
            s.connect(("127.0.0.1", port))  # the kernel completes it; the server cannot accept it
            held.append(s)
            time.sleep(0.3)
    finally:
        for s in held:
            s.close()
        server.kill()
        _, err = server.communicate(timeout=10)
    accept_lines = [line for line in err.splitlines() if "accept" in line]
    assert len(accept_lines) == 1, err[-3000:]
    assert "the website cannot accept connections" in accept_lines[0]


def test_an_ipv6_visitor_counts_by_its_64() -> None:
    assert address_key("2001:db8:46:1::1") == address_key("2001:db8:46:1:ffff:1:2:3") == "2001:db8:46:1::/64"
    assert address_key("2001:db8:46:2::1") != address_key("2001:db8:46:1::1")
    assert address_key("::ffff:198.51.100.7") == address_key("198.51.100.7") == "198.51.100.7"
    assert address_key("fe80::1%eth0") == "fe80::/64"


async def test_an_ipv6_visitor_rotating_through_its_64_is_one_visitor_to_the_flood_limit(commands: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 46 §3: a router hands a household a whole /64; a visitor asking from a new address of it for
    each request is still one visitor (429 past the burst), and the next /64 is another."""
    runner, url = await club_home_behind_a_proxy(commands, monkeypatch)
    try:
        assert 429 in await burst(url, [f"2001:db8:46:1::{n:x}" for n in range(1, BURST + 21)], BURST + 20)
        assert await burst(url, "2001:db8:46:2::1", 1) == [200]
    finally:
        await runner.cleanup()
