#!/usr/bin/env python3
"""Benchmark of Exactly One Mazes: SAT against the report's searches, and the generator.

Prints markdown tables, every row measured in this run on the same boards:
1. the six official boards: sat (solve and prove the solution unique) and every search
   (bfs, dfs, ids, ucs, greedy and astar with each heuristic): time, nodes expanded;
2. generated boards of 12x12, 15x15 and 20x20 (--count each): sat and every search, each
   search capped at --time-cap seconds or --node-cap nodes and then reported as "gave up".
   A search that gives up on the first 3 boards of a size is not run on the rest of that
   size, nor on larger sizes: the table says where it stopped scaling;
3. generation: seconds per unique board, repair rounds, restarts.
With --out FILE it writes its section of FILE (docs/BENCHMARKS.md).

Usage: python benchmarks/bench_mazes.py [--tiny] [--count N] [--time-cap S] [--sizes 12,15,20]
                                     [--skip-official] [--out FILE]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, row, write_report  # noqa: E402

from logic_agents.games.mazes.board import is_solution, load_board  # noqa: E402
from logic_agents.games.mazes.encode import MazeSolver  # noqa: E402
from logic_agents.games.mazes.generate import generate_boards  # noqa: E402
from logic_agents.games.mazes.search import HEURISTICS, INFORMED, METHODS, search  # noqa: E402
from logic_agents.world.budget import Budget  # noqa: E402

DATA = ROOT / "maps" / "mazes"
VARIANTS = [(m, h) for m in METHODS for h in (HEURISTICS if m in INFORMED else (None,))]


def label(method: str, heuristic: str | None) -> str:
    return method if heuristic is None else f"{method} ({heuristic})"


def sat_run(board) -> tuple[bool, float, int, int]:
    t = time.perf_counter()
    solver = MazeSolver(board)
    found = solver.solutions(2)
    elapsed = time.perf_counter() - t
    solver.close()
    ok = len(found) == 1 and is_solution(board, found[0])
    return ok, elapsed, solver.cuts, solver.calls


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--count", type=int, default=10, help="generated boards per size")
    parser.add_argument("--time-cap", type=float, default=60.0, help="seconds per search")
    parser.add_argument("--node-cap", type=int, default=10_000_000, help="nodes per search")
    parser.add_argument("--sizes", type=lambda text: [int(x) for x in text.split(",")],
                        help="generated board sizes, comma-separated (default 12,15,20)")
    parser.add_argument("--skip-official", action="store_true",
                        help="leave out the official boards (with --sizes, for one size alone)")
    args = parse(parser)
    if args.tiny:  # one generated 6x6 board, each search capped at 5 s
        args.sizes, args.count, args.skip_official, args.time_cap = [6], 1, True, 5.0
    started = time.perf_counter()
    sections = []

    # 1. official boards
    boards = [] if args.skip_official else [load_board(p) for p in sorted(DATA.glob("*.txt"))]
    header = [row(["board", "method", "solved", "ms", "nodes"]), row(["---"] * 5)]
    lines = list(header)
    sat_ms = []
    for board in boards:
        ok, elapsed, cuts, calls = sat_run(board)
        unique = "unique" if ok else "NOT unique"
        sat_ms.append(1000 * elapsed)
        lines.append(row([board.name, f"sat ({unique}; {cuts} cuts, {calls} SAT calls)",
                              "yes", f"{1000 * elapsed:.2f}", "-"]))
        for method, h in VARIANTS:
            r = search(board, method, heuristic_name=h or "manhattan",
                       budget=Budget(args.node_cap, args.time_cap))
            solved = "yes" if r.path is not None and is_solution(board, r.path) else "gave up"
            lines.append(row([board.name, label(method, h), solved,
                                  f"{1000 * r.seconds:.2f}", r.nodes]))
        print("\n".join(lines[-len(VARIANTS) - 1:]), flush=True)
    if boards:
        sections.append(("The official boards (sat = solve and prove unique)",
                         f"sat median {statistics.median(sat_ms):.2f} ms over the six boards.\n\n"
                         + "\n".join(lines)))

    # 2 + 3. generated boards
    sizes = args.sizes or [12, 15, 20]
    count = args.count
    gen_lines = [row(["size", "boards", "median s", "max s", "median rounds",
                          "median restarts", "median shapes", "median path"]),
                 row(["---"] * 8)]
    lines = [row(["size", "method", "solved", "gave up", "not run", "median s",
                      "max s", "median nodes"]), row(["---"] * 8)]
    stopped: set[tuple[str, str | None]] = set()
    for n in sizes:
        made = generate_boards(n, count, seed=2026)
        secs = [g.seconds for g in made]
        gen_lines.append(row([f"{n}x{n}", len(made), f"{statistics.median(secs):.2f}",
                                  f"{max(secs):.2f}",
                                  f"{statistics.median(g.rounds for g in made):.0f}",
                                  f"{statistics.median(g.restarts for g in made):.0f}",
                                  f"{statistics.median(len(g.board.shapes) for g in made):.0f}",
                                  f"{statistics.median(len(g.solution) for g in made):.0f}"]))
        print(gen_lines[-1], flush=True)
        runs = [sat_run(g.board) for g in made]
        times = [r[1] for r in runs]
        lines.append(row([f"{n}x{n}", "sat (solve + unique)", sum(r[0] for r in runs), 0, 0,
                              f"{statistics.median(times):.3f}", f"{max(times):.3f}", "-"]))
        print(lines[-1], flush=True)
        for variant in VARIANTS:
            if variant in stopped:
                lines.append(row([f"{n}x{n}", label(*variant), 0, 0, len(made), "-", "-",
                                      "-"]))
                continue
            solved = gave_up = 0
            times, nodes = [], []
            for k, g in enumerate(made):
                if k == 3 and solved == 0:
                    stopped.add(variant)  # gave up on the first three: stop scaling here
                    break
                r = search(g.board, variant[0], heuristic_name=variant[1] or "manhattan",
                           budget=Budget(args.node_cap, args.time_cap))
                if r.path is not None and is_solution(g.board, r.path):
                    solved += 1
                else:
                    gave_up += 1
                times.append(r.seconds)
                nodes.append(r.nodes)
            lines.append(row([f"{n}x{n}", label(*variant), solved, gave_up,
                                  len(made) - len(times), f"{statistics.median(times):.3f}",
                                  f"{max(times):.3f}", f"{statistics.median(nodes):.0f}"]))
            print(lines[-1], flush=True)
    sections.append((f"Generated boards ({count} per size, seed 2026; each search capped at "
                     f"{args.time_cap:g} s or {args.node_cap:,} nodes)",
                     "A search that gave up on the first three boards of a size is not run on "
                     "the rest of that size or on larger sizes (\"not run\").\n\n"
                     + "\n".join(lines)))
    sections.append(("Generation of unique boards (`generate mazes`)", "\n".join(gen_lines)))

    elapsed = time.perf_counter() - started
    for title, body in sections:
        print(f"\n### {title}\n\n{body}")
    if args.out:
        # a run of chosen sizes owns its own section, so sizes can run side by side
        key, heading = "bench_mazes", "Exactly One Mazes (`benchmarks/bench_mazes.py`)"
        if args.sizes:
            names = ", ".join(f"{n}x{n}" for n in sizes)
            key, heading = f"bench_mazes-{'-'.join(map(str, sizes))}", f"{heading[:-1]}, {names})"
        write_report(args.out, key, heading, elapsed, sections)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
