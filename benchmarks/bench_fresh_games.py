#!/usr/bin/env python3
"""Benchmark of fresh games (issue 52): what a fresh player per game costs, and a class of 100.

Prints two markdown tables, each measured in this run, configurations alternated over
--rounds (each cell the median round, its max beside it):
1. --games beginner games (generated 9x9/10 maps x 10 runs, the same for every row) of a file
   agent (spx in a file, benchmarks/_file_agent.py), `--jobs 1`: trusted in-process, isolated
   with today's default (a fresh child of a player server per game), with and without
   bubblewrap; with --old PYTHON (the interpreter of a checkout of the tree before, with
   logic-agents installed from it), the same two on that tree; with --player-per-game, that
   flag too (on a tenth of the games: it starts an interpreter per game). Wall and CPU per
   game, and the CPU ratio to trusted play.
2. a class: --class-size file agents (each spx in a folder of its own, as a student's) on
   the 30 official maps, --class-runs runs (default 1), `--jobs 2`: wall, peak memory (PSS
   summed over every process of the study), peak processes at once, for this tree and (with
   --old) the one before.

Every command runs in a scratch folder (so `python -m` finds each tree's own installed package,
not this checkout). CPU is the study's whole process tree's, read from a cpuacct cgroup made for each command
(RUSAGE_CHILDREN misses players under bubblewrap, whose processes are reaped by the sandbox's
init); memory and processes are sampled from that cgroup every 0.1 s.

Usage: python benchmarks/bench_fresh_games.py [--games 2000] [--class-size 100] [--rounds 3]
       [--old /tmp/old/.venv/bin/python] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import CGROUP, Measured, arguments, parse, provenance, write_section  # noqa: E402

FILE_AGENT = f"{ROOT / 'benchmarks' / '_file_agent.py'}:FileSpx"
STUDENT = '''from logic_agents.games.daggers.agents import SinglePointAgent


class Agent(SinglePointAgent):
    name = "{name}"
'''




def compare(python: str, maps: list[str], agents: str, extra: list[str]) -> list[str]:
    return [python, "-m", "logic_agents", "compare", *maps, "--agents", agents, "--json",
            *extra]


def per_game(args: argparse.Namespace, work: Path) -> str:
    boards = work / "beginner"
    subprocess.run([sys.executable, "-m", "logic_agents", "generate", "daggers", "--preset",
                    "beginner", "--count", str(args.games // 10), "--seed", "11", "-o",
                    str(boards)], check=True, capture_output=True)
    few = work / "beginner-tenth"
    few.mkdir()
    for path in sorted(boards.iterdir())[:max(1, args.games // 100)]:
        shutil.copy(path, few / path.name)
    study = ["--runs", "10", "--jobs", "1", "--seed", "0"]
    rows: list[tuple[str, str, str, list[str], Path]] = [
        ("trusted, in-process", "this tree", sys.executable, ["--trust", FILE_AGENT], boards),
        ("isolated, fresh child per game (default)", "this tree", sys.executable, [], boards),
        ("isolated, fresh child per game, no sandbox", "this tree", sys.executable,
         ["--sandbox", "none"], boards)]
    if args.old:  # the same configurations on the tree before: its defaults beside ours
        rows += [("isolated, fresh child per game (default)", "before", args.old, [], boards),
                 ("isolated, fresh child per game, no sandbox", "before", args.old,
                  ["--sandbox", "none"], boards)]
    if args.player_per_game:
        rows.append(("isolated, --player-per-game (a tenth of the games)", "this tree",
                     sys.executable, ["--player-per-game"], few))
    measured: dict[tuple[str, str], list[Measured]] = {(name, tree): [] for name, tree, *_ in
                                                       rows}
    for _ in range(args.rounds):
        for name, tree, python, extra, folder in rows:
            measured[(name, tree)].append(Measured(compare(python, [str(folder)], FILE_AGENT,
                                                           [*study, *extra]), work))
    base = statistics.median(m.cpu for m in measured[(rows[0][0], rows[0][1])]) / args.games
    lines = ["| file agent | tree | games | wall s, median (max) | CPU ms a game, median "
             "(max) | CPU / trusted |", "|---|---|---|---|---|---|"]
    for name, tree, _python, _extra, folder in rows:
        games = len(list(folder.iterdir())) * 10
        walls = [m.wall for m in measured[(name, tree)]]
        cpus = [1000 * m.cpu / games for m in measured[(name, tree)]]
        lines.append(f"| {name} | {tree} | {games:,} | {statistics.median(walls):.1f} "
                     f"({max(walls):.1f}) | {statistics.median(cpus):.2f} ({max(cpus):.2f}) "
                     f"| {statistics.median(cpus) / (1000 * base):.1f}x |")
    return "\n".join(lines)


def the_class(args: argparse.Namespace, work: Path) -> str:
    students = work / "students"
    for k in range(args.class_size):
        folder = students / f"s{k:03d}"
        folder.mkdir(parents=True)
        (folder / "agent.py").write_text(STUDENT.format(name=f"s{k:03d}"))
    agents = ",".join(f"{students / f's{k:03d}' / 'agent.py'}:Agent"
                      for k in range(args.class_size))
    maps = [str(ROOT / "maps" / "daggers" / "2018")]
    study = ["--runs", str(args.class_runs), "--jobs", "2", "--seed", "0"]
    rows = [("this tree", sys.executable)] + ([("before", args.old)] if args.old else [])
    measured: dict[str, list[Measured]] = {name: [] for name, _ in rows}
    for _ in range(args.rounds):
        for name, python in rows:
            measured[name].append(Measured(compare(python, maps, agents, study), work))
    lines = ["| tree | games | wall s, median (max) | peak memory, PSS summed, MiB, median "
             "(max) | peak processes at once, median (max) |", "|---|---|---|---|---|"]
    for name, _ in rows:
        ms = measured[name]
        walls = [m.wall for m in ms]
        pss = [m.peak_pss / 2**20 for m in ms]
        procs = [m.peak_processes for m in ms]
        games = 30 * args.class_size * args.class_runs
        lines.append(f"| {name} | {games:,} | {statistics.median(walls):.1f} "
                     f"({max(walls):.1f}) | {statistics.median(pss):.0f} ({max(pss):.0f}) | "
                     f"{statistics.median(procs):.0f} ({max(procs)}) |")
    return "\n".join(lines)


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--class-size", dest="class_size", type=int, default=100)
    parser.add_argument("--class-runs", dest="class_runs", type=int, default=1,
                        help="runs per map and student (issue 53's goal: 200 students, 2 runs)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old", metavar="PYTHON", help="the interpreter of the tree before")
    parser.add_argument("--player-per-game", dest="player_per_game", action="store_true",
                        help="also --player-per-game, on a tenth of the games")
    parser.add_argument("--only", choices=("games", "class"),
                        help="measure one of the two (its own section of --out)")
    args = parse(parser)
    if args.tiny:  # a file agent's games alone: ten, one round
        args.games, args.rounds, args.only = 10, 1, "games"
    if not (CGROUP / "cgroup.procs").exists():
        raise SystemExit(f"no cpuacct cgroup at {CGROUP}: this benchmark reads CPU from one")
    started = time.perf_counter()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        first = per_game(args, work) if args.only != "class" else ""
        second = the_class(args, work) if args.only != "games" else ""
    after = os.getloadavg()
    title = {None: "Fresh games and a class", "games": "Fresh games",
             "class": "A class"}[args.only]
    body = (f"## {title} (`benchmarks/bench_fresh_games.py`, issue 52)\n\n"
            f"{provenance(time.perf_counter() - started)}"
            f"- Load (1-minute average) before and after: {load[0]:.1f}, {after[0]:.1f}\n\n"
            + (f"### A file agent's games: trusted, and isolated per game\n\n{first}\n\n"
               if first else "")
            + (f"### A class of {args.class_size} file agents on the 30 official maps\n\n"
               f"{second}\n" if second else ""))
    print(body)
    if args.out:
        write_section(args.out, "bench_fresh_games" + (f"_{args.only}" if args.only else ""),
                      body)


if __name__ == "__main__":
    main()
