#!/usr/bin/env python3
"""Sudoku 25x25 for real (issue 55, goal 3): unique puzzles made, then solved with --unique.

In one run, on seeds no setting was chosen on (`--seed`):
- generation: `generate sudoku --size 25` at its default clues, CPU per puzzle (a child
  process; the first puzzle's grid solver built once, as in a run of `--count`); with
  `--old DIR` the same seed on an older checkout beside it, each puzzle under
  `--old-cap` seconds (it removes clues one by one: a minute or more a puzzle);
- `solve FILE:K --unique --game sudoku` on every puzzle made, a fresh process each (CPU of
  the whole process, RUSAGE_CHILDREN), and beside it the start-up of the same command on a
  4x4 puzzle, so the solve's own share shows; and the solve in-process (CPU).

Goals: generation at most about 10 s a puzzle; `solve --unique` at most 0.25 s median and
0.5 s max. The CLI's start-up is about 0.3 s before any puzzle is read, so the solve goal is
read on the solve's own share (whole process less start-up) and in-process.

    python benchmarks/bench_sudoku25.py [--count 10] [--seed 881001] [--old DIR --old-cap 180]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import Spread, arguments, parse, table, whole_process, write_report  # noqa: E402

MAKE = """
import json, sys, time
from logic_agents.games.sudoku.generate import iter_puzzles
from logic_agents.games.sudoku.board import format_line
out = []
started = time.process_time()
for p in iter_puzzles(25, int(sys.argv[1]), int(sys.argv[2])):
    now = time.process_time()
    out.append({"line": format_line(p, p.name), "cpu": now - started, "clues": p.clues})
    print(json.dumps(out[-1]), flush=True)
    started = now
"""

SOLVE = """
import json, sys, time
from logic_agents.games.sudoku import solve_puzzle
from logic_agents.games.sudoku.board import parse_puzzles
times = []
for line in open(sys.argv[1]).read().splitlines():
    p = parse_puzzles(line)[0]
    started = time.process_time()
    assert solve_puzzle(p, unique=True).status == "unique"
    times.append(time.process_time() - started)
print(json.dumps(times))
"""


def made(python: str, cwd: Path, count: int, seed: int, cap: float | None) -> list[dict]:
    """The puzzles a tree makes, each with its CPU (those made before the cap, if one)."""
    out = []
    proc = subprocess.Popen([python, "-c", MAKE, str(count), str(seed)], cwd=cwd,
                            stdout=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:  # type: ignore[union-attr]
            out.append(json.loads(line))
            if len(out) == count:
                break
    finally:
        proc.kill()
        proc.wait()
    return [row for row in out if cap is None or row["cpu"] <= cap]


def stats(values: list[float]) -> str:
    return Spread.of(values).shown(digits=3)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=881001)
    parser.add_argument("--old", type=Path, metavar="DIR", help="an older checkout")
    parser.add_argument("--old-cap", type=float, default=180.0,
                        help="seconds of CPU the old tree may take for its first puzzle")
    args = parse(parser)
    if args.tiny:  # one puzzle
        args.count = 1
    started = time.perf_counter()
    measured: list[list[str]] = []  # (what, CPU s: median / p95 / max)

    def say(what: str, figure: str) -> None:
        measured.append([what, figure])
        print(f"{what}: {figure}", flush=True)

    rows = made(sys.executable, ROOT, args.count, args.seed, None)
    clues = f"clues {min(r['clues'] for r in rows)}-{max(r['clues'] for r in rows)}"
    say("generation, this tree, a puzzle", stats([r["cpu"] for r in rows]))
    if args.old:
        own = args.old / ".venv" / "bin" / "python"
        python = str(own) if own.exists() else sys.executable
        proc = subprocess.Popen([python, "-c", MAKE, "1", str(args.seed)], cwd=args.old,
                                stdout=subprocess.PIPE, text=True)
        try:
            line = proc.communicate(timeout=args.old_cap)[0]
            old = json.loads(line.splitlines()[0])
            say("generation, --old: its first puzzle", f"{old['cpu']:.1f} "
                f"({old['clues']} clues)")
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            say("generation, --old: its first puzzle", f"none within {args.old_cap:g} s")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "made.txt"
        path.write_text("\n".join(r["line"] for r in rows) + "\n")
        whole = [whole_process(["solve", f"{path}:{k}", "--unique", "--game", "sudoku"])
                 for k in range(1, len(rows) + 1)]
        start = [whole_process(["solve", "1...\n....\n....\n....", "--unique", "--game",
                                "sudoku"]) for _ in range(len(rows))]
        inproc = json.loads(subprocess.run([sys.executable, "-c", SOLVE, str(path)], cwd=ROOT,
                                           check=True, capture_output=True,
                                           text=True).stdout)
    share = [w - statistics.median(start) for w in whole]
    say("`solve --unique`, whole process", stats(whole))
    say("start-up alone (a 4x4 puzzle)", stats(start))
    say("the solve's own share", stats(share))
    say("`solve --unique`, in-process", stats(inproc))
    if args.out:
        write_report(args.out, "bench_sudoku25", "Sudoku 25x25 made, then solved "
                     "(`benchmarks/bench_sudoku25.py`)", time.perf_counter() - started,
                     [(f"{len(rows)} unique puzzles, seed {args.seed}, {clues}",
                       table(["what", "CPU s: median / p95 / max"], measured))])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
