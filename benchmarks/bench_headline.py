#!/usr/bin/env python3
"""The headline table of docs/BENCHMARKS.md (issue 42, target 6): each figure beside its peer.

Every row is measured in this run, ours and the peer's interleaved, `--rounds` times; a row
gives the lowest and the median ratio. CPU time (user + sys) throughout. The peers are built
from their sources (the full benchmarks' docstrings say how):
- PSEQ (Tu et al.'s MineSweeperProb, --pseq BIN): prob in-process per game, on the records'
  rule, beside PSEQ's whole process over the same number of games; and `compare`'s own cost
  per game (a beginner study through the CLI, less the games) beside a PSEQ game;
- tdoku (--tdoku LIB): Sudoku `solve` summed per puzzle over the shipped hardest sets;
- sgt-puzzles' undead.c in this project's harness (--undead-peer BIN,
  benchmarks/peers/undead_peer.c): Undead 7x7 `solve` and `generate --game`; and, with
  --boards FILE, 20x20 boards the game's own generator drew (the game itself returns none).

    python benchmarks/bench_headline.py --pseq BIN --tdoku LIB --undead-peer BIN
        [--boards FILE] [--rounds 3] [--out docs/BENCHMARKS.md]

With --out it writes the table between <!-- headline:begin --> and <!-- headline:end -->,
right under the file's title.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_compare_cost import measure as compare_cost  # noqa: E402
from bench_pseq import SIZES, play_pseq  # noqa: E402
from bench_sudoku_solve import tdoku_counter, tdoku_seconds, two_bare_calls  # noqa: E402
from bench_undead_peer import SEVEN, ours_solve, peer_solve, whole_process  # noqa: E402
from harness import arguments, interleaved, parse, table, write_report  # noqa: E402

from logic_agents.games.sudoku import solve_puzzle  # noqa: E402
from logic_agents.games.sudoku.board import load_puzzles  # noqa: E402
from logic_agents.games.undead.board import format_game_id  # noqa: E402
from logic_agents.games.undead.files import load_entries  # noqa: E402
from logic_agents.games.undead.generate import generate_puzzle  # noqa: E402

SUDOKU_SETS = [ROOT / "maps" / "sudoku" / "norvig_top95.txt",
               ROOT / "maps" / "sudoku" / "norvig_hardest.txt"]
PROB_GAMES = {"beginner": 2000, "intermediate": 1000, "expert": 300}
# PSEQ plays ten times as many games (its own random boards, same rule): a game costs it so
# little that 300 expert games left its mean to luck (0.84 against 1.05 ms in two rounds)
PEER_GAMES = {preset: 10 * games for preset, games in PROB_GAMES.items()}
# a study long enough that its start-up (imports, the workers' fork) is not its per-game cost:
# at 2,000 games the start-up alone was 0.15 ms a game
STUDY_GAMES = 10_000


def prob_in_process(preset: str, games: int) -> float:
    """prob's mean CPU ms per game, in-process, in a fresh child (benchmarks/_prob_games.py)."""
    start = ",".join(str(x) for x in SIZES[preset][0])
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "_prob_games.py"), preset,
                           str(games), "9", start, "0", str(games), "9"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return 1000 * sum(r["cpu_s"] for r in rows) / len(rows)


def sudoku_solve_seconds() -> float:
    """Our CPU seconds summed over SUDOKU_SETS as `solve FILE` meets them: a fresh child per
    file (its first solve, which imports PySAT, not counted)."""
    ours = 0.0
    for path in SUDOKU_SETS:
        code = ("import sys, time; sys.path.insert(0, 'benchmarks');"
                "from logic_agents.games.sudoku import solve_puzzle;"
                "from logic_agents.games.sudoku.board import load_puzzles;"
                f"ps = load_puzzles({str(path)!r}); solve_puzzle(load_puzzles("
                f"{str(SUDOKU_SETS[0])!r})[0]); t = time.process_time();"
                "[solve_puzzle(p) for p in ps]; print(time.process_time() - t)")
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        ours += float(done.stdout.strip())
    return ours


def cell(values: list[float], unit: str, digits: int = 3) -> str:
    return f"{min(values):.{digits}f} {unit} ({statistics.median(values):.{digits}f})"


