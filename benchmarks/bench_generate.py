#!/usr/bin/env python3
"""Benchmark of the generators at 20x20: seconds per unique puzzle, as a user meets them.

Runs the commands of issue 19 in fresh processes and reads their --json reports:
- `generate undead --size 20x20 --count 6 --seed 5` (target: median < 5 s per puzzle);
- `generate mazes --size 20 --count 3 --seed 1` (target: median < 10 s per board).
With `--against REV` the same commands run from a checkout of git revision REV in the same
run, each under `--cap` seconds (a run past it is reported as such), as the baseline.
Prints a markdown table; with --out FILE it writes its section of FILE (docs/BENCHMARKS.md).

Usage: python benchmarks/bench_generate.py [--against REV] [--cap 600] [--out docs/BENCHMARKS.md]
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

from harness import arguments, checkout, parse, write_report  # noqa: E402

COMMANDS = [
    ("undead", ["generate", "undead", "--size", "20x20", "--count", "6", "--seed", "5"], 5.0),
    ("mazes", ["generate", "mazes", "--size", "20", "--count", "3", "--seed", "1"], 10.0),
]
# --tiny: the same commands at 6x6, one puzzle each
TINY = [
    ("undead", ["generate", "undead", "--size", "6x6", "--count", "1", "--seed", "5"], 5.0),
    ("mazes", ["generate", "mazes", "--size", "6", "--count", "1", "--seed", "1"], 10.0),
]


def run(tree: Path, args: list[str], cap: float) -> tuple[list[float] | None, float]:
    """Seconds per item from the --json report, and the wall time (None: over the cap)."""
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        started = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-m", "logic_agents", *args, "-o", out,
                                   "--json"], capture_output=True, text=True, env=env,
                                  cwd=tree, timeout=cap)
        except subprocess.TimeoutExpired:
            return None, cap
        wall = time.perf_counter() - started
        if done.returncode:
            raise SystemExit(f"{' '.join(args)} failed under {tree}: {done.stderr.strip()}")
        report = json.loads(done.stdout)
        items = report.get("puzzles") or report.get("boards") or []
        return [item["seconds"] for item in items], wall


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--against", metavar="REV", help="also run the commands of revision REV")
    parser.add_argument("--cap", type=float, default=600.0, help="seconds per command (600)")
    args = parse(parser)
    started = time.perf_counter()
    lines = ["| command | code | items | median s per item | max s | wall s | target (median) |",
             "|---|---|---|---|---|---|---|"]
    with checkout(args.against) as old:
        trees = [("this tree", ROOT)] + ([(f"revision {args.against}", old)] if old else [])
        for _, command, target in TINY if args.tiny else COMMANDS:
            for label, tree in trees:
                secs, wall = run(tree, command, args.cap)
                shown = " ".join(command)
                if secs is None:
                    lines.append(f"| `{shown}` | {label} | - | - | - | > {args.cap:.0f} "
                                 f"(stopped) | < {target:g} |")
                else:
                    lines.append(f"| `{shown}` | {label} | {len(secs)} | "
                                 f"{statistics.median(secs):.2f} | {max(secs):.2f} | "
                                 f"{wall:.1f} | < {target:g} |")
                print(lines[-1], flush=True)
    body = "\n".join(lines)
    if args.out:
        write_report(args.out, "bench_generate", "Generators at 20x20 "
                     "(`benchmarks/bench_generate.py`)", time.perf_counter() - started,
                     [("Seconds per unique puzzle, each command in a fresh process", body)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
