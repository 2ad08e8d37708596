#!/usr/bin/env python3
"""`solve`'s path (logic_agents.games.sudoku.solve_puzzle, uniqueness checked) beside the
Norvig-class constraint-propagation solver, on the same puzzles, in one run; prints the total
time of each and the ratio: first as `solve FILE` meets them (a fresh process per file: the
solver's rules loaded once, inside the time), then shuffled in the same process (the solver
warm, having seen these puzzles: the figure a long batch tends to). Every answer is then
checked by is_solution. The last column is the floor of any path that answers canonically:
the two SAT calls each puzzle needs (a solution, then the proof that no other exists or a
second one) made bare on pysat, the rules loaded once and no Python around them, and the
ratio that floor would give.

Usage: python scripts/bench_sudoku_solve.py FILE [FILE ...] [--limit N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic_agents.games.sudoku import solve_puzzle  # noqa: E402
from logic_agents.games.sudoku.agents import norvig_solve  # noqa: E402
from logic_agents.games.sudoku.board import is_solution, load_puzzles  # noqa: E402


def two_bare_calls(puzzles) -> float:
    """Seconds of the two SAT calls per puzzle alone: the rules on one CaDiCaL, the clues as
    assumptions, the first solution blocked by its open cells for the second call."""
    from pysat.solvers import Solver

    from logic_agents.games.sudoku.encode import default_solver, rules_for

    n = puzzles[0].n
    kb = rules_for(n)
    solver = Solver(name=default_solver(n), bootstrap_with=kb.clauses)
    top = kb.num_vars
    started = time.perf_counter()
    for p in puzzles:
        base = [(i * n) + v for i, v in enumerate(p.cells) if v]
        solver.solve(assumptions=base)
        model = solver.get_model()
        top += 1
        solver.add_clause([-top] + [-lit for lit in model[: n * n * n]
                                    if lit > 0 and not p.cells[(lit - 1) // n]])
        solver.solve(assumptions=[*base, top])
        solver.add_clause([-top])
    seconds = time.perf_counter() - started
    solver.delete()
    return seconds


def timed(solve, puzzles) -> float:
    started = time.perf_counter()
    for p in puzzles:
        solve(p)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=0, help="first N puzzles of each file")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed")
    args = parser.parse_args()
    if len(args.files) > 1:  # one fresh process per file, as `solve FILE` runs
        import subprocess

        for name in args.files:
            subprocess.run([sys.executable, __file__, name, "--limit", str(args.limit),
                            "--seed", str(args.seed)], check=True)
        return 0
    name = args.files[0]
    puzzles = load_puzzles(name)[: args.limit or None]
    for order in ("as solve meets them", "shuffled, warm"):
        if order.startswith("shuffled"):
            puzzles = puzzles[:]
            random.Random(args.seed).shuffle(puzzles)
        norvig, sat = timed(norvig_solve, puzzles), timed(solve_puzzle, puzzles)
        floor = two_bare_calls(puzzles)
        print(f"| {Path(name).name} ({order}) | {len(puzzles)} | {norvig:.3f} s | "
              f"{sat:.3f} s | {norvig / sat:.2f}x | {floor:.3f} s, {norvig / floor:.2f}x |",
              flush=True)
    for p in puzzles:  # every answer checked independently
        found = solve_puzzle(p)
        assert found.solution is None or is_solution(p, found.solution), p.name
    return 0


if __name__ == "__main__":
    sys.exit(main())
