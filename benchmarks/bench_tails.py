#!/usr/bin/env python3
"""SAT tails: how much of a solve time is luck, over random renumberings, in fresh processes.

A CDCL solver's time on a hard instance depends on the variable numbering, the order of the
clauses and the phases: a benchmark over a handful of instances cannot tell a robust figure
from a lucky one. Here every instance is solved under `--shuffles` random renumberings of its
variables with its clauses and their literals shuffled (SatOracle(shuffle=seed): the same
formula, the luck drawn again), each run in a fresh process whose wall time is measured from
outside (start-up, parsing, building, solving, proving unique). Per instance and set-up it
prints the median, the 95th percentile and the max, and how many runs passed `--timeout`
(counted at the timeout, so a max equal to it means "at least").

Families (each set-up side by side, on the same instances and seeds, in one run):
- undead: the sgt-style 20x20 boards with givens (benchmarks/data/undead20x20givens-public.tsv,
  four boards of the real game's generator with its size limit lifted) and 20 boards of this
  project's generator (`generate undead --size 20x20 --count 20 --seed 2026`, made in the
  run, never tuned on). Set-ups: `shipped` (what `solve --unique` does: encode.RACE_SETUPS,
  the seen core under two solvers, race on two cores), `first` and `second` (each alone).
- undead-turned: the same four sgt-style boards, each under its seven other symmetries
  (turned a quarter, a half, three quarters, and the mirror image of each: undead/board.py
  `turned`), written in the run. The same puzzles in other orders: the seen core lists its
  totals' cells in the order the lines of sight meet them, an order chosen on the boards as
  given, so these are instances that order was not tuned on. Same three set-ups.
- undead30: `--limit` boards of this project's generator at 30x30 (`generate undead --size
  30x30 --count N --seed 2026`, made in the run: 13 s to 3 minutes each; those made within
  generate's 120 s cap per puzzle are measured), the same three set-ups.
- sudoku25: the first `--limit` 25x25 puzzles at 45% given (maps/sudoku/lloyd_amos).
  Set-ups: `shipped` (`solve`: the clue core on a fresh solver, everything timed) and
  `previous` (what `solve` did before: the whole rules on a SudokuSolver, the propagated core
  past a conflict budget; only its check is timed, not the 3 s of handing it 750,000
  clauses). Seconds are measured inside one process per puzzle and set-up.
- mazes20: `solve --unique` on `--limit` Exactly One Mazes of 20x20 (`generate mazes --size 20
  --count 10 --seed 2026`, as benchmarks/bench_mazes.py makes them; made in the run, about 50 s
  each). Set-ups: `shipped` (as numbered; its repeats show the machine's noise) and
  `renumbered` (LOGIC_AGENTS_SHUFFLE).
- generate-undead: `generate undead --size 20x20 --count 1 --seed K` for K = 1..`--limit`.
  Set-ups: `shipped` (as it runs; its repeats show the machine's noise) and `renumbered`
  (every SAT oracle of the run renumbered through LOGIC_AGENTS_SHUFFLE: the generator's own
  seed fixes the boards it draws, the renumbering draws the solver's luck; the renumbering
  itself costs some Python on each of the generator's many SAT calls).

Usage: python benchmarks/bench_tails.py [--family undead|undead-turned|undead30|sudoku25|mazes20|
                                              generate-undead]
                                     [--shuffles 20]
                                     [--timeout 30] [--limit N] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import Spread, arguments, parse, write_report  # noqa: E402

UNDEAD_PUBLIC = ROOT / "benchmarks" / "data" / "undead20x20givens-public.tsv"
SUDOKU_25 = ROOT / "maps" / "sudoku" / "lloyd_amos" / "inst25x25_p045.txt"
SETUPS = {"undead": ("shipped", "first", "second"), "undead30": ("shipped", "first", "second"),
          "undead-turned": ("shipped", "first", "second"),
          "sudoku25": ("shipped", "previous"),
          "generate-undead": ("shipped", "renumbered"), "mazes20": ("shipped", "renumbered")}


def one(family: str, reference: str, setup: str, seed: int) -> str:
    """The child: solve one instance under one set-up and renumbering; print its status."""
    if setup == "renumbered":  # every oracle of this process, through the environment
        os.environ["LOGIC_AGENTS_SHUFFLE"] = str(seed)
    if family == "mazes20":
        from logic_agents.games.mazes.encode import solve as solve_maze
        from logic_agents.world.registry import get_game
        from logic_agents.world.resolve import resolve

        return solve_maze(resolve(reference, get_game("mazes"))[1][0]).status
    if family == "generate-undead":
        from logic_agents.games.undead.generate import generate_puzzles

        return "unique" if generate_puzzles(20, 20, 1, int(reference))[0].solution else "none"
    from logic_agents.world.registry import get_game
    from logic_agents.world.resolve import resolve

    game = "undead" if family.startswith("undead") else "sudoku"
    puzzle = resolve(reference, get_game(game))[1][0]
    if game == "undead":
        from logic_agents.games.undead.encode import RACE_SETUPS, check_with, solve

        if setup == "shipped":
            return solve(puzzle, shuffle=seed).status
        return check_with(puzzle, RACE_SETUPS[0 if setup == "first" else 1], shuffle=seed).status
    from logic_agents.games.sudoku import solve_puzzle

    return solve_puzzle(puzzle, shuffle=seed).status


def previous_sudoku(reference: str, seed: int) -> tuple[float, str]:
    """The path `solve` took for 25x25 before: its check timed, the solver's build not."""
    from logic_agents.games.sudoku.encode import SudokuSolver
    from logic_agents.world.registry import get_game
    from logic_agents.world.resolve import resolve

    puzzle = resolve(reference, get_game("sudoku"))[1][0]
    with SudokuSolver(puzzle.n, shuffle=seed) as solver:
        started = time.perf_counter()
        status = solver.check(puzzle).status
        return time.perf_counter() - started, status


