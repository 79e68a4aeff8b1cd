"""The club website under load (issue 17): pages per second and latency of the standings and pairing pages
of a 150-player club, asked by 200 clients at once, beside a baseline measured in the same run.

    .venv/bin/python benchmarks/web_bench.py [--players 150] [--played 20] [--clients 200] [--seconds 3] [--rounds 3] [--rate 1000] [--styled] [--smoke]

- The bot: a club with a ``--players`` season, ``--played`` rounds played (a season file the engine
  paired, imported with /importeer), website on; its web server (``bot/web/server.py``) runs in a process
  of its own on the same SQLite file, as an operator runs it; the clients are this process.
- ``--clients`` clients at once (one connection each) ask ``/c/<id>/stand`` and ``/c/<id>/indeling`` in
  turn for ``--seconds``, each asking again as soon as it has its page: the most pages per second
  (target >= 1,000). Their latency is queueing (Little's law: 200 in flight at R pages/s wait 200/R s).
- The same pages offered at ``--rate`` (1,000/s) over the same ``--clients`` connections, each page at
  its scheduled moment whether or not earlier ones are answered (``open_loop.py``): p50/p99 latency from
  the scheduled moment (target p99 < 50 ms).
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
import statistics
import subprocess
import sys
import tempfile
import time
import dataclasses
from pathlib import Path

import aiohttp
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.many_clubs_bench import actor, import_start, must, p, season_file, world  # noqa: E402
from benchmarks.open_loop import arrival_offsets, open_loop  # noqa: E402
from benchmarks.sizes import smallest  # noqa: E402

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


async def serve_bot(path: Path, port: int) -> None:
    from bot.web import connections, server
    from bot.web.server import start_web

    server.BURST = server.REQUESTS_PER_SECOND = 10**9  # every client here is 127.0.0.1
    connections.PER_ADDRESS = 10**9  # and so are its --clients connections at once
    store, core, _ = await world(path)
    runner = await start_web(core, f"127.0.0.1:{port}")
    print("ready", runner.addresses[0][1], flush=True)  # port 0: a free one, said here
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await store.close()


async def serve_baseline(files: list[Path], port: int) -> None:
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
    print("ready", runner.addresses[0][1], flush=True)
    await asyncio.Event().wait()


def start(*args: str) -> tuple[subprocess.Popen[str], int]:
    """A server in a process of its own on a free port (others may run this benchmark beside): it and its port."""
    child = subprocess.Popen([sys.executable, __file__, *args, "0"], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
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
        bot, port = start("--serve-bot", str(path))
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
            bare, bare_port = start("--serve-baseline", *map(str, files))
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
                offered = await offered_load(base, args.clients, args.rate, args.seconds)
                bare_offered = await offered_load(bare_base, args.clients, args.rate, args.seconds)
            finally:
                bare.terminate()
                bare.wait()
            print(f"bot at {args.rate:,.0f} pages/s offered over {args.clients} connections (open loop): "
                  f"p50 {p(offered, 0.5):.1f} ms, p99 {p(offered, 0.99):.1f} ms (target p99 < 50 ms)")  # fmt: skip
            print(f"baseline at {args.rate:,.0f} pages/s offered (open loop): p50 {p(bare_offered, 0.5):.1f} ms, "
                  f"p99 {p(bare_offered, 0.99):.1f} ms (how busy the machine was)")  # fmt: skip
        finally:
            bot.terminate()
            bot.wait()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-bot":
        asyncio.run(serve_bot(Path(sys.argv[2]), int(sys.argv[3])))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-baseline":
        asyncio.run(serve_baseline([Path(a) for a in sys.argv[2:-1]], int(sys.argv[-1])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--played", type=int, default=20)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--styled", action="store_true", help="the club has a colour and a logo (/website stijl)")
    smallest(parser, players=12, played=2, clients=4, seconds=0.2, rounds=1, rate=50.0)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
