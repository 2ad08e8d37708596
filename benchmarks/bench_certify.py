#!/usr/bin/env python3
"""Benchmark of certified answers (issue 68): the cost of --certify beside the same run
without it, on the same inputs, in the same process.

- satx on the 30 official Daggers maps (maps/daggers/2018), `--runs` seeds each: the CPU of
  each game in-process, plain and certified by each checker (drup, dratify); the ratio of the
  totals, the claims and the proofs' lemmas, and the checker's share of the certified CPU.
- `solve --unique` on `--sudoku` held-out 9x9 puzzles (royle17_first10000.txt from line
  9,001: the solver was never tuned on them), in-process: plain (the warm pool, as `solve`
  runs it) against certified (the clue core on a fresh solver, each UNSAT answer checked):
  CPU a puzzle, median, p95 and max, and the ratio of the totals.
- Large puzzles, each as a whole `logic-agents solve --unique` process (CPU of the child):
  one generated 25x25 Sudoku and the 20x20 Undead boards of
  benchmarks/data/undead20x20-game-drawn.tsv (lines 2-3), plain and certified by each checker;
  a certified run past `--cap` seconds is stopped and said as "more than".

    python benchmarks/bench_certify.py --runs 3 --sudoku 1000
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, p95, parse, provenance, whole_process, write_section  # noqa: E402

from logic_agents.games.daggers import DaggersWorld, SatAgent, load  # noqa: E402
from logic_agents.games.sudoku.board import load_puzzles  # noqa: E402
from logic_agents.logic import certify  # noqa: E402
from logic_agents.logic.certify import CHECKERS, certifying  # noqa: E402
from logic_agents.world.registry import get_game  # noqa: E402
from logic_agents.world.runner import run_episode  # noqa: E402
from logic_agents.world.spec import Puzzle  # noqa: E402

MAPS = ROOT / "logic_agents" / "maps" / "daggers" / "2018"
ROYLE = ROOT / "logic_agents" / "maps" / "sudoku" / "royle17_first10000.txt"
UNDEAD20 = ROOT / "benchmarks" / "data" / "undead20x20-game-drawn.tsv"
HELD_OUT_FROM = 9000  # royle17's puzzles from this index on were never tuned on


class CheckerClock:
    """The checker's CPU time, summed over every claim (logic.certify.check_claim wrapped)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.real = certify.check_claim

    def __enter__(self) -> CheckerClock:
        def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
            started = time.process_time()
            try:
                return self.real(*args, **kwargs)
            finally:
                self.spent += time.process_time() - started

        certify.check_claim = timed
        return self

    def __exit__(self, *exc: object) -> None:
        certify.check_claim = self.real


