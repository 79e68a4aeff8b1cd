"""Writes ``gnugo_games.json`` (the games ``test_go_dead_marking.py`` compares with): GNU Go 3.8 plays
against itself over GTP until two passes, then names its dead stones and its score. Needs ``gnugo`` on
PATH (Debian's package ``gnugo``); the tests only read the file.

    python -m tests.engine.go.make_gnugo_games        # 9x9 and 13x13 at level 1, 13x13 at level 10, 19x19 at level 1
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

KOMI = {9: "3.5", 13: "4.5", 19: "5.5"}
RUNS = [(9, 1, range(200000, 200012)), (13, 1, range(200000, 200012)), (13, 10, range(200000, 200008)),
        (19, 1, range(200000, 200006))]  # fmt: skip


def self_play(size: int, seed: int, level: int) -> dict[str, object]:
    gtp = subprocess.Popen(["gnugo", "--mode", "gtp", "--seed", str(seed), "--level", str(level)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert gtp.stdin is not None and gtp.stdout is not None

    def ask(command: str) -> str:
        assert gtp.stdin is not None and gtp.stdout is not None
        gtp.stdin.write(command + "\n")
        gtp.stdin.flush()
        lines: list[str] = []
        while (line := gtp.stdout.readline()).strip() or not lines:
            if line.strip():
                lines.append(line.rstrip())
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"{command}: {answer}")
        return answer[1:].strip()

    ask(f"boardsize {size}")
    ask("clear_board")
    ask(f"komi {KOMI[size]}")
    moves: list[str] = []
    passes = 0
    while passes < 2:
        colour = "B" if len(moves) % 2 == 0 else "W"
        move = ask("genmove " + ("black" if colour == "B" else "white"))
        moves.append(f"{colour} {move}")
        passes = passes + 1 if move.upper() == "PASS" else 0
    dead, score = ask("final_status_list dead").split(), ask("final_score")
    ask("quit")
    gtp.wait()
    return {"name": f"g{size}_seed{seed}_level{level}", "size": size, "seed": seed, "level": level, "score": score,
            "dead": dead, "moves": moves}  # fmt: skip


def main() -> None:
    games = [self_play(size, seed, level) for size, level, seeds in RUNS for seed in seeds]
    lines = ",\n".join(json.dumps(g, separators=(",", ":")) for g in games)
    (Path(__file__).parent / "gnugo_games.json").write_text("[\n" + lines + "\n]\n", encoding="utf-8")


if __name__ == "__main__":
    main()
