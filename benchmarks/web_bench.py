"""The club website under load (issue 17): pages per second and latency of the standings and pairing pages
of a 150-player club, asked by 200 clients at once, beside a baseline measured in the same run.

    .venv/bin/python benchmarks/web_bench.py [--players 150] [--played 20] [--clients 200] [--seconds 3] [--rounds 3] [--rate 1000] [--open-seconds 3] [--styled] [--unfrozen] [--smoke]

- The bot: a club with a ``--players`` season, ``--played`` rounds played (a season file the engine
  paired, imported with /importeer), website on; its web server (``bot/web/server.py``) runs in a process
  of its own on the same SQLite file, as an operator runs it (``clubbot run``; forked, as the baseline's
  server is, from a process that has done nothing but this script's imports: ``benchmarks/forks.py``): what start-up built is then
  frozen out of the garbage collector's sight (``bot/app.py`` ``freeze_startup_objects``; ``--unfrozen``:
  not, in neither server, as this script ran them until issue 42, part 7); the clients are this process.
- ``--clients`` clients at once (one connection each) ask ``/c/<id>/stand`` and ``/c/<id>/indeling`` in
  turn for ``--seconds``, each asking again as soon as it has its page: the most pages per second
  (target >= 1,000). Their latency is queueing (Little's law: 200 in flight at R pages/s wait 200/R s).
- The same pages offered at ``--rate`` (1,000/s) for ``--open-seconds`` (``--seconds`` unless given)
  over the same ``--clients`` connections, each page at
  its scheduled moment whether or not earlier ones are answered (``open_loop.py``): p50/p99 latency from
  the scheduled moment (target p99 < 50 ms). Beside it, what the server process's garbage collector did
  meanwhile: its full collections and its longest pause (in the process's CPU time), a stall the latency
  shows whenever one lands in the load.
- Baseline: a bare aiohttp server in a process of its own handing out the same two pages' bytes (no
  store, no command, no template), asked the same way: what aiohttp and this client manage on this
  machine without the bot. The ratio says how much of that the bot keeps (target >= 0.6).
- The same bytes: the bot sends a page gzipped (made once per version) to a client that takes gzip, as
  aiohttp's client and browsers do, so the baseline sends those gzipped bytes to such a client too, and
  the plain ones to a client that does not. Measured both ways: ``Accept-Encoding: gzip``, then
  ``identity``.
- The machine is shared, so the bot and the baseline take turns, ``--rounds`` times, each round giving a
  ratio (the median is the figure), and each load also says the server process's CPU time per page,
  which others' work on the machine moves far less than the pages per second.

The server's flood limits per address (requests per second, open connections) are lifted: in the benchmark
every client is 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import select
import statistics
import sys
import tempfile
import time
import dataclasses
import gc
import json
from pathlib import Path
from typing import TextIO

import aiohttp
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.forks import Forks  # noqa: E402
from benchmarks.many_clubs_bench import actor, import_start, must, p, season_file, world  # noqa: E402
from benchmarks.open_loop import arrival_offsets, open_loop  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402
from bot.app import freeze_startup_objects  # noqa: E402

PAGES = ("stand", "indeling")


async def build(path: Path, players: int, played: int, styled: bool = False) -> int:
    store, core, clock = await world(path)
    try:
        boss = actor("groot", "leider", director=True)
        content, _ = season_file(players, played)
        await must(core, boss, f"/importeer start={import_start(clock.now())} naam=Groot rondes=28", content)
        core.config = dataclasses.replace(core.config, web_base_url="http://127.0.0.1")  # a bot with a website
        await must(core, boss, "/website aan")
        if styled:  # the club's own look: a colour and a logo on every page (issue 35 §4)
            logo = io.BytesIO()
            Image.new("RGB", (640, 480), (26, 95, 180)).save(logo, "PNG")
            await must(core, boss, "/website stijl kleur=#1a5fb4 logo", logo.getvalue())
        club = await store.club_by_external("bench", "groot")
        assert club is not None
        return club.id
    finally:
        await store.close()


class Collections:
    """The garbage collector's work in this process since ``said()`` was last called: full collections
    (generation 2) and the longest pause of any collection, in the thread's CPU time (which others' work on
    the machine moves far less than the wall clock's); and since it began to watch, its full collections
    and their longest pause. A server says it as a line of JSON when its parent writes a line to its stdin
    (``answer_parent``)."""

    def __init__(self) -> None:
        self.full, self.longest, self._started = 0, 0.0, 0.0
        self.all_full, self.longest_full = 0, 0.0
        gc.callbacks.append(self._seen)

    def said(self) -> dict[str, float]:
        said = {"full": self.full, "longest": self.longest, "all_full": self.all_full, "longest_full": self.longest_full}
        self.full, self.longest = 0, 0.0
        return said

    def answer_parent(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(sys.stdin.fileno(), self._asked, loop)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.thread_time()
            return
        pause = (time.thread_time() - self._started) * 1000
        self.longest = max(self.longest, pause)
        if info["generation"] == 2:
            self.full += 1
            self.all_full += 1
            self.longest_full = max(self.longest_full, pause)

    def _asked(self, loop: asyncio.AbstractEventLoop) -> None:
        if not sys.stdin.readline():  # the parent has gone
            loop.remove_reader(sys.stdin.fileno())
            return
        print(json.dumps(self.said()), flush=True)


def collections(child: Server) -> dict[str, float]:
    """What a server's garbage collector did since it was last asked (``Collections``)."""
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("collections\n")
    child.stdin.flush()
    return json.loads(child.stdout.readline())  # type: ignore[no-any-return]


