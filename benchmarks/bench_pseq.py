#!/usr/bin/env python3
"""prob beside Tu et al.'s PSEQ (MineSweeperProb, C++), in one run: CPU per game and win rates.

Both play the records' rule (SNR: the first probe opens an area): 9x9/10 and 16x16/40 opened
at (2,2), 30x16/99 at (3,3) (PSEQ's 1-based [3,3] and [4,4]). For each size it prints:
- PSEQ's games, win rate with its 95% Wilson interval and CPU milliseconds per game: the
  binary's whole process tree (its monitor and worker included) from getrusage, over the games;
  PSEQ plays twice, before and after prob, and the lower figure counts (the machine's speed
  drifts within a run: the two differ by up to a fifth), so the ratio is the harder one;
- prob's the same, from `--jobs` child processes playing benchmarks/_prob_games.py (board seed
  9, play seed 9, as bench_prob.py): whole processes (Python's start-up, the imports and the
  board generation included) and, beside it, the mean of the games alone (time.process_time
  around each game);
- the ratio prob / PSEQ (whole processes) and the target;
- with `--against REV`, prob as it was at git revision REV on the same games in the same run
  (its win rate, CPU and ratio), for a before and after.

PSEQ is not shipped. Build it from its sources (github.com/b1f6c1c4/MineSweeperProb, directory
MineSweeperSolver) with the flags of its README (Release: -O3, -march=native, link-time
optimisation), without CMake, since only the solver binary is needed:

    g++ -std=c++23 -O3 -march=native -DNDEBUG -flto -o mss BasicDrainer.cpp BasicSolver.cpp \\
        BinomialHelper.cpp Drainer.cpp GameMgr.cpp random.cpp Solver.cpp facade.cpp main.cpp \\
        -lpthread

(main.cpp needs nlohmann/json.hpp: `apt-get install nlohmann-json3-dev`), or pass
`--pseq-src DIR` and this script runs that command into a temporary folder.

Usage: python benchmarks/bench_pseq.py --pseq PATH [--games 20000] [--jobs 2] [--sizes ...]
                                    [--against REV] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import build_peers  # noqa: E402
from bench_prob import play_prob  # noqa: E402
from harness import arguments, checkout, children_cpu, parse, row, wilson, write_report  # noqa: E402

# (preset, our 0-based opening, PSEQ's configuration string, target ratio prob / PSEQ: issue
# 42's, at most 20x on 9x9 and 16x16 and 10x on expert; the earlier targets were 50x and 20x)
SIZES = {
    "beginner": ((2, 2), "FL@[3,3]-PSEQ-9-9-T10-SNR", 20),
    "intermediate": ((2, 2), "FL@[3,3]-PSEQ-16-16-T40-SNR", 20),
    "expert": ((3, 3), "FL@[4,4]-PSEQ-30-16-T99-SNR", 10),
}
def build_pseq(src: Path, into: Path) -> Path:
    """PSEQ built from its sources (MineSweeperSolver, or a checkout holding it) under `into`:
    the command of the module docstring, run by benchmarks/build_peers.py."""
    return build_peers.build_pseq(src, into)[0]


def play_pseq(binary: Path, config: str, games: int, jobs: int) -> tuple[int, float]:
    """(games won, CPU seconds of the whole process tree) for `games` games on `jobs` workers
    (as many as prob gets: two busy cores run slower than one)."""
    before = children_cpu()
    done = subprocess.run([str(binary), config, str(games), str(jobs)], capture_output=True,
                          text=True, check=True)
    cpu = children_cpu() - before
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["result"]["pass"] + report["result"]["fail"] != games:
        raise SystemExit(f"PSEQ played {report['result']} for {config}")
    return report["result"]["pass"], cpu


def play(tree: Path, preset: str, games: int, start: tuple[int, int], jobs: int
         ) -> tuple[float, float, list[dict]]:
    """prob's games from `tree`: (CPU ms per game of the whole processes, of the games alone,
    the games)."""
    before = children_cpu()
    played = play_prob(tree, preset, games, start, jobs)
    whole = children_cpu() - before
    return (1000 * whole / len(played), 1000 * sum(g["cpu_s"] for g in played) / len(played),
            played)


def percent(won: int, games: int) -> str:
    low, high = wilson(won, games)
    return f"{100 * won / games:.2f} [{100 * low:.2f}, {100 * high:.2f}]"


def main() -> int:
    parser = arguments(__doc__)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pseq", type=Path, help="a built MineSweeperSolver binary")
    where.add_argument("--pseq-src", type=Path, help="its MineSweeperSolver source folder: "
                       "build it first (g++, nlohmann-json)")
    parser.add_argument("--games", type=int, default=20_000, help="games per size and player")
    parser.add_argument("--jobs", type=int, default=2, help="prob's child processes")
    parser.add_argument("--sizes", default=",".join(SIZES), help="comma-separated presets")
    parser.add_argument("--against", metavar="REV", help="also play prob as it was at git "
                        "revision REV, on the same games")
    args = parse(parser)
    if args.tiny:  # ten beginner games on one process; PSEQ only if given
        args.games, args.sizes, args.jobs = 10, "beginner", 1
    elif args.pseq is None and args.pseq_src is None:
        parser.error("give --pseq or --pseq-src (benchmarks/build_peers.py builds PSEQ)")
    sizes = [s for s in args.sizes.split(",") if s]
    if unknown := [s for s in sizes if s not in SIZES]:
        parser.error(f"unknown size {unknown[0]!r}; choose from {', '.join(SIZES)}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, checkout(args.against) as old_tree:
        binary = (args.pseq if args.pseq else build_pseq(args.pseq_src, Path(tmp))
                  if args.pseq_src else None)
        if binary is not None and not binary.is_file():
            parser.error(f"{binary}: no such file")
        head = ["board", "PSEQ win % [95% CI]", "PSEQ CPU ms/game", "prob win % [95% CI]",
                "prob CPU ms/game, whole processes (games alone)", "prob / PSEQ", "target"]
        if old_tree is not None:
            head[6:6] = [f"prob at {args.against}: win %", "CPU ms/game", "/ PSEQ"]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for preset in sizes:
            start, config, target = SIZES[preset]
            if binary is None:  # --tiny without the peer: our side alone
                prob_ms, alone_ms, games = play(ROOT, preset, args.games, start, args.jobs)
                lines.append(row([f"{preset} opened at {start}", "not run", "not run",
                                  percent(sum(g["won"] for g in games), len(games)),
                                  f"{prob_ms:.2f} ({alone_ms:.2f})", "-", "-"]))
                continue
            won, cpu = play_pseq(binary, config, args.games, args.jobs)
            prob_ms, alone_ms, games = play(ROOT, preset, args.games, start, args.jobs)
            won_after, cpu_after = play_pseq(binary, config, args.games, args.jobs)
            print(f"{preset}: PSEQ {1000 * cpu / args.games:.3f} ms/game before prob, "
                  f"{1000 * cpu_after / args.games:.3f} after", file=sys.stderr, flush=True)
            won, cpu = won + won_after, min(cpu, cpu_after)
            pseq_ms = 1000 * cpu / args.games
            ratio = prob_ms / pseq_ms
            cells = [f"{preset} opened at {start}", percent(won, 2 * args.games),
                     f"{pseq_ms:.3f}",
                     percent(sum(g["won"] for g in games), len(games)),
                     f"{prob_ms:.2f} ({alone_ms:.2f})", f"{ratio:.1f}x",
                     f"<= {target}x {'met' if ratio <= target else 'NOT met'}"]
            if old_tree is not None:
                old_ms, _, old = play(old_tree, preset, args.games, start, args.jobs)
                cells[6:6] = [percent(sum(g["won"] for g in old), len(old)), f"{old_ms:.2f}",
                              f"{old_ms / pseq_ms:.1f}x"]
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], file=sys.stderr, flush=True)
    body = "\n".join(lines) + (
        f"\n\n{args.games:,} games per size and player (PSEQ twice: before and after prob, "
        f"its win rate over both, its CPU the lower), each on {args.jobs} process(es) at "
        "once. PSEQ: Tu et al.'s MineSweeperSolver built from its sources with its "
        "README's flags (see the script's docstring); its boards are its own random ones under "
        "the same rule, prob's are generate_maps(seed 9). CPU is user + system time of the "
        "whole process trees.")
    print(body)
    if args.out:
        write_report(args.out, f"bench-pseq-jobs{args.jobs}",
                     f"prob beside PSEQ: CPU per game, one run, {args.jobs} process"
                     f"{'es' if args.jobs > 1 else ''} each",
                     time.perf_counter() - started, [("Records' rule (SNR)", body)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
