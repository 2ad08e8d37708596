#!/usr/bin/env python3
"""Benchmark of Undead difficulty: our rating against the real game's, on both sides' puzzles.

Prints markdown tables, every row measured in this run:
1. the real game's own puzzles (maps/undead, 240 of them): the game's generator keeps a puzzle
   only when its own rating is the level asked, so each set is labelled by the game; how many
   our rating (difficulty.rate) puts at that label;
2. `generate --game --difficulty D` for each level, over 4x4, 5x5, 7x7 and 6x9 (the sizes of
   issue 19), `--count` per level: seconds per puzzle, layouts tried, and with `--peer RATER`
   the real game's own rating of every generated ID, as a table of requested against rated
   level, with the largest search space the game's brute force meets.

RATER is a program that reads game IDs, one per line, and prints for each "LEVEL PASSES
OPEN SPACE", LEVEL being easy, normal, tricky (or another word when the game rejects the
puzzle). One was built for docs/BENCHMARKS.md from sgt-puzzles' undead.c (its solver and the
acceptance tests of its generator, unchanged); docs/games/undead.md says how.

Usage: python benchmarks/bench_undead_rating.py [--count 80] [--seed 19] [--peer RATER]
                                             [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import collections
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, write_report  # noqa: E402

from logic_agents.games.undead.board import format_game_id  # noqa: E402
from logic_agents.games.undead.difficulty import LEVELS, rate  # noqa: E402
from logic_agents.games.undead.files import load_entries  # noqa: E402
from logic_agents.games.undead.generate import iter_puzzles  # noqa: E402

DATA = ROOT / "maps" / "undead"
SIZES = ((4, 4), (5, 5), (7, 7), (6, 9))
LEVEL_OF = {"e": "easy", "n": "normal", "t": "tricky"}


def own_puzzles() -> str:
    lines = ["| set | puzzles | the game's level | rated so by us | median passes | "
             "median open cells |", "|---|---|---|---|---|---|"]
    for path in sorted(DATA.glob("*d?.tsv")):
        want = LEVEL_OF[path.stem[-1]]
        ratings = [rate(e.puzzle) for e in load_entries(path)]
        lines.append(f"| {path.stem} | {len(ratings)} | {want} | "
                     f"{sum(r.level == want for r in ratings)} | "
                     f"{statistics.median(r.passes for r in ratings):.0f} | "
                     f"{statistics.median(r.open_cells for r in ratings):.0f} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def generated(count: int, seed: int, peer: str | None) -> str:
    made = []
    lines = ["| level | puzzles | median s | max s | mean layouts tried |", "|---|---|---|---|---|"]
    for level in LEVELS:
        mine = []
        for k, (w, h) in enumerate(SIZES):
            share = count // len(SIZES) + (k < count % len(SIZES))
            if share:  # a count under the number of sizes leaves the last sizes out
                mine += list(iter_puzzles(w, h, share, seed, level, game=True))
        made += [(level, g) for g in mine]
        secs = [g.seconds for g in mine]
        lines.append(f"| {level} | {len(mine)} | {statistics.median(secs):.3f} | "
                     f"{max(secs):.2f} | {statistics.mean(g.attempts for g in mine):.1f} |")
        print(lines[-1], flush=True)
    assert all(g.rating.level == level for level, g in made)
    if peer is None:
        return "\n".join(lines + ["", "No `--peer` given: the real game's rating was not asked."])
    ids = "".join(format_game_id(g.puzzle) + "\n" for _, g in made)
    answers = subprocess.run([peer], input=ids, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    if len(answers) != len(made):
        raise SystemExit(f"{peer} answered {len(answers)} of {len(made)} IDs")
    table: collections.Counter = collections.Counter()
    spaces = []
    for (level, _), answer in zip(made, answers):
        game_level, _, _, space = answer.split()
        table[level, game_level] += 1
        spaces.append(float(space))
    rated = sorted({g for _, g in table} | set(LEVELS), key=lambda x: (x not in LEVELS, x))
    lines += ["", "Requested (rows) against the real game's own rating (columns):", "",
              "| requested | " + " | ".join(f"rated {r}" for r in rated) + " | agreement |",
              "|---|" + "---|" * len(rated) + "---|"]
    for level in LEVELS:
        n = sum(table[level, r] for r in rated)
        lines.append(f"| {level} | " + " | ".join(str(table[level, r]) for r in rated) +
                     f" | {100 * table[level, level] / n:.1f}% |")
    lines.append(f"\nLargest search space the game's brute force meets: {max(spaces):.0f} "
                 "combinations.")
    print("\n".join(lines[-6:]), flush=True)
    return "\n".join(lines)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--count", type=int, default=80, help="generated puzzles per level")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--peer", help="a rater built from the real game (see the docstring)")
    args = parse(parser)
    started = time.perf_counter()
    if args.tiny:  # part 2 alone, one puzzle a level
        args.count = 1
    sections = [] if args.tiny else [("1. The real game's own puzzles", own_puzzles())]
    sections += [
                (f"2. Generated with --game --difficulty D ({args.count} per level over "
                 f"{', '.join(f'{w}x{h}' for w, h in SIZES)}, seed {args.seed})",
                 generated(args.count, args.seed, args.peer))]
    if args.out:
        write_report(args.out, "bench_undead_rating", "Undead difficulty as the game rates it "
                     "(`benchmarks/bench_undead_rating.py`)", time.perf_counter() - started,
                     sections)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