def ratios(mine: list[float], theirs: list[float]) -> tuple[float, float]:
    """(each side's lowest over the rounds, divided; each side's median, divided): a side's
    lowest is its least disturbed round, and a ratio of single rounds swung with the peer's
    luck (expert 9x to 21x over three rounds)."""
    return min(mine) / min(theirs), statistics.median(mine) / statistics.median(theirs)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--pseq", type=Path, help="PSEQ's built solver (mss)")
    parser.add_argument("--tdoku", help="tdoku built as a shared library")
    parser.add_argument("--undead-peer", type=Path,
                        help="benchmarks/peers/undead_peer.c built against sgt-puzzles")
    parser.add_argument("--boards", type=Path, help="20x20 boards drawn by the game")
    parser.add_argument("--rounds", type=int, default=5)
    args = parse(parser)
    if args.tiny:  # the first row's own side: prob on 20 beginner games, one round
        mine, _ = interleaved(1, lambda: prob_in_process("beginner", 20), None)
        body = table(["work", "logic-agents", "peer"],
                     [["prob, 9x9/10 at (2,2), CPU ms per game in-process (20 games)",
                       f"{mine[0]:.3f}", "PSEQ: not run (--tiny)"]])
        print(body)
        if args.out:
            write_report(args.out, "headline-tiny", "Headline (tiny)", 0.0, [("prob", body)])
        return 0
    missing = [flag for flag, value in (("--pseq", args.pseq), ("--tdoku", args.tdoku),
                                        ("--undead-peer", args.undead_peer)) if value is None]
    if missing:  # every row is beside its peer
        parser.error(f"the headline needs its peers: give {', '.join(missing)} "
                     "(benchmarks/build_peers.py builds them)")
    started = time.perf_counter()
    loads = [os.getloadavg()[0]]
    lines = ["| work | logic-agents: lowest (median) | peer: lowest (median) | ours / peer: "
             "lowest / lowest (median / median) | target |",
             "|---|---|---|---|---|"]

    def add(work: str, mine: list[float], theirs: list[float], unit: str, peer: str,
            target: str, digits: int = 3) -> None:
        low, mid = ratios(mine, theirs)
        lines.append(f"| {work} | {cell(mine, unit, digits)} | {peer}: "
                     f"{cell(theirs, unit, digits)} | **{low:.1f}x** ({mid:.1f}x) | {target} |")
        loads.append(os.getloadavg()[0])
        print(lines[-1], flush=True)

    # prob beside PSEQ, per game
    for preset, target in (("beginner", 20), ("intermediate", 20), ("expert", 10)):
        games, peer_games = PROB_GAMES[preset], PEER_GAMES[preset]
        config = SIZES[preset][1]
        mine, theirs = interleaved(args.rounds, lambda p=preset, g=games: prob_in_process(p, g),
                           lambda c=config, g=peer_games: 1000 * play_pseq(args.pseq, c, g,
                                                                          1)[1] / g)
        board = {"beginner": "9x9/10 at (2,2)", "intermediate": "16x16/40 at (2,2)",
                 "expert": "30x16/99 at (3,3)"}[preset]
        add(f"prob, {board}, CPU per game in-process ({games:,} games; PSEQ {peer_games:,})",
            mine, theirs, "ms", "PSEQ", f"<= {target}x")
    # a beginner study through `compare`, whole process, beside a PSEQ beginner game
    beginner = SIZES["beginner"][1]
    own: list[float] = []

    def study() -> float:
        figures = compare_cost(ROOT, STUDY_GAMES, 0)
        own.append(figures["referee"] + figures["worker"] - figures["game"])
        return figures["referee"] + figures["worker"]

    mine, theirs = interleaved(args.rounds, study,
                       lambda: 1000 * play_pseq(args.pseq, beginner, 20000, 1)[1] / 20000)
    add(f"a beginner study through the `compare` command (prob, {STUDY_GAMES:,} games, 9x9/10 at "
        f"(2,2)), whole process per game; of which `compare`'s own cost: {cell(own, 'ms')} "
        "(target <= 0.2 ms)", mine, theirs, "ms", "PSEQ", "<= 25x")
    # Sudoku solve beside tdoku
    count = tdoku_counter(args.tdoku)
    puzzles = [p for path in SUDOKU_SETS for p in load_puzzles(str(path))]
    counts = tdoku_seconds(count, puzzles)[1]
    assert all((c == 1) == (solve_puzzle(p).status == "unique")
               for c, p in zip(counts, puzzles))
    def tdoku_sum() -> float:  # 20 passes: one takes about a millisecond
        return sum(tdoku_seconds(count, puzzles)[0] for _ in range(20)) / 20

    mine, theirs = interleaved(args.rounds, sudoku_solve_seconds, tdoku_sum)
    add(f"Sudoku `solve`, top95 + hardest ({len(puzzles)} puzzles), summed, a fresh process "
        "per file", mine, theirs, "s", "tdoku", "<= 15x (not met: the floor below)", 4)
    mine, theirs = interleaved(args.rounds, lambda: two_bare_calls(puzzles), tdoku_sum)
    add("the floor of any PySAT path: two bare CaDiCaL calls a puzzle (a solution, then "
        "none other), same puzzles", mine, theirs, "s", "tdoku", "-", 4)
    # Undead 7x7 solve beside the game's solver
    sevens = [e.puzzle for path in SEVEN for e in load_entries(path)]
    ids = [format_game_id(p) for p in sevens]
    mine, theirs = interleaved(
        args.rounds, lambda: 1000 * statistics.median(t for _, t in ours_solve(sevens, 20)),
        lambda: 1000 * statistics.median(t for _, t in peer_solve(args.undead_peer, ids, 200)))
    add("Undead 7x7 `solve`, median per puzzle (the game's 60)", mine, theirs, "ms",
        "the game's solver", "<= 5x")
    # Undead 7x7 generate --game beside the game's generator
    for level, letter, target in (("easy", "e", "<= 20 ms"), ("normal", "n", "<= 1x"),
                                  ("tricky", "t", "<= 1x")):
        def ours_gen(level: str = level) -> float:
            rng = random.Random(7)
            t = time.process_time()
            for _ in range(30):
                generate_puzzle(7, 7, rng, level, game=True)
            return 1000 * (time.process_time() - t) / 30

        def theirs_gen(letter: str = letter) -> float:
            done = subprocess.run([str(args.undead_peer), "gen", f"7x7d{letter}", "7", "30"],
                                  capture_output=True, text=True, check=True)
            return 1000 * statistics.mean(float(x.split("\t")[1])
                                          for x in done.stdout.splitlines())

        ours_gen()  # imports and caches are not a puzzle's cost
        mine, theirs = interleaved(args.rounds, ours_gen, theirs_gen)
        add(f"Undead 7x7 `generate --game --difficulty {level}`, mean per puzzle (30)", mine,
            theirs, "ms", "the game's generator", target, 2)
    if args.boards:  # no ratio: the game returns no board of this size, nor solves one
        ids = [line.split("\t")[0] for line in args.boards.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
        runs = [whole_process(game_id, 1, 120.0) for game_id in ids]
        cpu, wall = [r[0] for r in runs], [r[1] for r in runs]
        lines.append(f"| Undead 20x20 `solve --unique` with givens, whole process, "
                     f"{len(ids)} boards ({args.boards.name}): CPU median / max | "
                     f"{statistics.median(cpu):.2f} / {max(cpu):.2f} s (wall "
                     f"{statistics.median(wall):.2f} / {max(wall):.2f} s) | the game: its "
                     "solver ran past 300 s on each public board; its generator returns no "
                     "20x20 board | - | <= about 1 s CPU |")
        print(lines[-1], flush=True)
    body = "\n".join(lines)
    machine = (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}")
    command = "python " + " ".join(["benchmarks/bench_headline.py", *sys.argv[1:]])
    text = (f"## Headline: each figure beside its peer (`benchmarks/bench_headline.py`)\n\n"
            f"- Command: `{command}`\n- Machine: {machine}; 1-minute load "
            f"{min(loads):.1f}-{max(loads):.1f} during the run\n"
            f"- Date: {datetime.date.today().isoformat()}; wall time "
            f"{time.perf_counter() - started:.0f} s; {args.rounds} rounds, ours and the "
            "peer's interleaved; CPU time (user + sys); each side's lowest round, then its "
            "median\n\n"
            + body)
    print(text)
    if args.out:
        write_headline(args.out, text)
    return 0


def write_headline(path: Path, text: str) -> None:
    """The table right under the file's title, between its markers (replaced when there)."""
    begin, end = "<!-- headline:begin -->", "<!-- headline:end -->"
    doc = path.read_text()
    block = f"{begin}\n{text.rstrip()}\n{end}"
    if begin in doc:
        head, rest = doc.split(begin, 1)
        doc = head + block + rest.split(end, 1)[1]
    else:
        title, rest = doc.split("\n", 1)
        doc = f"{title}\n\n{block}\n{rest}"
    path.write_text(doc)


if __name__ == "__main__":
    sys.exit(main())
