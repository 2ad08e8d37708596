#!/usr/bin/env python3
"""Undead beside the real game (issue 42, targets 4 and 5): the same inputs, the same run.

The peer is sgt-puzzles' own undead.c, compiled unchanged into a small harness of this
project's (benchmarks/peers/undead_peer.c) from the sources you name with --sgt-src (a checkout
of sgt-puzzles, or of a port that keeps its C files, such as chrisboyle/sgtpuzzles'
app/src/main/jni), or taken ready-built with --peer. Every figure is CPU time (user + sys).

1. `solve` on the game's own 7x7 puzzles (maps/undead/7x7de.tsv, 7x7dn.tsv: 60): ours
   in-process, `repeat` solves a puzzle, beside the game's solve_game on the same IDs; the
   two answers must be the same grid. Median, p95 and max per puzzle, per round.
2. `generate --game --difficulty D` at 7x7 beside the game's own generator (new_game_desc),
   `--count` puzzles a level each, CPU per puzzle. The game's solver must solve each of
   ours to our answer, and our rating must give each of the game's its level.
3. 20x20 boards (--boards FILE, game IDs in the first column): `logic-agents solve ID
   --unique` in a fresh process per run, under `--shuffles` renumberings
   (LOGIC_AGENTS_SHUFFLE), its whole process tree's CPU (the race's second solver included)
   and wall time, with the load beside them.

`--make-boards FILE --count N` first draws N 20x20 boards with the game's own generator,
stopped before its acceptance tests (which do not finish at that size: `undead_peer fill`),
and makes each unique with givens (repair.unique_with_givens): boards this project never
tuned on. `--make-uniform FILE` makes boards in the style of the four public ones (uniformly
random monsters, unique by givens alone: 89-114 givens, where the game's drawing needs 11-24).

    python benchmarks/bench_undead_peer.py --sgt-src DIR [--rounds 3] [--count 30]
        [--boards FILE ...] [--shuffles 5] [--make-boards FILE --board-count 30]
        [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from build_peers import build_undead_peer  # noqa: E402
from harness import Spread, arguments, children_cpu, load, parse, write_report  # noqa: E402

from logic_agents.games.undead.board import format_game_id, parse_game_id  # noqa: E402
from logic_agents.games.undead.difficulty import rate  # noqa: E402
from logic_agents.games.undead.encode import solve  # noqa: E402
from logic_agents.games.undead.files import load_entries  # noqa: E402
from logic_agents.games.undead.generate import generate_puzzle  # noqa: E402
from logic_agents.games.undead.repair import unique_with_givens  # noqa: E402

SEVEN = [ROOT / "maps" / "undead" / "7x7de.tsv", ROOT / "maps" / "undead" / "7x7dn.tsv"]
LEVELS = {"easy": "e", "normal": "n", "tricky": "t"}


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}"


def peer_solve(peer: Path, ids: list[str], repeat: int) -> list[tuple[str, float]]:
    done = subprocess.run([str(peer), "solve", str(repeat)], input="\n".join(ids) + "\n",
                          capture_output=True, text=True, check=True)
    out = []
    for line in done.stdout.splitlines():
        status, answer, seconds = line.split("\t")
        out.append((answer if status == "OK" else f"FAIL {answer}", float(seconds)))
    return out


def ours_solve(puzzles: list, repeat: int) -> list[tuple[str, float]]:
    out = []
    for puzzle in puzzles:
        started = time.process_time()
        for _ in range(repeat):
            result = solve(puzzle)
        out.append((result.solution or "", (time.process_time() - started) / repeat))
    return out


def solve_part(peer: Path | None, rounds: int, repeat: int, limit: int | None = None) -> str:
    """Ours beside the game's solver, round after round (no peer: ours alone, `--tiny`)."""
    entries = [e for path in SEVEN for e in load_entries(path)][:limit]
    puzzles = [e.puzzle for e in entries]
    ids = [format_game_id(p) for p in puzzles]
    solve(puzzles[0])  # the first call imports PySAT: not a puzzle's cost
    lines = ["| round | puzzles | ours median / p95 / max (ms) | the game's median / p95 / "
             "max (ms) | ratio of medians | load |", "|---|---|---|---|---|---|"]
    ratios = []
    for r in range(1, rounds + 1):
        mine = ours_solve(puzzles, repeat)
        ours_t = [t for _, t in mine]
        if peer is None:
            lines.append(f"| {r} | {len(puzzles)} | {Spread.of(ours_t).shown(1e3, 3)} | not run "
                         f"(--tiny without --peer) | - | {load()} |")
            print(lines[-1], flush=True)
            return "\n".join(lines)
        theirs = peer_solve(peer, ids, repeat * 10)
        for (a, _), (b, _), p in zip(mine, theirs, puzzles):
            if a != b:
                raise SystemExit(f"answers differ on {format_game_id(p)}: ours {a}, game {b}")
        game_t = [t for _, t in theirs]
        ratio = statistics.median(ours_t) / statistics.median(game_t)
        ratios.append(ratio)
        lines.append(f"| {r} | {len(puzzles)} | {Spread.of(ours_t).shown(1e3, 3)} | "
                     f"{Spread.of(game_t).shown(1e3, 3)} | {ratio:.1f}x | {load()} |")
        print(lines[-1], flush=True)
    lines.append(f"\nRatio of medians: lowest {min(ratios):.1f}x, median "
                 f"{statistics.median(ratios):.1f}x over {rounds} rounds; every answer the same "
                 "grid as the game's.")
    return "\n".join(lines)


