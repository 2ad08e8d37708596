#!/usr/bin/env python3
"""What `compare` costs per game over the game itself (issue 42, target 2), in one run.

For each round it plays the same N generated beginner games (9x9/10, first probe at (2,2),
the records' rule; generator seed --seed) with prob two ways, each in a fresh process:
- in-process: run_episode(DaggersWorld(board), ProbAgent()) on each board, CPU per game
  (time.process_time around each game): the game itself;
- through `logic-agents compare --generate beginner --start 2,2 --agents prob --jobs 1`
  (main() called in the child, a results file written): the referee's CPU (RUSAGE_SELF,
  its start-up, the map generation, the results file and its seals included) and the
  worker's (RUSAGE_CHILDREN), each per game; and the worker's private memory when its
  games end (the Private_ lines of /proc/self/smaps_rollup, MiB; 0 where there is none):
  what the worker does not share with the referee it was forked from.
Every other figure is CPU milliseconds per game; the lowest of the rounds is printed beside the
median. With --against REV the same is measured on a worktree of git revision REV in the
same run, rounds alternating; the worktree plays with its own C extensions, built in place
(without them its games would be the pure-Python ones).

Usage: python benchmarks/bench_compare_cost.py [--games 2000] [--rounds 3] [--seed 0]
                                            [--against REV]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_prob import build_in_place  # noqa: E402
from harness import arguments, parse, table, write_report  # noqa: E402

CHILD = r"""
import contextlib, io, json, resource, sys, time
from pathlib import Path
mode, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if mode == "in-process":
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.games.daggers.prob import ProbAgent
    from logic_agents.games.daggers.world import DaggersWorld
    from logic_agents.world.runner import run_episode
    cpu = 0.0
    for i, board in enumerate(generate_maps(PRESETS["beginner"], games, seed, (2, 2), True)):
        started = time.process_time()
        run_episode(DaggersWorld(board), ProbAgent(), seed=i)
        cpu += time.process_time() - started
    print(json.dumps({"game": 1000 * cpu / games}))
else:
    import logic_agents.referee.pool as pool
    from logic_agents.cli import main
    serve = pool._serve

    def measured_serve(*args, **kwargs):  # the worker's private memory when its games end
        try:
            serve(*args, **kwargs)
        finally:
            with contextlib.suppress(OSError), open("/proc/self/smaps_rollup") as f:
                kib = sum(int(line.split()[1]) for line in f if line.startswith("Private_"))
                Path(out + ".mem").write_text(str(kib))

    pool._serve = measured_serve
    argv = ["compare", "--generate", "beginner", "--count", str(games), "--seed", str(seed),
            "--start", "2,2", "--agents", "prob", "--runs", "1", "--jobs", "1", "--json",
            "--out", out]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    mem = Path(out + ".mem")
    print(json.dumps({"referee": 1000 * (me.ru_utime + me.ru_stime) / games,
                      "worker": 1000 * (kids.ru_utime + kids.ru_stime) / games,
                      "worker_mib": int(mem.read_text()) / 1024 if mem.exists() else 0.0}))
"""


def measure(tree: Path, games: int, seed: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for mode in ("in-process", "compare"):
            done = subprocess.run([sys.executable, "-c", CHILD, mode, str(games), str(seed),
                                   str(Path(scratch) / f"{mode}.csv")], cwd=tree,
                                  env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                                  capture_output=True, text=True, check=True)
            figures.update(json.loads(done.stdout.strip().splitlines()[-1]))
    return figures


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", metavar="REV", help="also measure this git revision")
    args = parse(parser)
    if args.tiny:  # five games, one round
        args.games, args.rounds = 5, 1
    started = time.perf_counter()
    trees = {"now": ROOT}
    scratch = None
    if args.against:
        scratch = Path(tempfile.mkdtemp()) / "before"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(scratch), args.against],
                       cwd=ROOT, check=True)
        print(f"{args.against}: prob's kernel "
              f"{'built' if build_in_place(scratch, require=False) else 'absent'}", flush=True)
        trees = {args.against: scratch, "now": ROOT}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    load_before = os.getloadavg()[0]
    try:
        for _ in range(args.rounds):
            for name, tree in trees.items():
                results[name].append(measure(tree, args.games, args.seed))
    finally:
        if scratch is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(scratch)], cwd=ROOT)
    rows = []
    for name, rounds in results.items():
        cells = []
        for key in ("game", "referee", "worker", "whole", "own", "worker_mib"):
            values = [r["referee"] + r["worker"] if key == "whole" else
                      r["referee"] + r["worker"] - r["game"] if key == "own" else r[key]
                      for r in rounds]
            cells.append(f"{min(values):.3f} ({statistics.median(values):.3f})")
        rows.append([name, *cells])
    body = (f"{args.games} beginner games (9x9/10 at (2,2)), prob, CPU ms per game, lowest "
            f"(median) of {args.rounds} rounds\n\n"
            + table(["tree", "the game, in-process", "compare: referee", "compare: worker",
                     "compare, whole", "compare's own cost",
                     "the worker's private memory, MiB"], rows)
            + f"\n\nLoad (1-minute average) before and after: {load_before:.1f}, "
            f"{os.getloadavg()[0]:.1f}")
    print(body)
    if args.out:
        write_report(args.out, "bench_compare_cost", "What `compare` costs per game "
                     "(`benchmarks/bench_compare_cost.py`)", time.perf_counter() - started,
                     [("CPU per game", body)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
