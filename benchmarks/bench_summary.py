#!/usr/bin/env python3
"""Benchmark of a class's summary (issue 66): its cost in the number of agents.

A class of N agents on the 30 official maps, one run each, most agents never winning (a
syntax error, a hang and an agent that never wins tie in every pair), as rows made in memory
(no game is played): the CPU of `summarize` and of printing it (`summary_text`, what the
terminal shows), for this tree and, with --old PYTHON (a checkout of the tree before, with
logic-agents installed from it), that tree, in the same run, each size in a fresh process,
the trees alternated over --rounds. A cell is the median round, the max beside it. A size
the old tree cannot finish within --budget seconds of CPU is cut there (RLIMIT_CPU) and
shown as "> budget".

Usage: python benchmarks/bench_summary.py [--sizes 100,200,400,1000] [--rounds 3]
       [--old OLD/.venv/bin/python] [--budget 60] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, write_report  # noqa: E402

CHILD = r"""
import json, sys, time
from logic_agents.study.rows import Row
from logic_agents.study.summary import summarize
from logic_agents.study.report import summary_text
n, maps = int(sys.argv[1]), 30
rows = [Row(agent=f"s{a:04d}", map=f"m{m}", group="g", run=0, seed=m,
            outcome="won" if a % 5 == 0 and (a + m) % 3 else "lost",
            won=a % 5 == 0 and bool((a + m) % 3), steps=5, guesses=1, score=None, time_s=0.1)
        for a in range(n) for m in range(maps)]
start = time.process_time()
summary = summarize(rows)
made = time.process_time()
text = summary_text(summary, maps, 1, "secret")
done = time.process_time()
print(json.dumps({"pairs": len(summary.pairs), "summarize": made - start,
                  "print": done - made}))
"""


def measure(python: str, size: int, budget: float) -> dict[str, float] | None:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(budget), int(budget) + 1))

    done = subprocess.run([python, "-c", CHILD, str(size)], capture_output=True, text=True,
                          preexec_fn=cap, cwd="/")
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--sizes", default="100,200,400,1000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old", metavar="PYTHON", help="the interpreter of the tree before")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="CPU seconds a size may take before it is cut")
    args = parse(parser)
    if args.tiny:  # a class of ten, once
        args.sizes, args.rounds = "10", 1
    sizes = [int(s) for s in args.sizes.split(",")]
    trees = [("this tree", sys.executable)] + ([("before", args.old)] if args.old else [])
    started = time.monotonic()
    load = os.getloadavg()[0]
    seen: dict[tuple[str, int], list[dict[str, float] | None]] = {}
    for _ in range(args.rounds):
        for size in sizes:
            for name, python in trees:
                if seen.get((name, size)) and seen[(name, size)][-1] is None:
                    continue  # cut once: no need to wait for the budget again
                seen.setdefault((name, size), []).append(measure(python, size, args.budget))
    lines = ["| agents | tree | pairs tested | summarize CPU s | print CPU s | whole CPU s (max) |",
             "|---|---|---|---|---|---|"]
    for size in sizes:
        for name, _ in trees:
            got = seen[(name, size)]
            if any(g is None for g in got):
                lines.append(f"| {size:,} | {name} | — | — | — | > {args.budget:g} (cut) |")
                continue
            whole = [g["summarize"] + g["print"] for g in got if g]
            lines.append(
                f"| {size:,} | {name} | {int(got[0]['pairs']):,} | "  # type: ignore[index]
                f"{statistics.median(g['summarize'] for g in got if g):.3f} | "
                f"{statistics.median(g['print'] for g in got if g):.3f} | "
                f"{statistics.median(whole):.3f} ({max(whole):.3f}) |")
    table = "\n".join(lines)
    load_after = os.getloadavg()[0]
    table += (f"\n\nLoad {load:.1f} before, {load_after:.1f} after; CPU of the child process "
              "alone (time.process_time), each size in a fresh process.")
    print(table)
    if args.out:
        write_report(args.out, "bench_summary", "A class's summary, by its size "
                     "(`benchmarks/bench_summary.py`, issue 66)", time.monotonic() - started,
                     [("CPU by the number of agents", table)])


if __name__ == "__main__":
    main()
