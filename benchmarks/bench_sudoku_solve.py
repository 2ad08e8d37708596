#!/usr/bin/env python3
"""`solve`'s path (logic_agents.games.sudoku.solve_puzzle, uniqueness checked) beside the
Norvig-class constraint-propagation solver and, with --tdoku, beside tdoku (t-dillon/tdoku, the
fastest published Sudoku solver, C++ with SIMD), on the same puzzles, in one run. Times are
CPU seconds (time.process_time): first as `solve FILE` meets them (a fresh process per file:
the solver's rules loaded once, inside the time), then shuffled in the same process (the
solver warm, having seen these puzzles: the figure a long batch tends to). Every answer is
checked by is_solution, and tdoku's count of solutions (it stops at 2) must say unique exactly
where ours does. The floor column is what any path that answers canonically on PySAT pays:
the two SAT calls each puzzle needs (a solution, then the proof that no other exists or a
second one) made bare, the rules loaded once and no Python around them.

tdoku is not shipped. Build its solver as a shared library from its sources (no CMake needed):

    g++ -O3 -march=native -DNDEBUG -shared -fPIC -std=c++17 \
        src/solver_dpll_triad_simd.cc src/util.cc -o libtdoku.so

and pass `--tdoku libtdoku.so`, or pass `--tdoku-src DIR` (a checkout of tdoku) and this
script runs that command into a temporary folder. It is called through ctypes, once per
puzzle (TdokuSolverDpllTriadSimd with limit 2), so its column includes that call's cost.

Usage: python benchmarks/bench_sudoku_solve.py FILE [FILE ...] [--limit N] [--seed S]
                                            [--tdoku LIB | --tdoku-src DIR]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import build_peers  # noqa: E402
from harness import arguments, parse, write_report  # noqa: E402

from logic_agents.games.sudoku import solve_puzzle  # noqa: E402
from logic_agents.games.sudoku.agents import norvig_solve  # noqa: E402
from logic_agents.games.sudoku.board import is_solution, load_puzzles  # noqa: E402


def two_bare_calls(puzzles) -> float:
    """CPU seconds of the two SAT calls per puzzle alone: the rules on one CaDiCaL, the clues
    as assumptions, the first solution blocked by its open cells for the second call, the
    solver made afresh every warm.RENEW_AFTER puzzles as solve's is (each blocking clause
    leaves a variable behind, and the models grow with them)."""
    from pysat.solvers import Solver

    from logic_agents.games.sudoku.encode import default_solver, rules_for
    from logic_agents.games.sudoku.warm import RENEW_AFTER

    n = puzzles[0].n
    kb = rules_for(n)
    started = time.process_time()
    solver, top = None, kb.num_vars
    for k, p in enumerate(puzzles):
        if k % RENEW_AFTER == 0:
            if solver is not None:
                solver.delete()
            solver, top = Solver(name=default_solver(n), bootstrap_with=kb.clauses), kb.num_vars
        base = [(i * n) + v for i, v in enumerate(p.cells) if v]
        solver.solve(assumptions=base)
        model = solver.get_model()
        top += 1
        solver.add_clause([-top] + [-lit for lit in model[: n * n * n]
                                    if lit > 0 and not p.cells[(lit - 1) // n]])
        solver.solve(assumptions=[*base, top])
        solver.add_clause([-top])
    seconds = time.process_time() - started
    if solver is not None:
        solver.delete()
    return seconds


def timed(solve, puzzles) -> float:
    started = time.process_time()
    for p in puzzles:
        solve(p)
    return time.process_time() - started


def build_tdoku(source: Path, into: Path) -> Path:
    """libtdoku.so built from a tdoku checkout under `into` (the command of the module
    docstring, run by benchmarks/build_peers.py)."""
    return build_peers.build_tdoku(source, into)[0]


def tdoku_counter(library: str):
    """count(puzzle) -> tdoku's number of solutions, stopping at 2."""
    import ctypes

    solve = ctypes.CDLL(library).TdokuSolverDpllTriadSimd
    solve.restype = ctypes.c_size_t
    solve.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p,
                      ctypes.POINTER(ctypes.c_size_t)]
    solution, guesses = ctypes.create_string_buffer(82), ctypes.c_size_t()

    def count(line: bytes) -> int:
        return int(solve(line, 2, 0, solution, ctypes.byref(guesses)))

    return count


def tdoku_seconds(count, puzzles) -> tuple[float, list[int]]:
    lines = ["".join(str(v) if v else "." for v in p.cells).encode() for p in puzzles]
    started = time.process_time()
    counts = [count(line) for line in lines]
    return time.process_time() - started, counts


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=0, help="first N puzzles of each file")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed")
    parser.add_argument("--tdoku", metavar="LIB", help="tdoku's solver built as a shared library")
    parser.add_argument("--tdoku-src", metavar="DIR", help="a tdoku checkout to build it from")
    args = parse(parser)
    if args.tiny:  # the first three puzzles of each file
        args.limit = 3
    if args.tdoku_src:
        import tempfile

        args.tdoku = str(build_tdoku(Path(args.tdoku_src), Path(tempfile.mkdtemp())))
    if len(args.files) > 1 or args.out:  # one fresh process per file, as `solve FILE` runs
        import subprocess

        started = time.perf_counter()
        lines = ["| file (order) | puzzles | Norvig-class | solve | Norvig / solve | floor: two "
                 "bare SAT calls | tdoku | solve / tdoku | floor / tdoku |",
                 "|---|---|---|---|---|---|---|---|---|"]
        print("\n".join(lines), flush=True)
        for name in args.files:
            done = subprocess.run([sys.executable, __file__, name, "--limit", str(args.limit),
                                   "--seed", str(args.seed)]
                                  + (["--tdoku", args.tdoku] if args.tdoku else []),
                                  check=True, capture_output=True, text=True)
            print(done.stdout, end="", flush=True)
            lines += done.stdout.splitlines()
        if args.out:
            write_report(args.out, "bench_sudoku_solve", "Sudoku `solve` beside Norvig and "
                         "tdoku (`benchmarks/bench_sudoku_solve.py`)",
                         time.perf_counter() - started, [("CPU s a file", "\n".join(lines))])
        return 0
    name = args.files[0]
    puzzles = load_puzzles(name)[: args.limit or None]
    count = tdoku_counter(args.tdoku) if args.tdoku else None
    for order in ("as solve meets them", "shuffled, warm"):
        if order.startswith("shuffled"):
            puzzles = puzzles[:]
            random.Random(args.seed).shuffle(puzzles)
        norvig, sat = timed(norvig_solve, puzzles), timed(solve_puzzle, puzzles)
        floor = two_bare_calls(puzzles)
        peer = "| - | - | -"
        if count is not None:
            seconds, counts = tdoku_seconds(count, puzzles)
            ours = [solve_puzzle(p).status for p in puzzles]
            assert all((c == 1) == (s == "unique") for c, s in zip(counts, ours)), name
            peer = f"| {seconds:.4f} s | {sat / seconds:.1f}x | {floor / seconds:.1f}x"
        print(f"| {Path(name).name} ({order}) | {len(puzzles)} | {norvig:.3f} s | "
              f"{sat:.3f} s | {norvig / sat:.2f}x | {floor:.3f} s {peer} |", flush=True)
    for p in puzzles:  # every answer checked independently
        found = solve_puzzle(p)
        assert found.solution is None or is_solution(p, found.solution), p.name
    return 0


if __name__ == "__main__":
    sys.exit(main())