def in_process(reference: str, setup: str, seeds: list[int]) -> None:
    """The child for sudoku25: the rules built once, then each renumbering timed alone."""
    from logic_agents.games.sudoku.encode import rules_for
    from logic_agents.world.registry import get_game
    from logic_agents.world.resolve import resolve

    rules_for(resolve(reference, get_game("sudoku"))[1][0].n)
    for seed in seeds:
        if setup == "previous":
            seconds, status = previous_sudoku(reference, seed)
        else:
            started = time.perf_counter()
            status = one("sudoku25", reference, setup, seed)
            seconds = time.perf_counter() - started
        print(f"{seconds:.4f} {status}", flush=True)


def timed_runs(family: str, reference: str, setup: str, seeds: list[int], timeout: float
               ) -> list[tuple[float, str]]:
    """(seconds, status) per seed: a fresh process each, or for sudoku25 one process whose
    own timings are read (a run past `timeout` ends it; the runs left count as timeouts)."""
    if family != "sudoku25":
        return [timed_run(family, reference, setup, seed, timeout) for seed in seeds]
    argv = [sys.executable, __file__, "--in-process", reference, setup,
            ",".join(map(str, seeds))]
    try:
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout * len(seeds))
        lines = done.stdout.split("\n")
    except subprocess.TimeoutExpired as e:
        lines = (e.stdout or b"").decode().split("\n") if isinstance(e.stdout, bytes) else []
    out = [(float(t), status) for t, status in (line.split() for line in lines if line.strip())]
    return out + [(timeout, "timeout")] * (len(seeds) - len(out))


def timed_run(family: str, reference: str, setup: str, seed: int, timeout: float
              ) -> tuple[float, str]:
    argv = [sys.executable, __file__, "--one", family, reference, setup, str(seed)]
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, "timeout"
    status = done.stdout.strip() or f"error: {done.stderr.strip().splitlines()[-1:]}"
    return time.perf_counter() - start, status


def instances(family: str, limit: int, tiny: bool = False) -> list[tuple[str, str]]:
    """(reference, group) of every instance of a family (`tiny`: of undead, the first public
    board alone, nothing generated)."""
    if family == "sudoku25":
        return [(f"{SUDOKU_25}:{k}", "25x25, 45% given") for k in range(1, limit + 1)]
    if family == "generate-undead":
        return [(str(k), "generate undead 20x20, seed") for k in range(1, limit + 1)]
    if family == "mazes20":
        folder = Path(tempfile.gettempdir()) / "bench_tails_mazes"
        if not folder.exists() or len(list(folder.glob("*.txt"))) < limit:
            subprocess.run([sys.executable, "-m", "logic_agents", "generate", "mazes", "--size",
                            "20", "--count", "10", "--seed", "2026", "-o", str(folder)],
                           cwd=ROOT, check=True, capture_output=True)
        return [(str(path), "mazes 20x20, seed 2026")
                for path in sorted(folder.glob("*.txt"))[:limit]]
    from logic_agents.games.undead.files import load_entries

    if family == "undead-turned":
        return turned_boards()
    if family == "undead30":
        folder = Path(tempfile.gettempdir()) / "bench_tails_undead30"
        made = folder / "undead30x30-s2026.tsv"
        if not made.exists() or len(load_entries(made)) < limit:
            # generate's time cap (120 s a puzzle) may stop it early: the boards made before
            # are written, and those are measured
            subprocess.run([sys.executable, "-m", "logic_agents", "generate", "undead", "--size",
                            "30x30", "--count", str(limit), "--seed", "2026", "-o",
                            str(folder), "--force"], cwd=ROOT, capture_output=True)
        count = min(limit, len(load_entries(made)) if made.exists() else 0)
        if count < limit:
            print(f"generate made {count} of {limit} boards within its time cap",
                  file=sys.stderr)
        return [(f"{made}:{k}", "this project's generator, 30x30") for k in range(1, count + 1)]

    out = [(f"{UNDEAD_PUBLIC}:{k}", "sgt-style, givens")
           for k in range(1, len(load_entries(UNDEAD_PUBLIC)) + 1)]
    if tiny:
        return out[:1]
    folder = Path(tempfile.gettempdir()) / "bench_tails_undead"
    made = folder / "undead20x20-s2026.tsv"
    if not made.exists():
        subprocess.run([sys.executable, "-m", "logic_agents", "generate", "undead", "--size",
                        "20x20", "--count", "20", "--seed", "2026", "-o", str(folder),
                        "--force"], cwd=ROOT, check=True, capture_output=True)
    out += [(f"{made}:{k}", "this project's generator") for k in range(1, limit + 1)]
    return out