class NoCheck:
    """While on, every check_claim accepts at once (the route's cost without the checker)."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.real = certify.check_claim

    def __enter__(self) -> NoCheck:
        if self.on:
            certify.check_claim = lambda formula, assumptions, proof, checker="drup": \
                certify.Certificate(True, len(proof.lemmas), checker, 0.0)
        return self

    def __exit__(self, *exc: object) -> None:
        certify.check_claim = self.real


def daggers(runs: int, first: int | None = None) -> str:
    maps = sorted(MAPS.glob("*.txt"))[:first]
    rows = []
    plain_total = 0.0
    for checker in (None, *CHECKERS):
        cpu, claims, lemmas = 0.0, 0, 0
        with CheckerClock() as clock:
            for path in maps:
                board = load(path)
                for seed in range(runs):
                    agent = SatAgent(certify=checker is not None, checker=checker or "drup")
                    started = time.process_time()
                    result = run_episode(DaggersWorld(board), agent, seed, game="daggers",
                                         map_name=board.name)
                    cpu += time.process_time() - started
                    claims += int(result.stats.get("claims", 0))
                    lemmas += int(result.stats.get("lemmas", 0))
                    assert result.stats.get("claims", 0) == result.stats.get("certified", 0)
        if checker is None:
            plain_total = cpu
            rows.append(f"| plain | {cpu:.2f} | 1.00x | - | - | - |")
        else:
            rows.append(f"| {checker} | {cpu:.2f} | {cpu / plain_total:.2f}x | {claims:,} | "
                        f"{lemmas:,} | {100 * clock.spent / cpu:.0f}% |")
    return (f"**satx on {len(maps)} official maps**, {runs} seeds each ({len(maps) * runs} "
            "games), "
            "in-process CPU of the whole run (goal: at most 3x):\n\n"
            "| checker | CPU s | beside plain | claims | proofs' lemmas | checker's share |\n"
            "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def sudoku(count: int) -> str:
    puzzles = load_puzzles(ROYLE)[HELD_OUT_FROM:HELD_OUT_FROM + count]
    puzzle = get_game("sudoku").need(Puzzle, "solve")
    rows, totals = [], {}
    # "no check": the certified route (its own solver, proof logging, trimming) with a checker
    # that accepts at once: the floor of the route before any proof is checked
    for checker in (None, "no check", *CHECKERS):
        times, claims = [], 0
        with puzzle.session(), NoCheck(checker == "no check"):
            for instance in puzzles:
                started = time.process_time()
                if checker is None:
                    result = puzzle.solve(instance, True, None)
                else:
                    with certifying("drup" if checker == "no check" else checker) as tally:
                        result = puzzle.solve(instance, True, None)
                    assert tally.claims == tally.certified >= 1
                    claims += tally.claims
                times.append(time.process_time() - started)
                assert result.status == "unique"
        totals[checker] = sum(times)
        ratio = sum(times) / totals[None]
        rows.append(f"| {checker or 'plain'} | {1000 * statistics.median(times):.2f} | "
                    f"{1000 * p95(times):.2f} | {1000 * max(times):.2f} | {sum(times):.2f} | "
                    f"{ratio:.1f}x | {claims:,} |")
    return (f"**`solve --unique` on {len(puzzles):,} held-out 9x9 Sudoku** (royle17 from "
            f"line {HELD_OUT_FROM + 1:,}), in-process (goal: at most 5x):\n\n"
            "| checker | ms a puzzle, median | p95 | max | total s | beside plain | "
            "claims |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def large(cap: float, seed: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp) / "s25"
        subprocess.run([sys.executable, "-m", "logic_agents", "generate", "sudoku", "--size",
                        "25", "--count", "1", "--seed", str(seed), "-o", str(made)],
                       cwd=ROOT, check=True, capture_output=True)
        sudoku25 = str(next(made.iterdir()))
        boards = [line.split("\t")[0] for line in UNDEAD20.read_text().splitlines()[1:3]]
        cases = [(f"25x25 Sudoku (generated, seed {seed})", [sudoku25, "--game", "sudoku"])]
        cases += [(f"20x20 Undead, board {k}", [board, "--game", "undead"])
                  for k, board in enumerate(boards, start=1)]
        rows = []
        for name, argv in cases:
            plain = whole_process(["solve", *argv, "--unique"], cap)
            cells = [f"{plain:.2f}" if plain is not None else f"> {cap:g}"]
            for checker in CHECKERS:
                spent = whole_process(["solve", *argv, "--unique", "--certify", "--checker",
                                   checker], cap)
                cells.append(f"{spent:.2f}" if spent is not None else f"more than {cap:g}")
            rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return (f"**Large puzzles**, `solve --unique` as a whole process, CPU s (goal: certified "
            f"within 10 s; stopped past {cap:g} s):\n\n| puzzle | plain | "
            + " | ".join(f"--certify --checker {c}" for c in CHECKERS) + " |\n|---|---|"
            + "---|" * len(CHECKERS) + "\n" + "\n".join(rows) + "\n")


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--runs", type=int, default=3, help="seeds per Daggers map")
    parser.add_argument("--sudoku", type=int, default=1000, help="held-out 9x9 puzzles")
    parser.add_argument("--cap", type=float, default=120.0,
                        help="seconds a large certified solve may take before it is stopped")
    parser.add_argument("--seed", type=int, default=68, help="the 25x25 puzzle's seed")
    args = parse(parser)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    if args.tiny:  # two maps, one seed each, and two puzzles
        parts = [daggers(1, first=2), sudoku(2)]
    else:
        parts = [daggers(args.runs), sudoku(args.sudoku), large(args.cap, args.seed)]
    body = (f"## Certified answers (`benchmarks/bench_certify.py`, issue 68)\n\n"
            f"{provenance(time.perf_counter() - started)}"
            f"- Load (1-minute average) before and after: {load_before:.1f}, "
            f"{os.getloadavg()[0]:.1f}\n\n" + "\n".join(parts))
    print(body)
    if args.out:
        write_section(args.out, "bench_certify", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
