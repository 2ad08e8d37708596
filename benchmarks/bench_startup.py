"""Start-up cost of the command line: each command run N times in a fresh process.

Compares, in the same run, the command as shipped (sympy imported only where a formula is
built or printed) with the same command after an eager `import sympy`, the way every call
started before (issue 19). Targets: --help median <= 0.3 s, `play EASY1 --agent satx --json`
and `solve` of one 9x9 line <= 0.5 s.

    .venv/bin/python benchmarks/bench_startup.py [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
COMMANDS = {
    "logic-agents --help": (["--help"], 0.3),
    "play EASY1 --agent satx --json": (["play", "EASY1", "--agent", "satx", "--json"], 0.5),
    "solve <one 9x9 line>": (["solve", SUDOKU], 0.5),
}


def wall(argv: list[str], eager: bool) -> float:
    code = ("import sys; " + ("import sympy; " if eager else "")
            + "from logic_agents.cli import main; sys.exit(main(sys.argv[1:]))")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"{args.runs} runs each, fresh process per run (wall seconds)")
    print(f"{'command':34} {'target':>7} {'median':>7} {'max':>7} {'eager sympy median':>19}  ok")
    failed = 0
    for name, (argv, target) in COMMANDS.items():
        shipped = [wall(argv, False) for _ in range(args.runs)]
        eager = [wall(argv, True) for _ in range(args.runs)]
        median = statistics.median(shipped)
        ok = median <= target
        failed += not ok
        print(f"{name:34} {target:7.2f} {median:7.3f} {max(shipped):7.3f} "
              f"{statistics.median(eager):19.3f}  {'yes' if ok else 'NO'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
