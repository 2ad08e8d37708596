#!/usr/bin/env python3
"""Undead generation at every level and size, beside the real game's generator (issue 69).

In one run, on seeds no setting was tuned on: for each size and level, `--count` puzzles from
`generate_puzzle` (the default generator; `--game` adds the game's own acceptance tests at
game sizes) and `--count` from the game's own generator (sgt-puzzles' `new_game_desc`, through
benchmarks/peers/undead_peer.c, called directly so that its 54-cell limit does not apply), each
side given `--game-cap` seconds of CPU a size and level. CPU seconds a puzzle: median, p95,
max, and the ratio of medians. Every puzzle of ours is checked: unique (encode.solve, a SAT
proof) and rated the level asked by the game's rating (difficulty.rate). Then the generator
with no level on large boards (`--big`), each puzzle checked unique.

    python benchmarks/bench_undead_generate.py --sgt-src DIR | --peer BIN [--sizes 7,8,10,12,15]
        [--levels easy,normal,tricky] [--count 10] [--seed 6901] [--big 20,25,30]
        [--big-count 5] [--game-cap 60] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from build_peers import build_undead_peer  # noqa: E402
from harness import Spread, arguments, load, parse, write_report  # noqa: E402

from logic_agents.games.undead.board import parse_game_id  # noqa: E402
from logic_agents.games.undead.difficulty import rate  # noqa: E402
from logic_agents.games.undead.encode import solve  # noqa: E402
from logic_agents.games.undead.generate import generate_puzzle  # noqa: E402

LETTERS = {"easy": "e", "normal": "n", "tricky": "t"}


def ours(size: int, level: str | None, count: int, seed: int, cap: float,
         game: bool = False) -> list[float]:
    """CPU seconds per puzzle, each puzzle checked; stops once `cap` seconds are spent."""
    out: list[float] = []
    for k in range(count):
        rng = random.Random(f"bench-undead-{size}-{level}-{seed}-{k}")
        started = time.process_time()
        made = generate_puzzle(size, size, rng, level, game=game)
        out.append(time.process_time() - started)
        if solve(made.puzzle).status != "unique":
            raise SystemExit(f"not unique: {made.puzzle.name}")
        if level and rate(made.puzzle).level != level:
            raise SystemExit(f"{made.puzzle.name} is not rated {level}")
        if sum(out) > cap:
            break
    return out


def games(peer: Path, size: int, level: str, count: int, seed: int, cap: float) -> list[float]:
    """The game's CPU seconds per puzzle, as many as it made within `cap` seconds."""
    proc = subprocess.Popen([str(peer), "gen", f"{size}x{size}d{LETTERS[level]}", str(seed),
                             str(count)], stdout=subprocess.PIPE)
    out: list[float] = []
    deadline = time.monotonic() + cap * 1.5 + 5  # wall, for a busy machine; CPU is below
    try:
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        buffer = ""
        while True:
            chunk = proc.stdout.read() or b""
            buffer += chunk.decode()
            while "\n" in buffer:
                line, buffer = buffer.split("\n", 1)
                game_id, seconds = line.split("\t")
                if rate(parse_game_id(game_id)).level != level:
                    raise SystemExit(f"the game's {game_id} is not rated {level} by us")
                out.append(float(seconds))
            if proc.poll() is not None and not chunk:
                break
            if sum(out) > cap or time.monotonic() > deadline:
                break
            time.sleep(0.01)
    finally:
        proc.kill()
        proc.wait()
    return out


def cell(values: list[float], asked: int) -> str:
    if not values:
        return "none"
    made = "" if len(values) == asked else f" ({len(values)} made)"
    return f"{Spread.of(values).shown(scale=1e3)}{made}"


def levels_part(peer: Path | None, sizes: list[int], levels: list[str], count: int, seed: int,
                cap: float) -> str:
    lines = ["| size | level | ours: ms a puzzle, median / p95 / max | the game's | ratio of "
             "medians | load |", "|---|---|---|---|---|---|"]
    generate_puzzle(7, 7, random.Random(0), "tricky")  # imports: not a puzzle's cost
    for size in sizes:
        for level in levels:
            mine = ours(size, level, count, seed, cap)
            theirs = games(peer, size, level, count, seed, cap) if peer else []
            ratio = (f"{statistics.median(mine) / statistics.median(theirs):.2f}x"
                     if theirs else f"the game made none in {cap:.0f} s" if peer else
                     "the game not run (--tiny without --peer)")
            lines.append(f"| {size}x{size} | {level} | {cell(mine, count)} | "
                         f"{cell(theirs, count)} | {ratio} | {load()} |")
            print(lines[-1], flush=True)
            if size * size <= 54:  # the game's own sizes: its acceptance tests too
                game_way = ours(size, level, count, seed, cap, game=True)
                ratio = (f"{statistics.median(game_way) / statistics.median(theirs):.2f}x"
                         if theirs else "-")
                lines.append(f"| {size}x{size} | {level}, `--game` | {cell(game_way, count)} | "
                             f"{cell(theirs, count)} | {ratio} | {load()} |")
                print(lines[-1], flush=True)
    return "\n".join(lines)


def big_part(sizes: list[int], count: int, seed: int) -> str:
    lines = ["| size | puzzles | ours: s a puzzle, median / p95 / max | load |",
             "|---|---|---|---|"]
    for size in sizes:
        mine = ours(size, None, count, seed, float("inf"))
        lines.append(f"| {size}x{size} | {len(mine)} | {Spread.of(mine).shown(digits=2)} | "
                     f"{load()} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--sgt-src", type=Path, metavar="DIR",
                        help="sgt-puzzles' C sources to build the game's side from")
    parser.add_argument("--peer", type=Path, metavar="BIN", help="the harness, built already")
    parser.add_argument("--sizes", default="7,8,10,12,15", help="square sizes, comma-separated")
    parser.add_argument("--levels", default="easy,normal,tricky")
    parser.add_argument("--count", type=int, default=10, help="puzzles a size and level")
    parser.add_argument("--seed", type=int, default=6901)
    parser.add_argument("--game-cap", type=float, default=60.0,
                        help="CPU seconds each side may spend on a size and level")
    parser.add_argument("--big", default="20,25,30", help="sizes for the generator with no "
                        "level ('' for none)")
    parser.add_argument("--big-count", type=int, default=5)
    args = parse(parser)
    if args.tiny:  # two easy 7x7 puzzles; the game's side only if --peer is given
        args.sizes, args.levels, args.count, args.big = "7", "easy", 2, ""
    elif not (args.peer or args.sgt_src):
        parser.error("give --sgt-src DIR (an sgt-puzzles checkout) or --peer BIN")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        peer = args.peer or (build_undead_peer(args.sgt_src, Path(tmp)) if args.sgt_src
                             else None)
        sizes = [int(s) for s in args.sizes.split(",") if s]
        levels = [s for s in args.levels.split(",") if s]
        parts = [("Every level, beside the game's generator",
                  levels_part(peer, sizes, levels, args.count, args.seed, args.game_cap))]
    big = [int(s) for s in args.big.split(",") if s]
    if big:
        parts.append(("No level, large boards", big_part(big, args.big_count, args.seed)))
    if args.out:
        write_report(args.out, "undead-generate", "Undead generation at every level",
                     time.perf_counter() - started, parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
