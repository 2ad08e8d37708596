#!/usr/bin/env python3
"""In-process benchmarks on pyperf (issue 55, goal 7): calibrated loops, worker processes,
statistics, and `python -m pyperf compare_to` between two runs.

Each benchmark's values are CPU seconds (time.process_time), not wall time: this machine's
neighbours move wall time more than CPU time. A value is the CPU of `loops` calls over the
loops, as pyperf calibrates them; pyperf runs `--processes` fresh workers and reports the
mean and standard deviation over all values.

Benchmarks (each beside the baseline it is measured against, in the same run):
- prob-<size>-<N>-games/kernel and .../pure: prob (ProbAgent, defaults) on a fixed set of N
  generated boards (seed 5601), every board once a loop, so that every value is over the
  same games; with the compiled kernel and with components.KERNEL turned off;
- enumerate/kernel and enumerate/pure: components.enumerate_component on the components met
  at prob's guesses in those games (collected once per worker);
- endgame/kernel and endgame/pure: endgame.searched_probe, each as a new search, on the
  endgame positions prob met in those games (collected once per worker), with the compiled
  endgame search (_endgame.c) and without;
- sudoku-9x9/unique and sudoku-9x9/several: solve_puzzle (the warm solver, as `solve` runs
  a file) on every puzzle of bench_sudoku_multi's two sets (seed 5901): the unique published
  puzzles, and those puzzles with clues removed until several solutions remain.

`--groups` picks benchmark groups (prob, sudoku; both by default).

    python benchmarks/bench_pyperf.py -o now.json [--fast | --rigorous] [--sizes beginner]
                                              [--groups prob,sudoku]
    python benchmarks/bench_pyperf.py table now.json [--out docs/BENCHMARKS.md]
    python benchmarks/bench_pyperf.py --tiny -o tiny.json   (one value of the Sudoku group)
    python -m pyperf compare_to before.json now.json --table

`table` prints a run's statistics as markdown (mean, standard deviation, median, p95 and max
of every value) and, with --out, writes them as this script's section of the file.

Install pyperf with the `bench` extra: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

try:
    import pyperf
except ImportError:
    raise SystemExit("bench_pyperf.py needs pyperf: pip install -e '.[bench]'") from None

from harness import p95, write_report  # noqa: E402

from logic_agents.games.daggers import clues, components, endgame, odds, prob  # noqa: E402
from logic_agents.games.daggers.generate import PRESETS, generate_maps  # noqa: E402
from logic_agents.games.daggers.prob import ProbAgent  # noqa: E402
from logic_agents.games.daggers.world import DaggersObservation, DaggersWorld  # noqa: E402
from logic_agents.world.runner import run_episode  # noqa: E402

STARTS = {"beginner": (2, 2), "intermediate": (2, 2), "expert": (3, 3)}
BOARDS = {"beginner": 200, "intermediate": 50, "expert": 20}  # games a loop: 0.2-0.5 s
SEED = 5601


def kernel_as(kernel: bool, step: Callable[[int], None]) -> Callable[[int], None]:
    """`step` with every compiled part (the odds' enumeration, the endgame search, the
    single-point bookkeeping) on or off (each module's KERNEL is read when it is used; an
    agent's OpenClues reads it when the agent is reset)."""
    parts = (components, endgame, clues)

    def run(i: int) -> None:
        for part in parts:
            part.KERNEL = part.COMPILED if kernel else None
        try:
            step(i)
        finally:
            for part in parts:
                part.KERNEL = part.COMPILED
    return run


def cpu_timer(step: Callable[[int], None]) -> Callable[[int], float]:
    """A pyperf time function: the CPU seconds of `step(i)` for i in range(loops)."""
    def time_func(loops: int) -> float:
        started = time.process_time()
        for i in range(loops):
            step(i)
        return time.process_time() - started
    return time_func


def games(size: str) -> Callable[[int], None]:
    """A step that plays every board of the size's set once."""
    boards = generate_maps(PRESETS[size], BOARDS[size], SEED, STARTS[size], True)

    def play(i: int) -> None:
        for k, board in enumerate(boards):
            run_episode(DaggersWorld(board), ProbAgent(), seed=k)
    return play


def calls_met(size: str, module: ModuleType, name: str) -> list[tuple[Any, ...]]:
    """The arguments of every call of `module.name` in the size's games (the module calls
    it by its own name, so that is where it is watched)."""
    seen: list[tuple[Any, ...]] = []
    original = getattr(module, name)

    def spy(*args: Any) -> Any:
        seen.append(args)
        return original(*args)
    setattr(module, name, spy)
    try:
        games(size)(0)
    finally:
        setattr(module, name, original)
    return seen


def met_components(size: str) -> list[tuple[list[tuple[tuple[tuple[int, int], ...], int]],
                                            int | None]]:
    """The (constraints, free) of every enumeration prob asks for in the size's games."""
    return [(list(args[0]), args[1] if len(args) > 1 else None)
            for args in calls_met(size, odds, "enumerate_component")]


def met_endgames(size: str) -> list[tuple[DaggersObservation, int, int]]:
    """The (observation, limit, budget) of every endgame search prob starts in the size's
    games (its later questions of a game, answered by resuming a search, are left out)."""
    return [(args[0], args[1], args[2]) for args in calls_met(size, prob, "searched_probe")]


def sudoku_sets(seed: int = 5901) -> dict[str, Callable[[int], None]]:
    """A step per set of bench_sudoku_multi (unique, several): solve every puzzle once."""
    from bench_sudoku_multi import draw

    from logic_agents.games.sudoku import solve_puzzle
    from logic_agents.games.sudoku.board import SudokuPuzzle, parse_puzzles

    drawn = draw(seed)
    steps = {}
    for kind in ("unique", "several"):
        puzzles = [parse_puzzles(line)[0] for line in drawn[kind]]

        def solve_all(i: int, puzzles: list[SudokuPuzzle] = puzzles) -> None:
            for puzzle in puzzles:
                solve_puzzle(puzzle)
        steps[kind] = solve_all
    return steps


def table(path: Path) -> str:
    """A pyperf run's benchmarks as a markdown table, in milliseconds of CPU a loop."""
    suite = pyperf.BenchmarkSuite.load(str(path))
    lines = ["| benchmark | mean +- std dev | median | p95 | max | values |",
             "|---|---|---|---|---|---|"]
    for bench in suite.get_benchmarks():
        ms = sorted(1000 * v for v in bench.get_values())
        spread = f"{statistics.stdev(ms):.2f}" if len(ms) > 1 else "- (one value)"
        lines.append(f"| {bench.get_name()} | {statistics.mean(ms):.2f} +- "
                     f"{spread} | {statistics.median(ms):.2f} | "
                     f"{p95(ms):.2f} | {ms[-1]:.2f} | {len(ms)} |")
    return "\n".join(lines)


def write_table(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_pyperf.py table")
    parser.add_argument("json", type=Path, help="a run's file (-o)")
    parser.add_argument("--out", type=Path, help="write the section into this markdown file")
    args = parser.parse_args(argv)
    body = (table(args.json) + "\n\nCPU milliseconds a loop (a loop plays every board of the "
            "set once, enumerates every component met, or searches every endgame met), over "
            "every value of every worker; "
            f"load average when written: {os.getloadavg()[0]:.1f}.")
    print(body)
    if args.out:
        write_report(args.out, "bench-pyperf", "In-process benchmarks on pyperf", 0.0,
                     [(f"{args.json.name}", body)])


# pyperf's own options that BENCHMARKS.md's commands use; checked at start, so that a pyperf
# without one of them fails here, by name, rather than mid-run
RUNNER_FLAGS = ("--fast", "--rigorous", "--processes", "-o")


# --tiny (every benchmark script's smoke run, tests/test_benchmark_commands.py): pyperf's own
# single-value debug mode on the Sudoku group, the quickest
TINY = ["--debug-single-value", "--groups", "sudoku"]


def main() -> None:
    if sys.argv[1:2] == ["table"]:
        write_table(sys.argv[2:])
        return
    if "--tiny" in sys.argv:
        sys.argv = [a for a in sys.argv if a != "--tiny"] + TINY
    runner = pyperf.Runner(add_cmdline_args=lambda cmd, args: cmd.extend(
        ["--sizes", args.sizes, "--groups", args.groups]))
    runner.argparser.add_argument("--sizes", default="beginner,expert",
                                  help="comma-separated presets for the game benchmarks")
    runner.argparser.add_argument("--groups", default="prob,sudoku",
                                  help="comma-separated benchmark groups: prob, sudoku")
    known = {flag for action in runner.argparser._actions for flag in action.option_strings}
    if missing := [flag for flag in RUNNER_FLAGS if flag not in known]:
        raise SystemExit(f"this pyperf has no {', '.join(missing)}: pip install -e '.[bench]'")
    args = runner.parse_args()
    sizes = [s for s in args.sizes.split(",") if s]
    if unknown := [s for s in sizes if s not in STARTS]:
        raise SystemExit(f"unknown size {unknown[0]!r}; choose from {', '.join(STARTS)}")
    groups = [g for g in args.groups.split(",") if g]
    if unknown := [g for g in groups if g not in ("prob", "sudoku")]:
        raise SystemExit(f"unknown group {unknown[0]!r}; choose from prob, sudoku")
    if "sudoku" in groups:
        for kind, step in sudoku_sets().items():
            runner.bench_time_func(f"sudoku-9x9/{kind}", cpu_timer(step))
    if "prob" not in groups:
        return
    for size in sizes:
        play = games(size)
        for kernel in (True, False):
            runner.bench_time_func(f"prob-{size}-{BOARDS[size]}-games/"
                                   f"{'kernel' if kernel else 'pure'}",
                                   cpu_timer(kernel_as(kernel, play)))
    found = met_components(sizes[0])

    def enumerate_all(i: int) -> None:
        for cons, free in found:
            components.enumerate_component(cons, free)
    for kernel in (True, False):
        runner.bench_time_func(f"enumerate/{'kernel' if kernel else 'pure'}",
                               cpu_timer(kernel_as(kernel, enumerate_all)))
    positions = met_endgames(sizes[-1])

    def search_all(i: int) -> None:
        for obs, limit, budget in positions:
            endgame.searched_probe(obs, limit, budget)
    for kernel in (True, False):
        runner.bench_time_func(f"endgame/{'kernel' if kernel else 'pure'}",
                               cpu_timer(kernel_as(kernel, search_all)))

if __name__ == "__main__":
    main()
