"""Every benchmark runs (issue 42, part 7): each script in ``benchmarks/`` at its smallest size
(``--smoke``), once, as a process of its own, must exit 0 and print every figure it promises, a number
where a number belongs. Its figures are never compared with anything: no test fails on time
(docs/performance.md). A benchmark that crashes, refuses its set-up (as ``web_bench.py`` did when
``/importeer`` learned to refuse its fixed start date) or stops printing a figure fails here.

The scripts run side by side (all those selected start with the first test that needs one), so the suite
waits for the slowest rather than for their sum; each test then reads its own script's output. Each runs
in a process of its own forked from one that has imported what the scripts import
(``tests/benchmarks/forked_scripts.py``): from its own source, as ``__main__``, with its own arguments,
output and exit status, as ``python benchmarks/NAME.py --smoke`` runs it, without importing the bot again
(half a second of CPU a script).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.paths import REPO

N = r"(?:-?[\d,]*\d(?:\.\d+)?)"  # a figure: 7, 1,234, 0.05, -3
# What each script prints at its smallest size: one pattern per line it promises, ``{n}`` where a figure
# stands (its value never checked), in the order printed. Lines may come between the ones named.
FIGURES: dict[str, list[str]] = {
    "command_cost_bench": [
        r"clubs +wiring +reply p50 +reply p99 +done p50 +done p99 +\(ms\)",
        *(line for size in (1, 3) for line in (
            rf"# {size} clubs built in {{n}} s \({{n}} there already\)",
            rf"{size} +club +{{n}} +{{n}} +{{n}} +{{n}}",
            rf"{size} +whole pass +{{n}} +{{n}} +{{n}} +{{n}}",
        )),
        r"ratio to 1 club\(s\), command done",
        *(rf"{size} +{wiring} +p50 x{{n}} +p99 x{{n}}" for size in (1, 3) for wiring in ("club", "whole pass")),
        r"periodic pass \(nothing due\) and recheck",
        *(rf"{size} +pass {{n}} +recheck {{n}}" for size in (1, 3)),
    ],  # fmt: skip
    "go_bench": [
        r"3 random legal 9x9 games, {n} turns \({n} a game\), generated in {n} s",
        r"replay through the rules \(legality, captures, ko\): {n} turns, {n} stones captured",
        r"median {n} s = {n} moves/s \(best {n} moves/s\)",
    ],
    "keizer_bench": [
        r"standings, 20 players, 3 rounds: +median +{n} ms +\(best {n}; target < 5\)",
        r"standings, same season, extra_passes=5: +median +{n} ms +\(best {n}\)",
        r"pair_round, 20 present, round 5 of a cycle: +median +{n} ms +\(best {n}; target < 20\)",
        r"pair_round, 19 present \(bye\), round 5: +median +{n} ms +\(best {n}\)",
        r"pair_round, 20 present, round 7 of a cycle: +median +{n} ms +\(best {n}\)",
    ],
    "load_bench": [
        r"set-up: 2 clubs x 4 members in {n} s",
        *(rf"/{what} \({how}\) +8 commands +{{n}}/s +p50 +{{n}} ms +p99 +{{n}} ms +max +{{n}} ms"
          for how in ("one at a time", "4 at once") for what in ("afmelden", "aanmelden, taking it back", "stand")),
        *(line for arrivals in ("evenly spaced", "Poisson") for line in (
            rf"open loop, 100/s offered \({arrivals}\) for {{n}} s: achieved {{n}}/s; started late by p50 {{n}} ms, p99 {{n}} ms",
            r"/afmelden +{n} arrived +{n}/s +p50 +{n} ms +p99 +{n} ms +max +{n} ms",
            r"/aanmelden +{n} arrived +{n}/s +p50 +{n} ms +p99 +{n} ms +max +{n} ms",
            r"both +{n} arrived +{n}/s +p50 +{n} ms +p99 +{n} ms +max +{n} ms",
        )),
        r"saturated throughput, /afmelden: 8 offered at once, {n}/s",
        r"saturated throughput, /aanmelden: 8 offered at once, {n}/s",
        r"publication minute: 2 clubs x 4 members paired, queued and announced in {n} s \(2 pairing announcements, {n} sent in all\)",
    ],  # fmt: skip
    "many_clubs_bench": [
        r"date {n}-{n}-{n}; RSS at start {n} MB",
        r"set-up: a club of 12 players with 2 rounds played, 2 clubs x 5 members, in {n} s; RSS {n} MB",
        r"/stand, 5 at once, season unchanged: {n}/s \(median of 5 waves; target >= 1,000/s\)",
        r"first /stand after a result, picture included: median {n} ms, max {n} ms \(target < 50 ms\)",
        r"another club's /afmelden at 200/s: p99 alone {n} ms, while 5 members ask /stand \({n} answered\) {n} ms: {n}x",
        r"/afmelden saturated: {n}/s; bare aiosqlite INSERT transactions on the same file: {n}/s: ratio {n}",
        r"/afmelden at 1,000/s offered \(open loop, 0.1 s\): p50 {n} ms, p99 {n} ms",
        r"RSS after the clubs part: {n} MB",
        r"2-year history of a 6-member club \(2 x 27 rounds\) in {n} s: RSS {n} MB \(was {n} MB\), database and its log {n} MB",
        r"set-up: 3 clubs x 4 members in {n} s; RSS {n} MB with 3 clubs loaded",
        r"publication minute: 3 clubs paired and queued in {n} s \(3 pairing announcements handed to the sender",
    ],
    "mcmahon_bench": [
        r"round 1: pairing 20 players +{n} ms \(median of 1\), {n} repeat\(s\)",
        r"round 2: pairing 20 players +{n} ms \(median of 1\), {n} repeat\(s\)",
        r"standings after 2 rounds: {n} ms",
        r"slowest round: {n} ms \(target < 1000 ms\)",
    ],
    "mcmahon_score_difference": [
        r"2 tournaments, {n} rounds 2-7 checked",
        r"bot: total score difference {n}, repeats {n}",
        r"reference: total score difference {n}, repeats {n}",
        r"parity lower bound of the score difference: {n}",
        r"rounds where the bot's pairing has more repeats or a larger difference than the reference: {n}",
        r"rounds where the reference did worse \(its budget ran out as well\): {n}",
        r"slowest pairing: {n} ms",
    ],
    "online_bench": [
        r"set-up: 3 clubs x 4 players \(6 boards\) in {n} s; the fake answers in {n} ms",
        r"publication: 6 challenges of 6 boards made in {n} s \({n} a second, one request at a time\)",
        r"requests per round published: {n} \({n} challenges, {n} of the follower's first look\)",
        r"the evening: 6 results entered of 6 games; {n} export requests: {n} requests per result picked up",
        r"from a game's end to its result in the standings: p50 {n} s, p99 {n} s, max {n} s \(6 measured\)",
        r"a minute's pass: p50 {n} ms, max {n} ms \(mean {n} ms\)",
        r"announced: 3 pairings, 3 standings for 3 clubs; {n} requests to lichess in all, never two at once",
    ],
    "postgres_bench": [
        r"set-up: 4 clubs x 3 members in {n} s",
        r"/afmelden: 4 at once, then 20/s offered",
        *(rf"{label} +burst +{{n}}/s \({{n}}x SQLite\) +\| offered 20/s: achieved {{n}}/s, p50 +{{n}} ms, p99 +{{n}} ms; refused 0"
          for label in ("SQLite, one process", "PostgreSQL, one process", "PostgreSQL, two processes")),
        *(rf"{label} +/afmelden +{{n}}/s against a bare asyncpg loop of one-row INSERT transactions +{{n}}/s: {{n}}x"
          for label in ("PostgreSQL, one process", "PostgreSQL, two processes")),
        r"SQLite, one process +/afmelden +{n}/s \({n}x SQLite\)$",
        *(rf"{label} +/afmelden +{{n}}/s \({{n}}x SQLite\); bare asyncpg loop +{{n}}/s: {{n}}x; bare loop of its statements +{{n}}/s: {{n}}x"
          for label in ("PostgreSQL, one process", "PostgreSQL, two processes")),
        r"publication minute: 4 clubs' rounds due at once",
        r"SQLite, one process +{n} s \({n}x SQLite\); announcements sent: 4$",
        r"PostgreSQL, one process +{n} s \({n}x SQLite\); announcements sent: 4$",
        r"PostgreSQL, two processes +{n} s \({n}x SQLite\); announcements sent: {n} \+ {n}$",
    ],  # fmt: skip
    "ratings_bench": [
        r"FIDE TXT: 50 players, {n} MB; club: 4 members",
        r"reply: Ratings van 2026-11-01 \(FIDE, 50 spelers\): 2 ratings bijgewerkt",
        r"/ratings importeer: median {n} ms, max {n} ms over 1 runs",
    ],
    "repeats_bench": [
        r"3 clubs x 2 announcements, 1 ms answers, {n} posts in flight: a kill at a post would repeat at most {n},"
        r" on average {n}; 6 posted \(0 left\) in {n} s",
    ],
    "sending_bench": [
        line
        for platform, limit, period, chat_period, chat_limit in (("telegram", 30, 1, 60, 20), ("discord", 50, 1, 5, 5))
        for line in (
            rf"{platform}: set-up of 2 clubs in {{n}} s",
            rf"{platform}: 2 clubs paired and queued in {{n}} s; 4 posts sent in {{n}} s, where the limit of {limit} per"
            rf" {period} s allows {{n}} s at best: ratio {{n}}; still pending 0",
            rf"{platform}: most posts in any {period} s {{n}} \(limit {limit}\); most in one chat in any {chat_period} s"
            rf" {{n}} \(limit {chat_limit}\); clubs with their notice then their pairing, once each: 2 of 2",
        )
    ],
    "web_bench": [
        r"set-up: a club of 12 players, 2 rounds played, in {n} s",
        r"/stand: {n} bytes \(identity\)",
        r"/stand: {n} bytes \(gzip\)",
        r"/indeling: {n} bytes \(identity\)",
        r"/indeling: {n} bytes \(gzip\)",
        r"round 1, 4 clients; gzip: bot {n} pages/s \(p50 {n} ms, p99 {n} ms: queueing\), baseline {n}/s: {n}x;"
        r" server CPU per page {n} us against {n} us; identity: bot {n} pages/s \(p50 {n} ms, p99 {n} ms: queueing\),"
        r" baseline {n}/s: {n}x; server CPU per page {n} us against {n} us",
        r"the bot serves {n}x the baseline to clients asking gzip, {n}x the baseline to clients asking identity"
        r" \(median of 1 rounds; target >= 0.6\)",
        r"bot at 50 pages/s offered over 4 connections \(open loop\): p50 {n} ms, p99 {n} ms \(target p99 < 50 ms\);"
        r" its garbage collector meanwhile: {n} full collections, longest pause {n} ms,"
        r" the clients' {n} full collections, longest pause {n} ms",
        r"baseline at 50 pages/s offered \(open loop\): p50 {n} ms, p99 {n} ms \(how busy the machine was\);"
        r" its garbage collector meanwhile: {n} full collections, longest pause {n} ms,"
        r" the clients' {n} full collections, longest pause {n} ms",
        r"garbage collector since the servers started \(CPU time\): the bot's {n} full collections, the longest {n} ms;"
        r" the baseline's {n} full collections, the longest {n} ms; the clients' {n} full collections, the longest {n} ms",
    ],
}
SCRIPTS = sorted(FIGURES)
TIMEOUT = 300  # seconds: the slowest takes some 20 s on a quiet machine; this is for a crowded one


def test_every_script_in_benchmarks_is_run_here() -> None:
    helpers = {"forks", "open_loop", "sizes"}  # modules the scripts import, tested through them (and below)
    found = {path.stem for path in (REPO / "benchmarks").glob("*.py")} - helpers
    assert found == set(SCRIPTS)


@dataclass
class Runs:
    """The selected scripts' processes, forked by ``forked_scripts.py`` (``parent``): each one's pid once
    started, its exit status once ended, its output's file."""

    parent: subprocess.Popen[str]
    folder: Path
    pids: dict[str, int] = field(default_factory=dict)
    status: dict[str, int] = field(default_factory=dict)
    ended: dict[str, threading.Event] = field(default_factory=dict)

    def out(self, script: str) -> Path:
        return self.folder / f"{script}.out"

    def follow(self) -> None:
        """What the parent says, as it says it; at its end, every script not ended is ended without a status."""
        assert self.parent.stdout is not None
        for line in self.parent.stdout:
            said = line.split()
            if len(said) != 3 or said[0] not in ("started", "ended") or said[1] not in self.ended:
                continue  # not one of its reports
            what, script, number = said
            (self.pids if what == "started" else self.status)[script] = int(number)
            if what == "ended":
                self.ended[script].set()
        for event in self.ended.values():
            event.set()

    def kill(self, script: str) -> None:
        if script in self.pids and script not in self.status:
            os.kill(self.pids[script], signal.SIGKILL)


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """Every selected script started at once at its smallest size."""
    selected = [s for s in SCRIPTS if any(f"[{s}]" in item.nodeid for item in request.session.items)]
    folder = tmp_path_factory.mktemp("benchmarks")
    with (folder / "forked_scripts.err").open("w") as errors:
        parent = subprocess.Popen([sys.executable, str(Path(__file__).with_name("forked_scripts.py")), str(folder), "--smoke",
                                   "--", *selected], cwd=REPO, stdout=subprocess.PIPE, stderr=errors, text=True,
                                  start_new_session=True)  # fmt: skip
    started = Runs(parent, folder, ended={script: threading.Event() for script in selected})
    threading.Thread(target=started.follow, daemon=True).start()
    yield started
    if parent.poll() is None:  # a script still running: it, the others and whatever they started
        os.killpg(parent.pid, signal.SIGKILL)
    parent.wait()


