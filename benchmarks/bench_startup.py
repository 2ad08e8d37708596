"""Start-up cost of the command line: each command run N times in a fresh process.

Compares, in the same run, the command as shipped (sympy imported only where a formula is
built or printed) with the same command after an eager `import sympy`, the way every call
started before (issue 19). Targets: --help median <= 0.3 s, `play EASY1 --agent satx --json`
and `solve` of one 9x9 line <= 0.5 s.

    .venv/bin/python benchmarks/bench_startup.py [--runs 10]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import Spread, arguments, interleaved, load, parse, table, write_report  # noqa: E402

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
    parser = arguments(__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parse(parser)
    commands = dict(list(COMMANDS.items())[:1]) if args.tiny else COMMANDS
    if args.tiny:  # --help, once each way
        args.runs = 1
    started = time.perf_counter()
    rows = []
    failed = 0
    for name, (argv, target) in commands.items():
        # the shipped command and its eager-sympy baseline in turn, so that both meet the
        # same moments of the machine
        shipped, eager = interleaved(args.runs, lambda a=argv: wall(a, False),
                                     lambda a=argv: wall(a, True))
        ok = statistics.median(shipped) <= target
        failed += not ok
        rows.append([f"`{name}`", f"{target:.2f}", Spread.of(shipped).shown(digits=3),
                     f"{statistics.median(eager):.3f}", "yes" if ok else "NO"])
    body = (f"{args.runs} runs each, a fresh process a run, the two ways in turn (wall "
            f"seconds); load {load()}\n\n"
            + table(["command", "target", "median / p95 / max", "eager sympy, median",
                     "met"], rows))
    print(body)
    if args.out:
        write_report(args.out, "bench_startup", "Start-up (`benchmarks/bench_startup.py`)",
                     time.perf_counter() - started, [("Wall seconds a command", body)])
    # a missed target fails the run (a smoke run only checks that it measures)
    return 1 if failed and not args.tiny else 0


if __name__ == "__main__":
    sys.exit(main())
