#!/usr/bin/env python3
"""Undead without the cliff (issue 55, goal 2): Minicard first under a budget, then CaDiCaL.

On boards drawn for this run from seeds no setting was chosen on, in one run, it times three
ways to `solve --unique` the same board, in-process (CPU of this process and its children):
- Minicard alone (the small boards' set-up, seen.NATIVE cardinalities), capped at
  `--minicard-cap` conflicts a call (past it: "over", the cliff the budget guards against);
- the set-up boards over 100 cells had before this round (RACE_SETUPS[0]: CaDiCaL 1.9.5
  with totalizers), alone;
- the default now (`encode.solve`: Minicard under MINICARD_CONFLICTS, then that set-up).
Two sets: boards made by `generate undead` at 11x11 to 20x20 (`--count` a size, seed
`--seed`), and 20x20 boards with givens in the style of the public ones
(bench_undead_peer.make_uniform, seed prefix `--uniform-seed`). The second set is also solved
whole-process (`logic-agents solve FILE:K --unique`, a fresh process each, CPU from
RUSAGE_CHILDREN): the goal is at most 1.2 s of CPU on every one.

Goals: the default at most 2x Minicard alone on the generated boards; at most 1.2 s of CPU
whole-process on every 20x20 board with givens.

    python benchmarks/bench_undead_cliff.py [--count 8] [--seed 55001] [--uniform 30]
                                         [--uniform-seed fresh55] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import Spread, arguments, parse, timed, whole_process, write_report  # noqa: E402

SIZES = (11, 13, 15, 17, 20)


def three_ways(puzzle, cap: int) -> tuple[float | None, float, float]:
    """CPU seconds of Minicard alone (None past `cap` conflicts), the old set-up, the default."""
    enc = importlib.import_module("logic_agents.games.undead.encode")
    alone, found = timed(lambda: enc.within_budget(puzzle, cap))
    old, before = timed(lambda: enc.check_with(puzzle, enc.RACE_SETUPS[0]))
    new, now = timed(lambda: enc.solve(puzzle))
    assert now.status == before.status == "unique", (now.status, before.status)
    assert now.solution == before.solution
    return (alone if found is not None else None), old, new


def generated(count: int, seed: int, into: Path, sizes: tuple[int, ...] = SIZES
              ) -> list[tuple[str, Path]]:
    out = []
    for size in sizes:
        folder = into / f"g{size}"
        subprocess.run([sys.executable, "-m", "logic_agents", "generate", "undead", "--size",
                        f"{size}x{size}", "--count", str(count), "--seed", str(seed + size),
                        "-o", str(folder)], check=True, cwd=ROOT, capture_output=True)
        out += [(f"{size}x{size}", path) for path in sorted(folder.glob("*.tsv"))]
    return out


def summary(values: list[float]) -> str:
    return Spread.of(values).shown(scale=1000)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--count", type=int, default=8, help="generated boards a size")
    parser.add_argument("--seed", type=int, default=55001)
    parser.add_argument("--uniform", type=int, default=30, help="20x20 boards with givens")
    parser.add_argument("--uniform-seed", default="fresh55")
    parser.add_argument("--minicard-cap", type=int, default=2_000_000,
                        help="conflicts a call for Minicard alone (past it: over)")
    args = parse(parser)
    if args.tiny:  # one generated 11x11 board, none with givens
        args.count, args.uniform = 1, 0
    started = time.perf_counter()
    from bench_undead_peer import make_uniform

    encode = importlib.import_module("logic_agents.games.undead.encode")
    from logic_agents.world.registry import get_game

    spec = get_game("undead")
    rows: dict[str, list[tuple[float | None, float, float]]] = {}
    whole: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        files = generated(args.count, args.seed, Path(tmp), SIZES[:1] if args.tiny else SIZES)
        if args.uniform:
            uniform = Path(tmp) / "uniform.tsv"
            make_uniform(uniform, args.uniform, args.uniform_seed)
            files.append(("20x20 with givens", uniform))
        for label, path in files:
            for k, puzzle in enumerate(spec.instances.read(path), start=1):
                rows.setdefault(label, []).append(three_ways(puzzle, args.minicard_cap))
                if label.endswith("givens"):
                    spent = whole_process(["solve", f"{path}:{k}", "--unique", "--json"])
                    assert spent is not None  # no cap
                    whole.append(spent)
            print(f"{label}: {len(rows[label])} boards", file=sys.stderr, flush=True)
    lines = [f"Budget: MINICARD_CONFLICTS = {encode.MINICARD_CONFLICTS:,} conflicts in all. "
             f"Boards: `generate undead` seed {args.seed}+size, {args.count} a size; 20x20 "
             f"with givens: seed prefix {args.uniform_seed!r}, {args.uniform} boards. CPU "
             "ms in-process, median / p95 / max.", "",
             "| boards | Minicard alone | the old set-up (CaDiCaL) | the default now | "
             "default / Minicard, max | Minicard over its cap |",
             "|---|---|---|---|---|---|"]
    for label, found in rows.items():
        alone = [a for a, _, _ in found if a is not None]
        worst = max((new / a for a, _, new in found if a), default=float("nan"))
        lines.append(f"| {label} ({len(found)}) | {summary(alone) if alone else '-'} | "
                     f"{summary([o for _, o, _ in found])} | {summary([n for _, _, n in found])}"
                     f" | {worst:.1f}x | {sum(a is None for a, _, _ in found)} |")
    if whole:
        lines += ["", "20x20 with givens, whole process (`solve FILE:K --unique`, a fresh "
                  f"process each): CPU median / p95 / max {Spread.of(whole).shown(digits=2)} s "
                  "(goal: at most 1.2 s)."]
    body = "\n".join(lines)
    print(body)
    if args.out:
        write_report(args.out, "undead-cliff", "Undead without the cliff "
                     "(`benchmarks/bench_undead_cliff.py`)", time.perf_counter() - started,
                     [("In one run", body)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