def generate_part(peer: Path, rounds: int, count: int, seed: int) -> str:
    lines = ["| round | level | ours: CPU per puzzle (ms), mean / median / max | the game's: "
             "mean / median / max | ours / the game's (means) | load |",
             "|---|---|---|---|---|---|"]
    summary: dict[str, list[float]] = {level: [] for level in LEVELS}
    generate_puzzle(7, 7, random.Random(0), "easy", game=True)  # imports, not a puzzle's cost
    for r in range(1, rounds + 1):
        for level, letter in LEVELS.items():
            rng = random.Random(seed * 1000 + r)
            mine, made = [], []
            for _ in range(count):
                started = time.process_time()
                g = generate_puzzle(7, 7, rng, level, game=True)
                mine.append(time.process_time() - started)
                made.append(g)
            done = subprocess.run([str(peer), "gen", f"7x7d{letter}", f"{seed}-{r}",
                                   str(count)], capture_output=True, text=True, check=True)
            rows = [line.split("\t") for line in done.stdout.splitlines()]
            theirs = [float(t) for _, t in rows]
            # each side checks the other: the game solves ours to our answer, we rate its own
            answers = peer_solve(peer, [format_game_id(g.puzzle) for g in made], 1)
            for g, (answer, _) in zip(made, answers):
                if answer != g.solution:
                    raise SystemExit(f"the game solves {format_game_id(g.puzzle)} to {answer}")
            for game_id, _ in rows:
                if rate(parse_game_id(game_id)).level != level:
                    raise SystemExit(f"the game's {game_id} is not rated {level} by us")
            ratio = statistics.mean(mine) / statistics.mean(theirs)
            summary[level].append(ratio)
            lines.append(f"| {r} | {level} | {ms(statistics.mean(mine))} / "
                         f"{ms(statistics.median(mine))} / {ms(max(mine))} | "
                         f"{ms(statistics.mean(theirs))} / {ms(statistics.median(theirs))} / "
                         f"{ms(max(theirs))} | {ratio:.2f}x | {load()} |")
            print(lines[-1], flush=True)
    lines.append("")
    for level, ratios in summary.items():
        lines.append(f"- {level}: ours / the game's, lowest {min(ratios):.2f}x, median "
                     f"{statistics.median(ratios):.2f}x over {rounds} rounds")
    return "\n".join(lines)


SOLVE_ONE = """
import sys
from logic_agents.games.undead.board import parse_game_id
from logic_agents.games.undead.encode import solve
print(solve(parse_game_id(sys.argv[1]), True, race=sys.argv[2] == "race").status)
"""


def whole_process(game_id: str, shuffle: int | None, timeout: float, how: str = "cli",
                  extra: Sequence[str] = (), tree: Path = ROOT) -> tuple[float, float, str]:
    """(CPU of the process tree, wall, status) of one fresh process solving `game_id` with
    its uniqueness proof: `cli` runs `logic-agents solve ID --unique` as shipped (`extra`
    flags after it); `race` and `alone` call encode.solve with race=True or race=False
    (python -c). `shuffle` renumbers the variables (LOGIC_AGENTS_SHUFFLE; None: as shipped).
    `tree`: the checkout whose logic_agents runs (another revision's worktree; a file in
    `game_id` must then be named by its absolute path)."""
    env = dict(os.environ)
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)
    if shuffle is not None:
        env["LOGIC_AGENTS_SHUFFLE"] = str(shuffle)
    argv = ([sys.executable, "-m", "logic_agents", "solve", game_id, "--unique", "--json",
             *extra] if how == "cli" else [sys.executable, "-c", SOLVE_ONE, game_id, how])
    before, started = children_cpu(), time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True,
                              timeout=timeout)
        status = "unique" if "unique" in done.stdout else f"exit {done.returncode}"
    except subprocess.TimeoutExpired:
        status = "timeout"
    return children_cpu() - before, time.perf_counter() - started, status


