#!/usr/bin/env python3
"""Sudoku 9x9 puzzles with several solutions beside unique ones (issue 55, goal 3).

`solve` answers a puzzle with several solutions by its first two in reading order, so a
solver kept warm answers as a fresh one would; finding them costs more calls than proving
a unique puzzle. This script draws puzzles with several solutions from the shipped 9x9 sets
(each a published puzzle with 1 to 6 of its clues removed, seed `--seed`, a seed no setting
was chosen on), and times `solve_puzzle` on them and on the unique puzzles they came from,
in a child process per tree: this one, and with `--old DIR` an older checkout (its own
.venv's python if it has one, else this python run in DIR, where DIR's package comes first
on the path) on the same puzzles in the same run. CPU per puzzle (warm solver, as `solve` runs a file),
`--rounds` rounds, each side's lowest and median; and the tail, each puzzle with several
solutions timed alone (p95 and max over every puzzle of every round).

Goal: a puzzle with several solutions costs at most about 2x a unique one.

    python benchmarks/bench_sudoku_multi.py [--seed 5501] [--rounds 3] [--old OLD]
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, p95, parse, table, write_report  # noqa: E402

CHILD = """
import json, sys, time
from logic_agents.games.sudoku import solve_puzzle
from logic_agents.games.sudoku.board import parse_puzzles
lines = json.load(open(sys.argv[1]))
out = {}
for kind in ("unique", "several"):
    puzzles = [parse_puzzles(line)[0] for line in lines[kind]]
    for p in puzzles[:3]:
        solve_puzzle(p)  # the warm solver built, as after a file's first puzzle
    answers, each = [], []
    for p in puzzles:
        started = time.process_time()
        answers.append(solve_puzzle(p))
        each.append(time.process_time() - started)
    out[kind] = sum(each) / len(puzzles)
    out[kind + "_each"] = each
    out[kind + "_answers"] = [[a.status, a.solution, a.second] for a in answers]
print(json.dumps(out))
"""


def draw(seed: int, limit: int | None = None) -> dict[str, list[str]]:
    sys.path.insert(0, str(ROOT))
    from logic_agents.games.sudoku import solve_puzzle
    from logic_agents.games.sudoku.board import SudokuPuzzle, format_line, load_puzzles

    rng = random.Random(seed)
    unique, several = [], []
    for name in ("norvig_top95.txt", "norvig_hardest.txt", "norvig_easy50.txt"):
        for puzzle in load_puzzles(ROOT / "maps" / "sudoku" / name)[:limit]:
            unique.append(format_line(puzzle))
            cells = list(puzzle.cells)
            for i in rng.sample([i for i, v in enumerate(cells) if v], rng.randint(1, 6)):
                cells[i] = 0
            fewer = SudokuPuzzle(9, tuple(cells), puzzle.name)
            if solve_puzzle(fewer).status == "multiple":
                several.append(format_line(fewer))
    return {"unique": unique, "several": several}


def run(python: str, lines: Path, cwd: Path) -> dict:
    done = subprocess.run([python, "-c", CHILD, str(lines)], cwd=cwd, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--seed", type=int, default=5501)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old", metavar="DIR", type=Path, help="an older checkout")
    args = parse(parser)
    if args.tiny:  # the first five puzzles of each set, one round
        args.rounds = 1
    started = time.perf_counter()
    puzzles = draw(args.seed, 5 if args.tiny else None)
    trees = [("this tree", sys.executable, ROOT)]
    if args.old:
        own = args.old / ".venv" / "bin" / "python"
        trees.append(("--old", str(own) if own.exists() else sys.executable, args.old))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(puzzles, f)
    times: dict[str, dict[str, list[float]]] = {t[0]: {"unique": [], "several": []} for t in trees}
    tails: dict[str, list[float]] = {t[0]: [] for t in trees}  # each puzzle's CPU, every round
    answers = {}
    for _ in range(args.rounds):
        for label, python, cwd in trees:
            got = run(python, Path(f.name), cwd)
            for kind in ("unique", "several"):
                times[label][kind].append(got[kind])
            tails[label] += got["several_each"]
            answers[label] = got["several_answers"]
    rows = []
    for label, _, _ in trees:
        u, s = times[label]["unique"], times[label]["several"]
        rows.append([label, f"{1000 * min(u):.3f} ms ({1000 * statistics.median(u):.3f})",
                     f"{1000 * min(s):.3f} ms ({1000 * statistics.median(s):.3f})",
                     f"{min(s) / min(u):.1f}x "
                     f"({statistics.median(s) / statistics.median(u):.1f}x)",
                     f"{1000 * p95(tails[label]):.2f} / {1000 * max(tails[label]):.2f} ms"])
    body = (f"{len(puzzles['several'])} puzzles with several solutions (seed {args.seed}), "
            f"{len(puzzles['unique'])} unique; CPU per puzzle, lowest (median) of "
            f"{args.rounds} rounds\n\n"
            + table(["tree", "unique", "several solutions", "several / unique",
                     "several: p95 / max a puzzle"], rows))
    if args.old:
        same = answers["this tree"] == answers["--old"]
        body += f"\n\nThe same answers from both trees: {same}"
    print(body)
    Path(f.name).unlink()
    if args.out:
        write_report(args.out, "bench_sudoku_multi", "Sudoku with several solutions "
                     "(`benchmarks/bench_sudoku_multi.py`)", time.perf_counter() - started,
                     [("CPU per puzzle", body)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