async def serve_bot(path: Path, port: int, frozen: bool = True) -> None:
    from bot.web import connections, server
    from bot.web.server import start_web

    server.BURST = server.REQUESTS_PER_SECOND = 10**9  # every client here is 127.0.0.1
    connections.PER_ADDRESS = 10**9  # and so are its --clients connections at once
    store, core, _ = await world(path)
    runner = await start_web(core, f"127.0.0.1:{port}")
    if frozen:  # as clubbot run does once its adapters and website have started
        freeze_startup_objects()
    Collections().answer_parent()
    print("ready", runner.addresses[0][1], flush=True)  # port 0: a free one, said here
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await store.close()


async def serve_baseline(files: list[Path], port: int, frozen: bool = True) -> None:
    from aiohttp import web

    bodies = {f.name: f.read_bytes() for f in files}  # stand.html and stand.html.gz as the bot sent them

    async def page(request: web.Request) -> web.Response:
        name = request.match_info["page"] + ".html"
        if name + ".gz" in bodies and "gzip" in request.headers.get("Accept-Encoding", ""):
            return web.Response(
                body=bodies[name + ".gz"], content_type="text/html", charset="utf-8", headers={"Content-Encoding": "gzip"}
            )
        return web.Response(body=bodies[name], content_type="text/html", charset="utf-8")

    app = web.Application()
    app.router.add_get("/c/{club}/{page}", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    if frozen:  # as the bot's: this script's imports (the bot's modules) are no work of aiohttp's
        gc.collect()
        gc.freeze()
    Collections().answer_parent()
    print("ready", runner.addresses[0][1], flush=True)
    await asyncio.Event().wait()


def serve(argv: list[str]) -> bool:
    """``argv`` (``--serve-bot PATH PORT``, ``--serve-baseline FILE... PORT``, or ``-unfrozen`` twins): that
    server run in this process, until it is killed; False for any other ``argv``."""
    if argv and argv[0] in ("--serve-bot", "--serve-bot-unfrozen"):
        asyncio.run(serve_bot(Path(argv[1]), int(argv[2]), frozen=argv[0] == "--serve-bot"))
        return True
    if argv and argv[0] in ("--serve-baseline", "--serve-baseline-unfrozen"):
        asyncio.run(serve_baseline([Path(a) for a in argv[1:-1]], int(argv[-1]), argv[0] == "--serve-baseline"))
        return True
    return False


class Server:
    """A server's process (forked by ``Forks``): its pid, its stdin and stdout, as a ``Popen``'s."""

    def __init__(self, pid: int, stdin: TextIO, stdout: TextIO) -> None:
        self.pid, self.stdin, self.stdout = pid, stdin, stdout
        self._exited = os.pidfd_open(pid)  # readable once the process has ended (it is not this one's child)

    def terminate(self) -> None:
        os.kill(self.pid, 15)

    def wait(self) -> None:
        select.select([self._exited], [], [])
        for f in (self.stdin, self.stdout):
            f.close()
        os.close(self._exited)


def forked_server(args: list[str], fds: list[int]) -> None:
    """A server forked by ``Forks``: ``fds`` its stdin and stdout."""
    for std, fd in enumerate(fds):
        if fd != std:
            os.dup2(fd, std)
            os.close(fd)
    serve(args)


_servers: list[Forks] = []  # this run's, made first thing in main()


def start(*args: str) -> tuple[Server, int]:
    """A server in a process of its own on a free port (others may run this benchmark beside): it and its port."""
    to_child, ours_in = os.pipe()
    ours_out, from_child = os.pipe()
    pid = _servers[0].start([*args, "0"], [to_child, from_child])
    os.close(to_child)
    os.close(from_child)
    child = Server(pid, os.fdopen(ours_in, "w"), os.fdopen(ours_out))
    said = child.stdout.readline().split()
    if len(said) != 2 or said[0] != "ready":
        raise SystemExit("the server did not start")
    return child, int(said[1])


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclasses.dataclass
class Load:
    pages: int
    wall: float
    latencies: list[float]  # ms
    cpu: float  # seconds the server process used meanwhile

    @property
    def rate(self) -> float:
        return self.pages / self.wall

    @property
    def cpu_per_page(self) -> float:  # microseconds
        return self.cpu / self.pages * 1e6


async def load(base: str, clients: int, seconds: float, server: int, headers: dict[str, str] | None = None) -> Load:
    """``clients`` asking as fast as they are answered for ``seconds`` (after as long to warm up), and what
    the ``server`` process spent on them."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def client(i: int, session: aiohttp.ClientSession) -> None:
        n = i
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            async with session.get(f"{base}/{PAGES[n % 2]}") as response:
                await response.read()
                if response.status != 200:
                    raise SystemExit(f"{response.status} from {base}/{PAGES[n % 2]}")
            latencies.append((time.perf_counter() - t0) * 1000)
            n += 1

    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, headers=headers) as session:
        await asyncio.gather(*(client(i, session) for i in range(clients)))  # warm: connections opened
        latencies.clear()
        stop = time.perf_counter() + seconds
        cpu, t0 = cpu_seconds(server), time.perf_counter()
        await asyncio.gather(*(client(i, session) for i in range(clients)))
        wall, cpu = time.perf_counter() - t0, cpu_seconds(server) - cpu
    return Load(len(latencies), wall, latencies, cpu)


async def offered_load(base: str, clients: int, rate: float, seconds: float) -> list[float]:
    """Pages asked at ``rate`` per second (at most ``clients`` connections): each page's latency in ms."""
    offsets = arrival_offsets(int(rate * seconds), rate, poisson=True)
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector) as session:

        def job(i: int):  # type: ignore[no-untyped-def]
            async def run() -> None:
                async with session.get(f"{base}/{PAGES[i % 2]}") as response:
                    await response.read()
                    if response.status != 200:
                        raise SystemExit(f"{response.status} from {base}/{PAGES[i % 2]}")

            return run

        await asyncio.gather(*(job(i)() for i in range(clients)))  # warm: the connections opened
        result = await open_loop([job(i) for i in range(len(offsets))], offsets)
    return [lat * 1000 for lat in result.latencies]


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "web.sqlite3"
        t0 = time.perf_counter()
        club = await build(path, args.players, args.played, args.styled)
        print(
            f"set-up: a club of {args.players} players, {args.played} rounds played, in {time.perf_counter() - t0:.1f} s"
        )
        if not args.unfrozen:  # the clients' process too: what it imported and built is not their work
            gc.collect()
            gc.freeze()
        mine = Collections()
        bot, port = start("--serve-bot-unfrozen" if args.unfrozen else "--serve-bot", str(path))
        try:
            base = f"http://127.0.0.1:{port}/c/{club}"
            files = []
            async with aiohttp.ClientSession(auto_decompress=False) as session:
                for name in PAGES:  # the bytes as sent: gzipped to who takes it (as the bot does), and plain
                    for suffix, encoding in ((".html", "identity"), (".html.gz", "gzip")):
                        async with session.get(f"{base}/{name}", headers={"Accept-Encoding": encoding}) as response:
                            body = await response.read()
                            assert response.status == 200, body[:300]
                            if encoding == "gzip" and response.headers.get("Content-Encoding") != "gzip":
                                continue  # a bot that sends no gzip (before issue 36): neither does the baseline
                        files.append(Path(tmp) / f"{name}{suffix}")
                        files[-1].write_bytes(body)
                        print(f"/{name}: {len(body):,} bytes ({encoding})")
            bare, bare_port = start("--serve-baseline-unfrozen" if args.unfrozen else "--serve-baseline", *map(str, files))
            try:
                bare_base = f"http://127.0.0.1:{bare_port}/c/{club}"
                ratios: dict[str, list[float]] = {"gzip": [], "identity": []}
                for round_ in range(1, args.rounds + 1):  # taking turns: a machine shared with others moves
                    said = []
                    for encoding in ratios:  # aiohttp's client asks for gzip, as browsers do; then without
                        headers = {"Accept-Encoding": encoding}
                        bot_load = await load(base, args.clients, args.seconds, bot.pid, headers)
                        bare_load = await load(bare_base, args.clients, args.seconds, bare.pid, headers)
                        ratios[encoding].append(bot_load.rate / bare_load.rate)
                        said.append(f"{encoding}: bot {bot_load.rate:,.0f} pages/s (p50 {p(bot_load.latencies, 0.5):.0f} ms, "
                                    f"p99 {p(bot_load.latencies, 0.99):.0f} ms: queueing), baseline {bare_load.rate:,.0f}/s: "
                                    f"{ratios[encoding][-1]:.2f}x; server CPU per page {bot_load.cpu_per_page:.0f} us "
                                    f"against {bare_load.cpu_per_page:.0f} us")  # fmt: skip
                    print(f"round {round_}, {args.clients} clients; " + "; ".join(said))
                if args.rounds:
                    print("the bot serves " + ", ".join(f"{statistics.median(r):.2f}x the baseline to clients asking {e}"
                          for e, r in ratios.items()) + f" (median of {args.rounds} rounds; target >= 0.6)")  # fmt: skip
                collections(bot), mine.said()
                open_seconds = args.seconds if args.open_seconds is None else args.open_seconds
                offered = await offered_load(base, args.clients, args.rate, open_seconds)
                bot_gc, clients_gc = collections(bot), mine.said()
                collections(bare)
                bare_offered = await offered_load(bare_base, args.clients, args.rate, open_seconds)
                bare_gc, clients_bare_gc = collections(bare), mine.said()
            finally:
                bare.terminate()
                bare.wait()
            said = "{full:.0f} full collections, longest pause {longest:.1f} ms"
            print(f"bot at {args.rate:,.0f} pages/s offered over {args.clients} connections (open loop): "
                  f"p50 {p(offered, 0.5):.1f} ms, p99 {p(offered, 0.99):.1f} ms (target p99 < 50 ms); "
                  f"its garbage collector meanwhile: {said.format(**bot_gc)}, the clients' {said.format(**clients_gc)}")  # fmt: skip
            print(f"baseline at {args.rate:,.0f} pages/s offered (open loop): p50 {p(bare_offered, 0.5):.1f} ms, "
                  f"p99 {p(bare_offered, 0.99):.1f} ms (how busy the machine was); "
                  f"its garbage collector meanwhile: {said.format(**bare_gc)}, the clients' {said.format(**clients_bare_gc)}")  # fmt: skip
            whole = "{all_full:.0f} full collections, the longest {longest_full:.1f} ms"
            print(f"garbage collector since the servers started (CPU time): the bot's {whole.format(**bot_gc)}; "
                  f"the baseline's {whole.format(**bare_gc)}; the clients' {whole.format(**clients_bare_gc)}")  # fmt: skip
        finally:
            bot.terminate()
            bot.wait()


def main() -> None:
    if serve(sys.argv[1:]):
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--played", type=int, default=20)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--open-seconds", type=float, default=None, help="the open loop's length (default: --seconds)")
    parser.add_argument("--styled", action="store_true", help="the club has a colour and a logo (/website stijl)")
    parser.add_argument("--unfrozen", action="store_true",
                        help="both servers leave their start-up objects to the garbage collector (before issue 42, part 7)")  # fmt: skip
    smallest(parser, players=12, played=2, clients=4, seconds=0.2, rounds=1, rate=50.0)
    args = parser.parse_args()
    _servers.append(Forks(forked_server))  # before anything else: what the servers begin with
    try:
        asyncio.run(measure(args))
    finally:
        _servers[0].close()


if __name__ == "__main__":
    main()