def _runs(game_id: str, shuffles: int, timeout: float, how: str) -> list[tuple[float, float, str]]:
    return [whole_process(game_id, s, timeout, how) for s in range(1, shuffles + 1)]


def _spread(values: list[float]) -> str:
    return Spread.of(values).shown(digits=2, tail=False)


def _tail(values: list[float]) -> str:
    spread = Spread.of(values)
    return f"median {spread.median:.2f} s, p95 {spread.p95:.2f} s, max {spread.max:.2f} s"


def boards_part(boards: Path, shuffles: int, timeout: float, busy: int = 0) -> str:
    """Each board under `shuffles` renumberings, a fresh process a run: the race of the two
    set-ups on two cores beside the first set-up alone (what `solve` runs on 20x20 since
    issue 42; it raced before). With `busy`, that many busy processes run meanwhile."""
    ids = [line.split("\t")[0] for line in boards.read_text().splitlines()
           if line.strip() and not line.startswith("#")]
    lines = ["| board | givens | race: CPU median / max (s) | race: wall median / max (s) | "
             "first set-up alone: CPU median / max (s) | alone: wall median / max (s) | "
             "statuses |", "|---|---|---|---|---|---|---|"]
    figures: dict[str, list[float]] = {"race cpu": [], "race wall": [], "alone cpu": [],
                                       "alone wall": []}
    loads = []
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    try:
        for k, game_id in enumerate(ids, start=1):
            race, alone = (_runs(game_id, shuffles, timeout, how) for how in ("race", "alone"))
            loads.append(os.getloadavg()[0])
            here = {"race cpu": [r[0] for r in race], "race wall": [r[1] for r in race],
                    "alone cpu": [r[0] for r in alone], "alone wall": [r[1] for r in alone]}
            for key, values in here.items():
                figures[key] += values
            statuses = sorted({r[2] for r in race + alone})
            lines.append(f"| {k} | {len(parse_game_id(game_id).givens)} | "
                         + " | ".join(_spread(v) for v in here.values())
                         + f" | {', '.join(statuses)} |")
            print(lines[-1], flush=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    beside = f", {busy} busy processes beside them" if busy else ""
    lines.append(f"\nOver {len(figures['race cpu'])} runs ({len(ids)} boards x {shuffles} "
                 f"renumberings{beside}), the race: CPU {_tail(figures['race cpu'])}; wall "
                 f"{_tail(figures['race wall'])}. The first set-up alone: CPU "
                 f"{_tail(figures['alone cpu'])}; wall {_tail(figures['alone wall'])}. "
                 f"1-minute load {min(loads):.1f}-{max(loads):.1f}.")
    return "\n".join(lines)


def make_boards(peer: Path, into: Path, count: int, seed: str, limit: float) -> None:
    """Draw `count` 20x20 boards with the game's generator (fill) and make each unique.

    The k-th draw uses the game's random stream seeded "SEED-k-0"; a draw past `limit`
    seconds (the game's path-by-path choice is exponential in a path's open cells, and one
    draw in five ran past minutes) is skipped and said so in the file."""
    made = tried = 0
    with into.open("w") as out:
        out.write(f"# 20x20 Undead boards drawn by sgt-puzzles' generator (undead_peer fill "
                  f"20x20dn {seed}-K 1: its drawing, stopped before its acceptance tests), "
                  "made unique with givens by logic_agents.games.undead.repair."
                  "unique_with_givens; columns: game ID, solution, the game's CPU seconds. "
                  f"Draws over {limit:g} s were skipped.\n")
        while made < count:
            tried += 1
            try:
                done = subprocess.run([str(peer), "fill", "20x20dn", f"{seed}-{tried}", "1"],
                                      capture_output=True, text=True, timeout=limit,
                                      check=True)
            except subprocess.TimeoutExpired:
                out.write(f"# draw {seed}-{tried} skipped: over {limit:g} s\n")
                print(f"draw {tried}: over {limit:g} s, skipped", file=sys.stderr, flush=True)
                continue
            _, solution, seconds = done.stdout.rstrip("\n").split("\t")
            puzzle = unique_with_givens(20, 20, solution, random.Random(f"{seed}-{tried}"))
            out.write(f"{format_game_id(puzzle)}\t{solution}\t{seconds}\n")
            out.flush()
            made += 1
            print(f"draw {tried}: board {made}, {len(puzzle.givens)} givens, the game drew it "
                  f"in {float(seconds):.1f} s", file=sys.stderr, flush=True)


def make_uniform(into: Path, count: int, prefix: str = "uniform") -> None:
    """`count` 20x20 boards in the style of the four public ones (85-114 givens): the game's
    mirror density, uniformly random monsters, unique by givens alone (seed "PREFIX-K")."""
    from logic_agents.games.undead.board import EMPTY, MONSTERS
    from logic_agents.games.undead.generate import random_layout

    with into.open("w") as out:
        out.write("# 20x20 Undead boards: the game's mirror density, uniformly random monsters, "
                  f"made unique with givens alone (repair.unique_with_givens); seed {prefix}-K; "
                  "columns: game ID, solution\n")
        for k in range(1, count + 1):
            rng = random.Random(f"{prefix}-{k}")
            grid = random_layout(20, 20, rng)
            solution = "".join(ch if ch != EMPTY else rng.choice(MONSTERS) for ch in grid)
            puzzle = unique_with_givens(20, 20, solution, random.Random(f"{prefix}-{k}"))
            out.write(f"{format_game_id(puzzle)}\t{solution}\n")
            print(f"board {k}: {len(puzzle.givens)} givens", file=sys.stderr, flush=True)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--sgt-src", metavar="DIR", help="sgt-puzzles' C sources to build from")
    parser.add_argument("--peer", metavar="BIN", help="the harness, built already")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20, help="solves per puzzle and round")
    parser.add_argument("--count", type=int, default=30, help="puzzles per level and round")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--boards", type=Path, action="append", default=[],
                        help="20x20 boards to time (game IDs in the first column); repeat")
    parser.add_argument("--shuffles", type=int, default=5)
    parser.add_argument("--busy", type=int, default=0,
                        help="busy processes running beside the 20x20 boards (load)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--make-boards", type=Path, metavar="FILE",
                        help="draw --board-count 20x20 boards with the game's generator")
    parser.add_argument("--uniform-seed", default="uniform", metavar="PREFIX",
                        help="with --make-uniform: board K is drawn from seed PREFIX-K (a new "
                        "prefix draws boards nobody tuned on)")
    parser.add_argument("--make-uniform", type=Path, metavar="FILE",
                        help="make --board-count 20x20 boards like the public ones")
    parser.add_argument("--board-count", type=int, default=30)
    parser.add_argument("--draw-limit", type=float, default=120.0,
                        help="seconds one draw of --make-boards may take")
    parser.add_argument("--parts", default="solve,generate,boards")
    args = parse(parser)
    if args.tiny:  # part 1 on five puzzles, once; the game's side only if --peer is given
        started = time.perf_counter()
        body = solve_part(Path(args.peer) if args.peer else None, 1, 1, limit=5)
        print(body)
        if args.out:
            write_report(args.out, "undead-peer-tiny", "Undead beside the real game (tiny)",
                         time.perf_counter() - started, [("`solve` on 7x7", body)])
        return 0
    if args.make_uniform:
        make_uniform(args.make_uniform, args.board_count, args.uniform_seed)
        return 0
    if not (args.sgt_src or args.peer):
        parser.error("name the game's sources (--sgt-src DIR) or its built harness (--peer)")
    peer = Path(args.peer) if args.peer else build_undead_peer(Path(args.sgt_src),
                                                        Path(tempfile.mkdtemp()))
    if args.make_boards:
        make_boards(peer, args.make_boards, args.board_count, "issue42", args.draw_limit)
        return 0
    started = time.perf_counter()
    parts = args.parts.split(",")
    sections = []
    if "solve" in parts:
        sections.append(("1. `solve` on the game's 7x7 puzzles, CPU per puzzle",
                         solve_part(peer, args.rounds, args.repeat)))
    if "generate" in parts:
        sections.append((f"2. `generate --game` at 7x7, {args.count} puzzles a level and "
                         "round", generate_part(peer, args.rounds, args.count, args.seed)))
    for k, boards in enumerate(args.boards if "boards" in parts else [], start=3):
        sections.append((f"{k}. 20x20 boards ({boards.name}), whole process, "
                         f"{args.shuffles} renumberings each"
                         + (f", {args.busy} busy processes beside" if args.busy else ""),
                         boards_part(boards, args.shuffles, args.timeout, args.busy)))
    if args.out:
        key, heading = (("undead-peer-busy", "Undead 20x20 boards with the other core busy "
                         "(`benchmarks/bench_undead_peer.py --busy`, issue 42)") if args.busy else
                        ("undead-peer", "Undead beside the real game "
                         "(`benchmarks/bench_undead_peer.py`, issue 42)"))
        write_report(args.out, key, heading,
                     time.perf_counter() - started, sections)
    return 0


if __name__ == "__main__":
    sys.exit(main())
