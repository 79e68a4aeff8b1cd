"""The club website under load (issue 17): pages per second and latency of the standings and pairing pages
of a 150-player club, asked by 200 clients at once, beside a baseline measured in the same run.

    .venv/bin/python benchmarks/web_bench.py [--players 150] [--played 20] [--clients 200] [--seconds 5] [--rate 1000] [--styled]

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
  machine without the bot. The ratio says how much of that the bot keeps.

The server's flood limits per address (requests per second, open connections) are lifted: in the benchmark
every client is 127.0.0.1.
"""

from __future__ import annotations

import argparse
import io
import asyncio
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

from benchmarks.many_clubs_bench import actor, must, p, season_file, world  # noqa: E402
from benchmarks.open_loop import arrival_offsets, open_loop  # noqa: E402

PAGES = ("stand", "indeling")


async def build(path: Path, players: int, played: int, styled: bool = False) -> int:
    store, core, _ = await world(path)
    try:
        boss = actor("groot", "leider", director=True)
        content, _ = season_file(players, played)
        await must(core, boss, "/importeer start=2027-01-07 naam=Groot rondes=28", content)
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
    print("ready", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await store.close()


async def serve_baseline(files: list[Path], port: int) -> None:
    from aiohttp import web

    bodies = {f.stem: f.read_bytes() for f in files}

    async def page(request: web.Request) -> web.Response:
        return web.Response(
            body=bodies[request.match_info["page"]], content_type="text/html", charset="utf-8"
        )

    app = web.Application()
    app.router.add_get("/c/{club}/{page}", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print("ready", flush=True)
    await asyncio.Event().wait()


def start(*args: str) -> subprocess.Popen[str]:
    child = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    if child.stdout.readline().strip() != "ready":
        raise SystemExit("the server did not start")
    return child


async def load(base: str, clients: int, seconds: float) -> tuple[int, float, list[float]]:
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
    async with aiohttp.ClientSession(connector=connector) as session:
        await asyncio.gather(*(client(i, session) for i in range(clients)))  # warm: connections opened
        latencies.clear()
        stop = time.perf_counter() + seconds
        t0 = time.perf_counter()
        await asyncio.gather(*(client(i, session) for i in range(clients)))
        wall = time.perf_counter() - t0
    return len(latencies), wall, latencies


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
        bot = start("--serve-bot", str(path), "8391")
        try:
            base = f"http://127.0.0.1:8391/c/{club}"
            files = []
            async with aiohttp.ClientSession() as session:
                for name in PAGES:
                    async with session.get(f"{base}/{name}") as response:
                        body = await response.read()
                        assert response.status == 200, body[:300]
                    files.append(Path(tmp) / f"{name}.html")
                    files[-1].write_bytes(body)
                    print(f"/{name}: {len(body):,} bytes")
            count, wall, ms = await load(base, args.clients, args.seconds)
            offered = await offered_load(base, args.clients, args.rate, args.seconds)
        finally:
            bot.terminate()
            bot.wait()
        rate = count / wall
        print(f"bot: {rate:,.0f} pages/s with {args.clients} clients; p50 {p(ms, 0.5):.1f} ms, p99 {p(ms, 0.99):.1f} ms, "
              f"mean {statistics.mean(ms):.1f} ms (target >= 1,000/s; the latency here is queueing)")  # fmt: skip
        print(f"bot at {args.rate:,.0f} pages/s offered over {args.clients} connections (open loop): "
              f"p50 {p(offered, 0.5):.1f} ms, p99 {p(offered, 0.99):.1f} ms (target p99 < 50 ms)")  # fmt: skip
        bare = start("--serve-baseline", *map(str, files), "8392")
        try:
            count, wall, ms = await load(f"http://127.0.0.1:8392/c/{club}", args.clients, args.seconds)
        finally:
            bare.terminate()
            bare.wait()
        baseline = count / wall
        print(f"baseline (bare aiohttp, the same bytes): {baseline:,.0f} pages/s; p50 {p(ms, 0.5):.1f} ms, "
              f"p99 {p(ms, 0.99):.1f} ms; the bot serves {rate / baseline:.2f}x the baseline")  # fmt: skip


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
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--styled", action="store_true", help="the club has a colour and a logo (/website stijl)")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
