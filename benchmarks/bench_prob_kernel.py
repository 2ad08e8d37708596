#!/usr/bin/env python3
"""prob with its compiled kernel, beside its pure-Python search and PSEQ, in one run (issue 55).

For each size, `--rounds` times in turn: PSEQ's games (Tu et al.'s MineSweeperProb, built as
benchmarks/bench_pseq.py says), then prob's games in a child with the compiled kernel (the odds'
enumeration, logic_agents/games/daggers/_enumerate.c, the endgame search, _endgame.c, and the
single-point bookkeeping, _clues.c), in a child with LOGIC_AGENTS_PURE_PYTHON=1 (none),
and with `--against REV` in a child of a worktree of REV with its own kernel built in place,
all on the same boards and play seeds (benchmarks/_prob_games.py). It prints, per size:
- PSEQ's CPU per game (its whole process tree, the lowest round);
- prob's CPU per game in-process in each build: mean (the lowest round), and over every game
  of every round the p95 and the max;
- the ratios to PSEQ and between the builds, and whether every game played the same moves in
  every build (a digest per game);
- the world alone: the same moves played again on a fresh world by an agent that only hands
  them back (the kernel build's child, BENCH_REPLAY=1 in benchmarks/_prob_games.py), the part of
  a game no agent can go below while the world is this Python simulator, beside PSEQ.
The boards are generate_maps(`--seed`), drawn for this benchmark; the kernel was never tuned
on any board (it computes what the Python search computes).

Usage: python benchmarks/bench_prob_kernel.py --pseq BIN [--sizes beginner,intermediate,expert]
                                           [--games 2000,1000,300] [--rounds 3]
                                           [--seed 5501] [--against REV]
                                           [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_prob import build_in_place, play_prob  # noqa: E402
from bench_pseq import SIZES, play_pseq  # noqa: E402
from harness import arguments, checkout, p95, parse, write_report  # noqa: E402

from logic_agents.games.daggers.components import KERNEL, PURE_PYTHON_VARIABLE  # noqa: E402


def play(tree: Path, preset: str, games: int, seed: int, pure: bool,
         replay: bool = False) -> list[dict]:
    """prob's games in one fresh child of `tree`'s package, with its kernel or without, one
    dict per game (with `replay`, each also timed as the world alone: replay_cpu_s)."""
    return play_prob(tree, preset, games, SIZES[preset][0], 1, seed,
                     {PURE_PYTHON_VARIABLE: "1" if pure else "0",
                      "BENCH_REPLAY": "1" if replay else "0"})


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--pseq", type=Path, help="a built MineSweeperSolver (required but "
                        "with --tiny)")
    parser.add_argument("--sizes", default="beginner,intermediate,expert")
    parser.add_argument("--games", default="2000,1000,300", help="prob's games per size "
                        "(PSEQ plays ten times as many: a game costs it so little)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5501, help="board and play seed")
    parser.add_argument("--against", metavar="REV", help="also a worktree of REV, its kernel "
                        "built in place")
    args = parse(parser)
    if args.tiny:  # ten beginner games of each build, one round, PSEQ only if given
        args.sizes, args.games, args.rounds = "beginner", "10", 1
    if KERNEL is None:
        parser.error("the compiled kernel is not built here (or LOGIC_AGENTS_PURE_PYTHON is "
                     "set): reinstall with a C compiler (pip install -e .)")
    if args.pseq is None and not args.tiny:
        parser.error("--pseq is required (benchmarks/build_peers.py builds it)")
    if args.pseq is not None and not args.pseq.is_file():
        parser.error(f"{args.pseq}: no such file")
    sizes = args.sizes.split(",")
    counts = [int(g) for g in args.games.split(",")]
    if len(counts) != len(sizes) or any(s not in SIZES for s in sizes):
        parser.error(f"--sizes from {', '.join(SIZES)}, and one --games count for each")
    started = time.perf_counter()
    rev = None
    if args.against:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.against],
                             capture_output=True, text=True, check=True).stdout.strip()
    with checkout(rev) as old:
        if old is not None:
            build_in_place(old)
        builds = [("kernel", ROOT, False), ("pure Python", ROOT, True)]
        if old is not None:
            builds.insert(1, (f"{rev}, its kernel", old, False))
        lines = table(args, sizes, counts, builds)
    load = os.getloadavg()[0]
    body = "\n".join(lines) + (
        f"\n\nprob's games: generate_maps(seed {args.seed}), play seed {args.seed}, one child "
        f"process each, in-process CPU per game (time.process_time around each game); "
        f"{args.rounds} rounds, PSEQ then each build in turn, each mean the lowest "
        f"round's, the p95 and max over every game of every round. PSEQ plays ten times as "
        f"many games of its own (same rule), on 1 process; its CPU is its whole process tree. "
        f"The world alone: the kernel build's moves played again on a fresh world by an agent "
        f"that only hands them back, timed the same way (the lowest round's mean). "
        f"Load average at the end: {load:.1f}.")
    print(body)
    if args.out:
        write_report(args.out, "bench-prob-kernel",
                     "prob's compiled kernel beside pure Python and PSEQ, one run",
                     time.perf_counter() - started, [("CPU per game", body)])
    return 0


def table(args: argparse.Namespace, sizes: list[str], counts: list[int],
          builds: list[tuple[str, Path, bool]]) -> list[str]:
    """The markdown rows: per size, PSEQ and each build (label, tree, pure Python)."""
    head = ["board", "PSEQ CPU ms/game"]
    head += [f"prob, {label}: mean / p95 / max ms" for label, _, _ in builds]
    head += [f"{label} / PSEQ" for label, _, _ in builds]
    head += [f"{label} / kernel" for label, _, _ in builds[1:]]
    head += ["the world alone: mean ms (/ PSEQ)", "same moves in every build"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for preset, games in zip(sizes, counts):
        pseq_ms: list[float] = []
        means: list[list[float]] = [[] for _ in builds]
        every: list[list[float]] = [[] for _ in builds]
        moves: list[list[str]] = [[] for _ in builds]
        floors: list[float] = []
        for _ in range(args.rounds):
            if args.pseq is not None:
                peer_games = 10 * games
                _, cpu = play_pseq(args.pseq, SIZES[preset][1], peer_games, 1)
                pseq_ms.append(1000 * cpu / peer_games)
            for b, (_, tree, pure) in enumerate(builds):
                played = play(tree, preset, games, args.seed, pure, replay=b == 0)
                if b == 0:
                    floors.append(statistics.mean(1000 * g["replay_cpu_s"] for g in played))
                times = [1000 * g["cpu_s"] for g in played]
                means[b].append(statistics.mean(times))
                every[b] += times
                moves[b] = [g["moves"] for g in played]
        peer = min(pseq_ms) if pseq_ms else None
        lowest = [min(m) for m in means]
        same = sum(len(set(game)) == 1 for game in zip(*moves))
        cells = [f"{preset} opened at {SIZES[preset][0]}",
                 f"{peer:.3f}" if peer else "not run (no --pseq)"]
        cells += [f"{low:.2f} / {p95(e):.2f} / {max(e):.1f}" for low, e in zip(lowest, every)]
        cells += [f"{low / peer:.1f}x" if peer else "-" for low in lowest]
        cells += [f"{low / lowest[0]:.2f}x" for low in lowest[1:]]
        cells += [f"{min(floors):.3f} ({min(floors) / peer:.1f}x)" if peer else
                  f"{min(floors):.3f}", f"{same} of {games}"]
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