def turned_boards() -> list[tuple[str, str]]:
    """The sgt-style boards under their seven other symmetries, written to a TSV (game ID,
    name, solution) in the temporary folder: (reference, group) of each."""
    from logic_agents.games.undead.board import format_game_id, turn_grid, turned
    from logic_agents.games.undead.files import load_entries

    rows = []
    for k, entry in enumerate(load_entries(UNDEAD_PUBLIC), 1):
        for quarter_turns in range(4):
            for mirrored in (False, True):
                if quarter_turns == 0 and not mirrored:
                    continue  # the board as given: the undead family
                board = turned(entry.puzzle, quarter_turns, mirrored)
                *_, solution = turn_grid(entry.puzzle.width, entry.puzzle.height,
                                         entry.reference or "", quarter_turns, mirrored)
                name = f"board{k}-turn{quarter_turns}{'-mirrored' if mirrored else ''}"
                rows.append(f"{format_game_id(board)}\t{name}\t{solution}")
    made = Path(tempfile.gettempdir()) / "bench_tails_undead_turned" / "turned.tsv"
    made.parent.mkdir(exist_ok=True)
    made.write_text("\n".join(rows) + "\n")
    return [(f"{made}:{k}", "sgt-style, turned") for k in range(1, len(rows) + 1)]


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--in-process":
        in_process(sys.argv[2], sys.argv[3], [int(s) for s in sys.argv[4].split(",")])
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        print(one(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
        return 0
    parser = arguments(__doc__)
    parser.add_argument("--family", choices=sorted(SETUPS), default="undead")
    parser.add_argument("--shuffles", type=int, default=20, help="renumberings per instance")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    parser.add_argument("--limit", type=int, default=20,
                        help="generated instances (undead) or puzzles (sudoku25)")
    args = parse(parser)
    if args.tiny:  # one instance, one renumbering
        args.limit, args.shuffles = 1, 1
    started = time.perf_counter()
    setups = SETUPS[args.family]
    header = ("| instance | group | set-up | median s | p95 s | max s | over 5 s | "
              f"past {args.timeout:g} s |")
    lines = [header, "|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    runs: dict[tuple[str, str], list[float]] = {}
    for reference, group in instances(args.family, args.limit, args.tiny):
        name = reference.split("/")[-1]
        for setup in setups:
            found = timed_runs(args.family, reference, setup,
                               list(range(1, args.shuffles + 1)), args.timeout)
            times = [seconds for seconds, _ in found]
            statuses = {status for _, status in found}
            runs.setdefault((group, setup), []).extend(times)
            bad = statuses - {"unique", "multiple", "timeout"}  # Lloyd-Amos 25x25: multiple
            if bad:
                print(f"{name} {setup}: unexpected answers {sorted(bad)}", file=sys.stderr)
                return 1
            line = (f"| {name} | {group} | {setup} | "
                    f"{Spread.of(times).shown(digits=2).replace(' / ', ' | ')} | "
                    f"{sum(t > 5 for t in times)} | "
                    f"{sum(t >= args.timeout for t in times)} |")
            lines.append(line)
            print(line, flush=True)
    summary = ["| group | set-up | runs | median s | p95 s | max s | over 5 s |",
               "|---|---|---|---|---|---|---|"]
    for (group, setup), times in runs.items():
        summary.append(f"| {group} | {setup} | {len(times)} | "
                       f"{Spread.of(times).shown(digits=2).replace(' / ', ' | ')} | "
                       f"{sum(t > 5 for t in times)} |")
    print("\n".join(summary), flush=True)
    if args.out:
        write_report(args.out, f"bench_tails_{args.family}",
                     f"SAT tails: {args.family} under {args.shuffles} renumberings "
                     "(`benchmarks/bench_tails.py`)", time.perf_counter() - started,
                     [("Over all runs", "\n".join(summary)),
                      ("Per instance", "\n".join(lines))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
