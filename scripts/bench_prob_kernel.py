#!/usr/bin/env python3
"""prob with its compiled kernel, beside its pure-Python search and PSEQ, in one run (issue 55).

For each size, `--rounds` times in turn: PSEQ's games (Tu et al.'s MineSweeperProb, built as
scripts/bench_pseq.py says), then prob's games in a child with the compiled kernel
(components.KERNEL, logic_agents/games/daggers/_enumerate.c) and in a child with
LOGIC_AGENTS_PURE_PYTHON=1, on the same boards and play seeds (scripts/_prob_games.py). It
prints, per size:
- PSEQ's CPU per game (its whole process tree, the lowest round);
- prob's CPU per game in-process with the kernel and without: mean (the lowest round), and
  over every game of every round the p95 and the max;
- the ratios to PSEQ and between the two builds, and whether every game played the same moves
  in both builds (a digest per game).
The boards are generate_maps(`--seed`), drawn for this benchmark; the kernel was never tuned
on any board (it computes the same tables as the Python search).

Usage: python scripts/bench_prob_kernel.py --pseq BIN [--sizes beginner,intermediate,expert]
                                           [--games 2000,1000,300] [--rounds 3]
                                           [--seed 5501] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from _report import p95, write_report  # noqa: E402
from bench_prob import play_prob  # noqa: E402
from bench_pseq import SIZES, play_pseq  # noqa: E402

from logic_agents.games.daggers.components import KERNEL, PURE_PYTHON_VARIABLE  # noqa: E402


def play(preset: str, games: int, seed: int, pure: bool) -> list[dict]:
    """prob's games in one fresh child, with the kernel or without, one dict per game."""
    return play_prob(ROOT, preset, games, SIZES[preset][0], 1, seed,
                     {PURE_PYTHON_VARIABLE: "1" if pure else "0"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pseq", type=Path, required=True, help="a built MineSweeperSolver")
    parser.add_argument("--sizes", default="beginner,intermediate,expert")
    parser.add_argument("--games", default="2000,1000,300", help="prob's games per size "
                        "(PSEQ plays ten times as many: a game costs it so little)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5501, help="board and play seed")
    parser.add_argument("--out", type=Path, help="write the section into this markdown file")
    args = parser.parse_args()
    if KERNEL is None:
        parser.error("the compiled kernel is not built here (or LOGIC_AGENTS_PURE_PYTHON is "
                     "set): reinstall with a C compiler (pip install -e .)")
    if not args.pseq.is_file():
        parser.error(f"{args.pseq}: no such file")
    sizes = args.sizes.split(",")
    counts = [int(g) for g in args.games.split(",")]
    if len(counts) != len(sizes) or any(s not in SIZES for s in sizes):
        parser.error(f"--sizes from {', '.join(SIZES)}, and one --games count for each")
    started = time.perf_counter()
    head = ["board", "PSEQ CPU ms/game", "prob, kernel: mean / p95 / max ms",
            "prob, pure Python: mean / p95 / max ms", "kernel / PSEQ", "pure / PSEQ",
            "pure / kernel", "same moves"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for preset, games in zip(sizes, counts):
        pseq_ms: list[float] = []
        means: dict[bool, list[float]] = {False: [], True: []}
        every: dict[bool, list[float]] = {False: [], True: []}
        moves: dict[bool, list[str]] = {}
        for _ in range(args.rounds):
            peer_games = 10 * games
            _, cpu = play_pseq(args.pseq, SIZES[preset][1], peer_games, 1)
            pseq_ms.append(1000 * cpu / peer_games)
            for pure in (False, True):
                played = play(preset, games, args.seed, pure)
                times = [1000 * g["cpu_s"] for g in played]
                means[pure].append(statistics.mean(times))
                every[pure] += times
                moves[pure] = [g["moves"] for g in played]
        peer = min(pseq_ms)
        kernel, pure_py = min(means[False]), min(means[True])
        same = sum(a == b for a, b in zip(moves[False], moves[True]))
        start = SIZES[preset][0]
        cells = [f"{preset} opened at {start}", f"{peer:.3f}",
                 f"{kernel:.2f} / {p95(every[False]):.2f} / {max(every[False]):.1f}",
                 f"{pure_py:.2f} / {p95(every[True]):.2f} / {max(every[True]):.1f}",
                 f"{kernel / peer:.1f}x", f"{pure_py / peer:.1f}x",
                 f"{pure_py / kernel:.2f}x", f"{same} of {games}"]
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    load = os.getloadavg()[0]
    body = "\n".join(lines) + (
        f"\n\nprob's games: generate_maps(seed {args.seed}), play seed {args.seed}, one child "
        f"process each, in-process CPU per game (time.process_time around each game); "
        f"{args.rounds} rounds, PSEQ, the kernel and pure Python in turn, each mean the lowest "
        f"round's, the p95 and max over every game of every round. PSEQ plays ten times as "
        f"many games of its own (same rule), on 1 process; its CPU is its whole process tree. "
        f"Load average at the end: {load:.1f}.")
    print(body)
    if args.out:
        write_report(args.out, "bench-prob-kernel",
                     "prob's compiled kernel beside pure Python and PSEQ, one run",
                     time.perf_counter() - started, [("CPU per game", body)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
