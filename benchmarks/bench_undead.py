#!/usr/bin/env python3
"""Benchmark of the Undead solvers: SAT against the report's four search methods.

Prints markdown tables, every row measured in this run on the same puzzles:
1. the real game's puzzles (4x4 to 7x7, every difficulty): each method with zero-fill on and
   off (sat needs none), puzzles solved and checked by is_solution, median and max time and
   search nodes, within a per-puzzle time cap;
2. larger boards made by this project's generator (8x8 to 20x20, and 30x30 for SAT): where
   the searches stop and SAT (solve plus the uniqueness proof) keeps going;
3. the encoding of the three monster totals on the largest boards: every counting encoding
   of pysat.card, all three totals or only two (the third follows from one monster per cell);
4. generation: seconds per unique puzzle, redraw rounds and givens, 7x7 to 20x20 (the
   difficulty against the real game's rating: benchmarks/bench_undead_rating.py).
With --out FILE it writes its section of FILE (docs/BENCHMARKS.md).

Usage: python benchmarks/bench_undead.py [--tiny] [--time-cap S] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, row, write_report  # noqa: E402

from logic_agents.games.undead.board import is_solution  # noqa: E402
from logic_agents.games.undead.encode import (  # noqa: E402
    COUNTING_ENCODINGS,
    UndeadSolver,
)
from logic_agents.games.undead.files import load_entries  # noqa: E402
from logic_agents.games.undead.generate import generate_puzzles  # noqa: E402
from logic_agents.games.undead.search import METHODS, Budget  # noqa: E402

DATA = ROOT / "maps" / "undead"
SETS = ["4x4de", "4x4dn", "4x4dt", "5x5de", "5x5dn", "5x5dt", "7x7de", "7x7dn"]


def sat_unique(puzzle, card_encoding=None, totals=None) -> tuple[str | None, float]:
    """Solve and prove uniqueness, building the encoding inside the timing (by default with
    the encoding the product chooses for the board's size)."""
    t = time.perf_counter()
    solver = UndeadSolver(puzzle, card_encoding=card_encoding, totals=totals)
    found = solver.solutions(2)
    solver.close()
    elapsed = time.perf_counter() - t
    return (found[0] if len(found) == 1 else None), elapsed


def run_method(method: str, puzzles, zero_fill: bool, cap: float) -> dict:
    times, nodes, ok, capped = [], [], 0, 0
    rng = random.Random(0)
    for p in puzzles:
        if method == "sat":
            solution, elapsed = sat_unique(p)
            n = 0
        else:
            options = {"rng": rng} if method == "brute-force" else {}
            r = METHODS[method](p, zero_fill=zero_fill, budget=Budget(node_cap=None, time_cap=cap),
                                **options)
            solution, elapsed, n = r.solution, r.seconds, r.nodes
            capped += r.stopped is not None
        times.append(elapsed)
        nodes.append(n)
        ok += solution is not None and is_solution(p, solution)
    return {"n": len(puzzles), "ok": ok, "capped": capped, "median": statistics.median(times),
            "max": max(times), "nodes": statistics.median(nodes)}


def method_table(groups: list[tuple[str, list]], methods: list[str], cap: float,
                 zero_fill_modes=(True, False)) -> str:
    lines = [row(["set", "method", "zero-fill", "solved", "capped", "median ms", "max ms",
                      "median nodes"]), row(["---"] * 8)]
    for name, puzzles in groups:
        for method in methods:
            for zf in ((None,) if method == "sat" else zero_fill_modes):
                r = run_method(method, puzzles, bool(zf), cap)
                lines.append(row([
                    name, method, "-" if zf is None else ("on" if zf else "off"),
                    f"{r['ok']}/{r['n']}", r["capped"], f"{1000 * r['median']:.2f}",
                    f"{1000 * r['max']:.1f}", f"{r['nodes']:.0f}"]))
                print(lines[-1], flush=True)
    return "\n".join(lines)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--time-cap", type=float, default=2.0,
                        help="seconds per puzzle for each search method (default 2)")
    args = parse(parser)
    started = time.perf_counter()
    per_set = 1 if args.tiny else 30  # tiny: section 1 alone, one puzzle a set, 0.2 s a search
    cap = 0.2 if args.tiny else args.time_cap
    sections = []

    # 1. the real game's puzzles
    groups = [(name, [e.puzzle for e in load_entries(DATA / f"{name}.tsv")][:per_set])
              for name in SETS]
    methods = ["sat", "dfs-square", "dfs-path", "dfs-path-tight", "brute-force"]
    print("## the real game's puzzles", flush=True)
    sections.append((
        f"The real game's puzzles ({per_set} per set; search time cap {cap:g} s per puzzle)",
        "sat = build the encoding (the default: modulo totalizer for the totals up to 400 "
        "cells, totalizer above), solve, and prove the solution unique (a second SAT call); "
        "the searches stop at their first solution.\n\n" + method_table(groups, methods, cap)))
    if args.tiny:
        print(sections[-1][1])
        if args.out:
            write_report(args.out, "bench_undead_tiny", "Undead (tiny)",
                         time.perf_counter() - started, sections)
        return 0

    # 2. larger generated boards
    sizes = [8, 10, 12, 15, 20]
    count = 10
    generated = {n: generate_puzzles(n, n, count, seed=2026) for n in sizes}
    big = [(f"{n}x{n}", [g.puzzle for g in generated[n]]) for n in sizes]
    print("## generated boards", flush=True)
    table = method_table(big, ["sat", "dfs-square", "dfs-path-tight", "dfs-path"], cap,
                         zero_fill_modes=(True,))
    sections.append((
        f"Larger boards from this project's generator ({count} per size, seed 2026; time cap "
        f"{cap:g} s)", table))

    # 3. encodings of the totals on the largest boards
    largest = [30]
    # 30x30 with 100 redraw rounds, then givens: a minute per puzzle is spared (section 4)
    extra = {n: generate_puzzles(n, n, 5, seed=7, redraw_rounds=100)
             for n in largest}
    print("## totals encodings", flush=True)
    lines = [row(["board", "totals encoding", "totals stated", "puzzles", "build ms",
                      "solve + unique ms", "total ms (median)", "max total ms", "clauses"]),
             row(["---"] * 9)]
    pools = [(f"{sizes[-1]}x{sizes[-1]}", [g.puzzle for g in generated[sizes[-1]]])]
    pools += [(f"{n}x{n}", [g.puzzle for g in extra[n]]) for n in largest]
    for board, puzzles in pools:
        for encoding in COUNTING_ENCODINGS:
            for totals in ("all", "two"):
                builds, solves, clauses, ok = [], [], [], 0
                for p in puzzles:
                    t = time.perf_counter()
                    solver = UndeadSolver(p, card_encoding=encoding, totals=totals)
                    t1 = time.perf_counter()
                    found = solver.solutions(2)
                    solves.append(time.perf_counter() - t1)
                    builds.append(t1 - t)
                    clauses.append(len(solver.kb.clauses))
                    solver.close()
                    ok += len(found) == 1 and is_solution(p, found[0])
                totals_ms = [1000 * (b + s) for b, s in zip(builds, solves)]
                lines.append(row([board, encoding, totals, f"{ok}/{len(puzzles)}",
                                      f"{1000 * statistics.median(builds):.1f}",
                                      f"{1000 * statistics.median(solves):.1f}",
                                      f"{statistics.median(totals_ms):.1f}",
                                      f"{max(totals_ms):.1f}",
                                      f"{statistics.median(clauses):.0f}"]))
                print(lines[-1], flush=True)
    sections.append(("The encoding of the monster totals: build the KB and solver, then solve "
                     "and prove uniqueness", "\n".join(lines)))

    # 4. generation
    print("## generation", flush=True)
    lines = [row(["size", "difficulty", "puzzles", "median s", "max s", "median redraws",
                      "puzzles with givens", "median share propagated"]), row(["---"] * 8)]
    plan = [(7, None), (7, "easy"), (7, "tricky"), (10, None), (15, None), (20, None)]
    for n, difficulty in plan:
        made = generate_puzzles(n, n, count, seed=99, difficulty=difficulty)
        secs = [g.seconds for g in made]
        lines.append(row([f"{n}x{n}", difficulty or "any", len(made),
                              f"{statistics.median(secs):.2f}", f"{max(secs):.2f}",
                              f"{statistics.median(g.rounds for g in made):.0f}",
                              sum(g.givens > 0 for g in made),
                              f"{statistics.median(g.share for g in made):.2f}"]))
        print(lines[-1], flush=True)
    sections.append(("Generation of unique puzzles (seconds include the game's rating)",
                     "\n".join(lines)))

    elapsed = time.perf_counter() - started
    for title, body in sections:
        print(f"\n### {title}\n\n{body}")
    if args.out:
        write_report(args.out, "bench_undead", "Undead (`benchmarks/bench_undead.py`)", elapsed,
                     sections)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