def promised(output: str, patterns: list[str]) -> list[str]:
    """The patterns not found in ``output``, each on a line of its own after the one before."""
    lines = [line.strip() for line in output.splitlines()]
    missing, at = [], 0
    for pattern in patterns:
        regex = re.compile(pattern.replace("{n}", N))
        found = next((i for i in range(at, len(lines)) if regex.search(lines[i])), None)
        if found is None:
            missing.append(pattern)
        else:
            at = found + 1
    return missing


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_prints_its_figures_at_its_smallest_size(runs: Runs, script: str) -> None:
    out = runs.out(script)
    if not runs.ended[script].wait(timeout=TIMEOUT):
        runs.kill(script)
        pytest.fail(f"benchmarks/{script}.py --smoke did not finish in {TIMEOUT} s:\n{out.read_text()[-3000:]}")
    if script not in runs.status:  # the process that forks them failed: what it said
        pytest.fail(f"benchmarks/{script}.py --smoke was not run:\n{(runs.folder / 'forked_scripts.err').read_text()[-3000:]}")
    code = runs.status[script]
    output = out.read_text(encoding="utf-8", errors="replace")
    assert code == 0, f"benchmarks/{script}.py --smoke exited {code}:\n{output[-3000:]}"
    missing = promised(output, FIGURES[script])
    assert not missing, f"benchmarks/{script}.py --smoke did not print {missing}:\n{output[-3000:]}"


def test_a_figure_missing_or_not_a_number_is_found() -> None:
    patterns = [r"first: {n} ms", r"second: {n}/s"]
    assert promised("first: 1.5 ms\nsecond: 2,000/s\n", patterns) == []
    assert promised("first: nan ms\nsecond: 2,000/s\n", patterns) == [patterns[0]]
    assert promised("second: 2,000/s\nfirst: 1.5 ms\n", patterns) == [patterns[1]]  # in the order promised
    assert promised("", patterns) == patterns


async def test_the_open_loop_starts_each_job_at_its_moment() -> None:
    from benchmarks.open_loop import arrival_offsets, open_loop

    started: list[int] = []

    def job(i: int):  # type: ignore[no-untyped-def]
        async def run() -> None:
            started.append(i)

        return run

    offsets = arrival_offsets(5, 1000.0, poisson=False)
    assert offsets == [0.0, 0.001, 0.002, 0.003, 0.004]
    result = await open_loop([job(i) for i in range(5)], offsets)
    assert started == [0, 1, 2, 3, 4] and len(result.latencies) == 5
    assert all(lat >= 0 for lat in result.latencies) and result.wall >= 0.004
